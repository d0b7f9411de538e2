"""The app as its screens see it: the state they read and what they ask the app to do.

`TutorApp` (tutor/ui/app.py) is the one implementation.  The screens and the command
palette are typed against this class, so that they can name the app's type without
importing tutor/ui/app.py, which imports them (to push them): no import cycle, not even
one hidden under `TYPE_CHECKING`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:  # (the app paints before lessons, the judge or the store load)
    from textual.worker import Worker

    from tutor.flow import Tally
    from tutor.lesson import Catalog, Lesson
    from tutor.progress import Attempt, ProgressStore


class TutorHost(App[int]):
    """What every screen may use of the app, beside Textual's `App`."""

    catalog: Catalog | None  # None until loaded (after the first paint)
    store: ProgressStore
    # lessons this kernel cannot run, and why; `runnable_known`: the kernel has said
    cannot_run: dict[str, str]
    runnable_known: bool
    review_results: dict[int, Tally]  # how each question of the review went, by index

    def worker_failed(self, worker: Worker) -> None:
        """Tell the learner a worker of a screen failed (and why)."""
        raise NotImplementedError

    # the course
    def continue_target(self) -> tuple[Lesson | None, tuple[int, int]]:
        raise NotImplementedError

    def next_lesson(self, lesson_id: str) -> Lesson | None:
        raise NotImplementedError

    def course_text(self, finished: str | None = None) -> str:
        raise NotImplementedError

    def scores(self) -> dict[str, int]:
        raise NotImplementedError

    # review and progress
    def action_review(self) -> None:
        raise NotImplementedError

    def ask_question(self, index: int) -> bool:
        raise NotImplementedError

    def action_progress(self) -> None:
        raise NotImplementedError

    # writes to the progress store, in order, off the UI thread
    def save_attempt(self, attempt: Attempt, total: int,
                     position: tuple[int, int] | None) -> None:
        raise NotImplementedError

    def save_position(self, lesson_id: str, position: tuple[int, int], run_id: str) -> None:
        raise NotImplementedError

    def tell_store_news(self) -> None:
        raise NotImplementedError
