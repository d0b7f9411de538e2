"""`tutor play` records progress like the app (not with `--no-progress`), marks a guess
with a trailing `?`, and `tutor play --review` asks the questions again: each in a fresh
run of its lesson, the steps before it run silently."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutor.progress import ProgressStore

# `tutor play` runs in this process, its lessons in the session's kernel (a process and
# a kernel of its own per play: tests/test_cli.py)
pytestmark = [pytest.mark.kernel, pytest.mark.usefixtures("commands_share_kernel")]

UI_LESSONS = Path(__file__).resolve().parent.parent / "data" / "ui" / "lessons"


@pytest.fixture
def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         ) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`tutor play ARGS --path UI_LESSONS` with TUTOR_HOME=home and `stdin` piped in."""
    from tutor.cli import main

    monkeypatch.delenv("TUTOR_PATH", raising=False)

    def play(home: Path, *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        monkeypatch.setenv("TUTOR_HOME", str(home))
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main(["play", *args, "--path", str(UI_LESSONS)])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["tutor", "play", *args], code, out, err)

    return play


def test_play_records_answers_and_confidence_like_the_app(tmp_path: Path,
                                                          play: Callable[..., Any]) -> None:
    home = tmp_path / "home"
    # Q1 wrong and a guess, Q2 revealed, Q3 right, then the input ends
    proc = play(home, "ui/basics", "--json", stdin="6 ?\nreveal\nyes\n")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["answer"], r["verdict"], r["confidence"]) for r in records] == [
        ("6", "incorrect", "guess"), ("", "revealed", "sure"), ("yes", "correct", "sure")]
    assert "you said: 6 (a guess)" in proc.stderr
    assert "end with ? if guessing" in proc.stderr
    assert ("waiting for review, over all your lessons: 2 questions (0 due now, 2 to redo): "
            "tutor play --review") in " ".join(proc.stderr.split())
    with ProgressStore(home) as store:
        attempts = store.attempts()
        assert [(a.step, a.prompt, a.verdict, a.confidence) for a in attempts] == [
            (0, 0, "incorrect", "guess"), (0, 1, "revealed", "sure"), (1, 0, "correct", "sure")]
        assert len({a.run for a in attempts}) == 1
        progress = store.lesson("ui/basics")
        assert progress.status == "tried" and (progress.step, progress.prompt) == (1, 1)
        assert progress.run == attempts[0].run  # the app resumes this sitting at question 4
        assert store.last() == "ui/basics"
        assert store.calibration().guess_wrong == 1
        assert [m.key for m in store.mistakes()] == [("ui/basics", 0, 0), ("ui/basics", 0, 1)]


def test_play_with_no_progress_records_nothing(tmp_path: Path, play: Callable[..., Any]) -> None:
    home = tmp_path / "home"
    proc = play(home, "ui/next", "--no-progress", stdin="(2, 3)\n")
    assert proc.returncode == 0, proc.stderr
    assert "1 of 1 right" in proc.stdout
    assert not home.exists()


def test_play_review_asks_each_mistake_again_after_the_steps_before_it(
        tmp_path: Path, play: Callable[..., Any]) -> None:
    home = tmp_path / "home"
    played = play(home, "ui/basics", stdin="6\na, b, c\nyes\nintegers\n")
    assert "finished: 2 of 4 right, 2 wrong" in played.stdout, played.stderr
    # the two mistakes, in order: step 1 question 1, then step 2 question 2 (after step 1
    # ran silently: `z` is a view of the `y` step 1 made)
    proc = play(home, "--review", stdin="hint\n12\nfloats?\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("2 questions to ask again (0 due for review, 2 to redo)")
    first, second = out.split("== Review 2 of 2: UI basics ==")
    assert "== Review 1 of 2: UI basics ==" in first and "-- step 1 of 2 --" in first
    assert "hint: Double each element, then add." in first and "✓ correct" in first
    assert "-- steps 1 to 1 (they run first, silently) --" in second
    assert "-- step 2 of 2 --" in second and "Q1 of 1. What is z made of?" in second
    assert "you said: floats (a guess)" in second
    assert "output:" not in second  # step 1 printed, silently
    assert "review: 2 of 2 questions right" in out
    with ProgressStore(home) as store:
        review = store.attempts()[4:]
        assert [(a.step, a.prompt, a.verdict, a.hints, a.confidence) for a in review] == [
            (0, 0, "correct", 1, "sure"), (1, 1, "correct", 0, "guess")]
        assert review[0].run != review[1].run  # each question in a fresh run
        assert all(a.review for a in review)  # both answers reviewed their cards
        assert store.mistakes() == []
        kept = store.lesson("ui/basics")  # the lesson's own place and mark stay
        assert kept.status == "done" and kept.step == 2
    again = play(home, "--review", stdin="")
    assert again.stdout.startswith("Nothing to review")


def test_play_review_takes_no_lesson(tmp_path: Path, play: Callable[..., Any]) -> None:
    proc = play(tmp_path / "home", "ui/basics", "--review", stdin="")
    assert proc.returncode == 2 and "give no LESSON with it" in proc.stderr
    proc = play(tmp_path / "home", stdin="")
    assert proc.returncode == 2 and "give a LESSON" in proc.stderr
