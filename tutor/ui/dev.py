"""`tutor dev LESSON`: the app on one lesson file, reloaded whenever the file changes.

A live preview for authors.  The file's modification time (and size) is polled
twice a second; once a change has held for one poll (editors save in several
writes), the file is re-read with the loader and the lesson
screen is replaced by a fresh one at the same step (the steps before it re-run in
a new session).  A file that does not load shows its `file:line:col: key.path:
message` problems in place of the lesson, and the preview comes back as soon as
the file loads again: an author's typo never crashes the app.  Progress goes to a
throwaway store, never the learner's.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from tutor.kernel import Kernel
from tutor.lesson import Catalog, Lesson, LessonError, load_lesson
from tutor.lesson.model import Pack
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.text import plain

POLL_SECONDS = 0.5


class LoadErrorScreen(TutorScreen):
    """The problems of a lesson file that does not load; replaced once it does."""

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def __init__(self, path: Path, problems: str):
        super().__init__()
        self.path = path
        self.problems = problems

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lesson-body"):
            yield Static(plain(f"{self.path} does not load; fix it and save, the preview reloads:"),
                         classes="label", markup=False)
            yield Static(plain(self.problems), id="load-problems")
        yield Footer()


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class DevApp(TutorApp):
    """The tutor app on one lesson file, reloading it on every change."""

    TITLE = "tutor dev"

    def __init__(self, path: Path, *, kernel: Kernel | None = None,
                 store: ProgressStore | None = None, poll: float = POLL_SECONDS):
        self.path = Path(path)
        self.poll = poll
        self._scratch = None
        if store is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="tutor-dev-")
            store = ProgressStore(Path(self._scratch.name))
        self.stamp = _stamp(self.path)
        self.pending: tuple[int, int] | None = None  # a change not yet stable for one poll
        self.lesson, self.problems = self._load()
        self.pack = Pack(self.path.parent, f"tutor dev: {self.path.name}", source="path")
        catalog = Catalog(packs={self.pack.directory: self.pack})
        super().__init__(catalog=catalog, kernel=kernel, store=store)
        self._set_catalog()
        self.reloads = 0

    def _set_catalog(self) -> None:
        self.catalog.lessons = [self.lesson] if self.lesson is not None else []
        self.catalog.pack_of = {self.lesson.id: self.pack} if self.lesson is not None else {}

    def _load(self) -> tuple[Lesson | None, str | None]:
        try:
            return load_lesson(self.path), None
        except LessonError as exc:
            return None, str(exc)

    def on_mount(self) -> None:
        # the base class pushes the catalog first; the preview goes on top of it
        self.call_later(self.show_preview)
        self.set_interval(self.poll, self.check_file)

    def show_preview(self, step: int = 0) -> None:
        if self.lesson is None:
            screen: TutorScreen = LoadErrorScreen(self.path, self.problems or "")
        else:
            self._set_catalog()
            step = min(step, len(self.lesson.steps) - 1)
            screen = LessonScreen(self.lesson, self.kernel, (step, 0))
        if isinstance(self.screen, (LessonScreen, LoadErrorScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def check_file(self) -> None:
        stamp = _stamp(self.path)
        if stamp == self.stamp:
            self.pending = None
            return
        if stamp != self.pending:  # changed: wait one more poll for the editor to finish
            self.pending = stamp
            return
        self.stamp, self.pending = stamp, None
        step = self.screen.flow.step_index if isinstance(self.screen, LessonScreen) else 0
        self.lesson, self.problems = self._load()
        self.reloads += 1
        self.show_preview(step)
        if self.lesson is not None:
            self.notify(f"reloaded {self.path.name}", timeout=2, markup=False)


def run_dev(path: Path) -> int:
    app = DevApp(path)
    try:
        app.run()
    finally:
        if app._scratch is not None:
            app._scratch.cleanup()
    return int(app.return_code or 0)
