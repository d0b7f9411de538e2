"""`tutor record`, the live half: run a lesson through the engine and plan the answers to
write (`Change`s) and the problems (`RecordResult`); `tutor.authoring.record` writes them.

Its own module so that `record` (which runs `plan`, or `record_vary.plan_variants` for a
lesson with `vary:`) and `record_vary` (which runs `plan` once per variant) both import it
without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.i18n import _
from tutor.lesson.loader import display_name
from tutor.lesson.model import Lesson, Prompt, Step
from tutor.lesson.validate import Problem


@dataclass
class Change:
    """One answer to write: `new` replaces `old` (None: the prompt has no answer yet)."""

    step: int
    prompt: int
    old: str | None
    new: str
    line: int
    col: int
    failing: bool = False  # `old` was an answer judged wrong (not merely another notation)

    @property
    def path(self) -> str:
        return f"steps[{self.step}].predict[{self.prompt}].answer"


@dataclass
class RecordResult:
    file: str
    changes: list[Change] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped: str | None = None
    written: bool = False
    prompts: int = 0


# ------------------------------------------------------------------ live values


def plan(kernel: Any, lesson: Lesson, *, force: bool = False,
         timeout: float | None = None) -> RecordResult:
    """Run `lesson` live; the answers that must change (and the prompts that cannot run)."""
    from tutor.engine import LessonRun, match_problem, unmet_requirement
    from tutor.judge import Status, judge, notation
    from tutor.lesson.requires import unmet_prompt, unmet_variant

    name = display_name(Path(lesson.file))
    result = RecordResult(name)
    info = kernel.wait_ready()
    why = unmet_requirement(lesson, info) or unmet_variant(lesson, info)
    if why:
        result.skipped = why
        return result
    with LessonRun(kernel, lesson, timeout=timeout) as run:
        for step in lesson.steps:
            outcome = run.run_step(step)
            if outcome.failure:
                result.problems.append(Problem(name, step.pos.line, step.pos.col,
                                               f"steps[{step.index}]", outcome.failure))
                break
            for prompt in step.prompts:
                if unmet_prompt(prompt, info):  # (its `requires:`: not on this kernel)
                    continue
                result.prompts += 1
                where = _where(step, prompt)
                problem = outcome.lesson_problem(prompt)
                if problem:
                    result.problems.append(Problem(name, *where, _path(step, prompt),
                                                   _("cannot record: {why}").format(
                                                       why=problem)))
                    continue
                live = outcome.live(prompt)
                assert live is not None
                pinned = match_problem(prompt, live)
                if pinned:
                    result.problems.append(Problem(name, *where, _path(step, prompt),
                                                   _("cannot record: {why}").format(
                                                       why=pinned)))
                    continue
                right = prompt.answer is not None and judge(
                    prompt.spec, prompt.answer, live).status is Status.CORRECT
                if right and not force:
                    continue
                try:
                    new = notation(live, prompt.kind)
                except ValueError:
                    result.problems.append(Problem(
                        name, *where, _path(step, prompt),
                        _("cannot record: the live value {live} has no {kind} answer a learner "
                          "could type (too large, truncated or not of this kind): ask about "
                          "something smaller (a shape, a slice, a sum) or write `answer:` by "
                          "hand").format(live=_short(live, prompt.kind), kind=prompt.kind)))
                    continue
                if judge(prompt.spec, new, live).status is not Status.CORRECT:
                    # the canonical text rounds; a tight `tolerance:` may need every digit
                    exact = _exact(live) if prompt.kind == "number" else None
                    if exact is not None and judge(prompt.spec, exact, live).status \
                            is Status.CORRECT:
                        new = exact
                    elif prompt.kind == "choice":
                        result.problems.append(Problem(
                            name, *where, _path(step, prompt),
                            _("cannot record: the live value {live} is not one of the choices "
                              "({choices}): fix `expect` or add it to `choices`").format(
                                live=_short(live, prompt.kind),
                                choices=", ".join(prompt.choices))))
                        continue
                    else:
                        result.problems.append(Problem(
                            name, *where, _path(step, prompt),
                            _("cannot record: {new} (the live value written as a learner "
                              "would) is not judged correct with this prompt's `tolerance:`: "
                              "widen the tolerance or write `answer:` by hand").format(new=new)))
                        continue
                if new == prompt.answer:
                    continue
                result.changes.append(Change(step.index, prompt.index, prompt.answer, new,
                                             *where, failing=prompt.answer is not None
                                             and not right))
    return result


def _exact(live: dict) -> str | None:
    """A number's live value with every digit (repr), or None if it is not one number."""
    from tutor.judge.base.obs import single_number

    value = single_number(live)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return repr(value)


def _short(live: dict, kind: str, limit: int = 60) -> str:
    """The live value on one short line, for a message."""
    from tutor.judge import display

    text = " ".join(display(live, kind).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _path(step: Step, prompt: Prompt) -> str:
    return f"steps[{step.index}].predict[{prompt.index}]"


def _where(step: Step, prompt: Prompt) -> tuple[int, int]:
    pos = prompt.answer_pos or prompt.pos
    return pos.line, pos.col
