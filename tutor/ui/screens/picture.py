"""The picture behind a question, full width: `p` after a verdict opens it.

Which picture fits is the flow's call (`LessonFlow.picture`); the data comes from
the lesson's live session (`Session.inspect`) in a named thread worker; nothing
here imports torch.  (The REPL draws pictures inline: widgets/repl.py.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tutor.kernel import KernelError
from tutor.pictures import ShowSpec
from tutor.ui.screens.base import TutorModal
from tutor.ui.text import plain
from tutor.ui.widgets.picture import PictureView

Fetch = Callable[[ShowSpec], dict[str, Any]]


def fetch_picture(session: Any, spec: ShowSpec) -> dict[str, Any]:
    """Ask the lesson's session for a picture's data (blocking: call it from a worker)."""
    if session is None or not session.alive:
        raise KernelError("the lesson's process is not running")
    return session.inspect(spec.what, spec.expr)


class PictureScreen(TutorModal[None]):
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
