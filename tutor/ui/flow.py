"""Where the learner is in a lesson: the current step and question, hints, attempts.

Pure (no textual): the lesson screen keeps one `LessonFlow` and asks it what to
show; judging goes through the engine's `judge_prompt`, never around it.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass

from tutor.engine import StepOutcome, judge_prompt
from tutor.judge import Status, Verdict, display
from tutor.lesson.model import Lesson, Prompt, Step
from tutor.progress import Attempt, LessonProgress

Position = tuple[int, int]  # (step index, prompt index)

# A message cut into what could be typed as an answer: "like 0.6, -4.0 or tensor(0.6000)".
_COARSE = re.compile(r";\s+|:\s+|\s+or\s+|\blike\s+|\be\.g\.\s*|\btry\s+|\.\.\.|\.\s+|\.$",
                     re.IGNORECASE)
_FINE = re.compile(r",\s+")
_SPACE = re.compile(r"\s+")
_SHOWS_OPTIONS = ("bool", "same_storage", "choice")  # their messages must name the options
_VOCABULARY = {"yes", "no", "true", "false", "raises", "raise", "error", "exception", "no error",
               "nothing", "none"}


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


def _split(text: str, sep: re.Pattern[str]) -> list[str]:
    """`text` cut at the matches of `sep` that are outside brackets."""
    depth, depths = 0, []
    for ch in text:
        depths.append(depth)
        depth = max(0, depth + (ch in "([{") - (ch in ")]}"))
    cuts = [m.span() for m in sep.finditer(text) if depths[m.start()] == 0]
    bounds = [0, *[x for span in cuts for x in span], len(text)]
    return [text[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]


def _pieces(text: str) -> set[str]:
    """Every phrase of a message that could be typed as an answer: each part between
    separators, each comma-separated item, and each tail after a space."""
    out: set[str] = set()
    for coarse in _split(text, _COARSE):
        for item in {coarse, *_split(coarse, _FINE)}:
            words = _split(item, _SPACE)
            for i in range(len(words)):
                piece = " ".join(words[i:]).strip(" ,.'\"")
                while piece[:1] in ("(", "[") and piece.count(piece[0]) > piece.count(
                        ")" if piece[0] == "(" else "]"):
                    piece = piece[1:]  # "(e.g. RuntimeError" → "RuntimeError"
                while piece[-1:] in (")", "]") and piece.count(piece[-1]) > piece.count(
                        "(" if piece[-1] == ")" else "["):
                    piece = piece[:-1]
                if piece.strip():
                    out.add(piece.strip())
                if len(piece) > 2 and piece[0] + piece[-1] in ("()", "[]"):
                    out |= _pieces(piece[1:-1])  # "(e.g. RuntimeError)"
    return out


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

    @property
    def is_last_step(self) -> bool:
        return self.step_index == len(self.lesson.steps) - 1

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
        """Would typing some piece of `text` (a notation example in a message) be judged
        right here?  Then showing it would give the answer away."""
        if self.outcome is None or self.prompt is None:
            return False
        for piece in _pieces(text):
            if piece.casefold() in _VOCABULARY:
                continue
            verdict = judge_prompt(self.outcome, self.prompt, piece)
            if verdict.status is Status.CORRECT:
                return True
        return False

    def invalid_message(self, message: str, examples: str = "") -> str:
        """The judge's word on an unreadable answer, unless an example in it is this
        question's answer: then a plain one, with `examples` if they are safe."""
        prompt = self.prompt
        if prompt is None or prompt.kind in _SHOWS_OPTIONS or not self.gives_away(message):
            return message
        plain = f"That does not read as a {prompt.kind.replace('_', ' ')} answer."
        return f"{plain} ({examples})" if examples and not self.gives_away(examples) else plain

    def live_display(self) -> str:
        assert self.outcome is not None and self.prompt is not None
        live = self.outcome.live(self.prompt) or {"type": "none"}
        return display(live, self.prompt.kind)

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
