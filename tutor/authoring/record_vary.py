"""`tutor record` for a lesson with `vary:`: every variant runs; an answer is written only
where one text is right in all of them.

* An answer already judged right in every variant is left alone (a rule such as
  `"{{3 / x}}"` included).
* A prompt whose live value reads the same in every variant (`True`, a dtype, a shape
  that does not vary) gets that text, like in a lesson without variants.
* A prompt whose live value differs between variants cannot have one literal answer:
  it is reported with each variant's value, so the author writes the rule.
* An answer right in some variants and not in others is reported with the values
  where it fails.
`--force` rewrites only literal answers (never a rule) whose live value reads the same
in every variant.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tutor.authoring.record_plan import Change, RecordResult, plan
from tutor.i18n import _
from tutor.lesson.model import Lesson, Prompt
from tutor.lesson.validate import Problem
from tutor.lesson.vary import PLACEHOLDER, describe, variants_of

Key = tuple[int, int]


def plan_variants(kernel: Any, lesson: Lesson, *, force: bool = False,
                  timeout: float | None = None) -> RecordResult:
    """Run every variant of `lesson` live; the answers to write and the problems."""
    from tutor.lesson.requires import unmet_variant

    info = kernel.wait_ready()
    every = variants_of(lesson)
    # (a row of `vary:` whose `requires:` this kernel does not meet is not recorded)
    lessons = [each for each in every if not unmet_variant(each, info)] or every[:1]
    template = lesson.template or lesson
    runs = [plan(kernel, each, timeout=timeout) for each in lessons]
    result = RecordResult(runs[0].file, prompts=runs[0].prompts)
    skipped = next((r.skipped for r in runs if r.skipped), None)
    if skipped:
        result.skipped = skipped
        return result
    seen: set[str] = set()
    for each, run in zip(lessons, runs, strict=True):
        for problem in run.problems:
            if problem.path not in seen:
                seen.add(problem.path)
                result.problems.append(replace(
                    problem, message=_("with {values}: ").format(
                        values=describe(each.variant)) + problem.message))
    proposed: dict[Key, list[Change | None]] = {}
    for n, run in enumerate(runs):
        for ch in run.changes:
            proposed.setdefault((ch.step, ch.prompt), [None] * len(runs))[n] = ch
    for key, changes in sorted(proposed.items()):
        prompt = template.steps[key[0]].prompts[key[1]]
        path = f"steps[{key[0]}].predict[{key[1]}]"
        if path in seen:
            continue
        decided = _decide(prompt, changes, lessons)
        if isinstance(decided, Change):
            result.changes.append(decided)
        else:
            first = next(c for c in changes if c is not None)
            result.problems.append(_problem(result.file, first, path, decided))
    if force:
        _force(kernel, lessons, template, result, seen | {f"steps[{c.step}].predict[{c.prompt}]"
                                                          for c in result.changes},
               timeout=timeout)
    return result


def _decide(prompt: Prompt, changes: list[Change | None], lessons: list[Lesson]) -> Change | str:
    """The one answer to write, or why there is none."""
    texts = {c.new for c in changes if c is not None}
    if all(c is not None for c in changes) and len(texts) == 1:
        first = changes[0]
        assert first is not None
        return replace(first, old=prompt.answer)
    pairs = list(zip(lessons, changes, strict=True))
    lives = "; ".join(f"{describe(each.variant)}: {c.new}" for each, c in pairs if c is not None)
    if all(c is not None for c in changes):
        return _("cannot record: the live value differs between variants ({lives}): write "
                 "`answer:` as a rule that gives each, e.g. \"{{{{3 / x}}}}\" (see "
                 "docs/lesson-format.md, Variants)").format(lives=lives)
    right = [describe(each.variant) for each, c in pairs if c is None]
    return _("the answer {answer} is judged right with {right}, but not with {lives} (the live "
             "value there): fix the rule").format(answer=repr(prompt.answer),
                                                  right=_(" and ").join(right), lives=lives)


def _problem(file: str, change: Change, path: str, message: str) -> Problem:
    return Problem(file, change.line, change.col, path, message)


def _force(kernel: Any, lessons: list[Lesson], template: Lesson, result: RecordResult,
           done: set[str], *, timeout: float | None) -> None:
    """`--force`: rewrite literal answers whose live value reads the same everywhere."""
    runs = [plan(kernel, each, force=True, timeout=timeout) for each in lessons]
    proposed: dict[Key, list[Change]] = {}
    for run in runs:
        for ch in run.changes:
            proposed.setdefault((ch.step, ch.prompt), []).append(ch)
    for (step, index), changes in sorted(proposed.items()):
        prompt = template.steps[step].prompts[index]
        if (f"steps[{step}].predict[{index}]" in done or len(changes) != len(runs)
                or len({c.new for c in changes}) != 1
                or (prompt.answer and PLACEHOLDER.search(prompt.answer))):
            continue
        result.changes.append(replace(changes[0], old=prompt.answer))
