"""Showing text that comes from outside the app: lesson output, live values, the
learner's own input, error messages, lesson titles.

Such text is never parsed as Textual markup (an answer like `[/]` must not break
the screen) and never reaches the terminal with escape sequences or control
characters in it (`tutor.safetext.sanitize`).
"""

from __future__ import annotations

from textual.content import Content
from textual.dom import DOMNode

from tutor.i18n import N_
from tutor.safetext import sanitize


def plain(text: str, style: str = "") -> Content:
    """`text` as literal, terminal-safe Content (optionally styled)."""
    clean = sanitize(text)
    return Content.styled(clean, style) if style else Content(clean)


# Textual's own key descriptions that the footer shows (the command palette's, ctrl+p)
TEXTUAL_KEYS = (N_("palette"),)


def translate_bindings(node: DOMNode) -> None:
    """Show `node`'s key bindings in the current language: each description is its
    class's English one (marked with `N_`) through the translation layer, so that calling
    this again after the language changed shows the new one."""
    from dataclasses import replace

    from tutor.i18n import _

    english = type(node)._merged_bindings
    if english is None:
        return
    source = {(b.key, b.action): b.description for _k, b in english}
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            replace(b, description=_(source.get((b.key, b.action), b.description)))
            for b in bindings]
