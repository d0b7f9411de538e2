"""The end of a lesson: how it went, and where to go next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tutor.ui.text import plain


class LessonDone(ModalScreen[str]):
    """Dismisses with "next", "catalog" or "stay" (keep exploring in the REPL)."""

    BINDINGS = [
        Binding("n,enter", "choose('next')", "Next lesson"),
        Binding("c", "choose('catalog')", "Catalog"),
        Binding("escape,s", "choose('stay')", "Stay"),
    ]

    def __init__(self, title: str, tally: dict[str, int], next_title: str | None) -> None:
        super().__init__()
        self.lesson_title = title
        self.tally = tally
        self.next_title = next_title

    def compose(self) -> ComposeResult:
        t = self.tally
        judged = t["correct"] + t["partial"] + t["incorrect"] + t["revealed"]
        lines = [f"Lesson done: {self.lesson_title}",
                 f"{t['correct']} of {judged} right"
                 + (f", {t['partial']} partly" if t["partial"] else "")
                 + (f", {t['revealed']} revealed" if t["revealed"] else "")]
        with Vertical(id="done-box"):
            yield Static(plain("\n".join(lines)), id="done-text")
            yield Static(plain(f"Next: {self.next_title}") if self.next_title
                         else "That was the last lesson of the course.", id="done-next")
            with Horizontal(id="done-buttons"):
                if self.next_title:
                    yield Button("Next lesson (n)", id="next", variant="primary")
                yield Button("Catalog (c)", id="catalog")
                yield Button("Stay here (esc)", id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        if choice == "next" and not self.next_title:
            choice = "catalog"
        self.dismiss(choice)
