"""The learner's progress: attempts, lesson statuses and resume points in SQLite.

Pure: stdlib only (no textual, no torch).  Only the app writes here; headless
commands (`tutor play`, `tutor check`) never do.
"""

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
    "COUNTED", "STATUSES", "Attempt", "LessonProgress", "LessonSummary", "ProgressStore",
    "data_dir", "summarize",
]
