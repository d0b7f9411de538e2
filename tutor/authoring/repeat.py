"""`tutor check --repeat N`: run a lesson N times and flag live values that change.

A lesson whose live values differ from run to run (unseeded randomness, timing,
dict ordering, memory addresses) cannot have one reference answer.  Each run is an
ordinary `check_lesson`; a prompt passes only if it passed in every run *and* its
live value was the same every time.  Memory addresses (`0x7f...`) inside reprs are
ignored: they differ between processes by design and the judge never reads them.
"""

from __future__ import annotations

import re
from typing import Any

from tutor.engine import LessonCheck, PromptCheck, check_lesson
from tutor.i18n import _

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def _stable(obs: Any) -> Any:
    if isinstance(obs, dict):
        return {k: _stable(v) for k, v in obs.items()}
    if isinstance(obs, list):
        return [_stable(v) for v in obs]
    if isinstance(obs, str):
        return _ADDRESS.sub("0x…", obs)
    return obs


def merge_runs(runs: list[LessonCheck]) -> LessonCheck:
    """One LessonCheck for N runs of the same lesson, flagging values that changed."""
    first = runs[0]
    bad = next((r for r in runs if r.status in ("error", "skipped")), None)
    if bad is not None:
        return bad
    merged: list[PromptCheck] = []
    for i, check in enumerate(first.prompts):
        others = [r.prompts[i] if i < len(r.prompts) else check for r in runs]
        values = [_stable(p.live) for p in others]
        changed = next((n for n, v in enumerate(values) if v != values[0]), None)
        if changed is None:
            merged.append(next((p for p in others if not p.passed), check))
            continue
        shown = [p.expected for p in others]
        merged.append(PromptCheck(
            lesson=check.lesson, file=check.file, step=check.step, prompt=check.prompt,
            line=check.line, passed=False, verdict="nondeterministic", answer=check.answer,
            expected=check.expected, ask=check.ask, live=check.live, kind=check.kind,
            message=_("the live value changes between runs: run 1 gave {first}, run {n} gave "
                      "{other}; seed the randomness (`seed:`) or ask about something "
                      "stable").format(first=shown[0], n=changed + 1, other=shown[changed])))
    out = LessonCheck(first.lesson, first.file, "passed", prompts=merged,
                      seconds=sum(r.seconds for r in runs), line=first.line)
    if not all(p.passed for p in merged):
        out.status = "failed"
    return out


def check_repeated(kernel: Any, lesson: Any, repeat: int, *,
                   timeout: float | None = None) -> LessonCheck:
    runs = [check_lesson(kernel, lesson, timeout=timeout) for _run in range(max(1, repeat))]
    return merge_runs(runs)
