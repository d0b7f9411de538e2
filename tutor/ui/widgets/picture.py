"""A picture (autograd graph, storage map, module tree) in a monospace widget, and
the pane that shows the picture behind a question under its verdict.

`tutor.pictures` draws the lines and tags each segment with a semantic style;
this maps those tags to theme colours and re-draws at the widget's width.  The
pane sits in the lesson below the verdict (never over it: the explanation stays
readable beside the picture) and fetches its data in a named thread worker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from tutor.i18n import N_, _
from tutor.kernel import KernelError, Session
from tutor.pictures import Picture, ShowSpec, render
from tutor.ui.text import plain

STYLES = {
    "title": "bold",
    "op": "$text-accent",
    "name": "bold",
    "leaf": "$text-success",
    "dim": "$text-muted",
    "rule": "$text-muted",
    "warn": "$text-warning",
    "bad": "bold $text-error",
    "ok": "$text-success",
}


def picture_content(pic: Picture, title: bool = True) -> Content:
    """The picture as styled Content (one line per picture line)."""
    lines = []
    if title:
        lines += [plain(text, "bold") for text in pic.title_lines()]
    for ln in pic.lines:
        lines.append(Content.assemble(*(plain(s.text, STYLES.get(s.style, "")) for s in ln)))
    return Content("\n").join(lines)


class PictureView(Static):
    """Kernel picture data, drawn to fit the widget's width (re-drawn on resize)."""

    DEFAULT_CSS = """
    PictureView { width: 1fr; height: auto; text-wrap: nowrap; }
    """

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.data = data
        self.drawn_width = 0

    def show_data(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.draw()

    def draw(self) -> None:
        if self.data is None:
            return
        width = max(40, self.content_size.width or 80)
        self.drawn_width = width
        self.update(picture_content(render(self.data, width)))

    def on_resize(self) -> None:
        if self.data is not None and self.content_size.width != self.drawn_width:
            self.draw()


def inspect_live(session: Session | None, spec: ShowSpec) -> Mapping[str, Any]:
    """A picture's data from the lesson's live session (blocking: call it in a worker)."""
    if session is None or not session.alive:
        raise KernelError(_("the lesson's process is not running"))
    return session.inspect(spec.what, spec.expr)


class PicturePane(Vertical):
    """The picture behind the current question, drawn from the lesson's live session
    (`session`, looked up when drawing).  Posts `PicturePane.Drawn` once it is up."""

    class Drawn(Message):
        pass

    def __init__(self, session: Callable[[], Session | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.spec: ShowSpec | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="picture-head")
        yield PictureView(id="picture")

    def show(self, spec: ShowSpec) -> None:
        self.spec = spec
        self.display = True
        self.query_one("#picture-head", Static).update(plain(_("drawing {spec}…").format(
            spec=spec)))
        view = self.query_one(PictureView)
        view.data = None
        view.update("")
        self.load(spec)

    def hide(self) -> None:
        self.display = False
        self.spec = None

    @work(thread=True, exit_on_error=False, group="picture", description=N_("draw a picture"))
    def load(self, spec: ShowSpec) -> None:
        data: Mapping[str, Any]
        try:
            data = inspect_live(self.session(), spec)
        except KernelError as exc:
            data = {"type": "exception", "name": type(exc).__name__, "message": str(exc)}
        self.app.call_from_thread(self.loaded, spec, data)

    def loaded(self, spec: ShowSpec, data: Mapping[str, Any]) -> None:
        if spec != self.spec:  # hidden, or another picture asked for since
            return
        self.query_one("#picture-head", Static).update(
            Content.styled(_("p: hide the picture") + f" · {spec}", "$text-muted"))
        self.query_one(PictureView).show_data(data)
        self.post_message(self.Drawn())
