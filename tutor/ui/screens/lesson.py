"""The lesson: intro, the step's code, the question, the verdict, and the REPL.

Modes: `running` (the step runs in the kernel; the learner may already type a
prediction, judged once the observation arrives), `asking`, `judged` (the
verdict is up), `failed` (the step could not run).  Kernel work happens in the
named workers of `LessonKernelMixin`; they post `StepRan` / `ReplDone`.
"""

from __future__ import annotations

import threading

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Collapsible, Footer, Markdown, Static

from tutor.engine import LessonRun
from tutor.judge import Status
from tutor.kernel import Kernel
from tutor.lesson.model import Lesson
from tutor.ui.flow import LessonFlow, Position
from tutor.ui.messages import OpenLesson, StepRan
from tutor.ui.screens.base import TutorScreen
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.lesson_kernel import LessonKernelMixin
from tutor.ui.screens.lesson_repl import LessonReplMixin
from tutor.ui.screens.picture import LessonPictures
from tutor.ui.text import plain
from tutor.ui.widgets.answer import AnswerBox
from tutor.ui.widgets.code_view import CodeView
from tutor.ui.widgets.inline import inline
from tutor.ui.widgets.kernel_status import KernelStatus
from tutor.ui.widgets.verdict import VerdictPanel


class LessonScreen(LessonPictures, LessonReplMixin, LessonKernelMixin, TutorScreen):
    BINDINGS = [
        Binding("escape", "leave_repl", "Leave REPL"),
        Binding("escape", "back", "Catalog"),
        Binding("ctrl+t", "hint", "Hint"),
        Binding("h", "hint", "Hint", show=False),
        Binding("ctrl+r", "reveal", "Reveal"),
        Binding("r", "retry", "Retry"),
        Binding("n,enter", "next", "Next"),
        Binding("ctrl+o", "repl", "REPL"),
        Binding("p", "picture", "Picture"),
        Binding("ctrl+c", "interrupt", "Interrupt", priority=True),
        Binding("ctrl+k", "restart_kernel", "Restart kernel", show=False),
        Binding("question_mark", "app.help", "Help", show=False),
    ]

    mode: reactive[str] = reactive("running", init=False)

    def __init__(self, lesson: Lesson, kernel: Kernel, start: Position = (0, 0),
                 run_id: str | None = None):
        super().__init__()
        self.lesson = lesson
        self.kernel = kernel
        self.flow = LessonFlow(lesson, start, run_id)
        self.run = LessonRun(kernel, lesson)
        self.run_lock = threading.Lock()
        self.pending: str | None = None  # an answer typed before the step finished running
        self.repl_open = False
        self.repl_running = False
        self.repl_dirty = False  # the REPL changed the namespace: rebuild before the next step

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static(id="lesson-title", classes="brand")
            yield KernelStatus(classes="kernel")
        with VerticalScroll(id="lesson-body"):
            with Collapsible(title="Intro", id="intro", collapsed=False):
                yield Markdown(self.lesson.intro or "")
            with Collapsible(title="Setup, shared by the pack's lessons (runs before step 1)",
                             id="setup", collapsed=False):
                yield CodeView(id="setup-code")
            yield Static(id="step-label", classes="label")
            yield CodeView(id="code")
            yield Static(id="failure")
            with Vertical(id="question"):
                yield Static(id="ask")
                yield AnswerBox(id="answer")
                yield Static(id="hint-line")
                yield Static(id="note-line")
            yield VerdictPanel(id="verdict")
            with Vertical(id="step-after"):
                yield Static(id="step-output")
                yield Static(id="step-explain")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#intro", Collapsible).display = bool(self.lesson.intro)
        self.query_one("#setup", Collapsible).display = self.lesson.setup is not None
        if self.lesson.setup is not None:
            self.query_one("#setup-code", CodeView).show(self.lesson.setup.code)
        self.remember_position()
        self.show_step()
        self.run_steps(self.flow.step_index, rebuild=self.flow.step_index > 0)

    def on_unmount(self) -> None:
        self.close_run()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode, state = self.mode, self.flow.state
        repl_focused = self.repl_open and self.focused is not None and \
            self.focused.id == "repl-input"
        allowed = {
            "hint": mode in ("asking", "running") and self.flow.prompt is not None,
            "reveal": mode == "asking" and self.flow.prompt is not None,
            "retry": (mode == "judged" and self.flow.prompt is not None and not state.revealed
                      and state.verdict is not None and state.verdict.status is not Status.CORRECT)
            or (mode == "failed" and not self.fatal),
            "next": mode == "judged" and not repl_focused,
            "repl": mode in ("judged", "asking") and self.flow.step_answered,
            "interrupt": self.repl_running or mode == "running",
            "leave_repl": repl_focused,
            # like the REPL, only once no question of the step is open: a graph drawn
            # after the first question could show the next one's answer (a grad_fn)
            "picture": mode == "judged" and not repl_focused and self.flow.step_answered
            and self.picture_spec() is not None,
            "back": not repl_focused,
        }
        return allowed.get(action, True)

    def watch_mode(self) -> None:
        self.refresh_bindings()

    # ------------------------------------------------------------------ showing
    def show_step(self) -> None:
        flow = self.flow
        step = flow.step
        self.query_one("#intro", Collapsible).collapsed = flow.step_index > 0
        self.query_one("#setup", Collapsible).collapsed = flow.step_index > 0
        self.query_one("#step-label", Static).update(
            f"Step {step.index + 1} of {len(self.lesson.steps)}"
            + ("  · running…" if self.mode == "running" else ""))
        self.query_one("#code", CodeView).show(step.code)
        self.query_one("#step-after").display = False
        self.hide_repl()
        self.show_question()

    def show_question(self, text: str = "") -> None:
        flow = self.flow
        prompt = flow.prompt
        total = flow.total_prompts
        self.query_one("#lesson-title", Static).update(plain(
            f"{self.lesson.title}  ·  question {min(flow.question_number, total)} of {total}"
            if total else self.lesson.title))
        self.query_one("#verdict").display = False
        self.query_one("#hint-line", Static).display = False
        self.set_note("")
        question = self.query_one("#question")
        question.display = prompt is not None
        if prompt is None:  # a step without questions
            self.mode = "judged" if flow.outcome is not None else "running"
            return
        self.query_one("#ask", Static).update(
            inline(f"**Q{flow.question_number}.** {prompt.ask.strip()}")
            + Content.styled(f"  ({prompt.kind})", "$text-muted"))
        answer = self.query_one("#answer", AnswerBox)
        answer.show_prompt(prompt, text)
        flow.state  # noqa: B018 - starts the question's clock
        if flow.outcome is not None:
            self.mode = "asking"
            self.guard_examples()
        self.call_after_refresh(question.scroll_visible, animate=False)

    def set_note(self, text: str, tone: str = "") -> None:
        note = self.query_one("#note-line", Static)
        note.update(plain(text))
        note.display = bool(text)
        note.set_classes(tone)

    def show_step_after(self) -> None:
        """Once the step's questions are answered: what it printed, its explanation."""
        outcome = self.flow.outcome
        after = self.query_one("#step-after")
        out = (outcome.stdout.strip() if outcome else "")[:2000]
        printed = plain(f"The step printed:\n{out}" if out else "")
        self.query_one("#step-output", Static).update(printed)
        self.query_one("#step-output").display = bool(out)
        explain = self.flow.step.explain or ""
        self.query_one("#step-explain", Static).update(inline(explain))
        self.query_one("#step-explain").display = bool(explain)
        after.display = bool(out or explain)

    def keys_text(self) -> str:
        parts = ["enter/n: next"]
        state = self.flow.state
        if state.verdict is not None and state.verdict.status is not Status.CORRECT \
                and not state.revealed:
            parts.append("r: retry")
        if self.flow.step_answered:
            parts.append("ctrl+o: REPL")
        if self.flow.step_answered and self.picture_spec() is not None:
            parts.append("p: picture")
        return "   ".join(parts)

    # ------------------------------------------------------------------ answering
    @on(AnswerBox.Submitted)
    def submitted(self, event: AnswerBox.Submitted) -> None:
        if self.mode == "running" or self.flow.outcome is None:
            self.pending = event.text
            self.set_note("Waiting for the kernel to finish running the step…", "-waiting")
            return
        if self.mode != "asking":
            return
        self.judge(event.text)

    def judge(self, text: str) -> None:
        flow = self.flow
        problem = flow.problem()
        if problem:
            self.set_note(f"This question cannot be judged: {problem}. "
                          "Press ctrl+r to see the live value, or esc.", "-error")
            return
        verdict = flow.judge(text)
        if verdict.status is Status.INVALID:
            # (the judge never puts this question's answer in an example)
            self.set_note(f"? {verdict.message}  Try again (this did not count).", "-invalid")
            self.query_one("#answer", AnswerBox).focus_input()
            return
        self.save_attempt(flow.attempt(verdict.status.value, text, verdict.expected))
        self.after_answer(lambda p: p.show_verdict(verdict, flow.prompt.explain, self.keys_text()))

    def after_answer(self, fill) -> None:
        self.query_one("#question").display = False
        panel = self.query_one("#verdict", VerdictPanel)
        panel.display = True
        fill(panel)
        if self.flow.step_answered:
            self.show_step_after()
        self.mode = "judged"
        panel.focus()
        self.call_after_refresh(panel.scroll_visible, animate=False)

    def action_hint(self) -> None:
        hint = self.flow.hint()
        line = self.query_one("#hint-line", Static)
        line.update(plain(f"Hint: {hint}") if hint else "No hint for this question.")
        line.display = True

    def action_reveal(self) -> None:
        flow = self.flow
        if flow.outcome is None or flow.prompt is None:
            return
        live = flow.live_display()
        if flow.outcome.failure:
            live = f"(no live value: {flow.outcome.failure})"
        self.save_attempt(flow.attempt("revealed", "", live))
        flow.reveal()
        self.after_answer(lambda p: p.show_reveal(live, flow.prompt.explain, self.keys_text()))

    def action_retry(self) -> None:
        if self.mode == "failed":
            self.rebuild()
            return
        self.flow.retry()
        self.show_question(self.flow.state.text)

    def action_next(self) -> None:
        flow = self.flow
        if flow.prompt is not None and flow.next_prompt():
            self.show_question()
            return
        if flow.next_step():
            self.remember_position()
            self.mode = "running"
            self.show_step()
            if self.repl_dirty:
                self.notify("What you changed in the REPL was discarded: the steps re-run "
                            "fresh.", timeout=4)
                self.rebuild(quiet=True)
            else:
                self.run_steps(flow.step_index)
            return
        self.remember_position(finished=True)
        self.app.push_screen(LessonDone(self.lesson.title, flow.tally(), self.next_title()),
                             self.done_choice)

    def next_title(self) -> str | None:
        nxt = self.app.next_lesson(self.lesson.id)  # type: ignore[attr-defined]
        return nxt.title if nxt else None

    def done_choice(self, choice: str | None) -> None:
        if choice == "next":
            nxt = self.app.next_lesson(self.lesson.id)  # type: ignore[attr-defined]
            if nxt is not None:
                self.post_message(OpenLesson(nxt.id))
                return
        if choice in ("next", "catalog"):
            self.app.pop_screen()

    def action_back(self) -> None:
        self.app.pop_screen()

    # ------------------------------------------------------------------ steps
    def on_step_ran(self, event: StepRan) -> None:
        self.handle_outcome(event)

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()
