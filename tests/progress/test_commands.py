"""`tutor progress` and `tutor reset`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.progress import Attempt, ProgressStore

UI_LESSONS = Path(__file__).resolve().parent.parent / "data" / "ui" / "lessons"


@pytest.fixture
def history(tutor_home: Path) -> Path:
    with ProgressStore(tutor_home) as store:
        store.record(Attempt("ui/basics", 0, 0, "6", "incorrect", hints=1, run="r"),
                     total_prompts=4, position=(0, 0))
        store.record(Attempt("ui/basics", 0, 0, "12", "correct", run="r"), total_prompts=4,
                     position=(0, 1))
        store.record(Attempt("ui/next", 0, 0, "(2, 3)", "correct", run="r"), total_prompts=1,
                     position=(1, 0))
        store.record(Attempt("gone/lesson", 0, 0, "x", "revealed", run="r"), total_prompts=1,
                     position=(1, 0))
    return tutor_home


def test_progress_summary(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["progress", "--path", str(UI_LESSONS)]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("  ")}
    # an answer is a sitting's first answer to a question: the retry is not one
    assert "tried" in lines["ui/basics"] and "1 answer " in lines["ui/basics"]
    assert "  0% right" in lines["ui/basics"] and " 1 hint " in lines["ui/basics"]
    assert "; 3 answers, 1 right (33%)" in out
    assert lines["ui/next"].lstrip().startswith("★") and "perfect" in lines["ui/next"]
    assert "(lessons not found in the catalog)" in out and "gone/lesson" in out
    assert f"progress database: {history / 'progress.db'}" in out
    assert "last lesson: gone/lesson" in out
    # the bundled CUDA pack: named, since the count here cannot ask a kernel
    assert "7 of the course's lessons need a CUDA device" in out


def test_progress_json(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["progress", "--json", "--path", str(UI_LESSONS)]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {r["id"]: r for r in data["lessons"]}
    assert rows["ui/basics"]["status"] == "tried" and rows["ui/basics"]["accuracy"] == 0.0
    assert (data["answers"], data["right"], data["revealed"], data["retries"]) == (3, 1, 1, 1)
    assert rows["ui/next"]["status"] == "perfect"


def test_reset_one_lesson_asks_first(history: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert main(["reset", "ui/basics"]) == 1
    assert "nothing changed" in capsys.readouterr().out
    with ProgressStore(history) as store:
        assert len(store.attempts("ui/basics")) == 2
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["reset", "ui/basics"]) == 0
    # (counted as everywhere: a sitting's first answers; the retry said as one)
    assert "forgot the progress of ui/basics (1 answer and 1 retry)" in capsys.readouterr().out
    with ProgressStore(history) as store:
        assert store.attempts("ui/basics") == [] and len(store.attempts()) == 2


def test_reset_everything_with_yes(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reset", "--yes"]) == 0
    with ProgressStore(history) as store:
        assert store.attempts() == [] and store.lessons() == {}


def test_reset_without_an_answer_changes_nothing(history: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # end of input: not a yes
    assert main(["reset"]) == 1
    with ProgressStore(history) as store:
        assert len(store.attempts()) == 4


def test_reset_unknown_lesson_is_an_error(history: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reset", "no/such", "--yes"]) == 1
    assert "no progress stored for 'no/such'" in capsys.readouterr().err
