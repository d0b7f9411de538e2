"""Run a lesson live and judge answers: the one engine behind every front end.

`LessonRun` drives one lesson step by step in a kernel session (the TUI and
`tutor play` use it interactively); `check_lesson` runs a whole lesson and judges
every prompt's reference `answer` (and `wrong:` answers) against the live values
(`tutor check` and the pytest plugin use it).  Pure: no torch, no textual.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from tutor.judge import Status, Verdict, display, judge
from tutor.kernel import Kernel, KernelError, Session, SessionDied, StepTimeout
from tutor.lesson.model import Lesson, Prompt, Step, Variant
from tutor.lesson.vary import describe, variants_of
from tutor.safetext import shorten


def unmet_requirement(lesson: Lesson, info: dict[str, Any]) -> str | None:
    """Why this lesson cannot run against the kernel described by `info`, or None."""
    req = lesson.requires
    for name, spec in (("torch", req.torch), ("python", req.python)):
        if not spec:
            continue
        have = info.get(name)
        try:
            ok = have is not None and Version(str(have)) in SpecifierSet(spec)
        except (InvalidSpecifier, InvalidVersion):
            return f"requires.{name}: {spec!r} is not a valid version specifier"
        if not ok:
            return f"needs {name} {spec}, this kernel has {name} {have}"
    if req.cuda and not info.get("cuda"):
        return "needs a CUDA device, and none is available"
    return None


@dataclass
class StepOutcome:
    """What running one step produced."""

    step: Step
    stdout: str = ""
    stderr: str = ""
    error: dict[str, Any] | None = None  # the exception the step's code raised, if any
    observations: list[dict[str, Any]] = field(default_factory=list)
    failure: str | None = None  # the run itself failed: timeout, crash, dead kernel
    seconds: float = 0.0

    @property
    def unexpected_error(self) -> bool:
        """The step raised, and no prompt of it is about that exception."""
        asks = any(p.kind == "exception" and p.expect is None for p in self.step.prompts)
        return self.error is not None and not asks

    def live(self, prompt: Prompt) -> dict[str, Any] | None:
        if prompt.index < len(self.observations):
            return self.observations[prompt.index]
        return None

    def lesson_problem(self, prompt: Prompt) -> str | None:
        """Why this prompt cannot be judged (a broken lesson, not a wrong answer)."""
        if self.failure:
            return self.failure
        if self.unexpected_error:
            err = self.error or {}
            return (f"step {self.step.index} raised {err.get('name')}: {err.get('message')} "
                    "(if the error is the point, ask about it with a `kind: exception` prompt "
                    "without `expect`)")
        live = self.live(prompt)
        if live is None:
            return "no live value was observed for this prompt"
        if live.get("type") == "exception" and prompt.kind != "exception":
            what = (
                prompt.expect if isinstance(prompt.expect, str) else ", ".join(prompt.expect or ())
            )
            return f"evaluating `{what}` raised {live.get('name')}: {live.get('message')}"
        return None


class LessonRun:
    """One live run of a lesson, step by step, in a fresh kernel session."""

    def __init__(self, kernel: Kernel, lesson: Lesson, *, timeout: float | None = None):
        self.kernel = kernel
        self.lesson = lesson
        self.timeout = timeout or lesson.timeout
        self.session: Session | None = None
        self.outcomes: list[StepOutcome] = []

    def open(self) -> Session:
        if self.session is None or not self.session.alive:
            self.session = self.kernel.open_session(seed=self.lesson.seed)
            self.outcomes = []
        return self.session

    def run_step(self, step: Step) -> StepOutcome:
        """Run `step` (steps must run in order) and observe its prompts' live values."""
        session = self.open()
        if step.index != len(self.outcomes):
            raise ValueError(f"step {step.index} cannot run before step {len(self.outcomes)}")
        started = time.monotonic()
        outcome = StepOutcome(step)
        try:
            reply = session.run_step(
                step.code,
                step=step.index,
                prompts=[p.wire for p in step.prompts],
                timeout=self.timeout,
            )
        except StepTimeout as exc:
            outcome.failure = (f"step {step.index} timed out: {exc} (if it needs longer, "
                               "raise the lesson's `timeout:`)")
        except SessionDied as exc:
            outcome.failure = f"step {step.index} crashed: {exc}"
        except KernelError as exc:
            outcome.failure = f"step {step.index} could not run: {exc}"
        else:
            outcome.stdout = reply.get("stdout", "")
            outcome.stderr = reply.get("stderr", "")
            outcome.error = reply.get("error")
            outcome.observations = reply.get("observations", [])
            if reply.get("interrupted"):
                err = outcome.error or {}
                why = err.get("message") or "interrupted"
                outcome.failure = f"step {step.index} was stopped: {err.get('name')}: {why}"
        outcome.seconds = time.monotonic() - started
        self.outcomes.append(outcome)
        return outcome

    def rebuild(self, upto: int) -> StepOutcome | None:
        """Start a fresh session and re-run steps 0..upto (after a crash or restart)."""
        self.close()
        last = None
        for step in self.lesson.steps[: upto + 1]:
            last = self.run_step(step)
            if last.failure:
                break
        return last

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        self.outcomes = []

    def __enter__(self) -> LessonRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


