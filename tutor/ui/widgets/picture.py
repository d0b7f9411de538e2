"""A picture (autograd graph, storage map, module tree) in a monospace widget.

`tutor.pictures` draws the lines and tags each segment with a semantic style;
this maps those tags to theme colours and re-draws at the widget's width.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Static

from tutor.pictures import Picture, render
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
        lines.append(plain(pic.title, "bold"))
    for ln in pic.lines:
        lines.append(Content.assemble(*(plain(s.text, STYLES.get(s.style, "")) for s in ln)))
    return Content("\n").join(lines)


class PictureView(Static):
    """Kernel picture data, drawn to fit the widget's width (re-drawn on resize)."""

    DEFAULT_CSS = """
    PictureView { width: 1fr; height: auto; text-wrap: nowrap; }
    """

    def __init__(self, data: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.data = data
        self.drawn_width = 0

    def show_data(self, data: dict[str, Any]) -> None:
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
