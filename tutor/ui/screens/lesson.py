"""The lesson screen: the intro, the code so far, the question, the verdict, the REPL.

Built from compound widgets that own their state (`CodePane`, `QuestionPane`,
`VerdictPanel`, `StepNotes`, `Repl`); the screen holds the lesson's `LessonFlow`
(the pure core: position, answers, tally) and its `LessonRun` (the live kernel
session), hands widgets what to show, and reacts to their messages.  Steps run in
a named thread worker that posts `StepRan`; progress is written by the app's
workers, in order.

Modes: `running` (the step runs in the kernel; the learner may already type a
prediction, judged once the observation arrives), `asking`, `judged` (the verdict
is up), `failed` (the step could not run).

At any size, what matters now is scrolled into view: while asking, the question
and entry with as much of the code above them as fits; after a verdict, the
verdict and the whole explanation (and the step's notes when they fit too).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Collapsible, Footer, Static

from tutor.engine import LessonRun, StepOutcome, unmet_requirement
from tutor.flow import Answer, LessonFlow, Position
from tutor.i18n import N_, _, untranslated
from tutor.kernel import Kernel, KernelError, Session
from tutor.lesson.model import Lesson
from tutor.pictures import ShowSpec
from tutor.ui.messages import OpenLesson, StepRan
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.done import LessonDone, ReviewDone
from tutor.ui.text import opening, plain
from tutor.ui.widgets.answer import AnswerBox, QuestionPane
from tutor.ui.widgets.code_pane import CodePane, Fold, numbered
from tutor.ui.widgets.inline import inline, title
from tutor.ui.widgets.kernel_status import KernelStatus
from tutor.ui.widgets.picture import PicturePane
from tutor.ui.widgets.repl import Repl
from tutor.ui.widgets.verdict import StepNotes, VerdictPanel

if TYPE_CHECKING:
    from textual.binding import ActiveBinding

PICTURE_BELOW = N_("▼ picture below (PgDn)")


def lesson_question_number(lesson: Lesson, position: Position) -> int:
    """1-based number of the question at `position` among all of `lesson`'s questions."""
    step, prompt = position
    return sum(len(s.prompts) for s in lesson.steps[:step]) + prompt + 1


