"""redo(): a fresh run of a lesson replayed silently up to one prompt (a real kernel)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.judge import Status
from tutor.lesson import load_lesson
from tutor.redo import redo

pytestmark = pytest.mark.kernel

LESSON = """\
id: t/redo
title: Redo
topic: t
vary: {x: [2.0, 3.0, 5.0]}
steps:
  - code: |
      x = torch.tensor({{x}}, requires_grad=True)
      calls = ["step 1"]
    predict:
      - ask: Is x a leaf?
        expect: x.is_leaf
        kind: bool
        answer: "yes"
  - code: |
      z = torch.log(x ** 3)
      z.backward()
      calls.append("step 2")
      print("output nobody sees")
    predict:
      - ask: What is z's grad_fn?
        expect: type(z.grad_fn).__name__
        kind: text
        answer: LogBackward0
      - ask: What is x.grad, with x = {{x}}?
        expect: x.grad
        kind: number
        answer: "{{3 / x}}"
  - code: raise SystemExit("never reached")
"""


@pytest.fixture
def lesson(tmp_path: Path):  # noqa: ANN201
    path = tmp_path / "redo.yaml"
    path.write_text(textwrap.dedent(LESSON), encoding="utf-8")
    return load_lesson(path)


def test_redo_runs_the_steps_up_to_the_prompt_and_asks_it(kernel, lesson) -> None:  # noqa: ANN001
    with redo(kernel, lesson, 1, 1, avoid=(("x", "2.0"),)) as again:
        assert again.problem is None
        assert again.lesson.variant != (("x", "2.0"),)  # fresh values, not the ones redone
        x = again.lesson.variant[0][1]
        assert again.prompt.ask == f"What is x.grad, with x = {x}?"
        assert [o.step.index for o in again.run.outcomes] == [0, 1]  # step 3 never ran
        assert again.outcome is again.run.outcomes[1]
        assert again.judge(f"{3 / float(x)}").status is Status.CORRECT
        assert again.judge("0.5").status is Status.INCORRECT
        # the run goes on from here: the namespace holds what the steps before made
        session = again.run.session
        assert session is not None
        items = session.observe("calls")["items"]
        assert [i["value"] for i in items] == ["step 1", "step 2"]
    assert again.run.session is None  # closed


def test_the_same_run_id_gives_the_same_values(kernel, lesson) -> None:  # noqa: ANN001
    with redo(kernel, lesson, 0, 0, run_id="abc") as one:
        values = one.lesson.variant
    with redo(kernel, lesson, 0, 0, run_id="abc") as two:
        assert two.lesson.variant == values and two.run_id == "abc"


def test_a_question_the_lesson_no_longer_has(kernel, lesson) -> None:  # noqa: ANN001
    with pytest.raises(LookupError, match="has no question 3 in step 2"):
        redo(kernel, lesson, 1, 2)
    with pytest.raises(LookupError, match="has no question 1 in step 9"):
        redo(kernel, lesson, 8, 0)


def test_a_step_before_that_fails_is_the_lessons_problem(kernel, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "broken.yaml"
    path.write_text(textwrap.dedent("""\
        id: t/broken
        title: Broken
        topic: t
        timeout: 1
        steps:
          - code: |
              import time
              time.sleep(30)
          - code: y = 1
            predict:
              - ask: y?
                expect: y
                kind: number
                answer: "1"
        """), encoding="utf-8")
    with redo(kernel, load_lesson(path), 1, 0) as again:
        assert again.outcome is None
        assert again.problem is not None and "timed out" in again.problem
