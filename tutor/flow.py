"""One lesson, as the learner goes through it: where they are, what they answered.

`LessonFlow` is the one lesson engine behind every front end that asks questions
(the app's lesson screen and `tutor play`): it walks the lesson's questions in
order, judges answers against the step's observation (through the engine's
`judge_prompt`), counts hints and reveals, builds the `Attempt` records the
progress store keeps, and tallies the lesson.  It never runs code: the front end
runs each step (`engine.LessonRun`) and hands the outcome to `flow.outcome`.

A flow may resume a sitting (`start`, with the earlier sitting's attempts as
`history`, so the tally counts every answer of the lesson) or ask only some
questions (`only`: a review or a redo asks one question again, with `avoid` the
values of the answer being redone; the steps before it are run silently by the
front end: see `tutor.redo`).  An answer carries the learner's confidence (`sure`,
or `guess`: a trailing `?` on a typed answer, or a key in the app), which the
progress store keeps and the review schedule uses.  Pure: no textual, no torch.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from tutor.engine import StepOutcome, judge_prompt, shown_live, spoken
from tutor.i18n import _
from tutor.judge import (
    Status,
    Verdict,
    choice_marks,
    chosen,
    entry_examples,
    gives_away,
    live_choice,
)
from tutor.judge.reading.words import text_key
from tutor.kinds import REGISTRY
from tutor.lesson.model import Lesson, Prompt, Step, Variant
from tutor.lesson.vary import for_run
from tutor.markup import plain_inline
from tutor.pictures import ShowSpec, parse_show, suggest
from tutor.progress import CONFIDENCES, Attempt
from tutor.states import OUTCOMES, AnswerStatus, Judged, Outcome

Position = tuple[int, int]  # (step index, prompt index), both 0-based
Move = Literal["question", "step", "end"]
# a counted verdict of the judge, as the outcome stored and counted (`invalid` is none)
JUDGED_AS: dict[Status, Judged] = {
    Status.CORRECT: "correct", Status.PARTIAL: "partial", Status.INCORRECT: "incorrect"}
GUESS_MARK = "?"  # a typed answer ending in it is marked as a guess


def split_confidence(text: str, prompt: Prompt) -> tuple[str, str]:
    """A typed answer and how sure the learner was: `0.5?` is the answer `0.5`, marked
    as a guess; anything else is sure.  Not for printed output (a printed line may end
    in `?`), nor for a choice whose own text ends in `?`."""
    answer = text.strip()
    if (prompt.kind == "stdout" or not answer.endswith(GUESS_MARK)
            or any(answer.casefold() == c.strip().casefold()
                   for c in (*prompt.choices, *prompt.labels))):
        return answer, "sure"
    bare = answer.rstrip(GUESS_MARK).rstrip()
    return (bare, "guess") if bare else (answer, "sure")


@dataclass
class PromptState:
    """One question of the lesson, in this flow."""

    hints: int = 0
    started: float = 0.0
    attempts: int = 0  # counted answers (an answer the judge cannot read is not counted)
    answered: bool = False  # has a counted answer (or was answered in an earlier sitting)
    outcome: Outcome | None = None  # the last counted answer
    verdict: Verdict | None = None  # the last counted verdict of this sitting
    text: str = ""  # what was typed last

    @property
    def revealed(self) -> bool:
        return self.outcome == "revealed"


@dataclass(frozen=True)
class Answer:
    """What one answer did.  `attempt` is the record to store (None: not counted)."""

    status: AnswerStatus
    verdict: Verdict | None  # None for a reveal
    live: str  # the live value, as shown to the learner
    attempt: Attempt | None

    @property
    def counted(self) -> bool:
        return self.attempt is not None


@dataclass(frozen=True)
class Tally:
    """How a lesson went: each question counted once, by its last counted answer."""

    correct: int = 0
    partial: int = 0
    incorrect: int = 0
    revealed: int = 0
    answered: int = 0  # questions with an answer (possibly from a sitting without records)
    total: int = 0  # questions asked in the lesson (or in the flow's `only`), skipped ones not
    skipped: int = 0  # questions not asked here (`requires:` unmet, or the lesson broke)

    def text(self) -> str:
        """'3 of 4 right, 1 revealed' (and how many are still open)."""
        parts = [_("{n} of {total} right").format(n=self.correct, total=self.total)]
        if self.partial:
            parts.append(_("{n} partly right").format(n=self.partial))
        if self.incorrect:
            parts.append(_("{n} wrong").format(n=self.incorrect))
        if self.revealed:
            parts.append(_("{n} revealed").format(n=self.revealed))
        if self.skipped:
            parts.append(_("{n} skipped here").format(n=self.skipped))
        open_ = self.total - self.answered
        return ", ".join(parts) + (_("; ") + _("{n} not answered").format(n=open_)
                                   if open_ > 0 else "")


def as_judged(prompt: Prompt, text: str) -> str:
    """A choice's translated label typed (a translated lesson shows `labels`) is the
    choice itself: answers are judged as in English."""
    typed = _label_key(text)
    for label, choice in zip(prompt.labels, prompt.choices, strict=False):
        if typed == _label_key(label):
            return choice
    return text


def _label_key(text: str) -> str:
    """A label as compared: backquotes dropped (a front end shows `code` without them),
    then the judge's key for names (noise, spaces and case ignored)."""
    return text_key(text.replace("`", ""))


