"""Where the learner is in a lesson: the current step and question, hints, attempts.

Pure (no textual): the lesson screen keeps one `LessonFlow` and asks it what to
show; judging goes through the engine's `judge_prompt`, never around it.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from tutor.engine import StepOutcome, judge_prompt, shown_live
from tutor.judge import Status, Verdict, judge
from tutor.judge.giveaway import gives_away
from tutor.lesson.model import Lesson, Prompt, Step
from tutor.progress import Attempt, LessonProgress

Position = tuple[int, int]  # (step index, prompt index)



def continue_point(lessons: list[Lesson], progress: dict[str, LessonProgress],
                   last: str | None) -> tuple[Lesson | None, Position]:
    """Where "continue" goes: the last lesson touched if unfinished, else the next
    unfinished one after it in course order (wrapping), else the first lesson."""
    if not lessons:
        return None, (0, 0)

    def unfinished(lesson: Lesson) -> bool:
        p = progress.get(lesson.id)
        return p is None or p.status in ("new", "tried")

    def where(lesson: Lesson) -> Position:
        p = progress.get(lesson.id)
        return (p.step, p.prompt) if p and p.step < len(lesson.steps) else (0, 0)

    ids = [x.id for x in lessons]
    start = ids.index(last) if last in ids else 0
    for lesson in lessons[start:] + lessons[:start]:
        if unfinished(lesson):
            return lesson, where(lesson)
    return lessons[0], (0, 0)


@dataclass
class PromptState:
    hints: int = 0
    started: float = 0.0
    attempts: int = 0  # counted answers (invalid input is not counted)
    answered: bool = False  # has a counted answer, or was revealed
    revealed: bool = False
    verdict: Verdict | None = None  # the last counted verdict
    text: str = ""  # what was typed last


class LessonFlow:
    """The learner's way through one lesson (steps in order, prompts in order)."""

    def __init__(self, lesson: Lesson, start: Position = (0, 0), run_id: str | None = None):
        self.lesson = lesson
        step, prompt = start
        if not 0 <= step < len(lesson.steps):
            step, prompt = 0, 0
        if prompt >= len(lesson.steps[step].prompts):
            prompt = 0
        self.step_index = step
        self.prompt_index = prompt
        self.run_id = run_id or uuid.uuid4().hex[:12]
        self.outcome: StepOutcome | None = None  # the current step's, once it has run
        self.states: dict[Position, PromptState] = {}
        # questions before the start were answered in an earlier sitting
        for s in lesson.steps[: step + 1]:
            for p in s.prompts:
                if (s.index, p.index) < (step, prompt):
                    self.states[(s.index, p.index)] = PromptState(answered=True)

    # ------------------------------------------------------------------ where
    @property
    def step(self) -> Step:
        return self.lesson.steps[self.step_index]

    @property
    def prompt(self) -> Prompt | None:
        prompts = self.step.prompts
        return prompts[self.prompt_index] if self.prompt_index < len(prompts) else None

    @property
    def position(self) -> Position:
        return (self.step_index, self.prompt_index)

    @property
    def state(self) -> PromptState:
        state = self.states.setdefault(self.position, PromptState())
        if not state.started:
            state.started = time.monotonic()
        return state

    @property
    def total_prompts(self) -> int:
        return len(self.lesson.prompts)

    @property
    def question_number(self) -> int:
        """1-based number of the current question in the whole lesson."""
        before = sum(len(s.prompts) for s in self.lesson.steps[: self.step_index])
        return before + self.prompt_index + 1

    @property
    def step_answered(self) -> bool:
        """Every question of the current step has an answer: the REPL may open."""
        return all(self.states.get((self.step_index, p.index), PromptState()).answered
                   for p in self.step.prompts)

    def resume_point(self) -> Position:
        """Where a later sitting should start: the next unanswered question."""
        if self.prompt is not None and not self.state.answered:
            return self.position
        if self.prompt_index + 1 < len(self.step.prompts):
            return (self.step_index, self.prompt_index + 1)
        return (self.step_index + 1, 0)

    # ------------------------------------------------------------------ acting
    def problem(self) -> str | None:
        """Why the current question cannot be judged (a lesson/kernel problem), or None."""
        if self.outcome is None or self.prompt is None:
            return None
        return self.outcome.lesson_problem(self.prompt)

    def hint(self) -> str | None:
        prompt = self.prompt
        if prompt is None:
            return None
        if prompt.hint:
            self.state.hints += 1
        return prompt.hint

    def judge(self, text: str) -> Verdict:
        """Judge `text` against the observation already taken; counts unless invalid."""
        assert self.outcome is not None and self.prompt is not None
        verdict = judge_prompt(self.outcome, self.prompt, text)
        state = self.state
        state.text = text
        if verdict.status is not Status.INVALID:
            state.attempts += 1
            state.answered = True
            state.verdict = verdict
        return verdict

    def gives_away(self, text: str) -> bool:
        """Would typing some phrase of `text` (e.g. the notation examples shown under
        the answer field) be judged right here?  Then showing it gives the answer away."""
        if self.outcome is None or self.prompt is None:
            return False
        live = self.outcome.live(self.prompt) or {"type": "none"}
        return gives_away(judge, self.prompt.spec, live, text)

    def live_display(self) -> str:
        assert self.outcome is not None and self.prompt is not None
        return shown_live(self.outcome.live(self.prompt), self.prompt.kind)

    def reveal(self) -> str:
        """Give up on the question: the live value, shown; counts as answered (not right)."""
        state = self.state
        state.answered = True
        state.revealed = True
        state.attempts += 1
        return self.live_display()

    def attempt(self, verdict: str, answer: str, expected: str) -> Attempt:
        """The record of the answer just given, for the progress store."""
        state = self.state
        return Attempt(self.lesson.id, self.step_index, self.prompt_index, answer, verdict,
                       expected=expected, hints=state.hints,
                       seconds=time.monotonic() - state.started, run=self.run_id)

    def retry(self) -> None:
        """Ask the same question again (the first counted answer stays on record)."""
        self.state.started = time.monotonic()

    def next_prompt(self) -> bool:
        """Move to the step's next question; False when the step has no more."""
        if self.prompt_index + 1 < len(self.step.prompts):
            self.prompt_index += 1
            return True
        return False

    def next_step(self) -> bool:
        """Move to the next step (its code must then run); False at the lesson's end."""
        if self.step_index + 1 < len(self.lesson.steps):
            self.step_index += 1
            self.prompt_index = 0
            self.outcome = None
            return True
        return False

    def tally(self) -> dict[str, int]:
        count = {"correct": 0, "partial": 0, "incorrect": 0, "revealed": 0}
        for state in self.states.values():
            if state.revealed:
                count["revealed"] += 1
            elif state.verdict is not None:
                count[state.verdict.status.value] += 1
        return count
