"""`tutor dev LESSON`: the app on one lesson file, reloaded whenever the file changes.

A live preview for authors.  The file's modification time (and size) is polled
twice a second, with its pack's `pack.yaml` (whose `setup:` the lesson runs); once
a change has held for one poll (editors save in several writes), the file is
re-read with the loader and the lesson screen is replaced by a fresh one at the
same question (the steps before it re-run in a new session; a question already
answered is not asked again: the preview goes on at the next one), even when a load
error came in between.  A line above the preview says what the last reload did.
A file that does not load shows its `file:line:col: key.path: message` problems in
place of the lesson, and the preview comes back as soon as the file loads again: an
author's typo never crashes the app.  What
`tutor lint` finds in a file that loads (warnings, and errors such as an answer the
judge cannot read) is listed above the lesson.  Progress goes to a throwaway
store, never the learner's.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from tutor.authoring.lint import lint_paths
from tutor.i18n import N_, _, ngettext
from tutor.kernel import Kernel
from tutor.lesson import Catalog, Lesson, LessonError, load_lesson
from tutor.lesson.files import pack_manifest
from tutor.lesson.model import Pack
from tutor.lesson.validate import Problem
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.text import plain

POLL_SECONDS = 0.5


class LoadErrorScreen(TutorScreen):
    """The problems of a lesson file that does not load; replaced once it does."""

    BINDINGS = [Binding("escape", "app.quit", N_("Quit"))]

    def __init__(self, path: Path, problems: str):
        super().__init__()
        self.path = path
        self.problems = problems

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lesson-body"):
            yield Static(plain(_("{path} does not load; fix it and save, the preview "
                                 "reloads:").format(path=self.path)),
                         classes="label", markup=False)
            yield Static(plain(self.problems), id="load-problems")
        yield Footer()


class LintPanel(Static):
    """What `tutor lint` says about the previewed file, above the lesson."""

    DEFAULT_CSS = """
    LintPanel {
        height: auto;
        max-height: 8;
        overflow-y: auto;
        padding: 0 1;
        border-bottom: solid $warning;
        color: $text-warning;
    }
    """


class PreviewScreen(LessonScreen):
    """The lesson screen with the file's lint problems listed above it."""

    def __init__(self, *args: object, problems: list[Problem], notice: str = "",
                 **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.problems = problems
        self.notice = notice  # what the last reload did (empty before the first)

    def compose(self) -> ComposeResult:
        if self.notice:
            yield Static(self.notice, id="reload-notice", classes="label", markup=False)
        if self.problems:
            yield LintPanel(lint_text(self.problems), id="lint-problems", markup=False)
        yield from super().compose()


def lint_text(problems: list[Problem]) -> str:
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    head = "tutor lint: " + _("{errors}, {warnings}").format(
        errors=ngettext("{n} error", "{n} errors", errors).format(n=errors),
        warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
    return "\n".join([head, *(str(p) for p in problems)])


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


Position = tuple[int, int]  # (step, question) as the lesson flow counts them


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
        self.stamp = self._stamps()
        self.pending: object = None  # a change not yet stable for one poll
        self.place: Position = (0, 0)  # where the author was, kept across reloads
        self.lint: list[Problem] = []
        self.notice = ""  # shown above the preview: what the last reload did
        self.lesson, self.problems = self._load()
        self.pack = Pack(self.path.parent, f"tutor dev: {self.path.name}", source="path")
        catalog = Catalog(packs={self.pack.directory: self.pack})
        super().__init__(catalog=catalog, kernel=kernel, store=store)
        self._set_catalog()
        self.reloads = 0

    def _set_catalog(self) -> None:
        catalog = self.catalog
        assert catalog is not None  # given to the base class: never loaded later
        catalog.lessons = [self.lesson] if self.lesson is not None else []
        catalog.pack_of = {self.lesson.id: self.pack} if self.lesson is not None else {}

    def _stamps(self) -> tuple[object, ...]:
        """The lesson file's stamp, and its pack manifest's (its `setup:` runs too)."""
        manifest = pack_manifest(self.path)
        return _stamp(self.path), manifest, _stamp(manifest) if manifest else None

    def _load(self) -> tuple[Lesson | None, str | None]:
        try:
            lesson = load_lesson(self.path)
        except LessonError as exc:
            self.lint = []
            return None, str(exc)
        # (ids against other packs are left to `tutor lint`: that reads every pack)
        self.lint = lint_paths([self.path], with_known=False).problems
        return lesson, None

    def _resume(self, lesson: Lesson) -> Position:
        """The remembered place, moved back into the lesson if it lost steps or questions."""
        step = max(0, min(self.place[0], len(lesson.steps) - 1))
        prompts = len(lesson.steps[step].prompts)
        prompt = max(0, min(self.place[1], prompts - 1)) if step == self.place[0] else 0
        return step, prompt

    def on_mount(self) -> None:
        # the base class pushes the catalog first; the preview goes on top of it
        self.call_later(self.show_preview)
        self.set_interval(self.poll, self.check_file)

    def show_preview(self) -> None:
        if self.lesson is None:
            screen: TutorScreen = LoadErrorScreen(self.path, self.problems or "")
        else:
            self._set_catalog()
            screen = PreviewScreen(self.lesson, self.kernel, self._resume(self.lesson),
                                   problems=self.lint, notice=self.notice)
        if isinstance(self.screen, (LessonScreen, LoadErrorScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def check_file(self) -> None:
        if not self.screen.is_mounted:
            # the last preview is still being built: swapping it out now would tear it
            # down half-built; the change is seen again at the next poll
            return
        stamp = self._stamps()
        if stamp == self.stamp:
            self.pending = None
            return
        if stamp != self.pending:  # changed: wait one more poll for the editor to finish
            self.pending = stamp
            return
        self.stamp, self.pending = stamp, None
        if isinstance(self.screen, LessonScreen):  # (a load error keeps the last place)
            flow = self.screen.flow
            self.place = flow.position
            if flow.prompt is not None and flow.state.answered and \
                    flow.index + 1 < len(flow.stops):
                self.place = flow.stops[flow.index + 1]  # answered: not asked again
        self.lesson, self.problems = self._load()
        self.reloads += 1
        if self.lesson is not None:
            step, prompt = self._resume(self.lesson)
            ran = _("step 1") if step == 0 else _("steps 1-{n}").format(n=step + 1)
            self.notice = _("reloaded {file} at {time} (reload {n}): {ran} ran again in a "
                            "fresh session; on at step {step}, question {question}").format(
                file=self.path.name, time=time.strftime("%H:%M:%S"), n=self.reloads, ran=ran,
                step=step + 1, question=prompt + 1)
        self.show_preview()
        if self.lesson is not None:
            self.notify(_("reloaded {file}").format(file=self.path.name), timeout=2,
                        markup=False)


def run_dev(path: Path) -> int:
    app = DevApp(path)
    try:
        app.run()
    finally:
        if app._scratch is not None:
            app._scratch.cleanup()
    return int(app.return_code or 0)
