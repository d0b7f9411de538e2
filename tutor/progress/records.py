"""What the progress database holds, as values: one counted answer (`Attempt`) and a
lesson's status and resume point (`LessonProgress`).  Pure: stdlib only.

Their own module so that the store and the pure readings of the history
(`tutor.progress.review`, `answers`, `summary`) can both import them without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.states import LESSON_STATUSES, LessonStatus, Outcome, as_lesson_status

Variant = tuple[tuple[str, str], ...]  # the values a lesson drew for a run: (name, text)


@dataclass(frozen=True)
class Attempt:
    """One counted answer (an `invalid` answer is never an attempt)."""

    lesson: str
    step: int
    prompt: int
    answer: str
    verdict: Outcome
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


@dataclass(frozen=True)
class LessonProgress:
    lesson: str
    status: LessonStatus = "new"
    step: int = 0  # where to resume: the next question to ask
    prompt: int = 0
    run: str = ""
    updated: str = ""


def better(a: str, b: LessonStatus) -> LessonStatus:
    """The further of two statuses (`a`, as stored, may be one tutor does not know: it
    counts for nothing)."""
    known = as_lesson_status(a)
    if known is None:
        return b
    return known if LESSON_STATUSES.index(known) >= LESSON_STATUSES.index(b) else b