class LessonScreen(TutorScreen[None]):
    AUTO_FOCUS = None  # the question's entry takes the focus itself, once it is there
    BINDINGS = [
        Binding("escape", "leave_repl", N_("Leave REPL")),
        Binding("escape", "back", N_("Catalog")),
        Binding("ctrl+t", "hint", N_("Hint")),
        Binding("h", "hint", N_("Hint"), show=False),
        Binding("ctrl+r", "reveal", N_("Reveal")),
        Binding("r", "retry", N_("Retry")),
        Binding("n,enter", "next", N_("Next")),
        Binding("ctrl+o", "repl", N_("REPL")),
        Binding("p", "picture", N_("Picture")),
        Binding("f2", "earlier", N_("Earlier")),
        Binding("ctrl+c", "interrupt", N_("Interrupt"), priority=True),
        Binding("question_mark", "app.help", N_("Help"), show=False),
    ]

    mode: reactive[str] = reactive("running", init=False)

    def __init__(self, lesson: Lesson, kernel: Kernel, start: Position = (0, 0),
                 run_id: str | None = None, *, flow: LessonFlow | None = None,
                 review: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.flow = flow if flow is not None else LessonFlow(lesson, start, run_id)
        self.review = review  # (index, count): a question of a review (see App.ask_question)
        self.lesson = self.flow.lesson
        self.kernel = kernel
        self.run = LessonRun(kernel, self.lesson)
        self.run_lock = threading.Lock()  # one worker at a time drives the LessonRun
        # an answer typed before the step finished running (and how sure the learner was)
        self.pending: tuple[str, str] | None = None
        self.fatal = False  # the lesson cannot run here at all (requirements)
        self.auto_rebuilt = False  # one automatic rebuild per failure: no crash loop
        self.rebuilding = False
        self.repl_dirty = False  # the REPL changed the namespace: rebuild before the next step
        self.picture_spec: ShowSpec | None = None  # the picture behind the current question
        self.pointing_below = False  # the verdict's keys line says the picture is below

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static(id="lesson-title", classes="brand")
            yield KernelStatus(classes="kernel")
        with VerticalScroll(id="lesson-body"):
            with Fold(title=_("Intro"), id="intro", collapsed=False):
                yield Static(inline(self.lesson.intro or ""), id="intro-text")
            for module in self.lesson.modules:  # the lesson's own modules: its code imports them
                with Fold(title=_("Module {name}.py (the code imports it)").format(
                              name=module.name),
                          id=f"module-{module.name}", classes="module", collapsed=False):
                    yield Static(numbered(module.source), id=f"module-{module.name}-code",
                                 classes="code")
            with Fold(title=_("Setup, shared by the pack's lessons (runs before step 1)"),
                      id="setup", collapsed=False):
                # built here, content and all: a Fold composes its children only when it
                # mounts itself, which may be after this screen's on_mount
                setup = self.lesson.setup
                yield Static(numbered(setup.code) if setup is not None else "",
                             id="setup-code", classes="code")
            yield CodePane(id="code-pane")
            yield Static(id="failure")
            yield QuestionPane(id="question")
            yield VerdictPanel(id="verdict")
            yield StepNotes(id="step-after")
            yield PicturePane(self.live_session, id="picture-pane")
            yield Static(id="body-end")  # see anchor_body
        yield Footer()

    @property
    def code_pane(self) -> CodePane:
        return self.query_one(CodePane)

    @property
    def question(self) -> QuestionPane:
        return self.query_one(QuestionPane)

    @property
    def verdict(self) -> VerdictPanel:
        return self.query_one(VerdictPanel)

    @property
    def notes(self) -> StepNotes:
        return self.query_one(StepNotes)

    @property
    def repl(self) -> Repl | None:
        found = self.query(Repl)
        return found.first() if found else None

    @property
    def repl_running(self) -> bool:
        repl = self.repl
        return repl is not None and repl.running

    @property
    def repl_focused(self) -> bool:
        return self.focused is not None and self.focused.id == "repl-input"

    def live_session(self) -> Session | None:
        return self.run.session

    def on_mount(self) -> None:
        self.query_one("#intro", Collapsible).display = bool(self.lesson.intro)
        self.query_one("#setup", Collapsible).display = self.lesson.setup is not None
        # whenever the body's content is laid out anew (a step, a verdict, a hint, a
        # picture), scroll what matters into view again
        body = self.query_one("#lesson-body", VerticalScroll)
        self.watch(body, "virtual_size", lambda _size: self.keep_in_view(0), init=False)
        # a note that the picture is below stays true: it goes once the picture is in
        # view (the learner scrolled, or a late layout brought it up)
        self.watch(body, "virtual_size", lambda _size: self.recheck_picture_note(), init=False)
        self.watch(body, "scroll_y", lambda _y: self.recheck_picture_note(), init=False)
        self.remember_position()
        self.show_step()
        self.run_steps(self.flow.step_index)

    def on_unmount(self) -> None:
        run = self.run  # end the lesson's process without blocking the UI
        threading.Thread(target=run.close, name="tutor-close-run", daemon=True).start()

    def on_resize(self) -> None:
        self.call_after_refresh(self.keep_in_view)
        self.call_after_refresh(self.show_title)  # (cut to the width it now has)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode, flow = self.mode, self.flow
        repl_focused = self.repl_focused
        allowed = {
            "hint": mode in ("asking", "running") and flow.prompt is not None,
            "reveal": mode == "asking" and flow.prompt is not None,
            "retry": (mode == "judged" and flow.can_retry) or (mode == "failed" and not self.fatal),
            "next": mode == "judged" and not repl_focused,
            "repl": mode in ("judged", "asking") and flow.step_answered,
            "interrupt": self.repl_running or mode == "running",
            "leave_repl": repl_focused,
            # like the REPL, only once no question of the step is open: a graph drawn
            # after the first question could show the next one's answer (a grad_fn)
            "picture": mode == "judged" and not repl_focused and flow.step_answered
            and self.picture_spec is not None,
            "back": not repl_focused,
            "earlier": flow.step_index > 0,
        }
        return allowed.get(action, True)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """After a verdict the footer has its most keys (catalog, retry, next, REPL,
        picture, earlier code, help, palette) and did not fit 80 columns, in English or
        Korean: `f2` (fold the earlier code) still works there, and the help names it,
        but the footer leaves it out."""
        from dataclasses import replace

        shown = super().active_bindings
        if self.mode != "judged":
            return shown
        return {key: active._replace(binding=replace(active.binding, show=False))
                if active.binding.action == "earlier" else active
                for key, active in shown.items()}

    def watch_mode(self) -> None:
        if self.mode == "failed":  # a step that timed out or died runs no more
            self.code_pane.set_running(False)
        self.gate_repl()
        self.refresh_bindings()

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    # ------------------------------------------------------------------ showing
    def question_number(self) -> int:
        """The current question's number in its lesson (as the lesson's own sittings
        number it: a review asks question 3 as Q3, not as its first question), or 0."""
        flow = self.flow
        if flow.prompt is None or not flow.question_number:
            return 0
        return lesson_question_number(self.lesson, flow.position)

    def show_title(self) -> None:
        text = title(self.lesson.title)
        if untranslated(self.lesson.lang):
            text += Content.styled(" " + untranslated(self.lesson.lang), "$text-warning")
        if self.review is not None:
            text = Content.styled(_("Review {n} of {count}").format(
                n=self.review[0] + 1, count=self.review[1]) + " · ", "$text-accent") + text
        number = self.question_number()
        count = Content.styled("  ·  " + _("question {n} of {count}").format(
            n=number, count=len(self.lesson.prompts)), "$text-muted") if number else Content()
        bar = self.query_one("#lesson-title", Static)
        room = bar.content_size.width - count.cell_length  # (0 before the first layout)
        if count and room >= 12 and text.cell_length > room:
            # a long (or Korean, two cells a syllable) title is cut, not the count after it
            text = text.truncate(room, ellipsis=True)
        bar.update(text + count)

    def show_step(self, after_layout: bool = False) -> None:
        """The current step's code, then its question.  On the way from one step to the
        next (`after_layout`), the question is shown only once the new code is laid out:
        the screen paints what changed before it lays out anew, so the new question
        drew in the old verdict's place, above which the new code was scrolled away."""
        flow = self.flow
        self.query_one("#intro", Collapsible).collapsed = flow.step_index > 0
        self.query_one("#setup", Collapsible).collapsed = flow.step_index > 0
        for fold in self.query(".module").results(Collapsible):
            fold.collapsed = flow.step_index > 0
        self.code_pane.show(self.lesson.steps, flow.step_index, running=self.mode == "running")
        self.notes.display = False
        self.hide_repl()
        if after_layout:
            self.verdict.display = False
            self.question.display = False
            self.query_one(PicturePane).hide()
            self.call_after_refresh(self.show_question_of, flow.position)
            return
        self.show_question()

    def show_question_of(self, position: Position) -> None:
        """show_question, unless the lesson has moved on (or left) meanwhile."""
        if self.is_attached and self.flow.position == position:
            self.show_question()

    def show_question(self, text: str = "") -> None:
        """The current question (pre-filled with `text` on a retry), or for a step
        without questions, just its code."""
        flow = self.flow
        prompt = flow.prompt
        self.show_title()
        self.verdict.display = False
        self.picture_spec = None
        self.query_one(PicturePane).hide()
        question = self.question
        question.display = prompt is not None
        if prompt is None:
            self.mode = "judged" if flow.outcome is not None else "running"
            self.call_after_refresh(self.keep_in_view)
            return
        question.ask(prompt, self.question_number(), text, focus=True)
        # while asking, the question and its entry end the body: keep the view at the end
        # as the layout changes, in the frame that lays it out (a scroll after it showed
        # a new question's entry cut off at the bottom until the next frame)
        self.anchor_body(True)
        flow.state  # noqa: B018 - starts the question's clock
        if flow.outcome is not None:
            self.mode = "asking"
            question.box.set_examples(flow.entry_examples())
        self.call_after_refresh(self.keep_in_view)

    def anchor_body(self, anchored: bool) -> None:
        """Keep the body scrolled to its end as it is laid out (while asking, the
        question's entry ends it), or not.  A short body anchored would scroll above its
        top (Textual anchors to the content's bottom): the filler after the picture pane
        takes the rest of the view then (at least one row: shown only while anchored)."""
        self.query_one("#body-end", Static).display = anchored
        self.query_one("#lesson-body", VerticalScroll).anchor(anchored)

    def show_answer(self, answer: Answer) -> None:
        """A counted answer (or a reveal): the verdict and why, in view."""
        flow = self.flow
        self.anchor_body(False)  # keep_in_view decides
        self.question.answered()
        self.picture_spec = flow.picture() if flow.step_answered else None
        panel = self.verdict
        panel.display = True
        explain = flow.prompt.explain if flow.prompt is not None else None
        self.pointing_below = False
        panel.show_answer(answer, explain, self.keys_text())
        if flow.step_answered:
            self.show_notes()
        self.mode = "judged"
        panel.focus(scroll_visible=False)  # (keep_in_view scrolls)
        self.call_after_refresh(self.keep_in_view)

    def show_notes(self) -> None:
        """Once the step's questions are answered: what it printed, its explanation."""
        outcome = self.flow.outcome
        self.notes.show_notes(outcome.stdout if outcome else "", self.flow.step.explain)

    def show_failure(self, text: str, tone: str = "-error") -> None:
        box = self.query_one("#failure", Static)
        box.update(plain(text))
        box.display = bool(text)
        box.set_classes(tone)
        if text:
            self.call_after_refresh(self.keep_in_view)

    def keys_text(self) -> str:
        flow = self.flow
        parts = [_("enter/n: next")]
        if flow.can_retry:
            parts.append(_("r: retry"))
        if flow.step_answered:
            parts.append(_("ctrl+o: REPL"))
        if flow.step_answered and self.picture_spec is not None:
            parts.append(_("p: hide the picture") if self.query_one(PicturePane).display
                         else _("p: picture"))
        return "   ".join(parts)

    def keep_in_view(self, tries: int = 3, then_say_where_the_picture_is: bool = False) -> None:
        """Scroll the body so that what matters now is on screen (see the module doc).
        Widgets just filled may not be laid out yet: then it looks again after the
        next refresh.  A call queued before the screen was replaced (`tutor dev`
        reloads it) finds nothing to scroll and does nothing.  With
        `then_say_where_the_picture_is`, once the scroll is final, a picture left
        below the screen is pointed at (not before: it may yet scroll into view)."""
        bodies = self.query("#lesson-body").results(VerticalScroll)
        body = next(iter(bodies), None)
        if body is None or not self.is_attached:
            return
        height = body.scrollable_content_region.height
        if height <= 0:
            return

        def top(widget: Widget) -> int:
            return widget.virtual_region_with_margin.y

        def bottom(widget: Widget) -> int:
            region = widget.virtual_region_with_margin
            return region.y + region.height

        failure = self.query_one("#failure", Static)
        picture = self.query_one(PicturePane)
        if self.verdict.display:
            start = top(self.question) if self.question.display else top(self.verdict)
            end = bottom(self.verdict)
            for extra in (self.notes, picture):  # below it, as far as they fit
                if extra.display and bottom(extra) - start <= height:
                    end = bottom(extra)
            y = min(max(0, end - height), start)  # (a picture too big: it starts below)
        elif self.question.display and body.is_anchored:
            body.anchor()  # at its end, where the entry is, in the layout's own frame
            return
        elif self.question.display:
            y = max(0, bottom(self.question) - height)
        elif failure.display:
            y = max(0, bottom(failure) - height)
        else:
            y = max(0, max(bottom(self.code_pane), bottom(self.notes)) - height)
        stale = any(w.display and w.virtual_region.height == 0
                    for w in (self.question, self.verdict, self.notes, picture))
        if (stale or y > body.max_scroll_y) and tries > 0:
            self.call_after_refresh(self.keep_in_view, tries - 1, then_say_where_the_picture_is)
        elif then_say_where_the_picture_is:
            self.call_after_refresh(self.say_where_the_picture_is)
        body.scroll_to(y=y, animate=False, immediate=True)

    # ------------------------------------------------------------------ answering
    @on(AnswerBox.Submitted)
    def submitted(self, event: AnswerBox.Submitted) -> None:
        if self.mode == "failed":  # the step did not run: nothing is coming to judge by
            self.question.note(_("esc: back to the catalog") if self.fatal else _(
                "r: try again (re-runs the steps in a fresh process) · esc: back to the "
                "catalog"), "-waiting")
            self.call_after_refresh(self.keep_in_view)
            return
        if self.mode == "running" or self.flow.outcome is None:
            self.pending = (event.text, event.confidence)
            self.question.note(_("Waiting for the kernel to finish running the step…"),
                               "-waiting")
            self.call_after_refresh(self.keep_in_view)
            return
        if self.mode == "asking":
            self.judge(event.text, event.confidence)

    def judge(self, text: str, confidence: str = "sure") -> None:
        flow = self.flow
        problem = flow.problem()
        if problem:
            self.question.note(_("This question cannot be judged: {problem}. Press ctrl+r to "
                                 "see the live value, or esc.").format(problem=problem), "-error")
            self.call_after_refresh(self.keep_in_view)
            return
        answer = flow.judge(text, confidence)
        if not answer.counted:  # the judge never puts this question's answer in an example
            message = answer.verdict.message if answer.verdict is not None else ""
            self.question.note(f"? {message}  " + _("Try again (this did not count)."),
                               "-invalid")
            self.question.box.focus_input()
            self.call_after_refresh(self.keep_in_view)
            return
        self.save(answer)
        self.show_answer(answer)

    def save(self, answer: Answer) -> None:
        if answer.attempt is not None:
            position = self.flow.resume_point() if self.flow.whole else None
            self.app.save_attempt(answer.attempt, len(self.lesson.prompts), position)

    def action_hint(self) -> None:
        hint = self.flow.hint()
        self.question.show_hint(hint, asked=True)
        self.call_after_refresh(self.keep_in_view)

    def action_reveal(self) -> None:
        if self.flow.prompt is None:
            return
        answer = self.flow.reveal()
        self.save(answer)
        self.show_answer(answer)

    def action_retry(self) -> None:
        if self.mode == "failed":
            self.rebuild()
            return
        self.flow.retry()
        self.show_question(self.flow.state.text)

    def action_next(self) -> None:
        flow = self.flow
        move = flow.advance()
        if move == "question":
            self.show_question()
            return
        if move == "step":
            self.remember_position()
            self.mode = "running"
            self.show_step(after_layout=True)
            if self.repl_dirty:
                self.notify(_("What you changed in the REPL was discarded: the steps re-run "
                              "fresh."), timeout=4)
                self.rebuild(quiet=True)
            else:
                self.run_steps(flow.step_index)
            return
        self.remember_position(finished=True)
        app = self.app
        if self.review is not None:  # straight on to the next question; a summary at the end
            index, count = self.review
            app.review_results[index] = flow.tally()
            if not app.ask_question(index + 1):
                app.push_screen(ReviewDone(app.review_results, count), self.review_choice)
            return
        nxt = app.next_lesson(self.lesson.id)
        self.app.push_screen(LessonDone(self.lesson.title, flow.tally(),
                                        nxt.title if nxt else None,
                                        app.course_text(finished=self.lesson.id)), self.done_choice)

    def review_choice(self, choice: str | None) -> None:
        if choice == "back":
            self.app.pop_screen()  # back to where the review started

    def done_choice(self, choice: str | None) -> None:
        if choice == "next":
            nxt = self.app.next_lesson(self.lesson.id)
            if nxt is not None:
                self.post_message(OpenLesson(nxt.id))
                return
        if choice in ("next", "catalog"):
            self.app.pop_screen()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_earlier(self) -> None:
        self.code_pane.toggle_earlier()

    def action_picture(self) -> None:
        """p: the picture behind the question, under the verdict (p again hides it)."""
        spec = self.picture_spec
        pane = self.query_one(PicturePane)
        if pane.display:
            pane.hide()
            self.pointing_below = False
            self.verdict.set_keys(self.keys_text())
        elif spec is None:
            self.notify(_("No picture fits this question; in the REPL try :graph EXPR, "
                          ":storage or :tree EXPR."), timeout=4)
        else:
            pane.show(spec)
            self.pointing_below = False
            self.verdict.set_keys(self.keys_text())

    def on_picture_pane_drawn(self, event: PicturePane.Drawn) -> None:
        self.call_after_refresh(self.keep_in_view, 3, True)

    def say_where_the_picture_is(self) -> None:
        """A picture left below the screen is pointed at on the verdict's keys line, in
        the lesson's own text (a notification would cover the picture it points to)."""
        pane, body = self.query_one(PicturePane), self.query_one("#lesson-body", VerticalScroll)
        below = pane.display and pane.region.y >= body.scrollable_content_region.bottom - 2
        self.pointing_below = bool(below and self.verdict.display)
        self.verdict.set_keys(self.keys_text() + (f"   {_(PICTURE_BELOW)}" if below else ""))

    def recheck_picture_note(self) -> None:
        if self.pointing_below and self.is_attached:
            self.call_after_refresh(self.say_where_the_picture_is)

    def remember_position(self, finished: bool = False) -> None:
        if not self.flow.whole:
            return
        position = (len(self.lesson.steps), 0) if finished else self.flow.resume_point()
        self.app.save_position(self.lesson.id, position, self.flow.run_id)

    # ------------------------------------------------------------------ the kernel
    @work(thread=True, exit_on_error=False, group="kernel", description=N_("run lesson steps"))
    def run_steps(self, upto: int, rebuild: bool = False) -> None:
        """Run the steps up to `upto` (those not run yet; all of them, in a fresh
        process, with `rebuild`) and post the last outcome."""
        step = self.lesson.steps[upto]
        with self.run_lock:
            try:
                why = unmet_requirement(self.lesson, self.kernel.wait_ready())
                if why:
                    outcome = StepOutcome(step, failure=_(
                        "This lesson cannot run here: it {why}.").format(why=why))
                    self.post_message(StepRan(outcome, fatal=True))
                    return
                last = self.run.rebuild(upto) if rebuild else self.run.run_through(upto)
                outcome = last or StepOutcome(step)
            except KernelError as exc:
                outcome = StepOutcome(step, failure=_(
                    "the kernel could not run the step: {error}").format(error=exc))
        self.post_message(StepRan(outcome, rebuilt=rebuild))

    @work(thread=True, exit_on_error=False, group="kernel", description=N_("restart the kernel"))
    def restart_worker(self) -> None:
        with self.run_lock:
            self.run.close()
            self.kernel.restart()
        self.app.call_from_thread(self.run_steps, self.flow.step_index, True)

    def restart_kernel(self) -> None:
        """ctrl+k: a fresh kernel; the lesson's steps re-run in it."""
        if not self.flow.state.answered:
            self.mode = "running"
        self.show_failure(_("Restarting the kernel and re-running the steps…"), tone="-waiting")
        self.restart_worker()

    def rebuild(self, quiet: bool = False) -> None:
        """Re-run the steps up to the current one in a fresh process."""
        self.rebuilding = True
        self.repl_dirty = False
        self.gate_repl()
        if self.flow.outcome is None or not self.flow.state.answered:
            self.mode = "running"
        if not quiet:
            self.show_failure(_("Re-running steps 1–{n} in a fresh process…").format(
                n=self.flow.step_index + 1), tone="-waiting")
        self.run_steps(self.flow.step_index, rebuild=True)

    def on_step_ran(self, event: StepRan) -> None:
        outcome, flow = event.outcome, self.flow
        self.rebuilding = False
        self.gate_repl()
        if event.fatal:
            self.fatal = True
            self.mode = "failed"
            self.show_failure(f"{outcome.failure}\n" + _("esc: back to the catalog"))
            return
        if outcome.failure:
            session = self.run.session
            died = session is None or not session.alive
            if died and not self.auto_rebuilt:
                self.auto_rebuilt = True
                # (the failure says what stopped: `step 2 crashed: the lesson's process…`)
                self.show_failure(_("{why}. Restarting it and re-running steps 1–{n}…").format(
                    why=opening(outcome.failure), n=flow.step_index + 1), tone="-waiting")
                self.notify(_("Kernel trouble: {why}. Rebuilding the lesson…").format(
                    why=outcome.failure), severity="warning", timeout=6, markup=False)
                self.rebuild(quiet=True)
                return
            self.mode = "failed"
            self.show_failure(f"{outcome.failure}\n" + _(
                "r: try again (re-runs the steps in a fresh process) · esc: back to the "
                "catalog"))
            return
        self.auto_rebuilt = False
        self.show_failure("")
        if outcome.step.index != flow.step_index:
            return
        flow.outcome = outcome
        self.code_pane.set_running(False)
        if event.rebuilt and self.mode == "judged":
            self.notify(_("The lesson's namespace was rebuilt; carry on."), timeout=4)
            return
        if flow.prompt is None:  # a step without questions: its notes at once
            self.show_notes()
            self.mode = "judged"
            self.call_after_refresh(self.keep_in_view)
            return
        if flow.state.answered:
            self.mode = "judged"
            return
        self.mode = "asking"
        self.question.box.set_examples(flow.entry_examples())
        pending, self.pending = self.pending, None
        if pending is not None:
            self.question.note("")
            self.judge(*pending)

    def action_interrupt(self) -> None:
        """ctrl+c: a KeyboardInterrupt in the running code; the kernel stops the code's
        process if it ignores it (the REPL then says so and the namespace is rebuilt)."""
        session = self.run.session
        if session is not None:
            session.interrupt()

    # ------------------------------------------------------------------ the REPL
    async def action_repl(self) -> None:
        repl = self.repl
        if repl is None:  # mounted on first use: a TextArea is costly to build
            repl = Repl(self.live_session, id="repl")
            await self.mount(repl, before=self.query_one(Footer))
            self.watch(repl, "running", lambda _running: self.refresh_bindings(), init=False)
        repl.display = True
        self.gate_repl()
        repl.focus_input()
        self.refresh_bindings()

    def action_leave_repl(self) -> None:
        self.hide_repl(keep_open=True)

    def hide_repl(self, keep_open: bool = False) -> None:
        repl = self.repl
        if repl is not None and not keep_open:
            repl.display = False
        if self.mode == "judged" and self.verdict.display:
            self.verdict.focus(scroll_visible=False)
        self.refresh_bindings()

    def gate_repl(self) -> None:
        """Tell the REPL whether code may run now, and if not, why."""
        repl = self.repl
        if repl is None:
            return
        if not self.flow.step_answered:  # never run code before the questions are answered
            repl.blocked = _("Answer this step's questions first.")
        elif self.rebuilding:
            repl.blocked = _("The namespace is being rebuilt; run it again in a moment.")
        else:
            repl.blocked = None

    def on_repl_changed(self, event: Repl.Changed) -> None:
        self.repl_dirty = True

    def on_repl_died(self, event: Repl.Died) -> None:
        self.rebuild(quiet=True)
