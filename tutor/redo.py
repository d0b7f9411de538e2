"""Ask one question again: its lesson replayed up to it, silently, in a fresh run.

A mistake to redo or a review that is due names a prompt by (lesson, step, prompt).
`redo` starts a fresh run of the lesson (a new run id, so new values where the lesson
has `vary:`, never the values of the answer being redone when there are others), runs
every step up to and including the prompt's own step without showing anything, and
returns the run positioned at that prompt: the front end shows the step's code and
the question, judges the answer with `Redo.judge`, and records the attempt with
`Redo.run_id` and `Redo.lesson.variant`.  Pure: no torch, no textual.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from tutor.engine import LessonRun, StepOutcome, judge_prompt, unmet_requirement
from tutor.judge import Verdict
from tutor.kernel import Kernel, KernelError
from tutor.lesson.model import Lesson, Prompt, Step, Variant
from tutor.lesson.vary import for_run


@dataclass
class Redo:
    """A fresh run of a lesson, positioned at one prompt.  Close it when done."""

    lesson: Lesson  # as this run shows it: its variant filled in
    run: LessonRun  # the steps up to the prompt's have run in it
    run_id: str
    step: Step
    prompt: Prompt
    outcome: StepOutcome | None  # the prompt's step, once it has run
    failure: str | None = None  # why the question cannot be asked (the lesson's fault)

    @property
    def problem(self) -> str | None:
        """Why the question cannot be judged, or None when it can be asked."""
        if self.failure:
            return self.failure
        assert self.outcome is not None
        return self.outcome.lesson_problem(self.prompt)

    def judge(self, text: str) -> Verdict:
        assert self.outcome is not None, self.failure
        return judge_prompt(self.outcome, self.prompt, text)

    def close(self) -> None:
        self.run.close()

    def __enter__(self) -> Redo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def redo(kernel: Kernel, lesson: Lesson, step: int, prompt: int, *, run_id: str | None = None,
         avoid: Variant = (), timeout: float | None = None) -> Redo:
    """Replay `lesson` (as loaded) silently up to prompt `prompt` of step `step` (0-based)
    in a fresh kernel session.  LookupError if the lesson has no such prompt (it changed
    since the answer was given)."""
    steps = (lesson.template or lesson).steps
    if not 0 <= step < len(steps) or not 0 <= prompt < len(steps[step].prompts):
        raise LookupError(f"{lesson.id} has no question {prompt + 1} in step {step + 1} "
                          "(the lesson has changed since)")
    run_id = run_id or uuid.uuid4().hex[:12]
    this = for_run(lesson, run_id, avoid)
    target = this.steps[step]
    run = LessonRun(kernel, this, timeout=timeout)
    found = Redo(this, run, run_id, target, target.prompts[prompt], None)
    try:
        found.failure = unmet_requirement(this, kernel.wait_ready())
    except KernelError as exc:
        found.failure = f"the kernel could not start: {exc}"
    if found.failure:
        return found
    try:
        last = run.rebuild(step)
    except KernelError as exc:
        found.failure = f"the lesson could not run: {exc}"
        return found
    if last is None or last.step.index != step:
        found.failure = (last.failure if last is not None else None) or \
            f"the lesson stopped before step {step + 1}"
        return found
    found.outcome = last
    return found
