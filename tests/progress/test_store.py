"""The progress store: attempts, statuses, resume point, damage and contention."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tutor.progress import Attempt, ProgressStore, data_dir, summarize
from tutor.progress import store as store_module
from tutor.progress.store import DB_NAME, SCHEMA_VERSION


def attempt(verdict: str, step: int = 0, prompt: int = 0, *, hints: int = 0, run: str = "r1",
            lesson: str = "l/one", answer: str = "0.6") -> Attempt:
    return Attempt(lesson, step, prompt, answer, verdict, expected="0.6", hints=hints,
                   seconds=1.5, run=run)


@pytest.fixture
def store(tmp_path: Path):
    with ProgressStore(tmp_path / "home") as s:
        yield s


def test_tutor_home_overrides_the_data_directory(tutor_home: Path) -> None:
    assert data_dir() == tutor_home
    with ProgressStore() as s:
        assert s.path == tutor_home / DB_NAME
        assert s.path.exists()


def test_default_is_the_platform_user_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv("TUTOR_HOME", raising=False)
    assert data_dir() == Path(platformdirs.user_data_dir("tutor"))


def test_fresh_database_has_schema_version_and_wal(store: ProgressStore) -> None:
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.notice is None and store.saving


def test_attempts_are_recorded_with_everything(store: ProgressStore) -> None:
    assert store.record(attempt("incorrect", answer="1.2", hints=1), total_prompts=2,
                        position=(0, 0))
    assert store.record(attempt("correct"), total_prompts=2, position=(0, 1))
    got = store.attempts("l/one")
    assert [(a.answer, a.verdict, a.hints, a.seconds) for a in got] == [
        ("1.2", "incorrect", 1, 1.5), ("0.6", "correct", 0, 1.5)]
    assert all(a.at and a.expected == "0.6" and a.run == "r1" for a in got)


def test_invalid_is_never_an_attempt(store: ProgressStore) -> None:
    with pytest.raises(ValueError):
        store.record(attempt("invalid"), total_prompts=1, position=(0, 0))
    assert store.attempts() == []


def test_status_new_tried_done(store: ProgressStore) -> None:
    assert store.lesson("l/one").status == "new"
    store.record(attempt("incorrect", 0, 0), total_prompts=2, position=(0, 1))
    assert store.lesson("l/one").status == "tried"
    store.record(attempt("correct", 1, 0), total_prompts=2, position=(2, 0))
    assert store.lesson("l/one").status == "done"


def test_perfect_needs_every_first_answer_right_without_hints(store: ProgressStore) -> None:
    store.record(attempt("correct", 0, 0), total_prompts=2, position=(0, 1))
    store.record(attempt("correct", 0, 1, hints=1), total_prompts=2, position=(1, 0))
    assert store.lesson("l/one").status == "done"
    store.record(attempt("correct", 0, 0, run="r2"), total_prompts=2, position=(0, 1))
    assert store.lesson("l/one").status == "done"  # the best status is kept during a replay
    store.record(attempt("correct", 0, 1, run="r2"), total_prompts=2, position=(1, 0))
    assert store.lesson("l/one").status == "perfect"
    store.record(attempt("revealed", 0, 0, run="r3"), total_prompts=2, position=(0, 1))
    assert store.lesson("l/one").status == "perfect"  # never downgraded


def test_revealed_counts_as_answered_not_perfect(store: ProgressStore) -> None:
    store.record(attempt("revealed"), total_prompts=1, position=(1, 0))
    assert store.lesson("l/one").status == "done"


def test_resume_point_and_last_lesson(store: ProgressStore) -> None:
    assert store.last() is None
    store.record(attempt("correct", 1, 0), total_prompts=5, position=(1, 1))
    store.set_position("l/two", (0, 0), "x")
    assert store.last() == "l/two"
    p = store.lesson("l/one")
    assert (p.step, p.prompt, p.run, p.status) == (1, 1, "r1", "tried")
    assert store.lesson("l/two").status == "new"


def test_an_answer_outside_the_sitting_keeps_the_resume_point(store: ProgressStore) -> None:
    """A review asks one question again in a sitting of its own: the lesson's place and
    sitting (whose answers its tally counts) stay as they were."""
    store.record(Attempt("l/one", 0, 0, "1", "correct", run="sitting"), total_prompts=3,
                 position=(0, 1))
    store.record(Attempt("l/one", 1, 0, "2", "incorrect", run="review"), total_prompts=3,
                 position=None)
    kept = store.lesson("l/one")
    assert (kept.step, kept.prompt, kept.run, kept.status) == (0, 1, "sitting", "tried")
    assert len(store.attempts("l/one")) == 2
    store.record(Attempt("l/new", 0, 0, "1", "correct", run="review"), total_prompts=2,
                 position=None)
    assert (store.lesson("l/new").step, store.lesson("l/new").run) == (0, "")


def test_progress_survives_reopening(tmp_path: Path) -> None:
    with ProgressStore(tmp_path) as s:
        s.record(attempt("correct"), total_prompts=1, position=(1, 0))
    with ProgressStore(tmp_path) as s:
        assert s.lesson("l/one").status == "perfect"
        assert len(s.attempts()) == 1


def test_progress_survives_a_kill_during_writes(tmp_path: Path) -> None:
    """A process killed (SIGKILL) after committing keeps every committed attempt."""
    code = (
        "import os, sys\n"
        "from tutor.progress import Attempt, ProgressStore\n"
        "s = ProgressStore(sys.argv[1])\n"
        "for i in range(20):\n"
        "    s.record(Attempt('l/k', 0, i, 'a', 'correct'), total_prompts=99, position=(0, i))\n"
        "os.kill(os.getpid(), 9)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], timeout=60)
    assert proc.returncode == -9
    with ProgressStore(tmp_path) as s:
        assert s.notice is None
        assert len(s.attempts("l/k")) == 20
        assert s.lesson("l/k").prompt == 19


def test_reset_one_lesson_or_all(store: ProgressStore) -> None:
    store.record(attempt("correct"), total_prompts=1, position=(1, 0))
    store.record(attempt("correct", lesson="l/two"), total_prompts=1, position=(1, 0))
    assert store.reset("l/one")
    assert store.lesson("l/one").status == "new" and store.attempts("l/one") == []
    assert store.lesson("l/two").status == "perfect"
    assert store.last() == "l/two"
    assert store.reset()
    assert store.lessons() == {} and store.attempts() == [] and store.last() is None


def test_corrupt_database_is_kept_aside_and_replaced(tmp_path: Path) -> None:
    tmp_path.joinpath(DB_NAME).write_bytes(b"this is not sqlite at all" * 100)
    with ProgressStore(tmp_path) as s:
        assert s.saving
        assert s.notice and "damaged" in s.notice and "kept as" in s.notice
        kept = list(tmp_path.glob(f"{DB_NAME}.corrupt-*"))
        assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not sqlite")
        assert str(kept[0]) in s.notice
        assert s.record(attempt("correct"), total_prompts=1, position=(1, 0))
        assert s.lesson("l/one").status == "perfect"


def test_truncated_database_is_recovered(tmp_path: Path) -> None:
    with ProgressStore(tmp_path) as s:
        for i in range(200):
            s.record(attempt("correct", 0, i), total_prompts=999, position=(0, i))
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    raw = (tmp_path / DB_NAME).read_bytes()
    (tmp_path / DB_NAME).write_bytes(raw[:100] + b"\xff" * 4000 + raw[4100:])
    with ProgressStore(tmp_path) as s:
        assert s.notice and "damaged" in s.notice
        assert s.saving and s.attempts() == []
    assert list(tmp_path.glob(f"{DB_NAME}.corrupt-*"))


def make_read_only(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database in `directory`, and the directory, read-only (restore with chmod)."""
    (directory / DB_NAME).chmod(stat.S_IRUSR)
    directory.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if os.geteuid() == 0:  # root ignores permissions: open it the way a read-only file opens
        real = ProgressStore._connect
        monkeypatch.setattr(ProgressStore, "_connect",
                            lambda self, readonly=False: real(self, True))


