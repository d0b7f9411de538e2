"""The app: owns the catalog, the kernel and the progress store; screens do the work."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from tutor import i18n
from tutor.course import (
    best_scores,
    cannot_run,
    continue_point,
    course_progress,
    next_unfinished,
)
from tutor.i18n import N_, _
from tutor.kernel import Kernel, KernelError
from tutor.progress import Attempt, LessonProgress, ProgressStore
from tutor.safetext import sanitize
from tutor.ui import settings
from tutor.ui.commands import LessonCommands
from tutor.ui.host import TutorHost
from tutor.ui.messages import (
    CatalogLoaded,
    KernelChanged,
    OpenLesson,
    ProgressProblem,
    WorkerChanged,
)
from tutor.ui.ordered import InOrder
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.text import textual_notice, translate_bindings
from tutor.ui.wide import keep_wide_characters

if TYPE_CHECKING:  # lessons (and the judge) load after the first paint
    from collections.abc import Iterable

    from textual.screen import Screen
    from textual.theme import Theme

    from tutor.flow import Tally
    from tutor.lesson import Catalog, Lesson
    from tutor.redo import Question


KERNEL_GROUPS = ("kernel", "repl", "kernel-start")  # workers that use the kernel


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside (as it was after: Textual pauses it while it
    scrolls).  For building many objects that all live on: the collector would walk the
    growing heap again and again for nothing.  Then `gc.freeze()` inside keeps it from
    walking them at all (else the first collection after walks every one of them)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class TutorApp(TutorHost):
    CSS_PATH = str(Path(__file__).with_name("tutor.tcss"))  # absolute: subclasses work too
    TITLE = "tutor"
    COMMANDS = App.COMMANDS | {LessonCommands}
    BINDINGS = [
        # priority: these work whatever has the focus (an entry's own ctrl+k included)
        Binding("f1", "help", N_("Help"), priority=True),
        Binding("question_mark", "help", N_("Help"), show=False),
        Binding("ctrl+k", "restart_kernel", N_("Restart kernel"), show=False, priority=True),
    ]

    kernel_state: reactive[str] = reactive("starting")

    def __init__(self, *, catalog: Catalog | None = None, kernel: Kernel | None = None,
                 store: ProgressStore | None = None, paths: Sequence[Path] = ()) -> None:
        super().__init__()
        keep_wide_characters()  # Hangul in a toast or the palette over other widgets
        self.catalog: Catalog | None = catalog  # None until loaded (after the first paint)
        self.own_catalog = catalog is None  # read by the app (again when the language changes)
        self.paths = list(paths)  # lesson directories beside the bundled ones (--path)
        self.own_kernel = kernel is None
        self.kernel = kernel if kernel is not None else Kernel()
        self.store = store if store is not None else ProgressStore()
        self.writes = InOrder()  # progress writes land in the order they were made
        self.mode_told = False  # the learner was told once how lessons run, if unusual
        self.review: list[Question] = []  # the questions of the review under way
        self.review_results: dict[int, Tally] = {}  # how each question asked went, by index
        # lessons this kernel cannot run (no CUDA device, an older torch), and why: kept out
        # of the course path and its count once the kernel has said what it has
        self.cannot_run: dict[str, str] = {}
        self.judged_for: object = None  # the kernel description `cannot_run` was made for
        # the kernel has said what it has: until then the course has no total to show (one
        # counted before would change under the learner's eyes when lessons drop out)
        self.runnable_known = False
        self.told_problems: str | None = None  # the store's bad rows, once said
        translate_bindings(self)

    def on_mount(self) -> None:
        theme = settings.load(self.store.directory).get("theme")
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self.keep_theme)
        self.push_screen(CatalogScreen())
        if self.store.notice:
            self.notify(self.store.notice, title=_("Progress"), severity="warning", timeout=12,
                        markup=False)
        # After the first paint: read the lessons, and launch the kernel (torch loads in
        # the kernel's process; started later, it would compete with the first paint).
        if self.catalog is None:
            self.call_after_refresh(self.load_lessons)
        self.call_after_refresh(self.start_kernel)
        # the kernel tells of each change of status (on its own threads: a message
        # brings it here); the lesson and REPL workers tell when they start and end
        self.stop_listening = self.kernel.subscribe(
            lambda status: self.post_message(KernelChanged(status)))
        self.kernel_changed()

    def notify(self, message: str, *, title: str = "", **options: Any) -> None:
        """Every notification is terminal-safe: they quote kernel errors and file names
        (and Textual's own are said in the language spoken)."""
        message, title = textual_notice(message, title)
        super().notify(sanitize(message), title=sanitize(title), **options)

    def keep_theme(self, theme: Theme) -> None:
        settings.save(self.store.directory, theme=theme.name)  # a tiny file: no worker

    # ------------------------------------------------------------------ language
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):  # (Textual's: TEXTUAL_WORDS)
            yield command._replace(title=_(command.title), help=_(command.help))
        for code, name in i18n.LANGUAGES.items():
            if code != i18n.language():
                yield SystemCommand(f"{_('Language')}: {name}",
                                    _("Speak {name} from now on (remembered)").format(name=name),
                                    lambda code=code: self.set_language(code))

    def action_command_palette(self) -> None:
        """Textual's palette, in the current language (tutor/ui/palette.py)."""
        from textual.command import CommandPalette

        from tutor.ui.palette import TutorPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(TutorPalette(id="--command-palette"))

    def set_language(self, code: str) -> None:
        """The app's language switch: speak `code` now, and remember it (ui.json) for the
        next start (where TUTOR_LANG and --lang, if given, still win)."""
        i18n.set_language(code)
        saved = settings.save(self.store.directory, lang=code)
        translate_bindings(self)
        if self.own_catalog and self.catalog is not None:  # the lessons, in their translations
            self.load_lessons()
        from tutor.ui.widgets.kernel_status import KernelStatus

        for screen in self.screen_stack:
            translate_bindings(screen)
            screen.refresh_bindings()
            for status in screen.query(KernelStatus):  # (it changes with the kernel only)
                status.show_state(self.kernel_state)
        self.refresh_catalogs()
        self.notify(_("Language: {name}. Screens opened from now on speak it.").format(
            name=i18n.LANGUAGES[code]) + ("" if saved else " " + _("(not remembered: the "
                                                                     "settings file could "
                                                                     "not be written)")),
                    timeout=5, markup=False)

    def on_unmount(self) -> None:
        self.stop_listening()
        if self.own_kernel:
            self.kernel.shutdown()
        self.store.close()

    # ------------------------------------------------------------------ lessons
    @work(thread=True, exit_on_error=False, group="catalog", description=N_("load the lessons"))
    def load_lessons(self) -> None:
        # unchanged files come from the catalog index (docs/performance.md); a lesson is
        # read and validated again from its file when it is opened (`open_from_catalog`)
        from tutor.lesson.catalog import load_catalog
        from tutor.lesson.index import LessonIndex

        with paused_gc():  # (it builds thousands of long-lived objects: see run_app)
            catalog = load_catalog(self.paths, with_bundled=True, index=LessonIndex.open())
            gc.freeze()  # (a catalog replaced later is still freed: it holds no cycles)
        self.post_message(CatalogLoaded(catalog))

    def on_catalog_loaded(self, message: CatalogLoaded) -> None:
        self.catalog = message.catalog
        if self.catalog.errors:
            self.notify(_("{n} lesson file(s) could not be loaded: they are listed at the end "
                          "of the catalog, with why.").format(n=len(self.catalog.errors)),
                        severity="warning", timeout=8, markup=False)
        self.judged_for = None  # (a new catalog: judge its lessons against the kernel)
        self.check_requirements()
        self.refresh_catalogs()

    def refresh_catalogs(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, CatalogScreen) and screen.is_mounted:  # (else: on mount)
                screen.refresh_catalog()

    def check_requirements(self) -> None:
        """Which lessons this kernel cannot run: once it is ready, again if it changed."""
        info = self.kernel.info if self.kernel.status == "ready" else {}
        key = (info.get("torch"), info.get("python"), info.get("cuda"))
        if self.catalog is None or not info or key == self.judged_for:
            return
        self.judged_for = key
        cannot = cannot_run(self.catalog, info)
        first = not self.runnable_known
        self.runnable_known = True
        if cannot != self.cannot_run or first:  # (first: the course line gets its total)
            self.cannot_run = cannot
            self.refresh_catalogs()

    # ------------------------------------------------------------------ kernel
    @work(thread=True, exit_on_error=False, group="kernel-start",
          description=N_("start the kernel"))
    def start_kernel(self) -> None:
        self.kernel.wait_ready()

    def on_kernel_changed(self, message: KernelChanged) -> None:
        self.kernel_changed()

    def kernel_changed(self) -> None:
        """The kernel's status changed, or a worker that uses it started or ended: show
        it (`kernel_state`), and start a kernel that died again now."""
        state = self.kernel.status
        if state == "restarting" and self.kernel.channel is None and not any(
                w.group == "kernel-start" and w.state is WorkerState.RUNNING for w in self.workers):
            # the kernel process died: say so, and start a new one now (not on next use)
            why = (self.kernel.failure or _("it stopped")).splitlines()[0]
            self.notify(_("The kernel stopped ({why}); restarting it. Your lesson will re-run "
                          "its steps.").format(why=why), title=_("Kernel"), severity="warning",
                        timeout=8, markup=False)
            self.start_kernel()
        busy = any(w.group in ("kernel", "repl") and w.state is WorkerState.RUNNING
                   for w in self.workers)
        if state == "new":
            state = "starting"  # launched right after the first paint
        if state == "ready":
            self.check_requirements()
        if state == "ready" and not self.mode_told:
            self.mode_told = True
            if self.kernel.mode == "spawn":  # slower than fork: say so once, and why
                self.notify(_("Lessons run in {mode}. A run right after another may wait a "
                              "moment for its process.").format(
                                  mode=self.kernel.describe_mode()), title=_("Kernel"),
                            timeout=10, markup=False)
        self.kernel_state = "busy" if state == "ready" and busy else state

    def action_restart_kernel(self) -> None:
        from tutor.ui.screens.lesson import LessonScreen

        lesson = next((s for s in reversed(self.screen_stack) if isinstance(s, LessonScreen)),
                      None)
        if lesson is not None:  # a lesson (maybe under a dialog): rebuild its namespace too
            lesson.restart_kernel()
        else:
            self.restart_kernel()

    @work(thread=True, exit_on_error=False, group="kernel-start",
          description=N_("restart the kernel"))
    def restart_kernel(self) -> None:
        self.kernel.restart()
        self.kernel.wait_ready()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.worker_failed(event.worker)
        self.worker_changed(event.worker)

    def on_worker_changed(self, message: WorkerChanged) -> None:
        self.worker_changed(message.worker)

    def worker_changed(self, worker: Worker[Any]) -> None:
        """A worker started or ended: those that use the kernel make it busy (and a
        restart may have waited for one to end)."""
        if worker.group in KERNEL_GROUPS:
            self.kernel_changed()

    def worker_failed(self, worker: Worker) -> None:
        """The one place worker errors end up: tell the learner, keep the app alive."""
        error = worker.error
        what = worker.description or worker.name
        if isinstance(error, KernelError):
            self.notify(f"{_(what)}: {error}", title=_("Kernel"), severity="error", timeout=10,
                        markup=False)
        else:
            self.notify(_("{what} failed: {error}").format(
                what=_(what), error=f"{type(error).__name__}: {error}"), severity="error",
                        timeout=10, markup=False)

    # ------------------------------------------------------------------ lessons
    def continue_target(self) -> tuple[Lesson | None, tuple[int, int]]:
        """The lesson to continue (and where): see `course.continue_point`."""
        if self.catalog is None:
            return None, (0, 0)
        return continue_point(self.catalog, self.store.lessons(), self.store.last(),
                              self.cannot_run)

    def next_lesson(self, lesson_id: str) -> Lesson | None:
        """The lesson offered after `lesson_id`: the next unfinished one of the course."""
        if self.catalog is None:
            return None
        return next_unfinished(self.catalog, self.store.lessons(), lesson_id, self.cannot_run)

    def course_text(self, finished: str | None = None) -> str:
        """'12 of 60 lessons done' (counting `finished` as done: its last answer may
        still be on its way to the database)."""
        if self.catalog is None:
            return ""
        progress = self.store.lessons()
        if finished is not None:
            progress[finished] = LessonProgress(finished, "done")
        return course_progress(self.catalog, progress, self.cannot_run).text()

    def scores(self) -> dict[str, int]:
        """Per lesson, the most questions right in one sitting."""
        return best_scores(self.store.attempts())

    def on_open_lesson(self, message: OpenLesson) -> None:
        from tutor.flow import LessonFlow  # imports the engine and the judge
        from tutor.ui.screens.lesson import LessonScreen

        lesson = self.open_from_catalog(message.lesson_id)
        if lesson is None:
            return
        p = self.store.lesson(lesson.id)
        resume = not message.fresh and p.status in ("new", "tried") and p.step < len(lesson.steps)
        if resume and p.run:  # the sitting goes on: its answers so far count in its tally
            history = [a for a in self.store.attempts(lesson.id) if a.run == p.run]
            flow = LessonFlow(lesson, (p.step, p.prompt), p.run, history)
        else:
            flow = LessonFlow(lesson)
        screen = LessonScreen(lesson, self.kernel, flow=flow)
        if isinstance(self.screen, LessonScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_from_catalog(self, lesson_id: str) -> Lesson | None:
        """The lesson to open, read and validated again if it came from the index; None
        (and the learner told why) if there is none, or its file no longer loads."""
        from tutor.lesson import LessonError

        try:
            lesson = self.catalog.opened(lesson_id) if self.catalog else None
        except LessonError as exc:
            self.notify(_("{id} cannot be opened: its file no longer loads:\n{why}").format(
                id=lesson_id, why=exc), severity="error", timeout=12, markup=False)
            return None
        if lesson is None:
            self.notify(_("No lesson {id}.").format(id=repr(lesson_id)), severity="error",
                        markup=False)
        return lesson

    # ------------------------------------------------------------------ review
    def action_review(self) -> None:
        """Ask again what is due for review, then the mistakes (`tutor.redo.queue`)."""
        from tutor.redo import queue

        self.review = queue(self.store)
        self.review_results = {}
        if not self.review:
            self.notify(_("Nothing to review: no question is due, and every question you "
                          "answered wrong or revealed has been answered right since."),
                        title=_("Review"), timeout=6, markup=False)
            return
        self.ask_question(0)

    def ask_question(self, index: int) -> bool:
        """Open question `index` of the review (skipping questions whose lesson is gone
        or has changed); False when none is left."""
        from tutor.lesson import LessonError
        from tutor.redo import ask_again
        from tutor.ui.screens.lesson import LessonScreen

        while index < len(self.review):
            question = self.review[index]
            try:  # (read and validated again if it came from the catalog index)
                lesson = self.catalog.opened(question.lesson) if self.catalog else None
                if lesson is None:
                    raise LookupError(_("{lesson} is not in the catalog").format(
                        lesson=question.lesson))
                flow = ask_again(lesson, question.step, question.prompt, avoid=question.avoid)
            except (LookupError, LessonError) as exc:
                self.notify(_("Review: {where} is skipped: {why}.").format(
                    where=question.where(), why=exc), severity="warning", timeout=6, markup=False)
                index += 1
                continue
            screen = LessonScreen(lesson, self.kernel, flow=flow,
                                  review=(index, len(self.review)))
            if isinstance(self.screen, LessonScreen):
                self.switch_screen(screen)
            else:
                self.push_screen(screen)
            return True
        return False

    def action_progress(self) -> None:
        from tutor.ui.screens.progress import ProgressScreen  # plotext loads on first use

        if not isinstance(self.screen, ProgressScreen):
            self.push_screen(ProgressScreen())

    # ------------------------------------------------------------------ progress
    def save_attempt(self, attempt: Attempt, total: int,
                     position: tuple[int, int] | None) -> None:
        """Record a counted answer (and where to resume, unless None), in order."""
        self.write_attempt(self.writes.ticket(), attempt, total, position)

    @work(thread=True, exit_on_error=False, group="progress", description=N_("save an answer"))
    def write_attempt(self, ticket: int, attempt: Attempt, total: int,
                      position: tuple[int, int] | None) -> None:
        store = self.store
        with self.writes.turn(ticket):  # (position None: the lesson's resume point stays)
            saved = store.record(attempt, total_prompts=total, position=position)
        if not saved:
            self.post_message(ProgressProblem(store.notice or _("progress was not saved")))
        self.tell_store_news()

    def save_position(self, lesson_id: str, position: tuple[int, int], run_id: str) -> None:
        """Remember where the learner is in a lesson, in order with the answers."""
        self.write_position(self.writes.ticket(), lesson_id, position, run_id)

    @work(thread=True, exit_on_error=False, group="progress", description=N_("save the position"))
    def write_position(self, ticket: int, lesson_id: str, position: tuple[int, int],
                       run_id: str) -> None:
        store = self.store
        with self.writes.turn(ticket):
            saved = store.set_position(lesson_id, position, run_id)
        if not saved and store.saving:
            self.post_message(ProgressProblem(store.notice or _("progress was not saved")))
        self.tell_store_news()

    def tell_store_news(self) -> None:
        """Say what the store found since it was last asked (from any thread): the
        database deleted or replaced and written again, and, once, rows it could not read
        as written (docs/review.md)."""
        store = self.store
        for news in store.take_news():
            self.post_message(ProgressProblem(news))
        summary = store.problem_summary()
        if summary and summary != self.told_problems:
            self.told_problems = summary
            self.post_message(ProgressProblem(summary))

    def on_progress_problem(self, event: ProgressProblem) -> None:
        self.notify(event.notice, title=_("Progress"), severity="warning", timeout=8,
                    markup=False)

    def action_help(self) -> None:
        from tutor.ui.screens.help import HelpScreen  # Markdown is costly to import

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())