def picked(prompt: Prompt, text: str) -> str:
    """A choice answer said back as the choice it picks, as the list shows it (its
    translated label where there is one): `1` -> `같은 메모리를 씁니다`.  Text that picks
    no choice is kept as typed."""
    index = chosen(prompt.spec, text)
    if index is None:
        return text
    shown = prompt.labels[index] if index < len(prompt.labels) else prompt.choices[index]
    return plain_inline(shown)


def entry_label(kind: str) -> str:
    """What an answer of `kind` is, the same words for every question of the kind."""
    return _(REGISTRY[kind].label) if kind in REGISTRY else _("your prediction")


def choice_labels(prompt: Prompt) -> list[str]:
    """The marks a front end shows before `prompt`'s choices: 1, 2, 3 ..., or a, b, c ...
    where a choice's text is itself a whole number (a typed number then means that text)."""
    return choice_marks(prompt.choices)


def entry_text(kind: str, examples: Sequence[str] = ()) -> str:
    """What an answer of `kind` may look like, the same words for every question of the
    kind: 'a number, or None · e.g. -0.25 · 7 · tensor(3.5)'."""
    said = entry_label(kind)
    # what the label already names is not repeated as an example ("[] for none · e.g. []")
    examples = [e for e in examples if e not in said]
    return said + (" · " + _("e.g.") + " " + " · ".join(examples) if examples else "")


