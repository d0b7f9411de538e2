"""The progress store never trusts its rows (issue 28, class 3): a status it does not
know, a review card with a bad date or bad JSON, text in a number column.  `progress`,
`review` and play's reads and writes keep working; the bad row is left out or read
with a stated default and said; the answer being saved is never lost.  And the file
itself: read on a read-only file system, and written again when lesson code deletes it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.progress import Attempt, ProgressStore
from tutor.progress.store import DB_NAME
from tutor.redo import queue


def attempt(verdict: str, step: int = 0, prompt: int = 0, *, run: str = "r1",
            lesson: str = "l/one", answer: str = "0.6") -> Attempt:
    return Attempt(lesson, step, prompt, answer, verdict, expected="0.6", run=run)


def history(home: Path) -> None:
    """Two lessons with mistakes (so with review cards), one answered right."""
    with ProgressStore(home) as s:
        assert s.record(attempt("incorrect"), total_prompts=2, position=(0, 1))
        assert s.record(attempt("correct", prompt=1), total_prompts=2, position=(1, 0))
        assert s.record(attempt("revealed", lesson="l/two"), total_prompts=1, position=(1, 0))


def edit(home: Path, *statements: str) -> None:
    """Change the database behind tutor's back, as a person or another program may."""
    db = sqlite3.connect(home / DB_NAME)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def run_command(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("TUTOR_HOME", str(home))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())


BAD = {
    "an unknown status": ["UPDATE lessons SET status = 'mastered' WHERE lesson = 'l/one'"],
    "text for a resume point": ["UPDATE lessons SET step = 'two' WHERE lesson = 'l/one'"],
    "a card with a bad date": ["UPDATE reviews SET due = 'soon', last = 'x' "
                               "WHERE lesson = 'l/one'"],
    "a card with bad JSON": ["UPDATE reviews SET card = '{not json' WHERE lesson = 'l/one'"],
    "a card with text for counts": ["UPDATE reviews SET reviews = 'many', lapses = 'x', "
                                    "rating = 'bad' WHERE lesson = 'l/one'"],
    "text in the attempts' numbers": ["UPDATE attempts SET hints = 'lots', seconds = 'slow', "
                                      "confidence = 'very' WHERE id = 1",
                                      "UPDATE attempts SET step = 'one' WHERE id = 2"],
    "an unknown verdict and a number for a time": [
        "UPDATE attempts SET verdict = 'excellent' WHERE id = 2",
        "UPDATE attempts SET at = 12 WHERE id = 3"],
}


