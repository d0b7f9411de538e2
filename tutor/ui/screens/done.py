"""The end of a lesson: how it went (every question of it, over every sitting), and
where to go next (the next unfinished lesson of the course); or, in a review, the end
of one question asked again, and the next one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from tutor.flow import Tally
from tutor.ui.screens.base import TutorModal
from tutor.ui.widgets.inline import title


class LessonDone(TutorModal[str]):
    """Dismisses with "next", "catalog" or "stay" (keep exploring in the REPL)."""

    BINDINGS = [
        Binding("n,enter", "choose('next')", "Next lesson"),
        Binding("c", "choose('catalog')", "Catalog"),
        Binding("escape,s", "choose('stay')", "Stay"),
    ]

    def __init__(self, lesson_title: str, tally: Tally, next_title: str | None,
                 course: str = "", *, review: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.lesson_title = lesson_title
        self.tally = tally
        self.next_title = next_title
        self.course = course  # "12 of 60 lessons done"
        self.review = review  # (index, count) of a question asked again in a review
        if review is not None and review[0] + 1 < review[1]:
            self.next_title = f"question {review[0] + 2} of {review[1]} to review"

    def compose(self) -> ComposeResult:
        if self.review is None:
            head = "Lesson done: "
            if self.next_title:
                nxt = Content("Next: ") + title(self.next_title)
            else:
                nxt = Content("You have finished every lesson of the course.")
            if self.course:
                nxt += Content.styled(f"\nCourse: {self.course}", "$text-muted")
            buttons = ("Next lesson (n)", "Catalog (c)")
        else:
            head = f"Review {self.review[0] + 1} of {self.review[1]}: "
            nxt = Content(f"Next: {self.next_title}" if self.next_title
                          else "That was the last question to review.")
            buttons = ("Next question (n)", "Back (c)")
        with Vertical(id="done-box"):
            yield Static(Content(head) + title(self.lesson_title)
                         + Content("\n" + self.tally.text()), id="done-text")
            yield Static(nxt, id="done-next")
            with Horizontal(id="done-buttons"):
                if self.next_title:
                    yield Button(buttons[0], id="next", variant="primary")
                yield Button(buttons[1], id="catalog")
                yield Button("Stay here (esc)", id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        if choice == "next" and not self.next_title:
            choice = "catalog"
        self.dismiss(choice)