class LessonFlow:
    """The learner's way through one lesson: its steps in order, each step's questions
    in order (a step without questions is a stop of its own)."""

    def __init__(self, lesson: Lesson, start: Position = (0, 0), run_id: str | None = None,
                 history: Iterable[Attempt] = (), only: Sequence[Position] | None = None,
                 avoid: Variant = ()):
        self.run_id = run_id or uuid.uuid4().hex[:12]
        # a lesson with `vary:` shows the values this sitting draws (the same again when
        # the sitting resumes, new ones in a new sitting, never `avoid` when there are
        # others); front ends run `flow.lesson`
        self.lesson = for_run(lesson, self.run_id, avoid) if lesson.variants else lesson
        self.whole = only is None  # the whole lesson (its resume point is worth keeping)
        stops = self._all_stops()
        self.stops = [pos for pos in stops if pos in set(only)] if only is not None else stops
        self.asked = [pos for pos in self.stops if self._prompt_at(pos) is not None]
        self.outcome: StepOutcome | None = None  # the current step's, once it has run
        self.states: dict[Position, PromptState] = {}
        self.skipped: set[Position] = set()  # questions not asked here (see `problem`)
        for attempt in history:
            if attempt.lesson == lesson.id:
                state = self.states.setdefault((attempt.step, attempt.prompt), PromptState())
                state.attempts += 1
                state.answered = True
                state.outcome = attempt.verdict
                state.hints = max(state.hints, attempt.hints)
        first = next((i for i, pos in enumerate(self.stops) if pos >= start), None)
        self.index = first if first is not None else 0
        # questions before the start were answered in an earlier sitting
        for pos in self.asked:
            if pos < self.position:
                self.states.setdefault(pos, PromptState()).answered = True

    def _all_stops(self) -> list[Position]:
        stops: list[Position] = []
        for step in self.lesson.steps:
            stops += [(step.index, p.index) for p in step.prompts] or [(step.index, 0)]
        return stops

    def _prompt_at(self, pos: Position) -> Prompt | None:
        prompts = self.lesson.steps[pos[0]].prompts
        return prompts[pos[1]] if pos[1] < len(prompts) else None

    # ------------------------------------------------------------------ where
    @property
    def position(self) -> Position:
        return self.stops[self.index] if self.stops else (0, 0)

    @property
    def step_index(self) -> int:
        return self.position[0]

    @property
    def prompt_index(self) -> int:
        return self.position[1]

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.step_index]

    @property
    def prompt(self) -> Prompt | None:
        return self._prompt_at(self.position) if self.stops else None

    @property
    def state(self) -> PromptState:
        """The current question's state (its clock starts the first time it is read)."""
        state = self.states.setdefault(self.position, PromptState())
        if not state.started:
            state.started = time.monotonic()
        return state

    @property
    def total_prompts(self) -> int:
        """Questions this flow asks."""
        return len(self.asked)

    @property
    def question_number(self) -> int:
        """1-based number of the current question among those asked (0 between them)."""
        pos = self.position
        return self.asked.index(pos) + 1 if pos in self.asked else 0

    @property
    def step_answered(self) -> bool:
        """Every question of the current step that this flow asks has an answer: what the
        step produced may be shown, the REPL may open."""
        return all(self.states.get(pos, PromptState()).answered
                   for pos in self.asked if pos[0] == self.step_index)

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.stops) - 1

    @property
    def more_in_step(self) -> bool:
        """Another question of the current step comes next."""
        return (self.index + 1 < len(self.stops)
                and self.stops[self.index + 1][0] == self.step_index)

    @property
    def can_retry(self) -> bool:
        state = self.states.get(self.position)
        return (self.prompt is not None and state is not None and state.verdict is not None
                and not state.revealed and state.outcome != "correct")

    def resume_point(self) -> Position:
        """Where a later sitting starts: the next question without an answer."""
        if self.prompt is not None and not self.states.get(self.position, PromptState()).answered:
            return self.position
        if self.index + 1 < len(self.stops):
            return self.stops[self.index + 1]
        return (len(self.lesson.steps), 0)

    # ------------------------------------------------------------------ moving
    def advance(self) -> Move:
        """Go to the next stop: another question of this step, a new step (which the
        front end must now run, with any steps skipped before it), or the end."""
        if self.index + 1 >= len(self.stops):
            return "end"
        before = self.step_index
        self.index += 1
        if self.step_index == before:
            return "question"
        self.outcome = None
        return "step"

    def retry(self) -> None:
        """Ask the current question again (its earlier answers stay counted)."""
        self.state.started = time.monotonic()

    # ------------------------------------------------------------------ answering
    def problem(self) -> str | None:
        """Why the current question is not asked, in the learner's words, or None: its
        `requires:` is unmet here, or the lesson broke on this kernel (at this step or
        an earlier one).  Nothing answered to it counts (`judge`, `reveal`)."""
        if self.outcome is None or self.prompt is None:
            return None
        why = self.outcome.learner_problem(self.prompt)
        if why:
            self.skipped.add(self.position)  # (left out of the tally's total)
        return why

    def hint(self) -> str | None:
        """The current question's hint (counted), or None when it has none."""
        prompt = self.prompt
        if prompt is None or not prompt.hint:
            return None
        self.state.hints += 1
        return prompt.hint

    def judge(self, text: str, confidence: str = "sure") -> Answer:
        """Judge `text` against the step's observation; counted unless unreadable.
        A trailing `?` marks the answer as a guess (see `split_confidence`), as does
        `confidence="guess"`."""
        assert self.outcome is not None and self.prompt is not None
        if confidence not in CONFIDENCES:
            raise ValueError(f"confidence must be one of {CONFIDENCES}, not {confidence!r}")
        if self.problem():  # a lesson fault is never scored
            return Answer("invalid", None, self.live_display(), None)
        state = self.state
        state.text = text
        text, marked = split_confidence(text, self.prompt)
        if marked == "guess":
            confidence = "guess"
        text = as_judged(self.prompt, text)
        verdict = judge_prompt(self.outcome, self.prompt, text)
        if verdict.status is Status.INVALID:
            return Answer("invalid", verdict, verdict.expected, None)
        outcome = JUDGED_AS[verdict.status]
        # progress keeps a choice as judged, in English, whatever label was shown
        expected = self._live_text() if self.prompt.labels else verdict.expected
        record = self._attempt(outcome, text, expected, confidence)
        if self.prompt.kind == "choice":  # `2` or `b`: said back as the choice it picks,
            verdict = replace(verdict, answer=picked(self.prompt, text))  # as shown
        # the live value as a person reads it (records keep the judge's notation)
        verdict = replace(verdict, expected=spoken(verdict.expected, self.prompt.kind))
        state.attempts += 1
        state.answered = True
        state.outcome = outcome
        state.verdict = verdict
        return Answer(outcome, verdict, verdict.expected, record)

    def reveal(self) -> Answer:
        """Give up on the current question: its live value, counted as revealed."""
        assert self.prompt is not None
        live = self.live_display()
        if self.problem():  # a lesson fault is never scored, not even as revealed
            return Answer("revealed", None, live, None)
        record = self._attempt("revealed", "", self._live_text())  # (as judged)
        state = self.state
        state.attempts += 1
        state.answered = True
        state.outcome = "revealed"
        return Answer("revealed", None, live, record)

    def live_display(self) -> str:
        """The current question's live value as shown to the learner (a translated
        choice by its label)."""
        live = self._live_text()
        prompt, outcome = self.prompt, self.outcome
        observed = outcome.live(prompt) if prompt and prompt.labels and outcome else None
        if prompt is None or observed is None or outcome is None or outcome.failure:
            return live if prompt is None else spoken(live, prompt.kind)
        index = live_choice(observed, prompt.choices)
        # a label as the list of choices shows it: its inline marks (`code`) dropped
        return plain_inline(prompt.labels[index]) if index is not None else live

    def _live_text(self) -> str:
        """The live value as judged (a choice as in English): what progress records."""
        if self.outcome is None or self.prompt is None:
            return _("(the step has not run)")
        if self.outcome.failure:
            return _("(no live value: {why})").format(why=self.outcome.failure)
        return shown_live(self.outcome.live(self.prompt), self.prompt.kind)

    def _attempt(self, verdict: Outcome, answer: str, expected: str,
                 confidence: str = "sure") -> Attempt:
        state = self.state
        return Attempt(self.lesson.id, self.step_index, self.prompt_index, answer, verdict,
                       expected=expected, hints=state.hints,
                       seconds=time.monotonic() - state.started, run=self.run_id,
                       confidence=confidence, variant=self.lesson.variant)

    # ------------------------------------------------------------------ showing
    def entry_examples(self, n: int = 3) -> list[str]:
        """Up to `n` notation examples for the current question, none of them right here.

        Which examples are left out would hint at the answer if the rest were always
        the same; so each question shows its own pick (stable for the question)."""
        prompt = self.prompt
        if prompt is None or self.outcome is None or self.problem():
            return []
        live = self.outcome.live(prompt) or {"type": "none"}
        return entry_examples(prompt.spec, live, n, seed=f"{self.lesson.id}:{self.position}",
                              beside=entry_label(prompt.kind))

    def gives_away(self, text: str) -> bool:
        """Would typing some phrase of `text` be judged right for the current question?"""
        if self.outcome is None or self.prompt is None:
            return False
        live = self.outcome.live(self.prompt) or {"type": "none"}
        return gives_away(self.prompt.spec, live, text)

    def picture(self) -> ShowSpec | None:
        """The picture behind the current question: the prompt's `show:`, else the one
        `tutor.pictures.suggest` finds fitting (None: no picture fits)."""
        prompt = self.prompt
        if prompt is None:
            return None
        if prompt.show:
            try:
                return parse_show(prompt.show)
            except ValueError:
                return None
        code = "\n".join(s.code for s in self.lesson.steps[: self.step_index + 1])
        return suggest(prompt.kind, prompt.expect, code, self.lesson.topic)

    def tally(self) -> Tally:
        count: dict[Outcome, int] = dict.fromkeys(OUTCOMES, 0)
        answered = skipped = 0
        for pos in self.asked:
            state = self.states.get(pos)
            if state is None or not state.answered:
                skipped += pos in self.skipped
                continue
            answered += 1
            if state.outcome is not None:
                count[state.outcome] += 1
        return Tally(answered=answered, total=len(self.asked) - skipped, skipped=skipped,
                     **count)
