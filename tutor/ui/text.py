"""Showing text that comes from outside the app: lesson output, live values, the
learner's own input, error messages, lesson titles.

Such text is never parsed as Textual markup (an answer like `[/]` must not break
the screen) and never reaches the terminal with escape sequences or control
characters in it (`tutor.safetext.sanitize`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.dom import DOMNode

from tutor.i18n import N_, _
from tutor.safetext import sanitize

if TYPE_CHECKING:
    from textual.binding import ActiveBinding


def plain(text: str, style: str = "") -> Content:
    """`text` as literal, terminal-safe Content (optionally styled)."""
    clean = sanitize(text)
    return Content.styled(clean, style) if style else Content(clean)


def opening(clause: str) -> str:
    """`clause` (a failure as the kernel tells it: `the lesson's process exited with code
    3.`) as the start of a sentence the caller goes on with: capitalised, no full stop."""
    clause = clause.rstrip(".")
    return clause[:1].upper() + clause[1:]


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
    # the palette's own words: when nothing matches, and its keys
    N_("No matches found"),
    N_("Go to bottom"), N_("Go to top"), N_("Next command"), N_("Exit the command palette"),
    N_("Next page"), N_("Previous page"), N_("Previous command"),
    # its screenshot's notifications (the palette's Screenshot command)
    N_("Saved screenshot"), N_("Failed to save screenshot"),
)
SAVED_TO = "Saved screenshot to "  # Textual's, before the quoted path (and its markup)


def textual_notice(message: str, title: str) -> tuple[str, str]:
    """A notification of Textual's own (its screenshot's), in the language spoken; any
    other as it is."""
    if title != "Screenshot":
        return message, title
    if message.startswith(SAVED_TO):
        message = _("Saved screenshot to {path}").format(path=message[len(SAVED_TO):])
    else:
        message = _(message)
    return message, _(title)

# the keys of Textual's own widgets that the app uses, as the key panel (palette: Keys)
# lists them for the focused widget: the app's and screens' (tab, ctrl+c), Input (the
# answer box), TextArea (printed output, the REPL), OptionList (the catalog), Button,
# Collapsible, VerticalScroll
TEXTUAL_KEYS = (
    N_("Focus Next"), N_("Focus Previous"), N_("Copy selected text"), N_("Press button"),
    N_("Scroll Up"), N_("Scroll Down"), N_("Scroll Left"), N_("Scroll Right"),
    N_("Scroll Home"), N_("Scroll End"), N_("Move cursor left"),
    N_("Move cursor right or accept the completion suggestion"), N_("Go to start"),
    N_("Go to end"), N_("Page Up"), N_("Page Down"), N_("Page Left"), N_("Page Right"),
    N_("Move cursor left and select"), N_("Move cursor left a word"),
    N_("Move cursor left a word and select"), N_("Move cursor right and select"),
    N_("Move cursor right a word"), N_("Move cursor right a word and select"),
    N_("Delete character left"), N_("Delete character right"), N_("Select all"),
    N_("Select line start"), N_("Select line end"), N_("Submit"),
    N_("Delete left to start of word"), N_("Delete all to the left"),
    N_("Delete right to start of word"), N_("Delete all to the right"),
    N_("Cut selected text"), N_("Paste text from the clipboard"),
    N_("Up"), N_("Down"), N_("First"), N_("Last"), N_("Select"),
    N_("Cursor up"), N_("Cursor down"), N_("Cursor left"), N_("Cursor right"),
    N_("Cursor line start"), N_("Cursor line end"), N_("Cursor page up"),
    N_("Cursor page down"), N_("Cursor word left"), N_("Cursor word right"),
    N_("Cursor left word select"), N_("Cursor right word select"),
    N_("Cursor line start select"), N_("Cursor line end select"), N_("Cursor up select"),
    N_("Cursor down select"), N_("Cursor left select"), N_("Cursor right select"),
    N_("Select line"), N_("Cut"), N_("Copy"), N_("Paste"), N_("Delete to line start"),
    N_("Delete to line end"), N_("Delete line"), N_("Undo"), N_("Redo"),
    N_("Toggle collapsible"),
)


def translated(bindings: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """A screen's active bindings (what the footer and the key panel list) with their
    descriptions in the current language: Textual's own widgets' keys (TEXTUAL_KEYS)
    included, which no screen of the app defines.  A description the catalog lacks, or
    one already translated (`translate_bindings`), is shown as it is."""
    from dataclasses import replace

    from tutor.i18n import _

    return {key: active._replace(binding=replace(active.binding,
                                                 description=_(active.binding.description)))
            if active.binding.description else active
            for key, active in bindings.items()}


def translate_bindings(node: DOMNode) -> None:
    """Show `node`'s key bindings in the current language: each description is its
    class's English one (marked with `N_`) through the translation layer, so that calling
    this again after the language changed shows the new one."""
    from dataclasses import replace

    from tutor.i18n import _

    english = type(node)._merged_bindings
    if english is None:
        return
    # a binding the class does not declare (Textual's ctrl+p palette, added by the App
    # itself) keeps the English it had when first seen here: its translated description
    # is no msgid, and would stay in the old language after a switch
    seen: dict[tuple[str, str], str] = node.__dict__.setdefault("_english_bindings", {})
    for bindings in node._bindings.key_to_bindings.values():
        for b in bindings:
            seen.setdefault((b.key, b.action), b.description)
    source = {**seen, **{(b.key, b.action): b.description for _k, b in english}}
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            replace(b, description=_(source.get((b.key, b.action), b.description)))
            for b in bindings]
