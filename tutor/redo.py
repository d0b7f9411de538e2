"""Ask questions again: the mistakes to redo and the reviews that are due, as one queue,
each question asked by the one lesson engine.

This is the one mechanism behind every "ask it again" (the app's Review entry,
`tutor play --review`, `tutor review`'s list): a `Question` names a prompt by
(lesson, step, prompt) with the values of the answer being redone (`queue` makes
the list: tutor/progress/queue.py, which the catalog reads without loading the
engine), and `ask_again`
makes the `LessonFlow` that asks it: a fresh run (a new run id, so new values where
the lesson has `vary:`, never the values being redone when there are others) over
that one question.  The front end runs the flow's lesson as it runs any lesson
(`engine.LessonRun.run_through` runs the steps before the question silently),
judges with `flow.judge`, and stores `Answer.attempt` with `position=None` (the
lesson's own resume point stays where it was).  Pure: no torch, no textual.
"""

from __future__ import annotations

from tutor.flow import LessonFlow
from tutor.lesson.model import Lesson, Variant
from tutor.progress.queue import Question, Reason, queue

__all__ = ["Question", "Reason", "ask_again", "queue"]

def ask_again(lesson: Lesson, step: int, prompt: int, *, avoid: Variant = (),
              run_id: str | None = None) -> LessonFlow:
    """The flow that asks prompt `prompt` of step `step` of `lesson` (as loaded) again,
    in a fresh run.  LookupError if the lesson has no such prompt (it changed since
    the answer was given)."""
    steps = (lesson.template or lesson).steps
    if not 0 <= step < len(steps) or not 0 <= prompt < len(steps[step].prompts):
        raise LookupError(f"{lesson.id} has no question {prompt + 1} in step {step + 1} "
                          "(the lesson has changed since)")
    return LessonFlow(lesson, run_id=run_id, only=[(step, prompt)], avoid=avoid)
