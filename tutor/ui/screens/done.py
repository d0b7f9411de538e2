"""The end of a lesson: how it went (every question of it, over every sitting), and
where to go next (the next unfinished lesson of the course); and the end of a review:
how the questions asked again went (a review goes from one question to the next
without a dialog between them)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from tutor.flow import Tally
from tutor.markup import plural
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
                 course: str = "") -> None:
        super().__init__()
        self.lesson_title = lesson_title
        self.tally = tally
        self.next_title = next_title
        self.course = course  # "12 of 60 lessons done"

    def compose(self) -> ComposeResult:
        head = "Lesson done: "
        if self.next_title:
            nxt = Content("Next: ") + title(self.next_title)
        else:
            nxt = Content("You have finished every lesson of the course.")
        if self.course:
            nxt += Content.styled(f"\nCourse: {self.course}", "$text-muted")
        buttons = ("Next lesson (n)", "Catalog (c)")
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


class ReviewDone(TutorModal[str]):
    """The end of a review: how many of the questions asked again were right.
    Dismisses with "back" (to where the review started) or "stay"."""

    BINDINGS = [
        Binding("n,enter,c", "choose('back')", "Back"),
        Binding("escape,s", "choose('stay')", "Stay"),
    ]

    def __init__(self, results: dict[int, Tally], count: int) -> None:
        super().__init__()
        self.results = results  # per question asked (by its index in the review)
        self.count = count  # questions the review had (some may have been skipped)

    def compose(self) -> ComposeResult:
        asked = len(self.results)
        right = sum(t.correct for t in self.results.values())
        text = f"Review done: {right} of {plural(asked, 'question')} right"
        skipped = self.count - asked
        note = (f"{plural(skipped, 'question')} could not be asked (said when skipped). "
                if skipped > 0 else "")
        with Vertical(id="done-box"):
            yield Static(text, id="done-text")
            yield Static(note + "The review schedule brings questions back when they are "
                         "due: the catalog's Review entry says how many wait.", id="done-next")
            with Horizontal(id="done-buttons"):
                yield Button("Back (enter)", id="back", variant="primary")
                yield Button("Stay here (esc)", id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
