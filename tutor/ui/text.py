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


# Textual's own words that the app shows: the palette key's description in the footer
# (ctrl+p), the palette's placeholder, and its system commands (title, help), in the
# Textual this project pins; one Textual adds or rewords shows in English until added
TEXTUAL_WORDS = (
    N_("palette"), N_("Search for commands…"),
    N_("Theme"), N_("Change the current theme"),
    N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"), N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Maximize"), N_("Maximize the focused widget"),
    N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen"),
)


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
