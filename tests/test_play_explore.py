"""`tutor play` between two questions: the `:` prompt draws pictures; in a terminal,
a line that is not a `:` request is never taken as the answer to a question the
learner has not seen yet (reader r31 typed `RuntimeError` there and lost Q3 to it)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tutor.cli import main

# (the lessons run in the session's kernel: what is tested is what play reads and prints)
pytestmark = [pytest.mark.kernel, pytest.mark.usefixtures("commands_share_kernel")]

TWO_STEPS = """\
id: t/two-steps
title: Two steps
topic: testing
steps:
  - code: |
      a = 1 + 1
    predict:
      - ask: What is a?
        kind: number
        expect: a
        answer: "2"
        show: storage
        hint: Add.
        explain: Two.
        wrong: ["3"]
  - code: |
      b = a * 5
    predict:
      - ask: What is b?
        kind: number
        expect: b
        answer: "10"
        hint: Multiply.
        explain: Ten.
        wrong: ["11"]
"""


class Terminal(io.StringIO):
    """Typed lines, read as from a terminal."""

    def isatty(self) -> bool:
        return True


def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         stdin: io.StringIO) -> str:
    lesson = tmp_path / "lesson.yaml"
    lesson.write_text(TWO_STEPS, encoding="utf-8")
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["play", "--no-progress", str(lesson)]) == 0
    return capsys.readouterr().out


def test_in_a_terminal_a_line_at_the_picture_prompt_is_not_the_next_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = play(tmp_path, monkeypatch, capsys, Terminal("2\n11\n10\n"))
    assert "'11' is not used: answer the next question below" in " ".join(out.split())
    after = out[out.index("Q2 of 2."):]
    assert "> 10" in after or "✓ correct" in after
    assert "finished: 2 of 2 right" in out


def test_through_a_pipe_the_next_line_is_the_next_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = play(tmp_path, monkeypatch, capsys, io.StringIO("2\n11\n"))
    assert "not used" not in out
    assert "finished: 1 of 2 right, 1 wrong" in out


def test_in_a_terminal_an_empty_line_at_a_question_just_asks_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An Enter too many (a learner used to pressing it after each verdict) is no
    answer and no mistake: the prompt comes again, without a "Type an answer"."""
    out = play(tmp_path, monkeypatch, capsys, Terminal("\n2\n\n\n10\n"))
    assert "Type an answer" not in out
    assert "finished: 2 of 2 right" in out


@pytest.mark.parametrize("stdin", [Terminal("2\nquit\n"), io.StringIO("2\nquit\n")],
                         ids=["terminal", "pipe"])
def test_quit_at_the_picture_prompt_stops_before_the_next_step_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], stdin: io.StringIO) -> None:
    """`quit` at the `:` prompt stopped only after the next step was shown and run,
    taken as its question's answer (a reviewer's find)."""
    out = play(tmp_path, monkeypatch, capsys, stdin)
    assert "step 2 of 2" not in out and "> quit" not in out
    assert "stopped: 1 of 2 right" in " ".join(out.split())


def test_in_a_terminal_a_picture_request_may_leave_out_its_colon(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`graph a` typed as the error's old example (`e.g. graph z`, no colon) was taken
    as "not a picture request" and the chance to look was gone (a reviewer's find)."""
    out = play(tmp_path, monkeypatch, capsys, Terminal("2\n:graph\nstorage\n\n10\n"))
    flat = " ".join(out.split())
    assert "`:graph` needs an expression, e.g. `:graph z`" in flat
    assert "not a picture request" not in out
    assert flat.count("storage map") >= 2  # the step's own `show: storage`, then the request
    assert "finished: 2 of 2 right" in out
