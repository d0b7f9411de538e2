"""The examples under the answer entry, for every set/list prompt of the bundled
lessons: none of them is the answer, and none names an item of it (reader r18 saw
`['w', 'v']` under a question whose answer is `['w']`).

The answer is the prompt's recorded reference answer, read by the judge as the live
value it describes (no kernel needed); `entry_examples` without `n` gives every
example any question of the prompt could show."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.judge import REGISTRY, JudgeSpec, Status, entry_examples, judge
from tutor.judge.api import parse
from tutor.judge.comparing.pseudo import to_observation
from tutor.lesson.catalog import load_catalog
from tutor.lesson.model import Prompt

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
CATALOG = load_catalog([LESSONS], with_env=False)
ITEM_PROMPTS = [
    pytest.param(prompt, id=f"{lesson.id}:{step.index}.{prompt.index}")
    for lesson in sorted(CATALOG.lessons, key=lambda x: x.id)
    for step, prompt in lesson.prompts
    if REGISTRY[prompt.kind].entry == "items" and prompt.answer is not None
]


def test_the_bundled_lessons_have_set_and_list_prompts() -> None:
    assert len(ITEM_PROMPTS) >= 20


@pytest.mark.parametrize("prompt", ITEM_PROMPTS)
def test_no_example_shares_an_item_with_the_answer(prompt: Prompt) -> None:
    assert prompt.answer is not None
    answer = to_observation(parse(prompt.spec, prompt.answer))
    shown = entry_examples(prompt.spec, answer)
    assert shown, "no example left to show"
    for example in shown:
        # an example with an item of the answer is partly right (or right): it must
        # be plainly wrong, sharing nothing with the answer
        verdict = judge(JudgeSpec(prompt.kind), example, answer)
        assert verdict.status is Status.INCORRECT, (example, prompt.answer, verdict.message)