VERDICT_CHARS, VERDICT_LINES = 1_000, 12  # of the live value a verdict quotes
MESSAGE_CHARS = 300  # of a verdict's message and of each of its details


def judge_prompt(outcome: StepOutcome, prompt: Prompt, text: str) -> Verdict:
    """Judge a learner's `text` for `prompt` against the step's live value (what the
    verdict quotes of the live value is cut to a size a screen can show)."""
    live = outcome.live(prompt) or {"type": "none"}
    verdict = judge(prompt.spec, text, live)
    return replace(verdict, expected=shorten(verdict.expected, VERDICT_CHARS, VERDICT_LINES),
                   message=shorten(verdict.message, MESSAGE_CHARS, 3),
                   details=tuple(shorten(d, MESSAGE_CHARS, 3) for d in verdict.details[:8]))


def shown_live(live: dict[str, Any] | None, kind: str) -> str:
    """A live value as a learner reads it: the judge's notation, cut to a size a screen
    (or a `check` report) can show."""
    return shorten(display(live or {"type": "none"}, kind))


# ---------------------------------------------------------------------- check


@dataclass
class PromptCheck:
    lesson: str
    file: str
    step: int
    prompt: int
    line: int
    passed: bool
    verdict: str  # correct/partial/incorrect/invalid, or "error" when it could not be judged
    answer: str | None
    expected: str | None  # the live value, as displayed to a learner
    message: str
    ask: str = ""
    live: dict[str, Any] | None = None  # the raw observation (for `check --repeat`)
    variant: Variant = ()  # the values of the variant checked (lesson `vary:`), if any

    def __post_init__(self) -> None:
        self.message = shorten(self.message)  # (it may quote a live value or an exception)

    def record(self) -> dict[str, Any]:
        return {
            "type": "prompt",
            "lesson": self.lesson,
            "file": self.file,
            "step": self.step,
            "prompt": self.prompt,
            "line": self.line,
            "passed": self.passed,
            "verdict": self.verdict,
            "answer": self.answer,
            "expected": self.expected,
            "message": self.message,
            **({"variant": dict(self.variant)} if self.variant else {}),
        }


@dataclass
class LessonCheck:
    lesson: str
    file: str
    status: str  # passed, failed, skipped, error
    reason: str = ""
    prompts: list[PromptCheck] = field(default_factory=list)
    seconds: float = 0.0
    line: int = 1
    variants: int = 1  # how many variants of the lesson ran (`vary:`)

    def __post_init__(self) -> None:
        self.reason = shorten(self.reason)

    @property
    def passed(self) -> bool:
        return self.status in ("passed", "skipped")


