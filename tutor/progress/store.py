"""The progress database: every attempt, each lesson's status and where the learner left off,
and each missed prompt's review card (spaced review, see `tutor.progress.schedule`).

SQLite in WAL mode with a busy timeout; every write is one `BEGIN IMMEDIATE`
transaction (one attempt and its review card = one transaction), so a crash or kill
at any moment loses at most the attempt being written.  A corrupt file is moved
aside (kept, with a timestamp) and a fresh one created; a read-only or locked
database never raises into the caller: writes return False and `notice` says why.
An older database is upgraded in place, in one transaction, keeping every row.
Pure: stdlib only (and `fsrs`, on the first review).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.progress import schedule

if TYPE_CHECKING:  # pragma: no cover
    from tutor.progress import review

SCHEMA_VERSION = 2
DB_NAME = "progress.db"
BUSY_MS = 5000
STATUSES = ("new", "tried", "done", "perfect")
COUNTED = ("correct", "partial", "incorrect", "revealed")
CONFIDENCES = schedule.CONFIDENCES

Clock = Callable[[], datetime]
Variant = tuple[tuple[str, str], ...]  # the values a lesson drew for a run: (name, text)

# MIGRATIONS[n] upgrades a database of schema n to n + 1 (a new file runs them all).
SCHEMA_1 = """
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
SCHEMA_2 = """
ALTER TABLE attempts ADD COLUMN confidence TEXT NOT NULL DEFAULT 'sure';  -- sure / guess
ALTER TABLE attempts ADD COLUMN variant TEXT NOT NULL DEFAULT '';  -- JSON: the drawn values
ALTER TABLE attempts ADD COLUMN review INTEGER NOT NULL DEFAULT 0;  -- 1: a review of a card
CREATE TABLE reviews (
    lesson TEXT NOT NULL,
    step INTEGER NOT NULL,
    prompt INTEGER NOT NULL,
    card TEXT NOT NULL,                    -- the fsrs Card, as JSON
    due TEXT NOT NULL,                     -- when it comes back (ISO 8601, UTC)
    reviews INTEGER NOT NULL DEFAULT 0,    -- reviews since the answer that made the card
    lapses INTEGER NOT NULL DEFAULT 0,     -- reviews rated Again
    rating INTEGER NOT NULL,               -- the last rating: 1 again, 2 hard, 3 good
    last TEXT NOT NULL,                    -- when it was last answered
    PRIMARY KEY (lesson, step, prompt)
);
CREATE INDEX reviews_due ON reviews (due);
"""
MIGRATIONS = (SCHEMA_1, SCHEMA_2)
assert len(MIGRATIONS) == SCHEMA_VERSION


def data_dir() -> Path:
    """Where progress lives: $TUTOR_HOME, else the platform's user data directory."""
    home = os.environ.get("TUTOR_HOME", "").strip()
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("tutor"))


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


def _variant_json(variant: Variant) -> str:
    return json.dumps(dict(variant), ensure_ascii=False) if variant else ""


def _variant_of(text: str) -> Variant:
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return ()
    return tuple((str(k), str(v)) for k, v in data.items()) if isinstance(data, dict) else ()


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
    at: str = ""  # when (ISO 8601); empty: the store's clock at recording
    confidence: str = "sure"  # sure / guess: how sure the learner was of the prediction
    variant: Variant = ()  # the values the lesson drew for this run (see lesson `vary:`)
    review: bool = False  # set by the store: a first answer to a prompt with a review card

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.lesson, self.step, self.prompt)


ATTEMPT_COLUMNS = ("lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at, "
                   "confidence, variant, review")


