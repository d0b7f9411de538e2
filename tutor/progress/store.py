"""The progress database: every attempt, each lesson's status and where the learner left off,
and each missed prompt's review card (spaced review, see `tutor.progress.schedule`).

SQLite in WAL mode with a busy timeout; every write is one `BEGIN IMMEDIATE`
transaction (one attempt and its review card = one transaction), so a crash or kill
at any moment loses at most the attempt being written.  A corrupt file is moved
aside (kept, with a timestamp) and a fresh one created; a read-only or locked
database never raises into the caller: writes return False and `notice` says why.
On a read-only file system the database is still read (opened read-only, or as
immutable when its WAL index cannot be made).  An older database is upgraded in
place, in one transaction, keeping every row.

No row is trusted (`tutor.progress.rows`): a row tutor cannot use is left out, or
read with a stated default, and said in `problems`; a bad review card or lesson row
never stops an answer from being saved.  A database file deleted or replaced while
the store is open (lesson code can do that) is noticed before the next write: the
store writes what it had back to the path (or, if another file took its place, keeps
it beside it), goes on saving, and says so in `take_news()`.
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
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import TypeVar

from tutor.i18n import _, ngettext
from tutor.progress import review, rows, schedule
from tutor.progress.records import Attempt, LessonProgress, Variant, better
from tutor.states import LessonStatus

SCHEMA_VERSION = 2
DB_NAME = "progress.db"
BUSY_MS = 5000
STATUSES = rows.STATUSES
COUNTED = rows.COUNTED
CONFIDENCES = schedule.CONFIDENCES
MAX_PROBLEMS = 50  # bad rows described, at most (then: how many more)

Clock = Callable[[], datetime]
T = TypeVar("T")

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


ATTEMPT_COLUMNS = ("lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at, "
                   "confidence, variant, review")


def _attempt(row_id: object, row: tuple, problems: list[str]) -> Attempt | None:
    """An attempt from a row of ATTEMPT_COLUMNS, or None if the row cannot be one."""
    fields = rows.attempt_fields(row_id, row, problems)
    return Attempt(**fields) if fields is not None else None


def _rollback(db: sqlite3.Connection) -> None:
    """Undo a failed transaction, if SQLite has not already (it has after "disk full"):
    a ROLLBACK that fails must not hide the error that made it necessary."""
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _busy(exc: sqlite3.Error) -> bool:
    """Another connection holds the file for a moment (SQLITE_BUSY, SQLITE_LOCKED and
    their extended codes).  SQLite waits out most of these itself (the busy timeout),
    but not all: a connection opening or querying while the last one to close cleans up
    the WAL, or while another runs recovery, is told BUSY at once (sqlite.org/wal.html)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (5, 6)
    return "locked" in str(exc)


