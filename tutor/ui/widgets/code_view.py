"""A step's code, highlighted (pygments via textual.highlight) with line numbers."""

from __future__ import annotations

from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Static

from tutor.safetext import sanitize


def numbered(code: str) -> Content:
    """`code` highlighted for the current theme, each line prefixed with its number."""
    lines = highlight(sanitize(code).rstrip("\n"), language="python").split("\n")
    width = len(str(len(lines)))
    out = [Content.styled(f"{n:>{width}} │ ", "$text-muted") + line
           for n, line in enumerate(lines, 1)]
    return Content("\n").join(out)


class CodeView(Static):
    """Read-only code; set `code` to show another step."""

    def show(self, code: str) -> None:
        self.update(numbered(code))