def _attempt(row: tuple) -> Attempt:
    """An attempt from a row of ATTEMPT_COLUMNS."""
    (lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at, confidence,
     variant, review) = row
    return Attempt(lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at,
                   confidence=confidence, variant=_variant_of(variant), review=bool(review))


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

    def __init__(self, directory: Path | None = None, *, clock: Clock | None = None):
        self.directory = Path(directory) if directory is not None else data_dir()
        self.clock: Clock = clock or system_clock  # tests pass a fake one
        self.path = self.directory / DB_NAME
        self.notice: str | None = None  # something the learner should be told
        self.saving = True
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.schema = SCHEMA_VERSION  # of the file as opened (older if it could not upgrade)
        self._open()
        if self._db is not None:
            try:
                self.schema = self._db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error:
                self.schema = 0

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
                # another process may have upgraded it while this one waited for the lock
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for n in range(version, SCHEMA_VERSION):
                    for statement in MIGRATIONS[n].split(";"):
                        if statement.strip():
                            db.execute(statement)
                    if n == 1:
                        self._schedule_history(db)
                if version < SCHEMA_VERSION:
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def _schedule_history(self, db: sqlite3.Connection) -> None:
        """Schema 1 -> 2: give the prompts already missed their review cards, as if the
        scheduler had seen every first answer when it was made (all taken as sure)."""
        seen: set[tuple[str, int, int, str]] = set()
        rows = db.execute(f"SELECT id, {ATTEMPT_COLUMNS} FROM attempts ORDER BY id").fetchall()
        for attempt_id, *row in rows:
            attempt = _attempt(tuple(row))
            first = not attempt.run or (*attempt.key, attempt.run) not in seen
            seen.add((*attempt.key, attempt.run))
            try:
                when = datetime.fromisoformat(attempt.at)
            except ValueError:
                when = self.clock()
            if self._schedule(db, attempt, when, first):
                db.execute("UPDATE attempts SET review = 1 WHERE id = ?", (attempt_id,))

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

    def _guarded(self, fn: Callable[[sqlite3.Connection], None]) -> bool:
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
               position: tuple[int, int] | None) -> bool:
        """Store one attempt, update the lesson's status and resume point and, for the
        run's first answer to the prompt, its review card: one transaction.

        `position` None: an answer given outside the lesson's sitting (a question asked
        again in a review): the lesson's resume point and sitting stay as they are."""
        if attempt.verdict not in COUNTED:
            raise ValueError(f"not a counted verdict: {attempt.verdict!r}")
        if attempt.confidence not in CONFIDENCES:
            raise ValueError(f"confidence must be one of {CONFIDENCES}, "
                             f"not {attempt.confidence!r}")
        when = self.clock()
        if attempt.at:
            try:
                when = datetime.fromisoformat(attempt.at)
            except ValueError:
                raise ValueError(f"not an ISO 8601 time: {attempt.at!r}") from None

        def write(db: sqlite3.Connection) -> None:
            first = not attempt.run or db.execute(
                "SELECT 1 FROM attempts WHERE lesson = ? AND step = ? AND prompt = ? AND run = ?"
                " LIMIT 1", (*attempt.key, attempt.run)).fetchone() is None
            review = self._schedule(db, attempt, when, first)
            db.execute(
                "INSERT INTO attempts (lesson, step, prompt, answer, verdict, expected, hints, "
                "seconds, run, at, confidence, variant, review) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (attempt.lesson, attempt.step, attempt.prompt, attempt.answer, attempt.verdict,
                 attempt.expected, attempt.hints, round(attempt.seconds, 3), attempt.run,
                 attempt.at or schedule.stamp(when), attempt.confidence,
                 _variant_json(attempt.variant), int(review)))
            status = self._run_status(db, attempt.lesson, attempt.run, total_prompts)
            row = db.execute("SELECT status, step, prompt, run FROM lessons WHERE lesson = ?",
                             (attempt.lesson,)).fetchone()
            if row is not None:
                status = better(row[0], status)
            place, run = position, attempt.run
            if place is None:
                place, run = ((row[1], row[2]), row[3]) if row is not None else ((0, 0), "")
            self._upsert(db, attempt.lesson, status, place, run, when)

        return self._guarded(write)

    @staticmethod
    def _schedule(db: sqlite3.Connection, attempt: Attempt, when: datetime,
                  first: bool) -> bool:
        """Review the prompt's card with a run's first answer (making the card when the
        answer shows the prompt is not known yet).  True if it was a review of a card."""
        if not first:
            return False  # a later try in the same run: the live value has been seen
        row = db.execute("SELECT card, reviews, lapses FROM reviews WHERE lesson = ? AND "
                         "step = ? AND prompt = ?", attempt.key).fetchone()
        grade = schedule.rating(attempt.verdict, attempt.confidence, attempt.hints)
        if row is None and grade == schedule.GOOD:
            return False
        card, reviews, lapses = row if row is not None else (None, -1, 0)
        state = schedule.review(card, grade, when)
        db.execute(
            "INSERT INTO reviews (lesson, step, prompt, card, due, reviews, lapses, rating, last) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lesson, step, prompt) DO UPDATE SET "
            "card = excluded.card, due = excluded.due, reviews = excluded.reviews, "
            "lapses = excluded.lapses, rating = excluded.rating, last = excluded.last",
            (*attempt.key, state.card, schedule.stamp(state.due), reviews + 1,
             lapses + (grade == schedule.AGAIN and row is not None), grade,
             schedule.stamp(when)))
        return row is not None

    def set_position(self, lesson: str, position: tuple[int, int], run: str) -> bool:
        """Remember where the learner is (opening a lesson, moving to a step)."""

        def write(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT status FROM lessons WHERE lesson = ?", (lesson,)).fetchone()
            self._upsert(db, lesson, row[0] if row else "new", position, run, self.clock())

        return self._guarded(write)

    def reset(self, lesson: str | None = None) -> bool:
        """Forget everything (or one lesson's attempts, status and resume point)."""

        def write(db: sqlite3.Connection) -> None:
            if lesson is None:
                for table in ("attempts", "lessons", "meta", "reviews"):
                    db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            else:
                db.execute("DELETE FROM attempts WHERE lesson = ?", (lesson,))
                db.execute("DELETE FROM lessons WHERE lesson = ?", (lesson,))
                db.execute("DELETE FROM reviews WHERE lesson = ?", (lesson,))
                db.execute("DELETE FROM meta WHERE key = 'last' AND value = ?", (lesson,))

        return self._guarded(write)

    @staticmethod
    def _upsert(db: sqlite3.Connection, lesson: str, status: str, position: tuple[int, int],
                run: str, when: datetime) -> None:
        db.execute(
            "INSERT INTO lessons (lesson, status, step, prompt, run, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (lesson) DO UPDATE SET status = excluded.status,"
            " step = excluded.step, prompt = excluded.prompt, run = excluded.run,"
            " updated = excluded.updated",
            (lesson, status, position[0], position[1], run, schedule.stamp(when)))
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
        """Every attempt (of one lesson), oldest first."""
        columns = ATTEMPT_COLUMNS
        if self.schema < 2:  # a database that could not be upgraded (read-only): still shown
            columns = columns.replace("confidence, variant, review", "'sure', '', 0")
        sql = f"SELECT {columns} FROM attempts"
        rows = (self._read(sql + " WHERE lesson = ? ORDER BY id", (lesson,)) if lesson
                else self._read(sql + " ORDER BY id"))
        return [_attempt(r) for r in rows]

    def cards(self, *, due_by: datetime | None = None) -> list[schedule.ReviewItem]:
        """The review cards (only those due by `due_by`, if given), soonest due first."""
        if self.schema < 2:
            return []
        sql = "SELECT lesson, step, prompt, due, reviews, lapses, rating, last FROM reviews"
        args: tuple = ()
        if due_by is not None:
            sql += " WHERE due <= ?"
            args = (schedule.stamp(due_by),)
        rows = self._read(sql + " ORDER BY due, lesson, step, prompt", args)
        return [schedule.ReviewItem(r[0], r[1], r[2], datetime.fromisoformat(r[3]), r[4], r[5],
                                    r[6], datetime.fromisoformat(r[7])) for r in rows]

    def due(self, now: datetime | None = None) -> list[schedule.ReviewItem]:
        """The prompts due for review now (by the store's clock), longest due first."""
        return self.cards(due_by=now or self.clock())

    def due_count(self, now: datetime | None = None) -> int:
        """How many prompts are due for review now: one cheap query (for the catalog)."""
        if self.schema < 2:
            return 0
        rows = self._read("SELECT count(*) FROM reviews WHERE due <= ?",
                          (schedule.stamp(now or self.clock()),))
        return rows[0][0] if rows else 0

    # the learner's history, read (see tutor.progress.review)
    def mistakes(self) -> list[review.Mistake]:
        """Prompts answered wrong or revealed and not answered right since."""
        from tutor.progress import review

        return review.mistakes(self.attempts())

    def calibration(self) -> review.Calibration:
        """Sure and right, sure and wrong, guessed and right, guessed and wrong."""
        from tutor.progress import review

        return review.calibration(self.attempts())

    def history(self, tz: tzinfo | None = None) -> list[review.Day]:
        """Answers, right answers and reviews per day (local days unless `tz`)."""
        from tutor.progress import review

        return review.history(self.attempts(), tz)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