def _retrying(step: Callable[[], T]) -> T:
    """`step()`, tried again while the file is busy, for up to the busy timeout (then
    the busy error is raised as any other)."""
    give_up = time.monotonic() + BUSY_MS / 1000
    pause = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() + pause > give_up:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def _read_only_fs(directory: Path) -> bool:
    """Whether `directory` is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # (no statvfs on Windows)
        return False


def _why(exc: sqlite3.Error) -> str:
    """A write error, named for a person."""
    text = str(exc)
    if getattr(exc, "sqlite_errorcode", None) == 13 or "disk is full" in text:  # SQLITE_FULL
        return _("the disk is full (free some space; your earlier progress is kept)")
    if "readonly" in text or "read-only" in text:
        return _("the progress database cannot be written ({why})").format(why=text)
    return text


class ProgressStore:
    """The learner's progress in one SQLite file.  Thread-safe; never raises on write."""

    def __init__(self, directory: Path | None = None, *, clock: Clock | None = None):
        self.directory = Path(directory) if directory is not None else data_dir()
        self.clock: Clock = clock or system_clock  # tests pass a fake one
        self.path = self.directory / DB_NAME
        self.notice: str | None = None  # something the learner should be told
        self.problems: list[str] = []  # rows that were left out or read with defaults
        self.saving = True
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._seen: set[str] = set()  # problems already in `problems`
        self._news: list[str] = []  # said once, by `take_news`
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file opened
        self.schema = SCHEMA_VERSION  # of the file as opened (older if it could not upgrade)
        self._open()
        if self._db is not None:
            try:
                self.schema = self._db.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error:
                self.schema = 0

    # ------------------------------------------------------------------ opening
    def _connect(self, readonly: bool | str = False) -> sqlite3.Connection:
        """A connection to the file (`readonly`: True or "mode=ro", or "immutable=1")."""
        if readonly:
            how = "mode=ro" if readonly is True else readonly
            uri = f"{self.path.absolute().as_uri()}?{how}"
            db = sqlite3.connect(uri, uri=True, isolation_level=None,
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
            self._disable(_("the progress directory {path} cannot be created ({why})").format(
                path=self.directory, why=exc))
            return
        try:
            _retrying(self._connect_and_check)
        except sqlite3.OperationalError as exc:
            self._fallback_readonly(exc)
        except sqlite3.DatabaseError as exc:  # not a database / malformed
            self._recover(exc)
        if self.saving and self._db is not None:
            self._identity = self._file_id()

    def _connect_and_check(self) -> None:
        if self._db is not None:  # (a try that found the file busy)
            self._db.close()
        self._db = None
        self._db = self._connect()
        self._check_and_migrate(self._db)

    def _check_and_migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        problems = [r[0] for r in db.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(problems[:3]))
        if version > SCHEMA_VERSION:
            self.saving = False
            self.notice = _("{path} was written by a newer tutor (schema {version}); progress "
                            "is not being saved").format(path=self.path, version=version)
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
        found = db.execute(f"SELECT id, {ATTEMPT_COLUMNS} FROM attempts ORDER BY id").fetchall()
        problems: list[str] = []
        for attempt_id, *row in found:
            attempt = _attempt(attempt_id, tuple(row), problems)
            if attempt is None:
                continue  # (kept as it is; `attempts()` says why it is left out)
            first = not attempt.run or (*attempt.key, attempt.run) not in seen
            seen.add((*attempt.key, attempt.run))
            try:
                when = datetime.fromisoformat(attempt.at)
            except ValueError:
                when = self.clock()
            if self._schedule(db, attempt, when, first, problems):
                db.execute("UPDATE attempts SET review = 1 WHERE id = ?", (attempt_id,))
        self._note(problems)

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
            self._disable(_("the progress database {path} is damaged ({why}) and could not "
                            "be replaced ({again})").format(path=self.path, why=exc, again=again))
            return
        self.notice = _("The progress database was damaged ({why}). It was kept as {kept} and "
                        "a fresh one started.").format(why=exc, kept=kept)

    def _fallback_readonly(self, exc: Exception) -> None:
        """Open the file to read only: what is saved is still shown.  A database in WAL
        mode needs its `-shm` index to be read, which a read-only file system cannot
        hold: then it is read as immutable (what the last checkpoint wrote)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self.path.exists():
            for how in ("mode=ro", "immutable=1"):
                try:
                    self._db = self._connect(readonly=how)
                    self._db.execute("SELECT count(*) FROM lessons").fetchone()
                    break
                except sqlite3.Error:
                    if self._db is not None:
                        self._db.close()
                    self._db = None
        why = f"{exc}"
        if _read_only_fs(self.directory):
            why = _("the file system it is on is read-only")
        if self._db is not None:
            self._disable(_("the progress database {path} cannot be written ({why}); your "
                            "progress so far is shown, but new answers are not saved").format(
                path=self.path, why=why))
        else:
            self._disable(_("the progress database {path} cannot be written ({why}); new "
                            "answers are not saved").format(path=self.path, why=why))

    def _disable(self, why: str) -> None:
        self.saving = False
        self.notice = _("Progress is not being saved: {why}.").format(why=why)

    # ------------------------------------------------------------------ what to tell
    def _note(self, problems: list[str]) -> None:
        """Add rows found bad to `problems` (each once; at most MAX_PROBLEMS described)."""
        for problem in problems:
            if problem in self._seen:
                continue
            self._seen.add(problem)
            if len(self.problems) < MAX_PROBLEMS:
                self.problems.append(problem)
            elif len(self.problems) == MAX_PROBLEMS:
                self.problems.append(_("... and more rows like these"))

    def _say(self, news: str) -> None:
        self.notice = news
        self._news.append(news)

    def take_news(self) -> list[str]:
        """What happened to the database since the last call that the learner should be
        told now (it was deleted or replaced and written again), each said once."""
        with self._lock:
            news, self._news = self._news, []
        return news

    def problem_summary(self) -> str | None:
        """One paragraph on the rows that were left out or read with defaults, or None."""
        if not self.problems:
            return None
        bad = [p for p in self.problems if not p.startswith("...")]
        n = f"{len(bad)}{'+' if len(bad) < len(self.problems) else ''}"
        head = ngettext("{n} row of the progress database {path} could not be read as written "
                        "(edited by hand, or written by another version of tutor?); the rest is "
                        "shown and new answers are still saved:",
                        "{n} rows of the progress database {path} could not be read as written "
                        "(edited by hand, or written by another version of tutor?); the rest "
                        "is shown and new answers are still saved:", len(bad)).format(
            n=n, path=self.path)
        return "\n".join([head, *(f"  {p}" for p in self.problems)])

    # ------------------------------------------------------------------ the file itself
    def _file_id(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return (found.st_dev, found.st_ino)

    def _check_file(self) -> None:
        """Before a write (under the lock): is the file at `path` still the one this
        connection writes?  Lesson code can delete or replace it; writes to a deleted
        file would vanish with it, silently."""
        if self._identity is None or self._db is None:
            return
        now = self._file_id()
        if now == self._identity:
            return
        self._rescue(missing=now is None)

    def _rescue(self, *, missing: bool) -> None:
        """Our file is gone (or another took its place): copy what this connection still
        reads into memory, close it, then write the copy back to `path` (gone) or beside
        it (replaced), and open `path` again."""
        old = self._db
        assert old is not None
        memory = sqlite3.connect(":memory:")
        copy: sqlite3.Connection | None = memory
        try:
            old.backup(memory)
        except sqlite3.Error:
            memory.close()
            copy = None
        old.close()  # (SQLite neither checkpoints nor removes the -wal of a moved file)
        self._db = None
        self._identity = None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path if missing else self.path.with_name(f"{DB_NAME}.kept-{stamp}")
        for suffix in ("-wal", "-shm"):  # the old file's: they must not be read as the
            side = self.path.with_name(DB_NAME + suffix)  # new file's (its pages would be)
            try:
                if missing:
                    side.unlink(missing_ok=True)
                elif side.exists():  # (perhaps the replacement's own: kept, not deleted)
                    os.replace(side, target.with_name(target.name + suffix))
            except OSError:
                pass
        kept = False
        if copy is not None:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                out = sqlite3.connect(target)
                try:
                    copy.backup(out)
                finally:
                    out.close()
                kept = True
            except (OSError, sqlite3.Error):
                kept = False
            finally:
                copy.close()
        before = self.notice
        self.notice = None
        self._open()
        if not self.saving:
            why = (self.notice or _("it cannot be written")).rstrip(".")
            self._say((_("The progress database {path} was deleted while tutor was running, "
                         "and {why}.") if missing else
                       _("The progress database {path} was replaced while tutor was running, "
                         "and {why}.")).format(path=self.path, why=why))
            return
        if self.notice and self.notice != before:  # (a damaged replacement, kept aside)
            self._news.append(self.notice)
        if missing:
            self._say((_("The progress database {path} was deleted while tutor was running "
                         "(lesson code can delete your files). It was written again with "
                         "everything this session had, and answers are being saved again.")
                       if kept else
                       _("The progress database {path} was deleted while tutor was running "
                         "(lesson code can delete your files). It was started afresh (what it "
                         "held could not be read back), and answers are being saved again."))
                      .format(path=self.path))
        else:
            self._say((_("The progress database {path} was replaced by another file while "
                         "tutor was running. What this session had is kept in {target}; "
                         "answers from now on are saved in {path}.") if kept else
                       _("The progress database {path} was replaced by another file while "
                         "tutor was running. What this session had is lost (it could not be "
                         "read back); answers from now on are saved in {path}."))
                      .format(path=self.path, target=target))

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

    def _in_one_write(self, fn: Callable[[sqlite3.Connection], None]) -> None:
        with self._write() as db:
            fn(db)

    def _guarded(self, fn: Callable[[sqlite3.Connection], None],
                 plain: Callable[[sqlite3.Connection], None] | None = None) -> bool:
        """Run `fn` in one write transaction.  If it fails on what the database holds
        (not on SQLite itself), `plain` (the bare attempt) is written instead, so that
        an answer is never lost to a bad row."""
        if not self.saving or self._db is None:
            return False
        with self._lock:
            try:
                self._check_file()
                if not self.saving or self._db is None:
                    return False
                try:
                    _retrying(lambda: self._in_one_write(fn))
                except (sqlite3.Error, MemoryError):
                    raise
                except Exception as exc:  # a row the code did not foresee
                    if plain is None:
                        self.notice = _("Progress was not saved: {why}.").format(
                            why=f"{type(exc).__name__}: {exc}")
                        return False
                    _retrying(lambda: self._in_one_write(plain))
                    self._note([_("while saving an answer: {why}: the answer was saved without "
                                  "its review card and lesson status").format(
                                      why=f"{type(exc).__name__}: {exc}")])
            except sqlite3.Error as exc:
                if getattr(exc, "sqlite_errorcode", None) == 8 or "readonly" in str(exc):
                    self._disable(_("the progress database {path} cannot be written ({why}); "
                                    "your progress so far is shown, but new answers are not "
                                    "saved").format(path=self.path, why=exc))
                    return False  # (SQLITE_READONLY: it will not pass)
                self.notice = _("Progress was not saved: {why}.").format(why=_why(exc))
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

        problems: list[str] = []

        def insert(db: sqlite3.Connection, review: bool) -> None:
            db.execute(
                "INSERT INTO attempts (lesson, step, prompt, answer, verdict, expected, hints, "
                "seconds, run, at, confidence, variant, review) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (attempt.lesson, attempt.step, attempt.prompt, attempt.answer, attempt.verdict,
                 attempt.expected, attempt.hints, round(attempt.seconds, 3), attempt.run,
                 attempt.at or schedule.stamp(when), attempt.confidence,
                 _variant_json(attempt.variant), int(review)))

        def write(db: sqlite3.Connection) -> None:
            first = not attempt.run or db.execute(
                "SELECT 1 FROM attempts WHERE lesson = ? AND step = ? AND prompt = ? AND run = ?"
                " LIMIT 1", (*attempt.key, attempt.run)).fetchone() is None
            review = self._schedule(db, attempt, when, first, problems)
            insert(db, review)
            status = self._run_status(db, attempt.lesson, attempt.run, total_prompts)
            raw = db.execute("SELECT lesson, status, step, prompt, run, updated FROM lessons "
                             "WHERE lesson = ?", (attempt.lesson,)).fetchone()
            row = rows.lesson_fields(raw, problems) if raw is not None else None
            if raw is not None:
                status = better(raw[1], status)  # (a status tutor does not know is replaced)
            place, run = position, attempt.run
            if place is None:
                place, run = ((row["step"], row["prompt"]), row["run"]) if row else ((0, 0), "")
            self._upsert(db, attempt.lesson, status, place, run, when)

        saved = self._guarded(write, lambda db: insert(db, False))
        self._note(problems)
        return saved

    @staticmethod
    def _schedule(db: sqlite3.Connection, attempt: Attempt, when: datetime,
                  first: bool, problems: list[str]) -> bool:
        """Review the prompt's card with a run's first answer (making the card when the
        answer shows the prompt is not known yet).  True if it was a review of a card.
        A card that cannot be read (bad JSON, text for a count) is started again."""
        if not first:
            return False  # a later try in the same run: the live value has been seen
        row = db.execute("SELECT card, reviews, lapses FROM reviews WHERE lesson = ? AND "
                         "step = ? AND prompt = ?", attempt.key).fetchone()
        grade = schedule.rating(attempt.verdict, attempt.confidence, attempt.hints)
        if row is None and grade == schedule.GOOD:
            return False
        card, reviews, lapses = row if row is not None else (None, -1, 0)
        where = f"reviews row {attempt.key}"
        if row is not None and not (rows.is_count(reviews) and rows.is_count(lapses)):
            problems.append(f"{where}: " + _("the counts ({reviews}, {lapses}) are not whole "
                                             "numbers: counted again from 0").format(
                reviews=rows.shown(reviews), lapses=rows.shown(lapses)))
            reviews, lapses = 0, 0
        try:
            state = schedule.review(card if isinstance(card, str) else None, grade, when)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            problems.append(f"{where}: " + _("the review card {card} cannot be read ({why}): a "
                                             "new card was started").format(
                card=rows.shown(card), why=type(exc).__name__))
            state = schedule.review(None, grade, when)
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
            raw = db.execute("SELECT lesson, status, step, prompt, run, updated FROM lessons "
                             "WHERE lesson = ?", (lesson,)).fetchone()
            row = rows.lesson_fields(raw, problems) if raw is not None else None
            self._upsert(db, lesson, row["status"] if row else "new", position, run,
                         self.clock())

        problems: list[str] = []
        saved = self._guarded(write)
        self._note(problems)
        return saved

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
    def _upsert(db: sqlite3.Connection, lesson: str, status: LessonStatus,
                position: tuple[int, int], run: str, when: datetime) -> None:
        db.execute(
            "INSERT INTO lessons (lesson, status, step, prompt, run, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (lesson) DO UPDATE SET status = excluded.status,"
            " step = excluded.step, prompt = excluded.prompt, run = excluded.run,"
            " updated = excluded.updated",
            (lesson, status, position[0], position[1], run, schedule.stamp(when)))
        db.execute("INSERT INTO meta (key, value) VALUES ('last', ?) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (lesson,))

    @staticmethod
    def _run_status(db: sqlite3.Connection, lesson: str, run: str,
                    total: int) -> LessonStatus:
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
                self.notice = _("Progress could not be read: {why}.").format(why=exc)
                return []

    def _lessons(self, found: list[tuple]) -> list[LessonProgress]:
        problems: list[str] = []
        out = []
        for raw in found:
            fields = rows.lesson_fields(raw, problems)
            if fields is not None:
                out.append(LessonProgress(**fields))
        self._note(problems)
        return out

    def lesson(self, lesson: str) -> LessonProgress:
        found = self._lessons(self._read("SELECT lesson, status, step, prompt, run, updated "
                                         "FROM lessons WHERE lesson = ?", (lesson,)))
        return found[0] if found else LessonProgress(lesson)

    def lessons(self) -> dict[str, LessonProgress]:
        found = self._read("SELECT lesson, status, step, prompt, run, updated FROM lessons")
        return {p.lesson: p for p in self._lessons(found)}

    def last(self) -> str | None:
        """The lesson the learner touched last."""
        found = self._read("SELECT value FROM meta WHERE key = 'last'")
        return rows.text(found[0][0]) or None if found else None

    def attempts(self, lesson: str | None = None) -> list[Attempt]:
        """Every attempt (of one lesson), oldest first."""
        columns = ATTEMPT_COLUMNS
        if self.schema < 2:  # a database that could not be upgraded (read-only): still shown
            columns = columns.replace("confidence, variant, review", "'sure', '', 0")
        sql = f"SELECT id, {columns} FROM attempts"
        found = (self._read(sql + " WHERE lesson = ? ORDER BY id", (lesson,)) if lesson
                 else self._read(sql + " ORDER BY id"))
        problems: list[str] = []
        out = [a for a in (_attempt(r[0], r[1:], problems) for r in found) if a is not None]
        self._note(problems)
        return out

    def cards(self, *, due_by: datetime | None = None) -> list[schedule.ReviewItem]:
        """The review cards (only those due by `due_by`, if given), soonest due first."""
        if self.schema < 2:
            return []
        sql = "SELECT lesson, step, prompt, due, reviews, lapses, rating, last FROM reviews"
        args: tuple = ()
        if due_by is not None:
            sql += " WHERE due <= ?"
            args = (schedule.stamp(due_by),)
        found = self._read(sql + " ORDER BY due, lesson, step, prompt", args)
        problems: list[str] = []
        items = [schedule.ReviewItem(**fields) for fields in
                 (rows.card_fields(r, problems) for r in found) if fields is not None]
        self._note(problems)
        return items

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
        return review.mistakes(self.attempts())

    def calibration(self) -> review.Calibration:
        """Sure and right, sure and wrong, guessed and right, guessed and wrong."""
        return review.calibration(self.attempts())

    def history(self, tz: tzinfo | None = None) -> list[review.Day]:
        """Answers, right answers and reviews per day (local days unless `tz`)."""
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
