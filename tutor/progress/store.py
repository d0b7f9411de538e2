"""The progress database: every attempt, each lesson's status and where the learner left off.

SQLite in WAL mode with a busy timeout; every write is one `BEGIN IMMEDIATE`
transaction (one attempt = one transaction), so a crash or kill at any moment
loses at most the attempt being written.  A corrupt file is moved aside (kept,
with a timestamp) and a fresh one created; a read-only or locked database never
raises into the caller: writes return False and `notice` says why.
Pure: stdlib only.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

SCHEMA_VERSION = 1
DB_NAME = "progress.db"
BUSY_MS = 5000
STATUSES = ("new", "tried", "done", "perfect")
COUNTED = ("correct", "partial", "incorrect", "revealed")

SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    lesson TEXT NOT NULL,
    step INTEGER NOT NULL,
    prompt INTEGER NOT NULL,
    answer TEXT NOT NULL,
    verdict TEXT NOT NULL,      -- correct / partial / incorrect / revealed
    expected TEXT NOT NULL DEFAULT '',
    hints INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    run TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_lesson ON attempts (lesson, run);
CREATE TABLE IF NOT EXISTS lessons (
    lesson TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    step INTEGER NOT NULL DEFAULT 0,
    prompt INTEGER NOT NULL DEFAULT 0,
    run TEXT NOT NULL DEFAULT '',
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def data_dir() -> Path:
    """Where progress lives: $TUTOR_HOME, else the platform's user data directory."""
    home = os.environ.get("TUTOR_HOME", "").strip()
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("tutor"))


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def better(a: str, b: str) -> str:
    return a if STATUSES.index(a) >= STATUSES.index(b) else b


@dataclass(frozen=True)
class Attempt:
    """One counted answer (an `invalid` answer is never an attempt)."""

    lesson: str
    step: int
    prompt: int
    answer: str
    verdict: str  # correct / partial / incorrect / revealed
    expected: str = ""
    hints: int = 0
    seconds: float = 0.0
    run: str = ""
    at: str = ""


@dataclass(frozen=True)
class LessonProgress:
    lesson: str
    status: str = "new"
    step: int = 0  # where to resume: the next question to ask
    prompt: int = 0
    run: str = ""
    updated: str = ""


def _rollback(db: sqlite3.Connection) -> None:
    """Undo a failed transaction, if SQLite has not already (it has after "disk full"):
    a ROLLBACK that fails must not hide the error that made it necessary."""
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _why(exc: sqlite3.Error) -> str:
    """A write error, named for a person."""
    text = str(exc)
    if getattr(exc, "sqlite_errorcode", None) == 13 or "disk is full" in text:  # SQLITE_FULL
        return "the disk is full (free some space; your earlier progress is kept)"
    if "readonly" in text or "read-only" in text:
        return f"the progress database cannot be written ({text})"
    return text


