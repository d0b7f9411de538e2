"""The words tutor uses for outcomes and states, as types.

One answer's outcome is written to the progress database, counted by the flow, shown by
every front end and reported by `tutor check`; each of those reads the same four words.
Spelling them as `Literal` types here (and nowhere else) makes a typo a type error
instead of a comparison that is silently never true.  Pure: stdlib only; imports nothing
of tutor (everything may import it).

The kernel's own states (ready, busy, ...) are the kernel's: see `tutor.kernel`.
"""

from __future__ import annotations

from typing import Literal, get_args

# What the judge can say of a prediction it could read (`tutor.judge.Status` but `invalid`).
Judged = Literal["correct", "partial", "incorrect"]
# A counted answer: judged, or given up on ("revealed").  Stored in the progress database.
Outcome = Literal["correct", "partial", "incorrect", "revealed"]
# What one answer did: an outcome, or `invalid` (not readable as the prompt's kind: the
# learner is asked again and nothing is counted).
AnswerStatus = Literal["correct", "partial", "incorrect", "revealed", "invalid"]

OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
JUDGED: tuple[Judged, ...] = get_args(Judged)  # a reveal is no prediction: no confidence
MISSED: tuple[Outcome, ...] = ("partial", "incorrect", "revealed")  # not right: to review

# How far a learner got with a lesson, furthest last.
LessonStatus = Literal["new", "tried", "done", "perfect"]
LESSON_STATUSES: tuple[LessonStatus, ...] = get_args(LessonStatus)
FINISHED: tuple[LessonStatus, ...] = ("done", "perfect")

# `tutor check`: a lesson's result, and what its reference answer to one question got
# there: the judge's word, or `error` (it could not be judged), `skipped` (the question's
# own `requires:` is unmet) or `nondeterministic` (`check --repeat`: runs disagreed).
CheckStatus = Literal["passed", "failed", "skipped", "error"]
CHECK_STATUSES: tuple[CheckStatus, ...] = get_args(CheckStatus)
CheckVerdict = Literal["correct", "partial", "incorrect", "invalid", "error", "skipped",
                       "nondeterministic"]


def as_outcome(word: object) -> Outcome | None:
    """`word` as an outcome, or None if it is none (a stored value is not trusted)."""
    return word if word in OUTCOMES else None  # (mypy narrows `in` a tuple of literals)


def as_lesson_status(word: object) -> LessonStatus | None:
    """`word` as a lesson status, or None if this tutor does not know it."""
    return word if word in LESSON_STATUSES else None
