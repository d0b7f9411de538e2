"""Lesson faults are never the learner's (issue 30): a lesson that breaks on this torch
is not scored; a question's own `requires:` skips it; a torch/NumPy mismatch is noticed
at kernel start.  Real kernels."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.engine import LessonRun, check_lesson
from tutor.flow import LessonFlow
from tutor.kernel import Kernel
from tutor.lesson import load_lesson

pytestmark = pytest.mark.kernel

FAULTS = Path(__file__).resolve().parent / "data" / "faults"


def _play(kernel: Kernel, name: str, answers: list[str]) -> tuple[LessonFlow, list[str]]:
    """Play a lesson as a front end does: each question's problem (or None) noted, the
    answer judged, everything counted kept in the flow."""
    flow = LessonFlow(load_lesson(FAULTS / name))
    problems: list[str] = []
    with LessonRun(kernel, flow.lesson) as run:
        while True:
            flow.outcome = run.run_through(flow.step_index)
            problems.append(flow.problem() or "")
            flow.judge(answers[len(problems) - 1])
            flow.reveal()
            if flow.advance() == "end":
                break
    return flow, problems


def test_a_lesson_that_breaks_on_this_torch_is_never_scored(kernel: Kernel) -> None:
    """Step 1 raises where the lesson did not foresee it: its question says so in plain
    words (no advice meant for the author), and step 2's follow-on NameError is not the
    learner's wrong answer; nothing is counted."""
    torch = kernel.wait_ready()["torch"]
    flow, problems = _play(kernel, "broken_on_this_torch.yaml", ["torch.float32", "RuntimeError"])
    assert problems[0].startswith(f"this lesson does not run on torch {torch}: step 1 raised "
                                  "AttributeError")
    assert "kind: exception" not in problems[0] and "(if" not in problems[0]
    assert problems[1].startswith(f"this lesson does not run on torch {torch}: step 1 raised")
    tally = flow.tally()
    assert (tally.answered, tally.incorrect, tally.revealed) == (0, 0, 0)
    assert all(not s.answered for s in flow.states.values())


def test_check_blames_a_follow_on_error_on_the_step_that_broke(kernel: Kernel) -> None:
    check = check_lesson(kernel, load_lesson(FAULTS / "broken_on_this_torch.yaml"))
    first, second = check.prompts
    assert "if the error is the point" in first.message  # the author's advice stays in check
    assert second.message.startswith("not checkable: step 1 raised AttributeError")
    assert "fix it first" in second.message


def test_a_question_with_unmet_requires_is_skipped_with_the_reason(kernel: Kernel) -> None:
    torch = kernel.wait_ready()["torch"]
    check = check_lesson(kernel, load_lesson(FAULTS / "per_prompt_requires.yaml"))
    assert check.status == "passed"  # its wrong answer "4" is never checked here
    skipped = check.prompts[1]
    assert (skipped.verdict, skipped.passed) == ("skipped", True)
    assert skipped.message == f"skipped: needs torch >=99, this kernel has torch {torch}"
    flow, problems = _play(kernel, "per_prompt_requires.yaml", ["3", "4"])
    assert problems == ["", f"this question is skipped here: it needs torch >=99, this "
                        f"kernel has torch {torch}"]
    assert flow.tally().answered == 1
    # the skipped question is no question left open ("1 not answered" before)
    tally = flow.tally()
    assert (tally.total, tally.skipped) == (1, 1)
    assert tally.text().endswith("of 1 right, 1 revealed, 1 skipped here")  # (_play reveals)
    assert "not answered" not in tally.text()


@pytest.fixture
def mismatched_kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Kernel]:
    """A kernel whose torch does not work with its NumPy, as torch 2.1 with NumPy 2."""
    fake = FAULTS / "fake_numpy_mismatch"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(fake), *filter(None, [os.environ.get("PYTHONPATH")])]))
    k = Kernel()
    k.start()
    k.wait_ready()
    yield k
    k.shutdown()


def test_a_torch_numpy_mismatch_is_noticed_at_start(mismatched_kernel: Kernel,
                                                     kernel: Kernel) -> None:
    info = mismatched_kernel.wait_ready()
    assert "Numpy is not available" in info["numpy_error"]
    assert "numpy_error" not in kernel.wait_ready()  # (this machine's own torch is fine)
    lesson = load_lesson(FAULTS / "uses_numpy.yaml")
    check = check_lesson(mismatched_kernel, lesson)
    assert check.status == "skipped"
    assert check.reason.startswith("needs NumPy, which does not work with this torch: NumPy ")
    assert check_lesson(kernel, lesson).status == "passed"


def test_check_says_at_start_that_numpy_does_not_work(mismatched_kernel: Kernel,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    from tutor.cli import main

    assert main(["check", str(FAULTS / "uses_numpy.yaml")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "numpy: NumPy " in out and "Numpy is not available: lessons that use NumPy are " \
        "skipped" in out
    assert "faults/uses-numpy" in out and "skipped (needs NumPy, which does not work" in out


def test_play_says_in_its_header_that_numpy_does_not_work(mismatched_kernel: Kernel,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """`tutor play` of a lesson that needs no NumPy, on the mismatched kernel: the header
    says NumPy does not work; a lesson that uses NumPy is skipped with the reason."""
    import io
    import sys

    from tutor.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n\n"))
    main(["play", str(FAULTS / "per_prompt_requires.yaml"), "--no-progress"])
    out = " ".join(capsys.readouterr().out.split())
    assert "on torch" in out and "does not work with this torch" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    main(["play", str(FAULTS / "uses_numpy.yaml"), "--no-progress"])
    out = " ".join(capsys.readouterr().out.split())
    assert "is skipped here: it needs NumPy, which does not work with this torch" in out


def test_check_prints_a_failure_shared_by_every_variant_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One block for a failure that is the same in every variant; a failure that differs
    per variant (its live value does) keeps one block per variant."""
    from tutor.cli import main

    assert main(["check", str(FAULTS / "same_failure_each_variant.yaml")]) == 1
    out = capsys.readouterr().out
    assert out.count("step 1 prompt 1: How many elements?") == 1
    assert "in every variant (s = 0; s = 7; s = 42): the reference answer is judged" in out
    assert out.count("step 1 prompt 2: The seed?") == 3


def test_a_variant_with_unmet_requires_is_skipped_with_the_reason(kernel: Kernel) -> None:
    """A row of `vary:` may say what it needs; where unmet, `check` does not run it (its
    answer "2" would be wrong there) and a run of it asks nothing, with the reason."""
    import jsonschema
    import yaml

    from tutor.authoring.schema import lesson_schema
    from tutor.lesson.vary import with_variant

    path = FAULTS / "variant_requires.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(data))
    torch = kernel.wait_ready()["torch"]
    lesson = load_lesson(path)
    assert lesson.variants == ((("n", "2"),), (("n", "3"),))
    check = check_lesson(kernel, lesson)
    assert (check.status, check.variants) == ("passed", 1)
    assert check.skipped_variants == [f"needs torch >=99, this kernel has torch {torch} "
                                      "(for the values n = 3)"]
    three = with_variant(lesson, (("n", "3"),))
    with LessonRun(kernel, three) as run:
        outcome = run.run_step(three.steps[0])
    assert outcome.learner_problem(three.steps[0].prompts[0]) == (
        f"this question is skipped here: it needs torch >=99, this kernel has torch {torch} "
        "(for the values n = 3)")
