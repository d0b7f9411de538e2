"""The catalog: packs and lessons in course order, with progress marks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tutor.ui.messages import OpenLesson
from tutor.ui.screens.base import TutorScreen
from tutor.ui.text import plain
from tutor.ui.widgets.inline import inline as md_inline
from tutor.ui.widgets.kernel_status import KernelStatus

if TYPE_CHECKING:
    from tutor.lesson import LessonError
    from tutor.lesson.model import Lesson

MARKS = {"new": "·", "tried": "◐", "done": "✓", "perfect": "★"}
BROKEN = "broken:"  # option ids of lesson files that do not load


def _broken_files(errors: list[LessonError]) -> list[Option]:
    """Files that do not load, listed after the lessons (highlight one to see why)."""
    if not errors:
        return []
    options = [Option(Content.styled(f"Could not load ({len(errors)})", "bold $text-error"),
                      id="pack:broken", disabled=True)]
    for n, error in enumerate(errors):
        where = error.problems[0].file if error.problems else "?"
        options.append(Option(plain(f" ✗ {where}", "$text-error"), id=f"{BROKEN}{n}"))
    return options


class CatalogScreen(TutorScreen):
    BINDINGS = [
        Binding("c", "continue", "Continue"),
        Binding("s", "start_over", "Start over"),
        Binding("ctrl+p", "app.command_palette", "Find lesson"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static("tutor · PyTorch internals: predict, then run", classes="brand")
            yield KernelStatus(classes="kernel")
        yield Static(id="continue-line")
        with Horizontal(id="catalog-body"):
            yield OptionList(id="lessons")
            with VerticalScroll(id="lesson-detail"):
                yield Static(id="detail-head")
                yield Static(id="detail-intro")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_catalog()
        self.query_one("#lessons", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_catalog()

    # ------------------------------------------------------------------ content
    def refresh_catalog(self) -> None:
        app = self.app
        catalog = app.catalog  # type: ignore[attr-defined]
        if catalog is None:
            self.query_one("#continue-line", Static).update("Loading lessons…")
            return
        statuses = app.store.lessons()  # type: ignore[attr-defined]
        listing = self.query_one("#lessons", OptionList)
        keep = listing.highlighted_option.id if listing.highlighted_option else None
        options: list[Option] = []
        current = None
        for lesson in catalog.lessons:
            pack = catalog.pack_of[lesson.id]
            if pack is not current:
                current = pack
                options.append(Option(Content.styled(pack.title, "bold $text-accent"),
                                      id=f"pack:{pack.directory}", disabled=True))
            status = statuses[lesson.id].status if lesson.id in statuses else "new"
            prompt = Content.assemble((f" {MARKS[status]} ", f"$text-{_tone(status)}"),
                                      inline(lesson.title))
            options.append(Option(prompt, id=lesson.id))
        options += _broken_files(catalog.errors)
        listing.clear_options()
        listing.add_options(options)
        if not catalog.lessons:
            self.query_one("#continue-line", Static).update(
                "No lessons found. Add a directory with TUTOR_PATH, or see `tutor list`.")
            return
        target, position = app.continue_target()  # type: ignore[attr-defined]
        ids = [o.id for o in options]
        listing.highlighted = ids.index(keep if keep in ids else target.id)
        verb = "Continue" if position != (0, 0) else "Start"
        where = f" (step {position[0] + 1} of {len(target.steps)})" if position != (0, 0) else ""
        self.query_one("#continue-line", Static).update(
            Content.assemble(("▶ ", "$text-success"), f"{verb}: ",
                             inline(target.title).stylize("bold"),
                             where, ("  — press c", "$text-muted")))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        catalog = self.app.catalog  # type: ignore[attr-defined]
        option = event.option.id or ""
        if catalog is not None and option.startswith(BROKEN):
            error = catalog.errors[int(option[len(BROKEN):])]
            self.query_one("#detail-head", Static).update(
                Content.styled("This file does not load", "bold $text-error"))
            self.query_one("#detail-intro", Static).update(
                plain("\n".join(str(p) for p in error.problems[:50])))
            return
        lesson = catalog.get(option) if catalog else None
        if lesson is not None:
            self.show_detail(lesson)

    def show_detail(self, lesson: Lesson) -> None:
        progress = self.app.store.lesson(lesson.id)  # type: ignore[attr-defined]
        pack = self.app.catalog.pack_of[lesson.id]  # type: ignore[attr-defined]
        head = Content.assemble(
            inline(lesson.title).stylize("bold"), "\n",
            (f"{lesson.id} · {lesson.topic} · level {lesson.level}", "$text-muted"), "\n",
            f"{len(lesson.steps)} steps, {len(lesson.prompts)} questions · status: ",
            (progress.status, f"$text-{_tone(progress.status)}"),
            "\n", (f"pack: {pack.title}", "$text-muted"),
        )
        self.query_one("#detail-head", Static).update(head)
        self.query_one("#detail-intro", Static).update(md_inline(lesson.intro or ""))

    # ------------------------------------------------------------------ actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and not event.option.id.startswith(("pack:", BROKEN)):
            self.post_message(OpenLesson(event.option.id))

    def action_continue(self) -> None:
        target, _ = self.app.continue_target()  # type: ignore[attr-defined]
        if target is not None:
            self.post_message(OpenLesson(target.id))

    def action_start_over(self) -> None:
        option = self.query_one("#lessons", OptionList).highlighted_option
        if option is not None and option.id and not option.id.startswith(("pack:", BROKEN)):
            self.post_message(OpenLesson(option.id, fresh=True))


def inline(text: str) -> Content:
    """A title with `code` spans shown as code (without the backticks)."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # unbalanced: leave it alone
        return Content(text)
    return Content.assemble(*[(p, "$text-accent") if i % 2 else p for i, p in enumerate(parts)])


def _tone(status: str) -> str:
    return {"new": "muted", "tried": "warning", "done": "success", "perfect": "accent"}[status]