@pytest.mark.parametrize("damage", list(BAD))
def test_progress_review_and_saving_go_on_past_a_bad_row(
        damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    history(home)
    edit(home, *BAD[damage])
    said = []
    for args in (["progress"], ["progress", "--json", "--history"], ["review"],
                 ["review", "--due", "--json"], ["review", "--due"]):
        code, out, err = run_command(home, monkeypatch, capsys, *args)
        assert code == 0, (args, err)
        said += [args] if "could not be read as written" in err else []
    # each command reports the bad rows it reads (the card's JSON is read only to save)
    assert said or damage == "a card with bad JSON"
    with ProgressStore(home) as s:
        queue(s)  # what `tutor play --review` and play's closing line read
        s.cards()
        s.lessons()
        # the answer being saved is never lost, whatever the rows around it hold
        assert s.record(attempt("incorrect", run="r2"), total_prompts=2, position=(0, 1))
        assert s.record(attempt("correct", prompt=1, run="r2"), total_prompts=2,
                        position=(1, 0))
        assert s.set_position("l/one", (1, 0), "r2")
        saved = [a for a in s.attempts() if a.run == "r2"]
        assert [(a.prompt, a.verdict) for a in saved] == [(0, "incorrect"), (1, "correct")]
        assert s.lesson("l/one").status in ("done", "tried")
        assert s.problems and all("row" in p for p in s.problems)


def test_what_each_bad_row_is_read_as(tmp_path: Path) -> None:
    home = tmp_path / "home"
    history(home)
    edit(home, "UPDATE lessons SET status = 'mastered', prompt = 'x' WHERE lesson = 'l/one'",
         "UPDATE attempts SET hints = 'lots', confidence = 'very' WHERE id = 1",
         "UPDATE attempts SET step = 'one' WHERE id = 2",
         "UPDATE reviews SET due = 'soon' WHERE lesson = 'l/two'")
    with ProgressStore(home) as s:
        one = s.lesson("l/one")
        assert (one.status, one.step, one.prompt) == ("tried", 0, 0)
        assert [(a.lesson, a.hints, a.confidence) for a in s.attempts()] == [
            ("l/one", 0, "sure"), ("l/two", 0, "sure")]  # row 2 (step 'one') left out
        assert [c.lesson for c in s.cards()] == ["l/one"]  # l/two's card: no date
        text = "\n".join(s.problems)
        assert "lessons row 'l/one': the status 'mastered' is not one tutor knows" in text
        assert "read as 'tried'" in text and "the lesson resumes at its start" in text
        assert "attempts row 1 (l/one): the hint count 'lots' is not a whole number" in text
        assert "attempts row 2 (l/one): the step number 'one' is not a whole number: " \
               "left out" in text
        assert "the due date 'soon' is not a date" in text
        assert len(s.problems) == len(set(s.problems))  # each said once, however often read
        s.attempts()
        assert len(s.problems) == len(text.split("\n"))


def test_a_bad_review_card_is_started_again_and_the_answer_saved(tmp_path: Path) -> None:
    home = tmp_path / "home"
    history(home)
    edit(home, "UPDATE reviews SET card = '{not json', reviews = 'x' WHERE lesson = 'l/one'")
    with ProgressStore(home) as s:
        assert s.record(attempt("incorrect", run="r2"), total_prompts=2, position=(0, 1))
        assert "a new card was started" in "\n".join(s.problems)
        [card] = [c for c in s.cards() if c.lesson == "l/one"]
        assert card.reviews == 1 and card.lapses == 1  # counted again from 0, then reviewed
        assert len([a for a in s.attempts() if a.lesson == "l/one"]) == 3


def test_an_unforeseen_failure_while_scheduling_still_saves_the_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.progress import schedule

    def broken(*args: object) -> object:
        raise RuntimeError("the scheduler broke")

    home = tmp_path / "home"
    with ProgressStore(home) as s:
        monkeypatch.setattr(schedule, "review", broken)
        assert s.record(attempt("incorrect"), total_prompts=1, position=(1, 0))
        assert [a.verdict for a in s.attempts()] == ["incorrect"]
        assert "saved without its review card" in "\n".join(s.problems)


# ---------------------------------------------------------------------- the file itself
def read_only_mount(home: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` with `home` mounted read-only (a real read-only file system: as root
    permissions are ignored), in a private mount namespace."""
    script = (f"mount --bind {home} {home} && mount -o remount,ro,bind {home} && "
              f"exec {sys.executable} -c \"$0\"")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(["unshare", "-rm", "sh", "-c", script, code], capture_output=True,
                          text=True, env=env, timeout=60)


def can_mount() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not can_mount(), reason="needs user namespaces (unshare -rm)")
def test_a_read_only_file_system_still_shows_progress_in_wal_mode(tmp_path: Path) -> None:
    home = tmp_path / "home"
    history(home)  # a WAL database, as tutor writes it (no -wal/-shm left after closing)
    code = f"""
from pathlib import Path
from tutor.progress import ProgressStore, Attempt
s = ProgressStore(Path({str(home)!r}))
print("saving", s.saving)
print("notice", s.notice)
print("lessons", sorted(s.lessons()))
print("answers", len(s.attempts()), "cards", len(s.cards()))
print("saved", s.record(Attempt("l/x", 0, 0, "1", "correct"), total_prompts=1, position=None))
"""
    proc = read_only_mount(home, code)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "saving False" in out
    assert "lessons ['l/one', 'l/two']" in out and "answers 3 cards 2" in out
    assert "the file system it is on is read-only" in out
    assert "your progress so far is shown, but new answers are not saved" in out
    assert "saved False" in out


@pytest.mark.skipif(not can_mount(), reason="needs user namespaces (unshare -rm)")
def test_tutor_progress_on_a_read_only_file_system(tmp_path: Path) -> None:
    home = tmp_path / "home"
    history(home)
    code = ("import os, sys; os.environ['TUTOR_HOME'] = " + repr(str(home)) + "; "
            "from tutor.cli import main; sys.exit(main(['progress', '--json']))")
    proc = read_only_mount(home, code)
    assert proc.returncode == 0, proc.stderr
    import json

    report = json.loads(proc.stdout)
    assert sum(x["attempts"] for x in report["lessons"]) == 3
    assert "new answers are not saved" in proc.stderr


@pytest.mark.parametrize("files", [("",), ("", "-wal", "-shm"), ("dir",)])
def test_a_database_deleted_mid_session_is_written_again_and_said(
        files: tuple[str, ...], tmp_path: Path) -> None:
    home = tmp_path / "home"
    with ProgressStore(home) as s:
        assert s.record(attempt("incorrect"), total_prompts=2, position=(0, 1))
        # the lesson's code (another process) deletes the database, or its whole directory
        if files == ("dir",):
            shutil.rmtree(home)
        for suffix in files:
            if suffix != "dir" and (home / (DB_NAME + suffix)).exists():
                os.remove(home / (DB_NAME + suffix))
        assert s.record(attempt("correct", prompt=1), total_prompts=2, position=(1, 0))
        news = s.take_news()
        assert len(news) == 1 and "was deleted while tutor was running" in news[0]
        assert "written again with everything this session had" in news[0]
        assert s.take_news() == []  # said once
        assert s.record(attempt("correct", lesson="l/two"), total_prompts=1, position=(1, 0))
    with ProgressStore(home) as again:
        assert [(a.lesson, a.verdict) for a in again.attempts()] == [
            ("l/one", "incorrect"), ("l/one", "correct"), ("l/two", "correct")]
        assert again.lesson("l/one").status == "done" and len(again.cards()) == 1


def test_a_database_replaced_mid_session_is_kept_beside_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with ProgressStore(home) as s:
        assert s.record(attempt("incorrect"), total_prompts=2, position=(0, 1))
        os.remove(home / DB_NAME)
        (home / DB_NAME).write_bytes(b"not a database at all" * 100)
        assert s.record(attempt("correct", prompt=1), total_prompts=2, position=(1, 0))
        news = " ".join(s.take_news())
        assert "was replaced by another file" in news and "is kept in" in news
    [kept] = home.glob(f"{DB_NAME}.kept-*[0-9]")
    db = sqlite3.connect(kept)
    assert db.execute("SELECT verdict FROM attempts").fetchall() == [("incorrect",)]
    db.close()
    assert list(home.glob(f"{DB_NAME}.corrupt-*"))  # the replacement was not a database
    with ProgressStore(home) as again:
        assert [a.verdict for a in again.attempts()] == ["correct"]
