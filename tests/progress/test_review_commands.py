"""`tutor review` (mistakes; `--due`; `--json`) and the calibration in `tutor progress`."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.progress import Attempt, ProgressStore

DATA = Path(__file__).resolve().parent.parent / "data"
UI_LESSONS = DATA / "ui" / "lessons"
VARY = DATA / "vary" / "good.yaml"
LONG_AGO = datetime.now(timezone.utc) - timedelta(days=3)


def record(home: Path, *attempts: Attempt, at: datetime = LONG_AGO) -> None:
    with ProgressStore(home, clock=lambda: at) as store:
        for a in attempts:
            assert store.record(a, total_prompts=4, position=(a.step, a.prompt + 1))


@pytest.fixture
def history(tutor_home: Path) -> Path:
    record(tutor_home,
           Attempt("ui/basics", 0, 0, "6", "incorrect", hints=1, run="r1"),
           Attempt("ui/basics", 0, 0, "12", "correct", run="r1"),  # same run: still a mistake
           Attempt("ui/basics", 0, 1, "", "revealed", run="r1"),
           Attempt("ui/basics", 1, 0, "yes", "correct", run="r1", confidence="guess"),
           Attempt("ui/basics", 1, 1, "floats", "correct", run="r1"),
           Attempt("vary/log-cube", 0, 0, "0.5", "incorrect", run="r2",
                   variant=(("x", "5.0"),)),
           Attempt("gone/lesson", 0, 0, "x", "partial", run="r3"))
    return tutor_home


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main([*argv, "--path", str(UI_LESSONS), "--path", str(VARY)]) == 0
    return capsys.readouterr().out


def test_review_lists_each_mistake_on_one_line(history: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "review").splitlines()
    assert lines[0] == ("4 questions to redo (answered wrong or revealed, not answered right "
                        "since):")
    assert lines[1] == ("ui/basics, step 1, question 1: What is `y.sum().item()`? (wrong: you "
                        "said 6 (sure), 1 hint)")
    assert lines[2] == "ui/basics, step 1, question 2: What is `names`? (revealed)"
    # the question as the learner saw it: with the values their run drew
    assert lines[3] == ("vary/log-cube, step 1, question 1: What is `x.grad`, with x = 5.0? "
                        "(wrong: you said 0.5 (sure); values: x = 5.0)")
    assert lines[4].startswith("gone/lesson, step 1, question 1: (this lesson is not in the "
                               "catalog") and "(partly right: you said x (sure))" in lines[4]
    assert lines[5] == "5 questions are due for review now: tutor review --due"
    assert lines[6] == ("Ask them again: tutor play --review, or Review in the app (tutor, "
                        "then r).")


def test_a_right_answer_in_a_later_run_takes_a_question_off(
        history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record(history, Attempt("ui/basics", 0, 0, "12", "correct", run="r9"),
           at=datetime.now(timezone.utc))
    out = run(capsys, "review")
    assert "What is `y.sum().item()`?" not in out and out.startswith("3 questions to redo")


def test_review_json(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "review", "--json"))
    assert data["due"] == 5
    first = data["mistakes"][0]
    assert {k: first[k] for k in ("lesson", "step", "question", "ask", "verdict", "answer",
                                  "confidence", "hints", "found", "times")} == {
        "lesson": "ui/basics", "step": 1, "question": 1, "ask": "What is `y.sum().item()`?",
        "verdict": "incorrect", "answer": "6", "confidence": "sure", "hints": 1,
        "found": True, "times": 1}
    assert data["mistakes"][2]["variant"] == {"x": "5.0"}
    assert data["mistakes"][3]["found"] is False and data["mistakes"][3]["title"] is None


def test_review_due_lists_what_the_schedule_brings_back(
        history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "review", "--due").splitlines()
    assert lines[0] == "5 questions due for review:"
    (first,) = [line for line in lines if line.startswith("ui/basics, step 1, question 1:")]
    assert first.startswith("ui/basics, step 1, question 1: What is `y.sum().item()`? "
                            "(due since ")
    # (what the schedule saw: the run's first answer, not the retry after it)
    assert first.endswith("; not reviewed yet; last time wrong, sure)")
    # the right guess is on the schedule too (a right guess is not yet learned)
    assert any(line.startswith("ui/basics, step 2, question 1: Do `y` and `z` share memory?")
               and line.endswith("last time right, a guess)") for line in lines)
    assert not any("question 2: What is `z` made of?" in line for line in lines)


def test_review_due_json_and_the_next_one(tutor_home: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    soon = datetime.now(timezone.utc) - timedelta(hours=12)  # due in 12 hours
    record(tutor_home, Attempt("ui/next", 0, 0, "(3, 2)", "incorrect", run="r"), at=soon)
    out = run(capsys, "review", "--due")
    assert out.startswith("Nothing is due for review now. Next: ")
    assert "(ui/next, step 1, question 1); 1 question on the schedule." in out
    data = json.loads(run(capsys, "review", "--due", "--json"))
    assert data["due"] == [] and data["scheduled"] == 1
    assert data["next"]["lesson"] == "ui/next"
    assert datetime.fromisoformat(data["next"]["due"]) == (soon + timedelta(days=1)).replace(
        microsecond=0)


def test_review_with_no_history(tutor_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "review").startswith("No mistakes to redo")
    assert run(capsys, "review", "--due").startswith("Nothing is due for review: no question")
    assert json.loads(run(capsys, "review", "--json")) == {"mistakes": [], "due": 0}


def test_progress_shows_calibration_and_what_to_review(
        history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "progress")
    assert ("confidence: sure and right: 1, sure and wrong: 3, guessed and right: 1, guessed "
            "and wrong: 0 (sure answers 25% right; guesses 100% right)") in out
    assert "review: 4 questions to redo (tutor review), 5 due for review now" in out
    data = json.loads(run(capsys, "progress", "--json"))
    assert data["calibration"] == {"sure_right": 1, "sure_wrong": 3, "guess_right": 1,
                                   "guess_wrong": 0}
    assert (data["mistakes"], data["due"]) == (4, 5)
    (day,) = data["history"]
    assert (day["answers"], day["right"], day["reviews"]) == (6, 2, 0)
    out = run(capsys, "progress", "--history")
    assert "day          answers  right  reviews" in out
    assert f"{LONG_AGO.astimezone().date().isoformat()}        6    33%        0" in out


def test_progress_before_any_prediction(tutor_home: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "progress")
    assert "confidence: no predictions marked yet" in out and "review:" not in out
