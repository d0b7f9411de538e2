"""Textual's command palette in the language tutor speaks: its placeholder, its keys,
and the line it shows when nothing matches (which Textual writes in English, inside a
private method: `_start_no_matches_countdown`, copied from the Textual this project pins
with only that line translated; tests/ui/test_korean_screens.py sees it shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.align import Align
from rich.style import Style
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.widgets.option_list import Option

from tutor.i18n import _
from tutor.ui.text import translate_bindings, translated

if TYPE_CHECKING:
    from textual.binding import ActiveBinding


NOT_BOLD = Style(bold=False)  # (as Textual's own line)


class TutorPalette(CommandPalette):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(placeholder=_("Search for commands…"), **kwargs)
        translate_bindings(self)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:  # (an empty search lists what may be discovered: no line)
                self.query_one(CommandList).add_option(Option(
                    Align.center(Text(_("No matches found"), style=NOT_BOLD)),
                    disabled=True, id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
