"""The lesson screen's kernel and progress work: named thread workers that post messages.

Running steps, rebuilding the namespace after a crash, the REPL, interrupting,
restarting the kernel, and saving attempts all block, so each runs in a named
worker (`exit_on_error=False`; unexpected errors are routed to the app).  One
lock keeps the `LessonRun` to one worker at a time.
"""

from __future__ import annotations

import threading

from textual import work
from textual.widgets import Static

from tutor.engine import StepOutcome, unmet_requirement
from tutor.kernel import KernelError, SessionDied, StepTimeout
from tutor.progress import Attempt
from tutor.ui.messages import ProgressProblem, ReplDone, StepRan
from tutor.ui.text import plain
from tutor.ui.widgets.answer import EXAMPLES


class LessonKernelMixin:
    """Mixed into `LessonScreen` (which provides flow, run, kernel, mode, widgets)."""

    fatal = False  # the lesson cannot run here at all (requirements)
    auto_rebuilt = False  # one automatic rebuild per failure, so a crashing step cannot loop
    rebuilding = False

    # ------------------------------------------------------------------ workers
    @work(thread=True, exit_on_error=False, group="kernel", description="run lesson steps")
    def run_steps(self, upto: int, rebuild: bool = False) -> None:
        step = self.lesson.steps[upto]
        with self.run_lock:
            try:
                why = unmet_requirement(self.lesson, self.kernel.wait_ready())
                if why:
                    outcome = StepOutcome(step, failure=f"This lesson cannot run here: it {why}.")
                    self.post_message(StepRan(outcome, fatal=True))
                    return
                if rebuild:
                    outcome = self.run.rebuild(upto) or StepOutcome(step)
                else:
                    outcome = self.run.run_step(step)
            except KernelError as exc:
                outcome = StepOutcome(step, failure=f"the kernel could not run the step: {exc}")
        self.post_message(StepRan(outcome, rebuilt=rebuild))

    @work(thread=True, exit_on_error=False, group="kernel", description="restart the kernel")
    def restart_kernel(self) -> None:
        with self.run_lock:
            self.run.close()
            self.kernel.restart()
        self.app.call_from_thread(self.run_steps, self.flow.step_index, True)

    @work(thread=True, exit_on_error=False, group="repl", description="run REPL code")
    def run_repl(self, code: str) -> None:
        session = self.run.session
        if session is None or not session.alive:
            self.post_message(ReplDone(code, None, "The lesson's process is not running; "
                                       "rebuilding the namespace…", dead=True))
            return
        try:
            reply = session.repl(code, timeout=None)
        except SessionDied as exc:
            self.post_message(ReplDone(code, None, f"The lesson's process died: {exc}. "
                                       "Restarting it and re-running the steps…", dead=True))
            return
        except StepTimeout as exc:
            self.post_message(ReplDone(code, None, str(exc), dead=not session.alive))
            return
        except KernelError as exc:
            self.post_message(ReplDone(code, None, f"the kernel could not run it: {exc}"))
            return
        self.post_message(ReplDone(code, reply))

    def save_attempt(self, attempt: Attempt) -> None:
        """Record a counted answer (position and totals are read here, on the UI thread)."""
        self.write_attempt(self.app.writes.ticket(), attempt, self.flow.total_prompts,
                           self.flow.resume_point())

    @work(thread=True, exit_on_error=False, group="progress", description="save an attempt")
    def write_attempt(self, ticket: int, attempt: Attempt, total: int,
                      position: tuple[int, int]) -> None:
        store = self.app.store
        with self.app.writes.turn(ticket):
            saved = store.record(attempt, total_prompts=total, position=position)
        if not saved:
            self.post_message(ProgressProblem(store.notice or "progress was not saved"))

    def remember_position(self, finished: bool = False) -> None:
        position = (len(self.lesson.steps), 0) if finished else self.flow.resume_point()
        self.write_position(self.app.writes.ticket(), position, self.flow.run_id)

    @work(thread=True, exit_on_error=False, group="progress", description="save the position")
    def write_position(self, ticket: int, position: tuple[int, int], run_id: str) -> None:
        store = self.app.store
        with self.app.writes.turn(ticket):
            saved = store.set_position(self.lesson.id, position, run_id)
        if not saved and store.saving:
            self.post_message(ProgressProblem(store.notice or "progress was not saved"))

    def close_run(self) -> None:
        """Leaving the lesson: end its process without blocking the UI."""
        run = self.run
        threading.Thread(target=run.close, name="tutor-close-run", daemon=True).start()

    # ------------------------------------------------------------------ reacting
    def rebuild(self, quiet: bool = False) -> None:
        """Re-run the steps up to the current one in a fresh process."""
        self.rebuilding = True
        self.repl_dirty = False
        if self.flow.outcome is None or not self.flow.state.answered:
            self.mode = "running"
        if not quiet:
            self.show_failure(f"Re-running steps 1–{self.flow.step_index + 1} in a fresh "
                              "process…", tone="-waiting")
        self.run_steps(self.flow.step_index, rebuild=True)

    def handle_outcome(self, event: StepRan) -> None:
        outcome, flow = event.outcome, self.flow
        self.rebuilding = False
        if event.fatal:
            self.fatal = True
            self.mode = "failed"
            self.show_failure(f"{outcome.failure}\nesc: back to the catalog")
            return
        if outcome.failure:
            session = self.run.session
            died = session is None or not session.alive
            if died and not self.auto_rebuilt:
                self.auto_rebuilt = True
                self.show_failure(f"The lesson's process stopped: {outcome.failure}. "
                                  f"Restarting it and re-running steps 1–{flow.step_index + 1}…",
                                  tone="-waiting")
                self.notify(f"Kernel trouble: {outcome.failure}. Rebuilding the lesson…",
                            severity="warning", timeout=6, markup=False)
                self.rebuild(quiet=True)
                return
            self.mode = "failed"
            self.show_failure(f"{outcome.failure}\nr: try again (re-runs the steps in a fresh "
                              "process) · esc: back to the catalog")
            return
        self.auto_rebuilt = False
        self.show_failure("")
        if outcome.step.index != flow.step_index:
            return
        flow.outcome = outcome
        label = self.query_one("#step-label", Static)
        label.update(f"Step {flow.step_index + 1} of {len(self.lesson.steps)}")
        if event.rebuilt and self.mode == "judged":
            self.notify("The lesson's namespace was rebuilt; carry on.", timeout=4)
            return
        if flow.prompt is None:
            self.after_step_without_questions()
            return
        if flow.state.answered:
            self.mode = "judged"
            return
        self.mode = "asking"
        box = self.query_one("#answer")
        self.guard_examples()
        pending, self.pending = self.pending, None
        if pending is not None:
            self.set_note("")
            self.judge(pending)
        else:
            self.call_after_refresh(box.focus_input)

    def guard_examples(self) -> None:
        """Once the step has run: hide notation examples that are this question's answer."""
        flow = self.flow
        if flow.prompt is not None and flow.gives_away(EXAMPLES.get(flow.prompt.kind, "")):
            self.query_one("#answer").hide_examples()

    def after_step_without_questions(self) -> None:
        self.show_step_after()
        self.mode = "judged"
        self.query_one("#verdict").display = False

    def show_failure(self, text: str, tone: str = "-error") -> None:
        box = self.query_one("#failure", Static)
        box.update(plain(text))
        box.display = bool(text)
        box.set_classes(tone)

    # ------------------------------------------------------------------ actions
    def action_interrupt(self) -> None:
        """ctrl+c: a KeyboardInterrupt in the running code; the kernel stops the code's
        process if it ignores it (the REPL then says so and the namespace is rebuilt)."""
        session = self.run.session
        if session is not None:
            session.interrupt()

    def action_restart_kernel(self) -> None:
        self.mode = "running" if not self.flow.state.answered else self.mode
        self.show_failure("Restarting the kernel and re-running the steps…", tone="-waiting")
        self.restart_kernel()

    def on_progress_problem(self, event: ProgressProblem) -> None:
        self.notify(event.notice, title="Progress", severity="warning", timeout=8, markup=False)
