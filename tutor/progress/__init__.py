"""The learner's progress: attempts, lesson statuses, resume points and review cards in
SQLite; what the history says (mistakes, calibration, accuracy over time); spaced
review with FSRS.

Pure: stdlib and `fsrs` only (no textual, no torch).
"""

from tutor.progress.review import (
    Calibration,
    Day,
    Mistake,
    calibration,
    first_answers,
    history,
    mistakes,
)
from tutor.progress.schedule import CONFIDENCES, ReviewItem, needs_review, rating
from tutor.progress.store import (
    COUNTED,
    STATUSES,
    Attempt,
    LessonProgress,
    ProgressStore,
    data_dir,
)
from tutor.progress.summary import LessonSummary, summarize

__all__ = [
    "CONFIDENCES", "COUNTED", "STATUSES", "Attempt", "Calibration", "Day", "LessonProgress",
    "LessonSummary", "Mistake", "ProgressStore", "ReviewItem", "calibration", "data_dir",
    "first_answers", "history", "mistakes", "needs_review", "rating", "summarize",
]