def check_prompt(lesson: Lesson, outcome: StepOutcome, prompt: Prompt) -> PromptCheck:
    live = outcome.live(prompt)
    base = dict(
        lesson=lesson.id,
        file=str(lesson.file),
        step=outcome.step.index,
        prompt=prompt.index,
        line=prompt.pos.line,
        ask=prompt.ask,
        live=live,
    )
    problem = outcome.lesson_problem(prompt)
    shown = live is not None and not outcome.failure and not outcome.unexpected_error
    expected = shown_live(live, prompt.kind) if shown else None
    if problem:
        return PromptCheck(
            **base,
            passed=False,
            verdict="error",
            answer=prompt.answer,
            expected=expected,
            message=problem,
        )
    assert live is not None
    if prompt.answer is None:
        return PromptCheck(
            **base,
            passed=False,
            verdict="error",
            answer=None,
            expected=expected,
            message="no reference answer: add `answer:` (or run `tutor record "
            f"{lesson.file}` to fill it from the live value)",
        )
    verdict = judge(prompt.spec, prompt.answer, live)
    if verdict.status is not Status.CORRECT:
        return PromptCheck(
            **base,
            passed=False,
            verdict=verdict.status.value,
            answer=prompt.answer,
            expected=expected,
            message=f"the reference answer is judged {verdict.status.value}: {verdict.message}",
        )
    for wrong in prompt.wrong:
        if judge(prompt.spec, wrong, live).status is Status.CORRECT:
            return PromptCheck(
                **base,
                passed=False,
                verdict="correct",
                answer=prompt.answer,
                expected=expected,
                message=f"the wrong answer {wrong!r} listed "
                "under `wrong:` is judged correct: the lesson can be passed by it",
            )
    return PromptCheck(
        **base,
        passed=True,
        verdict="correct",
        answer=prompt.answer,
        expected=expected,
        message=verdict.message,
    )


def check_lesson(kernel: Kernel, lesson: Lesson, *, timeout: float | None = None) -> LessonCheck:
    """Run `lesson` live and check every prompt's reference answer and `wrong:` answers,
    in every variant when it declares `vary:` (a failure names the variant's values)."""
    if len((lesson.template or lesson).variants) < 2:
        return _check_run(kernel, lesson, timeout=timeout)
    out = LessonCheck(lesson.id, str(lesson.file), "passed", variants=0)
    for each in variants_of(lesson):
        check = _check_run(kernel, each, timeout=timeout)
        out.variants += 1
        out.seconds += check.seconds
        values = describe(each.variant)
        for p in check.prompts:
            p.variant = each.variant
            if not p.passed:
                p.message = f"with {values}: {p.message}"
        out.prompts += check.prompts
        if check.status in ("skipped", "error") and out.status == "passed":
            out.status, out.line = check.status, check.line
            out.reason = check.reason if check.status == "skipped" else f"with {values}: " \
                f"{check.reason}"
        if check.status == "skipped":
            break  # (an unmet requirement is the same for every variant)
    if out.status == "passed" and not all(p.passed for p in out.prompts):
        out.status = "failed"
    return out


def _check_run(kernel: Kernel, lesson: Lesson, *, timeout: float | None = None) -> LessonCheck:
    """One live run of `lesson` (as filled in), every prompt checked."""
    started = time.monotonic()
    result = LessonCheck(lesson.id, str(lesson.file), "passed")
    try:
        info = kernel.wait_ready()
    except KernelError as exc:
        return LessonCheck(lesson.id, str(lesson.file), "error", f"kernel: {exc}")
    why = unmet_requirement(lesson, info)
    if why:
        return LessonCheck(lesson.id, str(lesson.file), "skipped", why)
    try:
        with LessonRun(kernel, lesson, timeout=timeout) as run:
            for step in lesson.steps:
                outcome = run.run_step(step)
                if outcome.failure or (outcome.unexpected_error and not step.prompts):
                    result.status = "error"
                    err = outcome.error or {}
                    result.reason = shorten(outcome.failure or (
                        f"step {step.index} raised {err.get('name')}: {err.get('message')}"
                    ))
                    result.line = step.pos.line
                    break
                result.prompts += [check_prompt(lesson, outcome, p) for p in step.prompts]
    except KernelError as exc:
        result.status, result.reason = "error", shorten(f"kernel: {exc}")
    if result.status == "passed" and not all(p.passed for p in result.prompts):
        result.status = "failed"
    result.seconds = time.monotonic() - started
    return result
