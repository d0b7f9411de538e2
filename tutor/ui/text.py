"""Showing text that comes from outside the app: lesson output, live values, the
learner's own input, error messages, lesson titles.

Such text is never parsed as Textual markup (an answer like `[/]` must not break
the screen) and never reaches the terminal with escape sequences or control
characters in it (`tutor.safetext.sanitize`).
"""

from __future__ import annotations

from textual.content import Content

from tutor.safetext import sanitize


def plain(text: str, style: str = "") -> Content:
    """`text` as literal, terminal-safe Content (optionally styled)."""
    clean = sanitize(text)
    return Content.styled(clean, style) if style else Content(clean)
