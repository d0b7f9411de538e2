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
from tutor.i18n import N_, _, ngettext
from tutor.ui.screens.base import TutorModal
from tutor.ui.widgets.inline import title


class LessonDone(TutorModal[str]):
    """Dismisses with "next", "catalog" or "stay" (keep exploring in the REPL)."""

    BINDINGS = [
        Binding("n,enter", "choose('next')", N_("Next lesson")),
        Binding("c", "choose('catalog')", N_("Catalog")),
        Binding("escape,s", "choose('stay')", N_("Stay")),
    ]

    def __init__(self, lesson_title: str, tally: Tally, next_title: str | None,
                 course: str = "") -> None:
        super().__init__()
        self.lesson_title = lesson_title
        self.tally = tally
        self.next_title = next_title
        self.course = course  # "12 of 60 lessons done"

    def compose(self) -> ComposeResult:
        head = _("Lesson done: ")
        if self.next_title:
            nxt = Content(_("Next: ")) + title(self.next_title)
        else:
            nxt = Content(_("You have finished every lesson of the course."))
        if self.course:
            nxt += Content.styled("\n" + _("Course: {progress}").format(progress=self.course),
                                  "$text-muted")
        buttons = (_("Next lesson (n)"), _("Catalog (c)"))
        with Vertical(id="done-box"):
            yield Static(Content(head) + title(self.lesson_title)
                         + Content("\n" + self.tally.text()), id="done-text")
            yield Static(nxt, id="done-next")
            with Horizontal(id="done-buttons"):
                if self.next_title:
                    yield Button(buttons[0], id="next", variant="primary")
                yield Button(buttons[1], id="catalog")
                yield Button(_("Stay here (esc)"), id="stay")

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
        Binding("n,enter,c", "choose('back')", N_("Back")),
        Binding("escape,s", "choose('stay')", N_("Stay")),
    ]

    def __init__(self, results: dict[int, Tally], count: int) -> None:
        super().__init__()
        self.results = results  # per question asked (by its index in the review)
        self.count = count  # questions the review had (some may have been skipped)

    def compose(self) -> ComposeResult:
        asked = len(self.results)
        right = sum(t.correct for t in self.results.values())
        text = ngettext("Review done: {right} of {n} question right",
                        "Review done: {right} of {n} questions right", asked).format(
                            right=right, n=asked)
        skipped = self.count - asked
        note = (ngettext("{n} question could not be asked (said when skipped). ",
                         "{n} questions could not be asked (said when skipped). ",
                         skipped).format(n=skipped)
                if skipped > 0 else "")
        with Vertical(id="done-box"):
            yield Static(text, id="done-text")
            yield Static(note + _("The review schedule brings questions back when they are "
                                  "due: the catalog's Review entry says how many wait."),
                         id="done-next")
            with Horizontal(id="done-buttons"):
                yield Button(_("Back (enter)"), id="back", variant="primary")
                yield Button(_("Stay here (esc)"), id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
