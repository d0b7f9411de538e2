"""Pictures in the lesson: `p` after a verdict opens the one that fits the question;
the REPL draws `:graph EXPR`, `:storage [EXPR]` and `:tree EXPR` inline.

Which picture fits: the prompt's `show:` when the lesson has one, else
`tutor.pictures.suggest` (the graph for questions about `.grad`/`grad_fn`, the
storage map for sharing questions, the module tree for state_dict/children/
parameters).  The data comes from the lesson's live session (`Session.inspect`)
in a thread worker; nothing here imports torch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from tutor.kernel import KernelError
from tutor.pictures import ShowSpec, parse_show, render, suggest
from tutor.ui.text import plain
from tutor.ui.widgets.picture import PictureView, picture_content

Fetch = Callable[[ShowSpec], dict[str, Any]]


class PictureReady(Message):
    """Picture data for the REPL (or why there is none)."""

    def __init__(self, spec: ShowSpec | None, data: dict[str, Any] | None,
                 problem: str | None = None) -> None:
        super().__init__()
        self.spec = spec
        self.data = data
        self.problem = problem


def fetch_picture(session: Any, spec: ShowSpec) -> dict[str, Any]:
    """Ask the lesson's session for a picture's data (blocking: call it from a worker)."""
    if session is None or not session.alive:
        raise KernelError("the lesson's process is not running")
    return session.inspect(spec.what, spec.expr)


class PictureScreen(ModalScreen[None]):
    """One picture, full width, scrollable; esc, q or p closes it."""

    BINDINGS = [Binding("escape,q,p", "dismiss", "Close")]
    DEFAULT_CSS = """
    PictureScreen { align: center middle; }
    #picture-box {
        width: 95%; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    #picture-scroll { height: auto; max-height: 100%; }
    #picture-keys { color: $text-muted; }
    """

    def __init__(self, spec: ShowSpec, fetch: Fetch) -> None:
        super().__init__()
        self.spec = spec
        self.fetch = fetch
        self.data: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="picture-box"):
            with VerticalScroll(id="picture-scroll"):
                yield Static(plain(f"drawing {self.spec}…"), id="picture-wait")
                yield PictureView(id="picture")
            yield Static("esc: close", id="picture-keys")

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exit_on_error=False, group="picture", description="draw a picture")
    def load(self) -> None:
        try:
            data = self.fetch(self.spec)
        except KernelError as exc:
            data = {"type": "exception", "name": type(exc).__name__, "message": str(exc)}
        self.app.call_from_thread(self.loaded, data)

    def loaded(self, data: dict[str, Any]) -> None:
        self.data = data
        self.query_one("#picture-wait").display = False
        self.query_one(PictureView).show_data(data)


class LessonPictures:
    """Mixed into `LessonScreen` (which provides flow, run, lesson, repl, notify)."""

    def picture_spec(self) -> ShowSpec | None:
        """The picture that fits the current question, if any."""
        flow = self.flow  # type: ignore[attr-defined]
        prompt = flow.prompt
        if prompt is None:
            return None
        if prompt.show:
            try:
                return parse_show(prompt.show)
            except ValueError:
                return None
        lesson = self.lesson  # type: ignore[attr-defined]
        code = "\n".join(s.code for s in lesson.steps[: flow.step_index + 1])
        return suggest(prompt.kind, prompt.expect, code, lesson.topic)

    def fetch(self, spec: ShowSpec) -> dict[str, Any]:
        return fetch_picture(self.run.session, spec)  # type: ignore[attr-defined]

    def action_picture(self) -> None:
        spec = self.picture_spec()
        if spec is None:
            self.notify("No picture fits this question; in the REPL try :graph EXPR, "  # type: ignore[attr-defined]
                        ":storage or :tree EXPR.", timeout=4)
            return
        self.app.push_screen(PictureScreen(spec, self.fetch))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ REPL
    def repl_picture(self, command: str) -> None:
        """`:graph z` typed in the REPL: draw it into the REPL's log."""
        try:
            spec = parse_show(command)
        except ValueError as exc:
            self.post_message(PictureReady(None, None, str(exc)))  # type: ignore[attr-defined]
            return
        self.repl_running = True
        self.refresh_bindings()  # type: ignore[attr-defined]
        self.draw_for_repl(spec)

    @work(thread=True, exit_on_error=False, group="repl", description="draw a picture")
    def draw_for_repl(self, spec: ShowSpec) -> None:
        try:
            data = self.fetch(spec)
        except KernelError as exc:
            self.post_message(PictureReady(spec, None, f"the picture could not be drawn: {exc}"))  # type: ignore[attr-defined]
            return
        self.post_message(PictureReady(spec, data))  # type: ignore[attr-defined]

    def on_picture_ready(self, event: PictureReady) -> None:
        self.repl_running = False
        self.refresh_bindings()  # type: ignore[attr-defined]
        repl = self.repl  # type: ignore[attr-defined]
        if repl is None:
            return
        if event.data is None:
            repl.show_problem(event.problem or "no picture")
            return
        log = repl.query_one("#repl-log")
        width = max(40, (log.content_size.width or 80) - 2)
        failed = event.data.get("type") == "exception"
        repl.write(picture_content(render(event.data, width)), "-error" if failed else "-value")
        repl.set_running(False)