class ProgressStore:
    """The learner's progress in one SQLite file.  Thread-safe; never raises on write."""

    def __init__(self, directory: Path | None = None):
        self.directory = Path(directory) if directory is not None else data_dir()
        self.path = self.directory / DB_NAME
        self.notice: str | None = None  # something the learner should be told
        self.saving = True
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._open()

    # ------------------------------------------------------------------ opening
    def _connect(self, readonly: bool = False) -> sqlite3.Connection:
        if readonly:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                 check_same_thread=False, timeout=BUSY_MS / 1000)
        else:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=BUSY_MS / 1000)
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        return db

    def _open(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._disable(f"the progress directory {self.directory} cannot be created ({exc})")
            return
        try:
            self._db = self._connect()
            self._check_and_migrate(self._db)
        except sqlite3.OperationalError as exc:
            self._fallback_readonly(exc)
        except sqlite3.DatabaseError as exc:  # not a database / malformed
            self._recover(exc)

    def _check_and_migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        problems = [r[0] for r in db.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(problems[:3]))
        if version > SCHEMA_VERSION:
            self.saving = False
            self.notice = (f"{self.path} was written by a newer tutor (schema {version}); "
                           "progress is not being saved")
            return
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        if version < SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def _recover(self, exc: Exception) -> None:
        """Keep the corrupt file (renamed with a timestamp) and start a fresh one."""
        if self._db is not None:
            self._db.close()
            self._db = None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = self.path.with_name(f"{DB_NAME}.corrupt-{stamp}")
        try:
            os.replace(self.path, kept)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(DB_NAME + suffix)
                if side.exists():
                    os.replace(side, kept.with_name(kept.name + suffix))
            self._db = self._connect()
            self._check_and_migrate(self._db)
        except (OSError, sqlite3.Error) as again:
            self._disable(f"the progress database {self.path} is damaged ({exc}) and could not "
                          f"be replaced ({again})")
            return
        self.notice = (f"The progress database was damaged ({exc}). It was kept as {kept} "
                       "and a fresh one started.")

    def _fallback_readonly(self, exc: Exception) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        try:
            if self.path.exists():
                self._db = self._connect(readonly=True)
                self._db.execute("SELECT count(*) FROM lessons").fetchone()
        except sqlite3.Error:
            self._db = None
        self._disable(f"the progress database {self.path} cannot be written ({exc})")

    def _disable(self, why: str) -> None:
        self.saving = False
        self.notice = f"Progress is not being saved: {why}."

    # ------------------------------------------------------------------ writing
    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        assert self._db is not None
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise

    def _guarded(self, fn) -> bool:
        if not self.saving or self._db is None:
            return False
        with self._lock:
            try:
                with self._write() as db:
                    fn(db)
            except sqlite3.Error as exc:
                self.notice = f"Progress was not saved: {_why(exc)}."
                return False
        return True

    def record(self, attempt: Attempt, *, total_prompts: int,
               position: tuple[int, int]) -> bool:
        """Store one attempt, update the lesson's status and resume point: one transaction."""
        if attempt.verdict not in COUNTED:
            raise ValueError(f"not a counted verdict: {attempt.verdict!r}")

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO attempts (lesson, step, prompt, answer, verdict, expected, hints, "
                "seconds, run, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (attempt.lesson, attempt.step, attempt.prompt, attempt.answer, attempt.verdict,
                 attempt.expected, attempt.hints, round(attempt.seconds, 3), attempt.run,
                 attempt.at or now()))
            status = self._run_status(db, attempt.lesson, attempt.run, total_prompts)
            row = db.execute("SELECT status FROM lessons WHERE lesson = ?",
                             (attempt.lesson,)).fetchone()
            if row is not None:
                status = better(row[0], status)
            self._upsert(db, attempt.lesson, status, position, attempt.run)

        return self._guarded(write)

    def set_position(self, lesson: str, position: tuple[int, int], run: str) -> bool:
        """Remember where the learner is (opening a lesson, moving to a step)."""

        def write(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT status FROM lessons WHERE lesson = ?", (lesson,)).fetchone()
            self._upsert(db, lesson, row[0] if row else "new", position, run)

        return self._guarded(write)

    def reset(self, lesson: str | None = None) -> bool:
        """Forget everything (or one lesson's attempts, status and resume point)."""

        def write(db: sqlite3.Connection) -> None:
            if lesson is None:
                for table in ("attempts", "lessons", "meta"):
                    db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            else:
                db.execute("DELETE FROM attempts WHERE lesson = ?", (lesson,))
                db.execute("DELETE FROM lessons WHERE lesson = ?", (lesson,))
                db.execute("DELETE FROM meta WHERE key = 'last' AND value = ?", (lesson,))

        return self._guarded(write)

    @staticmethod
    def _upsert(db: sqlite3.Connection, lesson: str, status: str, position: tuple[int, int],
                run: str) -> None:
        db.execute(
            "INSERT INTO lessons (lesson, status, step, prompt, run, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (lesson) DO UPDATE SET status = excluded.status,"
            " step = excluded.step, prompt = excluded.prompt, run = excluded.run,"
            " updated = excluded.updated",
            (lesson, status, position[0], position[1], run, now()))
        db.execute("INSERT INTO meta (key, value) VALUES ('last', ?) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (lesson,))

    @staticmethod
    def _run_status(db: sqlite3.Connection, lesson: str, run: str, total: int) -> str:
        """tried: some questions answered; done: all; perfect: all right first time, no hints."""
        rows = db.execute(
            "SELECT step, prompt, verdict, hints FROM attempts WHERE lesson = ? AND run = ? "
            "ORDER BY id", (lesson, run)).fetchall()
        first: dict[tuple[int, int], tuple[str, int]] = {}
        for step, prompt, verdict, hints in rows:
            first.setdefault((step, prompt), (verdict, hints))
        if len(first) < total:
            return "tried"
        clean = all(v == "correct" and h == 0 for v, h in first.values())
        return "perfect" if clean else "done"

    # ------------------------------------------------------------------ reading
    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        if self._db is None:
            return []
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                self.notice = f"Progress could not be read: {exc}."
                return []

    def lesson(self, lesson: str) -> LessonProgress:
        rows = self._read("SELECT lesson, status, step, prompt, run, updated FROM lessons "
                          "WHERE lesson = ?", (lesson,))
        return LessonProgress(*rows[0]) if rows else LessonProgress(lesson)

    def lessons(self) -> dict[str, LessonProgress]:
        rows = self._read("SELECT lesson, status, step, prompt, run, updated FROM lessons")
        return {r[0]: LessonProgress(*r) for r in rows}

    def last(self) -> str | None:
        """The lesson the learner touched last."""
        rows = self._read("SELECT value FROM meta WHERE key = 'last'")
        return rows[0][0] if rows else None

    def attempts(self, lesson: str | None = None) -> list[Attempt]:
        sql = ("SELECT lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at "
               "FROM attempts")
        rows = (self._read(sql + " WHERE lesson = ? ORDER BY id", (lesson,)) if lesson
                else self._read(sql + " ORDER BY id"))
        return [Attempt(*r) for r in rows]

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
