"""`match:` pins an `exception` prompt to the message, not only the type.

Nearly every torch error is a RuntimeError: without `match:` a lesson broken so
that it raises another RuntimeError still passes `check`, and the learner reads
"correct" above an explanation about a different error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.engine import LessonRun, check_lesson, judge_prompt
from tutor.judge import Status
from tutor.lesson import LessonError, load_lesson

LESSON = """\
id: m/leaf
title: In place on a leaf
topic: autograd
steps:
  - code: |
      w = torch.ones(2, requires_grad=True)
      {line}
    predict:
      - ask: What happens?
        kind: exception
        match: {match}
        answer: RuntimeError
        hint: h
        explain: e
        wrong: [no error]
"""
LEAF = "w.add_(1)"
OTHER = "torch.ones(2) @ torch.ones(3)"  # another RuntimeError
PATTERN = "a leaf Variable that requires grad.*in-place"


def write(tmp_path: Path, line: str = LEAF, match: str = PATTERN) -> Path:
    path = tmp_path / "leaf.yaml"
    path.write_text(LESSON.format(line=line, match=match), encoding="utf-8")
    return path


pytestmark = pytest.mark.usefixtures("no_env")


@pytest.mark.kernel
def test_check_passes_the_pinned_error_and_fails_another_of_the_same_type(kernel, tmp_path):
    assert check_lesson(kernel, load_lesson(write(tmp_path))).status == "passed"
    check = check_lesson(kernel, load_lesson(write(tmp_path, OTHER)))
    assert check.status == "failed"
    [prompt] = check.prompts
    assert "raised RuntimeError with another message" in prompt.message
    assert f"does not match `match: {PATTERN}`" in prompt.message
    assert prompt.line == 9  # the prompt's line in the file


@pytest.mark.kernel
def test_no_exception_at_all_fails_too(kernel, tmp_path):
    check = check_lesson(kernel, load_lesson(write(tmp_path, "x = 1")))
    assert check.status == "failed"
    assert "expects an exception, and the code raised none" in check.prompts[0].message


@pytest.mark.kernel
def test_the_learner_sees_which_error_after_the_verdict(kernel, tmp_path):
    for line, expected in ((LEAF, "This is the error the question is about: its message "
                                  "says “a leaf Variable that requires grad is being used in "
                                  "an in-place”."),
                           (OTHER, "Note: your torch raised this error with another message")):
        lesson = load_lesson(write(tmp_path, line))
        with LessonRun(kernel, lesson) as run:
            outcome = run.run_step(lesson.steps[0])
        prompt = lesson.steps[0].prompts[0]
        for typed in ("RuntimeError", "no error"):
            verdict = judge_prompt(outcome, prompt, typed)
            assert verdict.details[-1].startswith(expected), verdict.details
        assert judge_prompt(outcome, prompt, "RuntimeError").status is Status.CORRECT
        # an unreadable answer is asked again: no note yet
        assert not judge_prompt(outcome, prompt, "banana").details


def test_lint_rejects_a_bad_pattern_and_match_on_another_kind(tmp_path: Path):
    report = lint_paths([write(tmp_path, match="leaf (Variable")])
    [problem] = report.errors
    assert problem.path == "steps[0].predict[0].match" and (problem.line, problem.col) == (11, 16)
    assert "not a valid regular expression" in problem.message
    path = tmp_path / "other.yaml"
    path.write_text(LESSON.format(line="x = 1", match="x").replace("kind: exception",
                                                                   "kind: bool\n        expect: x"))
    with pytest.raises(LessonError, match="`match` is only for kind exception"):
        load_lesson(path)


def test_pytest_fails_a_lesson_whose_error_changed(tmp_path: Path):
    write(tmp_path, OTHER)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path)], capture_output=True, text=True, timeout=180,
                          cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "does not match `match:" in proc.stdout