def test_read_only_database_is_read_but_not_written(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with ProgressStore(tmp_path) as s:
        s.record(attempt("correct"), total_prompts=1, position=(1, 0))
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA journal_mode = DELETE")  # no -wal/-shm needed to read
    db.close()
    make_read_only(tmp_path, monkeypatch)
    try:
        with ProgressStore(tmp_path) as s:
            assert not s.saving
            assert s.notice and "not being saved" in s.notice and "cannot be written" in s.notice
            assert s.lesson("l/one").status == "perfect"  # still shown
            assert s.record(attempt("correct", lesson="l/x"), total_prompts=1,
                            position=(1, 0)) is False
    finally:
        tmp_path.chmod(stat.S_IRWXU)
    assert not list(tmp_path.glob("*.corrupt-*"))  # read-only is not damage


def test_read_only_directory_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with ProgressStore(blocker / "home") as s:  # a file where a directory must go
        assert not s.saving and s.notice and "not being saved" in s.notice
        assert s.record(attempt("correct"), total_prompts=1, position=(1, 0)) is False
        assert s.lesson("l/one").status == "new" and s.last() is None


def test_locked_database_does_not_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tutor.progress.store as store_mod

    with ProgressStore(tmp_path) as s:
        other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        monkeypatch.setattr(store_mod, "BUSY_MS", 100)
        s._db.execute("PRAGMA busy_timeout = 100")
        try:
            assert s.record(attempt("correct"), total_prompts=1, position=(1, 0)) is False
            assert s.notice and "not saved" in s.notice and "locked" in s.notice
        finally:
            other.execute("ROLLBACK")
        assert s.record(attempt("correct"), total_prompts=1, position=(1, 0))


def test_a_full_disk_is_named_and_earlier_progress_kept(tmp_path: Path) -> None:
    with ProgressStore(tmp_path) as s:
        assert s.record(attempt("correct"), total_prompts=2, position=(0, 1))
        pages = s._db.execute("PRAGMA page_count").fetchone()[0]
        s._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's "database or disk is full"
        big = attempt("incorrect", prompt=1, answer="x" * 200_000)
        assert s.record(big, total_prompts=2, position=(0, 2)) is False
        assert s.notice is not None and "the disk is full" in s.notice
        assert "rollback" not in s.notice
        assert [a.verdict for a in s.attempts()] == ["correct"]  # nothing half-written
        s._db.execute(f"PRAGMA max_page_count = {pages * 100}")  # space again: saving resumes
        assert s.record(attempt("partial", prompt=1), total_prompts=2, position=(0, 2))


def test_newer_schema_is_left_alone(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with ProgressStore(tmp_path) as s:
        assert not s.saving and s.notice and "newer tutor" in s.notice
        assert s.record(attempt("correct"), total_prompts=1, position=(1, 0)) is False


def test_two_writers_at_once(tmp_path: Path) -> None:
    """Two stores (as two app windows would) writing concurrently lose nothing."""
    a, b = ProgressStore(tmp_path), ProgressStore(tmp_path)
    results: list[bool] = []

    def write(store: ProgressStore, lesson: str) -> None:
        for i in range(50):
            results.append(store.record(attempt("correct", 0, i, lesson=lesson),
                                        total_prompts=100, position=(0, i)))

    threads = [threading.Thread(target=write, args=(a, "l/a")),
               threading.Thread(target=write, args=(b, "l/b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results) and len(results) == 100
    with ProgressStore(tmp_path) as c:
        assert len(c.attempts("l/a")) == 50 and len(c.attempts("l/b")) == 50
    a.close()
    b.close()


def test_two_processes_write_at_once(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from tutor.progress import Attempt, ProgressStore\n"
        "s = ProgressStore(sys.argv[1])\n"
        "ok = [s.record(Attempt(sys.argv[2], 0, i, 'a', 'correct'), total_prompts=99,"
        " position=(0, i)) for i in range(40)]\n"
        "sys.exit(0 if all(ok) else f'{ok.count(False)} not saved: {s.notice}')\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path), f"l/{n}"],
                              stderr=subprocess.PIPE, text=True) for n in range(3)]
    said = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], said
    with ProgressStore(tmp_path) as s:
        assert sorted({a.lesson for a in s.attempts()}) == ["l/0", "l/1", "l/2"]
        assert len(s.attempts()) == 120


def _busy_for(times: int, real: Any) -> Any:
    """`real`, but the first `times` calls find the file busy as SQLite says it when
    it does not wait (another connection cleaning up the WAL as it closes)."""
    calls = {"n": 0}

    def step(*args: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= times:
            raise sqlite3.OperationalError("database is locked")
        return real(*args)
    return step


def test_a_write_that_finds_the_file_busy_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = ProgressStore(tmp_path)
    monkeypatch.setattr(s, "_in_one_write", _busy_for(3, s._in_one_write))
    assert s.record(Attempt("l", 0, 0, "a", "correct"), total_prompts=1, position=(0, 0))
    assert s.notice is None
    assert [a.answer for a in s.attempts()] == ["a"]  # once, not once per try


def test_a_file_busy_for_longer_than_the_timeout_is_said_and_loses_nothing_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = ProgressStore(tmp_path)
    assert s.record(Attempt("l", 0, 0, "a", "correct"), total_prompts=2, position=(0, 0))
    monkeypatch.setattr(store_module, "BUSY_MS", 50)
    monkeypatch.setattr(s, "_in_one_write", _busy_for(10**6, s._in_one_write))
    assert not s.record(Attempt("l", 0, 1, "b", "correct"), total_prompts=2, position=(0, 1))
    assert s.notice is not None and "locked" in s.notice
    assert s.saving  # busy is not read-only: the next answer is tried again
    monkeypatch.undo()
    assert s.record(Attempt("l", 0, 1, "b", "correct"), total_prompts=2, position=(0, 1))
    assert [a.answer for a in s.attempts()] == ["a", "b"]


def test_other_sqlite_errors_are_not_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = ProgressStore(tmp_path)
    tries = {"n": 0}

    def broken(fn: Any) -> None:
        tries["n"] += 1
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(s, "_in_one_write", broken)
    assert not s.record(Attempt("l", 0, 0, "a", "correct"), total_prompts=1, position=(0, 0))
    assert tries["n"] == 1 and "disk I/O error" in (s.notice or "")


def test_opening_a_file_busy_for_a_moment_still_saves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ProgressStore(tmp_path).close()
    real = ProgressStore._connect_and_check
    monkeypatch.setattr(ProgressStore, "_connect_and_check", _busy_for(2, real))
    s = ProgressStore(tmp_path)
    assert s.saving and s.notice is None
    assert s.record(Attempt("l", 0, 0, "a", "correct"), total_prompts=1, position=(0, 0))


def test_summary_counts_and_accuracy(store: ProgressStore) -> None:
    store.record(attempt("incorrect", hints=2), total_prompts=2, position=(0, 0))
    store.record(attempt("correct"), total_prompts=2, position=(0, 1))
    store.record(attempt("revealed", 0, 1), total_prompts=2, position=(1, 0))
    s = summarize("l/one", store.lesson("l/one"), store.attempts())
    assert (s.status, s.attempts, s.correct, s.incorrect, s.revealed, s.hints) == (
        "done", 3, 1, 1, 1, 2)
    assert s.accuracy == pytest.approx(1 / 3)
    assert summarize("l/none", None, []).accuracy is None


# ------------------------------------------------------------------ schema 1 -> 2

V1 = Path(__file__).resolve().parent.parent / "data" / "progress" / "v1" / DB_NAME


def _rows(path: Path, sql: str) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def test_a_schema_1_database_upgrades_in_place_keeping_every_row(tmp_path: Path) -> None:
    """tests/data/progress/v1/progress.db was written by the schema-1 store (tutor at
    fab6f70): 8 attempts over 3 lessons (every verdict, hints, three runs of one lesson),
    4 lesson rows and the last lesson."""
    path = tmp_path / DB_NAME
    path.write_bytes(V1.read_bytes())
    v1_columns = "id, lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at"
    attempts = _rows(path, f"SELECT {v1_columns} FROM attempts ORDER BY id")
    lessons = _rows(path, "SELECT * FROM lessons ORDER BY lesson")
    meta = _rows(path, "SELECT * FROM meta")
    assert _rows(path, "PRAGMA user_version") == [(1,)] and len(attempts) == 8
    with ProgressStore(tmp_path) as s:
        assert s.notice is None and s.saving and s.schema == SCHEMA_VERSION == 2
        got = s.attempts()
        assert [(a.lesson, a.step, a.prompt, a.answer, a.verdict, a.hints, a.run, a.at)
                for a in got] == [(r[1], r[2], r[3], r[4], r[5], r[7], r[9], r[10])
                                  for r in attempts]
        assert {a.confidence for a in got} == {"sure"} and {a.variant for a in got} == {()}
        assert s.lesson("modules/plain-list").status == "perfect" and s.last() == "hooks/order"
        # the history's mistakes have review cards, as if scheduled when they were made
        cards = {c.key: c for c in s.cards()}
        assert set(cards) == {("autograd/accumulate", 0, 0), ("tensors/alias", 0, 0),
                              ("tensors/alias", 0, 1), ("tensors/alias", 1, 0)}
        # tensors/alias 0.0: wrong on 03-02, right (a review) on 03-05
        assert cards[("tensors/alias", 0, 0)].reviews == 1
        assert cards[("tensors/alias", 0, 0)].last.isoformat() == "2026-03-05T09:00:00+00:00"
        assert [a.review for a in got] == [False, False, False, False, False, False, True,
                                           False]
        # (autograd/accumulate 0.0 was answered right only in the run that missed it)
        assert [m.key for m in s.mistakes()] == [("autograd/accumulate", 0, 0),
                                                 ("tensors/alias", 0, 1),
                                                 ("tensors/alias", 1, 0)]
        assert s.record(Attempt("tensors/alias", 0, 1, "True", "correct", run="run-f",
                                confidence="guess"), total_prompts=3, position=(1, 0))
    assert _rows(path, f"SELECT {v1_columns} FROM attempts ORDER BY id")[:8] == attempts
    assert _rows(path, "SELECT * FROM meta") == [("last", "tensors/alias")] != meta
    assert len(_rows(path, "SELECT * FROM lessons")) == len(lessons)
    assert _rows(path, "PRAGMA user_version") == [(2,)]
    with ProgressStore(tmp_path) as s:  # opening again changes nothing
        assert len(s.attempts()) == 9 and len(s.cards()) == 4


def test_a_schema_1_database_that_cannot_be_upgraded_is_still_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(V1.read_bytes())
    make_read_only(tmp_path, monkeypatch)
    try:
        with ProgressStore(tmp_path) as s:
            assert not s.saving and s.schema == 1
            assert len(s.attempts()) == 8 and s.notice and "cannot be written" in s.notice
            assert [m.key for m in s.mistakes()] == [("autograd/accumulate", 0, 0),
                                                     ("tensors/alias", 0, 1),
                                                     ("tensors/alias", 1, 0)]
            assert s.cards() == [] and s.due_count() == 0
    finally:
        tmp_path.chmod(stat.S_IRWXU)
    assert _rows(path, "PRAGMA user_version") == [(1,)]


def test_a_failed_upgrade_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tutor.progress.store as store_mod

    path = tmp_path / DB_NAME
    path.write_bytes(V1.read_bytes())

    def boom(self, db) -> None:  # noqa: ANN001
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_mod.ProgressStore, "_schedule_history", boom)
    with ProgressStore(tmp_path) as s:
        assert not s.saving and s.notice and "disk I/O error" in s.notice
        assert len(s.attempts()) == 8
    assert _rows(path, "PRAGMA user_version") == [(1,)]
    assert "confidence" not in [r[1] for r in _rows(path, "PRAGMA table_info(attempts)")]
