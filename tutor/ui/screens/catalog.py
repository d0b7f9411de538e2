"""The catalog: the course's packs and lessons in order, each with its mark and best
score; the packs outside the course (`order: 0`, e.g. the samples) after them.  Above
the lessons, two entries: Review (how many questions are due for review and how many
mistakes wait to be redone; enter or `r` asks them again) and Progress (plots of
accuracy and reviews over time, calibration; enter or `p`).

Above the list: where "continue" goes and how far the course is done.  The lesson
highlighted is the one the detail pane, enter and `s` act on; coming back from a
lesson highlights that lesson.  Lessons the kernel cannot run (a CUDA lesson on a
machine without a GPU) stay in their place, marked ⊘, with why in the detail pane;
they are not counted in the course line, and "continue" passes them by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tutor.course import course_lessons, course_progress, finished, in_course
from tutor.i18n import (
    ENGLISH,
    N_,
    _,
    language,
    ngettext,
    pack_title,
    status_word,
    steps_and_questions,
    untranslated,
)
from tutor.ui.messages import OpenLesson
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.confirm import Confirm
from tutor.ui.text import plain
from tutor.ui.widgets.inline import inline, title
from tutor.ui.widgets.kernel_status import KernelStatus

if TYPE_CHECKING:
    from pathlib import Path

    from tutor.lesson import LessonError
    from tutor.lesson.model import Lesson, Pack
    from tutor.progress import LessonProgress

MARKS = {"new": "·", "tried": "◐", "done": "✓", "perfect": "★"}
CANNOT = "⊘"  # the mark of a lesson this kernel cannot run
TONES = {"new": "muted", "tried": "warning", "done": "success", "perfect": "accent"}
BROKEN = "broken:"  # option ids of lesson files that do not load
REVIEW, PROGRESS = "do:review", "do:progress"  # the entries above the lessons


def _broken_files(errors: list[LessonError]) -> list[Option]:
    """Files that do not load, listed after the lessons (highlight one to see why)."""
    if not errors:
        return []
    options = [Option(Content.styled(_("Could not load ({n})").format(n=len(errors)),
                                     "bold $text-error"),
                      id="pack:broken", disabled=True)]
    for n, error in enumerate(errors):
        where = error.problems[0].file if error.problems else "?"
        options.append(Option(plain(f" ✗ {where}", "$text-error"), id=f"{BROKEN}{n}"))
    return options


def translated_counts(lessons: list[Lesson],
                      pack_of: dict[str, Pack]) -> dict[Path, tuple[int, int]]:
    """Per pack (by directory): how many of its lessons are shown in the language tutor
    speaks, of how many; nothing in English (everything is)."""
    lang = language()
    counts: dict[Path, tuple[int, int]] = {}
    if lang == ENGLISH:
        return counts
    for lesson in lessons:
        directory = pack_of[lesson.id].directory
        done, total = counts.get(directory, (0, 0))
        counts[directory] = (done + (lesson.lang == lang), total + 1)
    return counts


class CatalogScreen(TutorScreen[None]):
    scores: dict[str, int] = {}  # best score per lesson, as of the last refresh

    BINDINGS = [
        Binding("c", "continue", N_("Continue")),
        Binding("s", "start_over", N_("Start over")),
        Binding("r", "app.review", N_("Review")),
        Binding("p", "app.progress", N_("Progress")),
        Binding("ctrl+p", "app.command_palette", N_("Find lesson")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static(id="catalog-brand", classes="brand")
            yield KernelStatus(classes="kernel")
        yield Static(id="continue-line")
        yield Static(id="course-line")
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
        self.refresh_catalog(highlight=self.app.store.last())  # the lesson just played

    # ------------------------------------------------------------------ content
    def refresh_catalog(self, highlight: str | None = None) -> None:
        app = self.app
        catalog = app.catalog
        self.query_one("#catalog-brand", Static).update(
            "tutor · " + _("PyTorch internals: predict, then run"))  # (the language may change)
        if catalog is None:
            self.query_one("#continue-line", Static).update(_("Loading lessons…"))
            return
        statuses = app.store.lessons()
        scores = self.scores = app.scores()  # (read once per refresh, not per highlight)
        app.tell_store_news()  # rows the reads above could not use, said once
        listing = self.query_one("#lessons", OptionList)
        keep = listing.highlighted_option.id if listing.highlighted_option else None
        course = course_lessons(catalog)  # listed in place, runnable here or not
        listed = {x.id for x in course}  # (by id: comparing whole lessons was O(n²) deep)
        extras = [x for x in catalog.lessons if x.id not in listed]
        cannot = app.cannot_run
        shown = {x.id: f"{scores[x.id]}/{len(x.prompts)}" for x in catalog.lessons
                 if x.id in scores and x.prompts}
        width = max(map(len, shown.values()), default=0)  # the score column, when any
        options = self.entries()
        current = None
        translated = translated_counts(course + extras, catalog.pack_of)
        for lesson in course + extras:
            pack = catalog.pack_of[lesson.id]
            if pack is not current:
                current = pack
                heading = title(pack_title(pack.title, pack.lang)).stylize("bold $text-accent")
                if pack.directory in translated:  # first: a long title is cut, not this
                    done, total = translated[pack.directory]
                    heading = Content.styled(_("{n}/{total} translated").format(
                        n=done, total=total), "$text-muted" if done == total else
                        "$text-warning") + Content(" · ") + heading
                if not in_course(pack):
                    heading += Content.styled("  · " + _("not part of the course"),
                                              "$text-muted")
                options.append(Option(heading, id=f"pack:{pack.directory}", disabled=True))
            status = statuses[lesson.id].status if lesson.id in statuses else "new"
            score = f"{shown.get(lesson.id, ''):>{width}} " if width else ""
            if lesson.id in cannot and status == "new":
                prompt = Content.assemble((f" {CANNOT} ", "$text-muted"), (score, "$text-muted"),
                                          title(lesson.title).stylize("$text-muted"))
            else:
                prompt = Content.assemble((f" {MARKS[status]} ", f"$text-{TONES[status]}"),
                                          (score, "$text-muted"), title(lesson.title))
            options.append(Option(prompt, id=lesson.id))
        options += _broken_files(catalog.errors)
        listing.clear_options()
        listing.add_options(options)
        if not catalog.lessons:
            self.query_one("#continue-line", Static).update(
                _("No lessons found. Add a directory with TUTOR_PATH, or see `tutor list`."))
            return
        target, position = app.continue_target()
        assert target is not None
        ids = [o.id for o in options]
        for wanted in (highlight, keep, target.id):
            if wanted in ids:
                listing.highlighted = ids.index(wanted)
                break
        verb = _("Continue") if position != (0, 0) else _("Start")
        where = " " + _("(step {n} of {count})").format(
            n=position[0] + 1, count=len(target.steps)) if position != (0, 0) else ""
        self.query_one("#continue-line", Static).update(
            Content.assemble(("▶ ", "$text-success"), f"{verb}: ",
                             title(target.title).stylize("bold"),
                             where, ("  — " + _("press c"), "$text-muted")))
        self.query_one("#course-line", Static).update(Content.styled(
            self.course_line(course, statuses), "$text-muted"))

    def course_line(self, course: list[Lesson], statuses: dict[str, LessonProgress]) -> str:
        """How far the course is done, of the lessons this kernel can run.  Until the
        kernel has said what it has, no total: the count of done lessons only (a total
        shown then would drop when the lessons it cannot run are left out)."""
        app = self.app
        assert app.catalog is not None
        cannot = app.cannot_run
        perfect = sum(statuses[x.id].status == "perfect" for x in course
                      if x.id in statuses and x.id not in cannot)
        perfect_text = " " + _("({n} perfect)").format(n=perfect) if perfect else ""
        if not app.runnable_known:
            done = sum(finished(statuses.get(x.id)) for x in course)
            return (_("Course: {done} done{perfect} · the total comes when the kernel is ready "
                      "(it tells which lessons it can run)").format(
                          done=ngettext("{n} lesson", "{n} lessons", done).format(n=done),
                          perfect=perfect_text))
        left_out = sum(x.id in cannot for x in course)
        return (_("Course: {progress}").format(
                    progress=course_progress(app.catalog, statuses, cannot).text())
                + perfect_text
                + (" · " + ngettext("{n} lesson this kernel cannot run ({mark}), not counted",
                                    "{n} lessons this kernel cannot run ({mark}), not counted",
                                    left_out).format(n=left_out, mark=CANNOT)
                   if left_out else ""))

    def entries(self) -> list[Option]:
        """Review (with what waits for it) and Progress, above the lessons."""
        from tutor.progress.queue import queue  # (due ones, then mistakes; no engine)

        asked = queue(self.app.store)
        due = sum(q.reason == "due" for q in asked)
        waiting = (_("{n} waiting: {due} due, {redo} to redo").format(
                       n=len(asked), due=due, redo=len(asked) - due)
                   if asked else _("nothing waiting"))
        tone = "$text-warning" if asked else "$text-muted"
        return [
            Option(Content.assemble((" ↻ ", tone), (_("Review"), "bold"), (f"  {waiting}", tone)),
                   id=REVIEW),
            Option(Content.assemble((" ▦ ", "$text-accent"), (_("Progress"), "bold"),
                                    ("  " + _("your answers over time"),
                                     "$text-muted")), id=PROGRESS),
        ]

    def highlighted_lesson(self) -> Lesson | None:
        option = self.query_one("#lessons", OptionList).highlighted_option
        catalog = self.app.catalog
        if option is None or option.id is None or catalog is None:
            return None
        return catalog.get(option.id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        catalog = self.app.catalog
        option = event.option.id or ""
        if option in (REVIEW, PROGRESS):
            self.show_entry(option)
            return
        if catalog is not None and option.startswith(BROKEN):
            error = catalog.errors[int(option[len(BROKEN):])]
            self.query_one("#detail-head", Static).update(
                Content.styled(_("This file does not load"), "bold $text-error"))
            self.query_one("#detail-intro", Static).update(
                plain("\n".join(str(p) for p in error.problems[:50])))
            return
        lesson = catalog.get(option) if catalog else None
        if lesson is not None:
            self.show_detail(lesson)

    def show_detail(self, lesson: Lesson) -> None:
        app = self.app
        progress = app.store.lesson(lesson.id)
        assert app.catalog is not None
        pack = app.catalog.pack_of[lesson.id]
        best = self.scores.get(lesson.id)
        head = Content.assemble(
            title(lesson.title).stylize("bold"), "\n",
            (f"{self.id_text(lesson.id)} · {pack.topic_name(lesson.topic)} · "
             + _("level {n}").format(n=lesson.level), "$text-muted"), "\n",
            steps_and_questions(len(lesson.steps), len(lesson.prompts)) + " · ",
            (status_word(progress.status), f"$text-{TONES[progress.status]}"),
            (" · " + _("best {best}/{count} right").format(best=best, count=len(lesson.prompts))
             if best is not None else ""),
            "\n", Content.styled(_("pack: "), "$text-muted"),
            title(pack_title(pack.title, pack.lang)).stylize("$text-muted"),
            ("" if in_course(pack) else " " + _("(not part of the course)"), "$text-muted"),
        )
        why = app.cannot_run.get(lesson.id)
        if why:
            head += Content.styled(f"\n{CANNOT} " + _(
                "Cannot run here: this lesson {why}. It is not counted in the course; it opens, "
                "but its steps will not run.").format(why=why), "$text-warning")
        if untranslated(lesson.lang):
            head += Content.styled("\n" + untranslated(lesson.lang), "$text-warning")
        self.query_one("#detail-head", Static).update(head)
        self.query_one("#detail-intro", Static).update(inline(lesson.intro or ""))

    def id_text(self, lesson_id: str) -> str:
        """The lesson id as the detail pane shows it: broken after its pack's `/` when
        it is wider than the pane (a narrow terminal folded it mid-word)."""
        width = self.query_one("#detail-head", Static).content_size.width
        if 0 < width < len(lesson_id) and "/" in lesson_id:
            return lesson_id.replace("/", "/\n", 1)
        return lesson_id

    def on_resize(self) -> None:
        lesson = self.highlighted_lesson()
        if lesson is not None:
            self.call_after_refresh(self.show_detail, lesson)

    def show_entry(self, option: str) -> None:
        if option == REVIEW:
            head = _("Review: ask again what you missed")
            text = _("The questions due for review come first (the schedule brings back what "
                     "you missed, revealed or guessed, before you forget it), then your "
                     "mistakes not answered right since. Each is asked in a fresh run of its "
                     "lesson, with new values where the lesson has them; the steps before it "
                     "run first.\n\nenter or r: start · in plain text: tutor review, "
                     "tutor play --review")
        else:
            head = _("Progress")
            text = _("Plots of how often you were right first time and how many answers and "
                     "reviews you gave, per day; and how sure you were when you were right or "
                     "wrong.\n\nenter or p: open · in plain text: tutor progress --history")
        self.query_one("#detail-head", Static).update(Content.styled(head, "bold"))
        self.query_one("#detail-intro", Static).update(plain(text))

    # ------------------------------------------------------------------ actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option = event.option.id
        if option == REVIEW:
            self.app.action_review()
        elif option == PROGRESS:
            self.app.action_progress()
        elif option and not option.startswith(("pack:", BROKEN)):
            self.post_message(OpenLesson(option))

    def action_continue(self) -> None:
        target, _where = self.app.continue_target()
        if target is not None:
            self.post_message(OpenLesson(target.id))

    def action_start_over(self) -> None:
        """Start the highlighted lesson (the one the detail pane names) from step 1;
        asks first when that drops a sitting in progress."""
        lesson = self.highlighted_lesson()
        if lesson is None:
            return
        progress = self.app.store.lesson(lesson.id)
        in_progress = progress.status != "new" and (0, 0) < (progress.step, progress.prompt) \
            and progress.step < len(lesson.steps)
        if not in_progress:
            self.post_message(OpenLesson(lesson.id, fresh=True))
            return
        question = (Content(_("Start “")) + title(lesson.title).stylize("bold")
                    + Content(_("” over from step 1?\nYou are at step {n} of {count}; starting "
                                "over drops this sitting's place and its score. Your earlier "
                                "answers stay in your history, and the lesson's mark and best "
                                "score stay.").format(n=progress.step + 1,
                                                      count=len(lesson.steps))))

        def chosen(yes: bool | None) -> None:
            if yes:
                self.post_message(OpenLesson(lesson.id, fresh=True))

        self.app.push_screen(Confirm(question, _("Start over")), chosen)
