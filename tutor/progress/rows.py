"""Rows of the progress database, read without trusting them.

SQLite keeps whatever a column is given (text in an INTEGER column stays text), and a
database may have been edited by hand, written by a newer tutor or damaged in a way
`PRAGMA quick_check` does not see.  Each reader here turns one raw row into the value
the rest of tutor relies on, or says why it cannot:

* a row whose *key* is unusable (a lesson id that is not text, a step or question
  number that is not a whole number >= 0, a verdict tutor does not know, a review
  card's due date that is no date) is left out;
* a row with a bad *detail* (a status tutor does not know, text where a count or a
  number of seconds belongs, an unknown confidence, a time that is not text) is read
  with a stated default.

Either way the problem is returned as one line naming the table, the row and the
value, for the learner to be told (`ProgressStore.problems`).  Pure: stdlib only.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from tutor.states import LESSON_STATUSES, OUTCOMES, LessonStatus

STATUSES = LESSON_STATUSES
COUNTED = OUTCOMES
CONFIDENCES = ("sure", "guess")
# a status this tutor does not know: the lesson was at least opened
UNKNOWN_STATUS: LessonStatus = "tried"

Problems = list[str]


def shown(value: object) -> str:
    """A stored value in a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_index(value: object) -> bool:
    """A step or question number as stored: a whole number >= 0 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def is_count(value: object) -> bool:
    return is_index(value)


def text(value: object) -> str:
    """A text column: text as it is; NULL as empty; anything else as its str()."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else str(value)


def moment(value: object) -> datetime | None:
    """A stored time (ISO 8601 text) as an aware UTC datetime, or None if it is none."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


def variant(value: object) -> tuple[tuple[str, str], ...]:
    """The values a run drew, from their JSON (empty when there is none or it is bad)."""
    if not isinstance(value, str) or not value:
        return ()
    try:
        data = json.loads(value)
    except ValueError:
        return ()
    return tuple((str(k), str(v)) for k, v in data.items()) if isinstance(data, dict) else ()


def attempt_fields(row_id: object, row: tuple[Any, ...],
                   problems: Problems) -> dict[str, Any] | None:
    """The fields of an `Attempt` from a row of `store.ATTEMPT_COLUMNS`, or None when the
    row cannot be one (its problems appended to `problems`)."""
    (lesson, step, prompt, answer, verdict, expected, hints, seconds, run, at, confidence,
     drawn, review) = row
    where = f"attempts row {row_id}"
    if not isinstance(lesson, str) or not lesson:
        problems.append(f"{where}: the lesson {shown(lesson)} is not a lesson id: left out")
        return None
    for name, value in (("step", step), ("question", prompt)):
        if not is_index(value):
            problems.append(f"{where} ({lesson}): the {name} number {shown(value)} is not a "
                            "whole number: left out")
            return None
    if verdict not in COUNTED:
        problems.append(f"{where} ({lesson}): the verdict {shown(verdict)} is not one tutor "
                        f"knows ({', '.join(COUNTED)}): left out")
        return None
    if not is_count(hints):
        problems.append(f"{where} ({lesson}): the hint count {shown(hints)} is not a whole "
                        "number: read as 0")
        hints = 0
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
            0 <= seconds < 1e9):
        problems.append(f"{where} ({lesson}): the time taken {shown(seconds)} is not a number "
                        "of seconds: read as 0")
        seconds = 0.0
    if confidence not in CONFIDENCES:
        problems.append(f"{where} ({lesson}): the confidence {shown(confidence)} is not one "
                        "tutor knows: read as 'sure'")
        confidence = "sure"
    if not isinstance(at, str):
        problems.append(f"{where} ({lesson}): the time {shown(at)} is not a date: read as none")
        at = ""
    return {"lesson": lesson, "step": step, "prompt": prompt, "answer": text(answer),
            "verdict": verdict, "expected": text(expected), "hints": hints,
            "seconds": float(seconds), "run": text(run), "at": at, "confidence": confidence,
            "variant": variant(drawn), "review": review in (1, True)}


def lesson_fields(row: tuple[Any, ...], problems: Problems) -> dict[str, Any] | None:
    """The fields of a `LessonProgress` from (lesson, status, step, prompt, run, updated)."""
    lesson, status, step, prompt, run, updated = row
    if not isinstance(lesson, str) or not lesson:
        problems.append(f"lessons row {shown(lesson)}: not a lesson id: left out")
        return None
    where = f"lessons row {lesson!r}"
    if status not in STATUSES:
        problems.append(f"{where}: the status {shown(status)} is not one tutor knows "
                        f"({', '.join(STATUSES)}; written by a newer tutor, or edited?): "
                        f"read as '{UNKNOWN_STATUS}'")
        status = UNKNOWN_STATUS
    if not (is_index(step) and is_index(prompt)):
        problems.append(f"{where}: the resume point ({shown(step)}, {shown(prompt)}) is not "
                        "two whole numbers: the lesson resumes at its start")
        step, prompt = 0, 0
    return {"lesson": lesson, "status": status, "step": step, "prompt": prompt,
            "run": text(run), "updated": text(updated)}


def card_fields(row: tuple[Any, ...], problems: Problems) -> dict[str, Any] | None:
    """The fields of a `schedule.ReviewItem` from (lesson, step, prompt, due, reviews,
    lapses, rating, last), or None when the card cannot be scheduled."""
    lesson, step, prompt, due, reviews, lapses, rating, last = row
    where = f"reviews row ({shown(lesson)}, {shown(step)}, {shown(prompt)})"
    if not (isinstance(lesson, str) and lesson and is_index(step) and is_index(prompt)):
        problems.append(f"{where}: not a lesson id with step and question numbers: left out")
        return None
    when = moment(due)
    if when is None:
        problems.append(f"{where}: the due date {shown(due)} is not a date: left out of the "
                        "schedule until the question is answered again")
        return None
    last_when = moment(last)
    if last_when is None:
        problems.append(f"{where}: the last answer's date {shown(last)} is not a date: read "
                        "as the due date")
        last_when = when
    counts = []
    for name, value in (("review count", reviews), ("lapse count", lapses)):
        if not is_count(value):
            problems.append(f"{where}: the {name} {shown(value)} is not a whole number: read "
                            "as 0")
            value = 0
        counts.append(value)
    if rating not in (1, 2, 3):
        problems.append(f"{where}: the last rating {shown(rating)} is not 1, 2 or 3: read as 1")
        rating = 1
    return {"lesson": lesson, "step": step, "prompt": prompt, "due": when,
            "reviews": counts[0], "lapses": counts[1], "rating": rating, "last": last_when}
