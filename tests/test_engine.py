"""The engine: lesson runs step by step, rebuilds, requirements, checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine import LessonRun, check_lesson, judge_prompt, unmet_requirement
from tutor.judge import Status
from tutor.kernel import Kernel
from tutor.lesson import LessonError, load_lesson

pytestmark = pytest.mark.kernel

LESSON = """\
id: t/engine
title: Engine
topic: t
requires: {torch: ">=2.1"}
steps:
  - code: x = torch.tensor([1., 2.], requires_grad=True)
    predict:
      - ask: leaf?
        expect: x.is_leaf
        kind: bool
        answer: "True"
  - code: y = (x * 3).sum()
    predict:
      - ask: grad_fn?
        expect: y.grad_fn
        kind: text
        answer: SumBackward0
        wrong: [MulBackward0]
"""


def write(tmp_path: Path, text: str, name: str = "l.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_steps_run_in_order_and_prompts_are_judged(kernel: Kernel, tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, LESSON))
    with LessonRun(kernel, lesson) as run:
        with pytest.raises(ValueError, match="cannot run before step 1"):
            run.run_step(lesson.steps[1])
        first = run.run_step(lesson.steps[0])
        prompt = lesson.steps[0].prompts[0]
        assert judge_prompt(first, prompt, "yes").status is Status.CORRECT
        assert judge_prompt(first, prompt, "no").status is Status.INCORRECT
        assert judge_prompt(first, prompt, "maybe?").status is Status.INVALID
        second = run.run_step(lesson.steps[1])
        assert second.live(lesson.steps[1].prompts[0]) == {"type": "grad_fn",
                                                            "name": "SumBackward0"}


def test_rebuild_reruns_the_steps_in_a_fresh_process(kernel: Kernel, tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, LESSON))
    with LessonRun(kernel, lesson) as run:
        run.run_step(lesson.steps[0])
        old = run.session.pid
        run.session.kill()
        last = run.rebuild(1)
        assert run.session.pid != old and last is not None and not last.failure
        assert [o.step.index for o in run.outcomes] == [0, 1]


def test_requirements_are_checked_against_the_kernel(tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, LESSON.replace(">=2.1", ">=99")))
    assert unmet_requirement(lesson, {"torch": "2.13.0"}) == (
        "needs torch >=99, this kernel has torch 2.13.0")
    assert unmet_requirement(lesson, {"torch": "100.0"}) is None
    cuda = load_lesson(write(tmp_path, LESSON.replace('torch: ">=2.1"', "cuda: true")))
    assert "CUDA" in unmet_requirement(cuda, {"torch": "2.13.0", "cuda": False})
    with pytest.raises(LessonError, match="requires.torch: 'two' is not a version specifier"):
        load_lesson(write(tmp_path, LESSON.replace(">=2.1", "two")))  # caught when loading


def test_check_catches_wrong_answers_that_pass(kernel: Kernel, tmp_path: Path) -> None:
    good = check_lesson(kernel, load_lesson(write(tmp_path, LESSON)))
    assert good.status == "passed" and [p.passed for p in good.prompts] == [True, True]
    lax = LESSON.replace("wrong: [MulBackward0]", "wrong: [sumbackward0]")
    bad = check_lesson(kernel, load_lesson(write(tmp_path, lax)))
    assert bad.status == "failed"
    assert "the wrong answer 'sumbackward0' listed under `wrong:` is judged correct" in (
        bad.prompts[1].message)


def test_a_step_that_floods_output_says_why_it_stopped(kernel: Kernel, tmp_path: Path) -> None:
    text = LESSON.replace("  - code: x = torch.tensor([1., 2.], requires_grad=True)",
                          "  - code: |\n      x = 1\n      while True: print('x' * 1000)")
    lesson = load_lesson(write(tmp_path, text))
    with LessonRun(kernel, lesson) as run:
        outcome = run.run_step(lesson.steps[0])
    assert outcome.failure == ("step 1 was stopped: OutputLimitExceeded: "
                               "the code printed more than 64 MB")
    assert outcome.failure_kind == "interrupted"


def test_a_choice_whose_expect_raises_is_judged_not_broken(kernel: Kernel,
                                                          tmp_path: Path) -> None:
    # issue 27, class 8: a raised exception matches the choice that names it
    lesson = load_lesson(write(tmp_path, """\
id: t/choice-raises
title: Choice
topic: t
steps:
  - code: x = [1, 2]
    predict:
      - ask: What does x[5] do?
        expect: x[5]
        kind: choice
        choices: [returns None, raises IndexError, returns 2]
        answer: raises IndexError
        wrong: [returns None]
"""))
    result = check_lesson(kernel, lesson)
    assert result.status == "passed", [p.message for p in result.prompts]


def test_modules_that_cannot_be_written_fail_with_the_kernels_kind(tmp_path: Path) -> None:
    # the kind decides whether `tutor check -j N` runs the lesson again alone
    from tutor.engine import load_modules, run_setup
    from tutor.kernel import KernelError, SessionDied
    from tutor.lesson.model import Module

    class Broken:
        def __init__(self, exc: KernelError) -> None:
            self.exc = exc

        def request(self, op: str, timeout: float | None = None, **fields: object) -> object:
            raise self.exc

    module = (Module("helpers", "x = 1", tmp_path / "a.yaml", 7),)
    died = load_modules(Broken(SessionDied("the kernel died", None, "kernel_died")),  # type: ignore[arg-type]
                        module, 10)
    assert died is not None and died[1] == "kernel_died" and "a.yaml:7" in died[0]
    refused = load_modules(Broken(KernelError("module name 'queue' is taken")),  # type: ignore[arg-type]
                           module, 10)
    assert refused is not None and refused[1] == "kernel_error"
    assert load_modules(Broken(KernelError("x")), (), 10) is None  # type: ignore[arg-type]
    assert run_setup(Broken(KernelError("x")), None, 10) is None  # type: ignore[arg-type]
