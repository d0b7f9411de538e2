"""Asking a question again: `tutor.redo.ask_again` makes a one-question LessonFlow in a
fresh run; `LessonRun.run_through` replays the steps before it silently (a real kernel)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.engine import LessonRun
from tutor.lesson import load_lesson
from tutor.progress import Attempt, ProgressStore
from tutor.redo import Question, ask_again, queue

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


def test_ask_again_runs_the_steps_up_to_the_prompt_and_asks_it(kernel, lesson) -> None:  # noqa: ANN001
    flow = ask_again(lesson, 1, 1, avoid=(("x", "2.0"),))
    assert flow.lesson.variant != (("x", "2.0"),)  # fresh values, not the ones redone
    assert not flow.whole and flow.position == (1, 1) and flow.total_prompts == 1
    x = flow.lesson.variant[0][1]
    assert flow.prompt is not None and flow.prompt.ask == f"What is x.grad, with x = {x}?"
    with LessonRun(kernel, flow.lesson) as run:
        flow.outcome = run.run_through(flow.step_index)
        assert [o.step.index for o in run.outcomes] == [0, 1]  # step 3 never ran
        assert flow.problem() is None
        wrong = flow.judge("0.5?")
        assert wrong.status == "incorrect" and wrong.attempt is not None
        assert wrong.attempt.confidence == "guess" and wrong.attempt.answer == "0.5"
        right = flow.judge(f"{3 / float(x)}")
        assert right.status == "correct" and right.attempt is not None
        assert right.attempt.variant == flow.lesson.variant and right.attempt.run == flow.run_id
        # the run goes on from here: the namespace holds what the steps before made
        assert run.session is not None
        items = run.session.observe("calls")["items"]
        assert [i["value"] for i in items] == ["step 1", "step 2"]
    assert flow.advance() == "end"


def test_the_same_run_id_gives_the_same_values(lesson) -> None:  # noqa: ANN001
    one = ask_again(lesson, 0, 0, run_id="abc")
    two = ask_again(lesson, 0, 0, run_id="abc")
    assert two.lesson.variant == one.lesson.variant and two.run_id == "abc"


def test_a_question_the_lesson_no_longer_has(lesson) -> None:  # noqa: ANN001
    with pytest.raises(LookupError, match="has no question 3 in step 2"):
        ask_again(lesson, 1, 2)
    with pytest.raises(LookupError, match="has no question 1 in step 9"):
        ask_again(lesson, 8, 0)


def test_the_queue_has_the_due_reviews_first_then_the_mistakes(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone

    now = [datetime(2026, 3, 1, 10, tzinfo=timezone.utc)]
    with ProgressStore(tmp_path, clock=lambda: now[0]) as store:
        def answer(step: int, verdict: str, run: str, values: str = "2.0",
                   confidence: str = "sure") -> None:
            store.record(Attempt("t/redo", step, 0, "a", verdict, run=run,
                                 variant=(("x", values),), confidence=confidence),
                         total_prompts=3, position=None)

        answer(0, "incorrect", "r1")
        answer(1, "correct", "r1", confidence="guess")  # right, but a guess: scheduled
        assert queue(store) == [Question("t/redo", 0, 0, "mistake", (("x", "2.0"),))]
        assert queue(store, due_only=True) == []
        now[0] += timedelta(days=3)  # both cards are due now; the mistake is one of them
        due = queue(store, due_only=True)
        assert {q.key for q in due} == {("t/redo", 0, 0), ("t/redo", 1, 0)}
        assert all(q.reason == "due" for q in due) and queue(store) == due
        answer(0, "correct", "r2", values="3.0")  # redone right: off both lists for now
        assert [q.key for q in queue(store)] == [("t/redo", 1, 0)]


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
    flow = ask_again(load_lesson(path), 1, 0)
    with LessonRun(kernel, flow.lesson) as run:
        outcome = run.run_through(flow.step_index)
    assert outcome is not None and outcome.step.index == 0  # it stopped before the question
    assert outcome.failure is not None and "timed out" in outcome.failure
