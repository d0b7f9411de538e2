"""Per-lesson figures from the stored attempts: counts, accuracy, time."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.progress.records import Attempt, LessonProgress
from tutor.states import OUTCOMES, LessonStatus


@dataclass(frozen=True)
class LessonSummary:
    lesson: str
    status: LessonStatus
    attempts: int  # counted answers (invalid input is never counted)
    correct: int
    partial: int
    incorrect: int
    revealed: int
    hints: int
    seconds: float

    @property
    def accuracy(self) -> float | None:
        """Correct answers among judged ones (reveals count as wrong), or None."""
        judged = self.attempts
        return self.correct / judged if judged else None


def summarize(lesson: str, progress: LessonProgress | None,
              attempts: list[Attempt]) -> LessonSummary:
    mine = [a for a in attempts if a.lesson == lesson]
    count = {v: sum(1 for a in mine if a.verdict == v)
             for v in OUTCOMES}
    return LessonSummary(
        lesson=lesson,
        status=progress.status if progress else "new",
        attempts=len(mine),
        hints=sum(a.hints for a in mine),
        seconds=sum(a.seconds for a in mine),
        **count,
    )
