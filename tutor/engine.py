"""Run a lesson live and judge answers: the one engine behind every front end.

`LessonRun` drives one lesson step by step in a kernel session (the TUI and
`tutor play` use it interactively); `check_lesson` runs a whole lesson and judges
every prompt's reference `answer` (and `wrong:` answers) against the live values
(`tutor check` and the pytest plugin use it).  Pure: no torch, no textual.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from tutor.i18n import ENGLISH, N_, _, language
from tutor.judge import REGISTRY, Status, Verdict, display, judge
from tutor.judge.base.parts import short
from tutor.kernel import Kernel, KernelError, Session, SessionDied, StepTimeout
from tutor.kernel.wire import KERNEL_FAILURES, FailureKind, KernelInfo, Observation
from tutor.kernel.words import translated, translated_output
from tutor.lesson.loader import display_name
from tutor.lesson.model import Lesson, Module, Prompt, Setup, Step, Variant
from tutor.lesson.requires import unmet_prompt, unmet_requirement, unmet_variant
from tutor.lesson.vary import describe, variants_of
from tutor.markup import plain_inline
from tutor.safetext import shorten
from tutor.states import CheckStatus, CheckVerdict

# What kind of failure stopped a step: the kernel's kinds (tutor/kernel/wire.py), or
# `setup` (the pack's setup code raised, or is broken) and `interrupted` (the step's
# code was stopped: an interrupt, or output without end).  Callers branch on it;
# `StepOutcome.failure` is the same failure in words, for a person.
StepFailure = FailureKind | Literal["setup", "interrupted"]


def kernel_broke(kind: StepFailure | None) -> bool:
    """A failure that says nothing about the lesson's own code: the kernel under the
    run died or was stopped (perhaps by a lesson running beside it), or no run could
    be started (`tutor check -j N` runs such a lesson again, alone)."""
    return kind in KERNEL_FAILURES


@dataclass
class StepOutcome:
    """What running one step produced."""

    step: Step
    stdout: str = ""
    stderr: str = ""
    error: Observation | None = None  # the exception the step's code raised, if any
    observations: list[Observation] = field(default_factory=list)
    failure: str | None = None  # the run itself failed: timeout, crash, dead kernel
    failure_kind: StepFailure | None = None  # which (set with `failure` by LessonRun)
    seconds: float = 0.0
    kernel: KernelInfo = field(default_factory=KernelInfo)  # what the kernel said of itself
    earlier_fault: str | None = None  # an earlier step of the run broke (`fault`)
    variant_skip: str | None = None  # the run's variant needs what this kernel lacks

    def skipped(self, prompt: Prompt) -> str | None:
        """Why this question is skipped on this kernel (its own `requires:`, or its
        variant's), or None."""
        if self.variant_skip:
            return self.variant_skip
        return unmet_prompt(prompt, self.kernel) if self.kernel else None

    def fault(self) -> str | None:
        """For the learner, in plain words: this step broke in a way its lesson did not
        foresee (a lesson fault, never the learner's); None if it did not."""
        if not (self.failure or self.unexpected_error):
            return None
        if self.failure:
            return self._on_torch(_no_advice(self.failure))
        err = self.error or {}
        return self._on_torch(_raised(self.step.index, err.get("name"),
                                      short(said_message(err), 300)))

    def _on_torch(self, why: str) -> str:
        torch = self.kernel.get("torch")
        if torch:
            return _("this lesson does not run on torch {torch}: {why}").format(torch=torch,
                                                                               why=why)
        return _("this lesson does not run here: {why}").format(why=why)

    def learner_problem(self, prompt: Prompt) -> str | None:
        """Why this question is not asked, for the learner (who is not the lesson's
        author: `lesson_problem` is the author's version), or None: its `requires:` is
        unmet here, or the lesson broke at this step or at an earlier one.  Nothing
        answered to such a question counts."""
        skip = self.skipped(prompt)
        if skip:
            return _("this question is skipped here: it {why}").format(why=skip)
        if self.earlier_fault:
            return _("{fault} (so the steps after it cannot run as written)").format(
                fault=self.earlier_fault)
        fault = self.fault()
        if fault:
            return fault
        problem = self.lesson_problem(prompt)
        return self._on_torch(_no_advice(problem)) if problem else None

    @property
    def unexpected_error(self) -> bool:
        """The step raised, and no prompt of it is about that exception."""
        asks = any(p.kind == "exception" and p.expect is None for p in self.step.prompts)
        return self.error is not None and not asks

    def live(self, prompt: Prompt) -> dict[str, Any] | None:
        """The prompt's live value, as the judge reads it: a plain dict (the judge reads
        every key defensively, tutor/judge/base/obs.py), checked by the kernel client
        against its schema (`Observation`, tutor/kernel/wire.py) before it got here."""
        if prompt.index < len(self.observations):
            return cast("dict[str, Any]", self.observations[prompt.index])
        return None

    def lesson_problem(self, prompt: Prompt) -> str | None:
        """Why this prompt cannot be judged (a broken lesson, not a wrong answer)."""
        if self.failure:
            return self.failure
        if self.unexpected_error:
            err = self.error or {}
            return _raised(self.step.index, err.get("name"), said_message(err)) + " " + _(
                ADVICE_EXCEPTION)
        live = self.live(prompt)
        if live is None:
            return _("no live value was observed for this prompt")
        kind = REGISTRY.get(prompt.kind)
        if live.get("type") == "exception" and not (kind and kind.judges_errors):
            # (an exception prompt judges the error, and so does a choice that names it)
            what = (
                prompt.expect if isinstance(prompt.expect, str) else ", ".join(prompt.expect or ())
            )
            return _("evaluating `{what}` raised {name}: {message}").format(
                what=what, name=live.get("name"), message=said_message(live))
        return None


def said_message(err: Mapping[str, Any]) -> str:
    """An exception observation's message as the learner reads it: the kernel's own
    (an interrupt, an output flood) translated from its `words`, else as raised."""
    return translated(str(err.get("message")), err.get("words"))


def _raised(index: int, name: object, message: object) -> str:
    return _("step {step} raised {name}: {message}").format(step=index + 1, name=name,
                                                           message=message)


# the advice for a lesson's author that ends some problems (not shown to a learner)
ADVICE_EXCEPTION = N_("(if the error is the point, ask about it with a `kind: exception` "
                      "prompt without `expect`)")
ADVICE_TIMEOUT = N_("(if it needs longer, raise the lesson's `timeout:`)")
ADVICE_SETUP = N_("(the `setup:` code in pack.yaml runs before every lesson of the pack)")


def _no_advice(text: str) -> str:
    """A lesson problem without the advice for its author at the end ("(if the error is
    the point, ...)"): what a learner is shown."""
    for advice in (ADVICE_EXCEPTION, ADVICE_TIMEOUT, ADVICE_SETUP):
        if text.endswith(" " + _(advice)):
            return text[:-len(_(advice)) - 1]
    return re.sub(r" \((if |the `setup:`)[^()]*(\([^()]*\)[^()]*)*\)$", "", text)


class LessonRun:
    """One live run of a lesson, step by step, in a fresh kernel session."""

    def __init__(self, kernel: Kernel, lesson: Lesson, *, timeout: float | None = None):
        self.kernel = kernel
        self.lesson = lesson
        self.timeout = timeout or lesson.timeout
        self.session: Session | None = None
        self.outcomes: list[StepOutcome] = []
        self.setup_failure: str | None = None  # the pack's setup code failed in this session
        self.setup_failure_kind: StepFailure | None = None

    def open(self) -> Session:
        """The run's session; a new one runs the pack's setup code first."""
        if self.session is None or not self.session.alive:
            self.session = self.kernel.open_session(seed=self.lesson.seed,
                                                    cuda=self.lesson.requires.cuda,
                                                    # (its modules would retire a reused
                                                    # spawned worker: docs/kernel.md)
                                                    once=bool(self.lesson.modules))
            self.outcomes = []
            failed = (load_modules(self.session, self.lesson.modules, self.timeout)
                      or run_setup(self.session, self.lesson.setup, self.timeout))
            self.setup_failure, self.setup_failure_kind = failed or (None, None)
        return self.session

    def run_step(self, step: Step) -> StepOutcome:
        """Run `step` (steps must run in order) and observe its prompts' live values."""
        session = self.open()
        if step.index != len(self.outcomes):
            raise ValueError(f"step {step.index + 1} cannot run before step "  # (a bug)
                             f"{len(self.outcomes) + 1}")
        started = time.monotonic()
        outcome = StepOutcome(step, kernel=KernelInfo(**(getattr(self.kernel, "info", None) or {})))
        outcome.earlier_fault = next((o.earlier_fault or o.fault() for o in self.outcomes
                                      if o.earlier_fault or o.unexpected_error), None)
        outcome.variant_skip = unmet_variant(self.lesson, outcome.kernel) if outcome.kernel \
            else None
        if self.setup_failure:
            outcome.failure, outcome.failure_kind = self.setup_failure, self.setup_failure_kind
            self.outcomes.append(outcome)
            return outcome
        try:
            reply = session.run_step(
                step.code,
                step=step.index,
                prompts=[p.wire for p in step.prompts],
                timeout=self.timeout,
            )
        except StepTimeout as exc:
            outcome.failure = _("step {step} timed out: {why}").format(
                step=step.index + 1, why=exc) + " " + _(ADVICE_TIMEOUT)
            outcome.failure_kind = exc.kind
        except SessionDied as exc:
            outcome.failure = _("step {step} crashed: {why}").format(step=step.index + 1, why=exc)
            outcome.failure_kind = exc.kind
        except KernelError as exc:
            outcome.failure = _("step {step} could not run: {why}").format(step=step.index + 1,
                                                                          why=exc)
            outcome.failure_kind = exc.kind
        else:
            outcome.stdout = translated_output(reply.get("stdout", ""), reply.get("stdout_note"))
            outcome.stderr = reply.get("stderr", "")
            outcome.error = reply.get("error")
            outcome.observations = reply.get("observations", [])
            if reply.get("interrupted"):
                err = outcome.error or {}
                why = said_message(err) if err.get("message") else _("interrupted")
                outcome.failure = _("step {step} was stopped: {name}: {why}").format(
                    step=step.index + 1, name=err.get("name"), why=why)
                outcome.failure_kind = "interrupted"
        outcome.seconds = time.monotonic() - started
        self.outcomes.append(outcome)
        return outcome

    def run_through(self, upto: int) -> StepOutcome | None:
        """Run the steps not run yet up to and including `upto` (the ones before it
        silently: a resumed lesson, or a question asked again); the last outcome, or
        the first that failed."""
        self.open()  # (a dead session is replaced: its steps run again)
        last = self.outcomes[upto] if upto < len(self.outcomes) else None
        for step in self.lesson.steps[len(self.outcomes): upto + 1]:
            last = self.run_step(step)
            if last.failure:
                break
        return last

    def rebuild(self, upto: int) -> StepOutcome | None:
        """Start a fresh session and re-run steps 0..upto (after a crash or restart)."""
        self.close()
        return self.run_through(upto)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        self.outcomes = []

    def __enter__(self) -> LessonRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_modules(session: Session, modules: tuple[Module, ...],
                 timeout: float) -> tuple[str, StepFailure] | None:
    """Give a fresh session the lesson's own modules (before its setup); why that
    failed (in words, and the kernel's kind of failure), or None."""
    if not modules:
        return None
    try:
        session.request("modules", timeout, modules={m.name: m.source for m in modules})
    except KernelError as exc:
        where = ", ".join(f"{display_name(m.file)}:{m.line}" for m in modules)
        return (_("the lesson's modules ({where}) could not be written for its run: "
                  "{why}").format(where=where, why=exc), exc.kind)
    return None


SETUP_LABEL = "<pack setup>"  # the file name tracebacks show for a pack's setup code


def run_setup(session: Session, setup: Setup | None,
              timeout: float) -> tuple[str, StepFailure] | None:
    """Run a pack's shared setup code in a fresh session; why it failed (in words, and
    its kind: `setup` when the code raised or is broken, else the kernel's), or None."""
    if setup is None:
        return None
    if setup.problem:
        return setup.problem, "setup"
    where = f"{display_name(setup.file)}:{setup.line}"
    try:
        reply = session.request("run", timeout, code=setup.code, step=0, prompts=[],
                                label=SETUP_LABEL)
    except StepTimeout as exc:
        return _("the pack's setup ({where}) timed out: {why}").format(where=where,
                                                                       why=exc), exc.kind
    except KernelError as exc:
        return _("the pack's setup ({where}) could not run: {why}").format(where=where,
                                                                           why=exc), exc.kind
    err = reply.get("error")
    if not err:
        return None
    lines = re.findall(rf'File "{re.escape(SETUP_LABEL)}", line (\d+)', err.get("traceback", ""))
    if lines:
        where = f"{display_name(setup.file)}:{setup.file_line(int(lines[-1]))}"
    return (_("the pack's setup ({where}) raised {name}: {message}").format(
        where=where, name=err.get("name"), message=said_message(err)) + " " + _(ADVICE_SETUP),
        "setup")


JUDGED = {"correct": N_("the reference answer is judged correct: {why}"),
          "partial": N_("the reference answer is judged partial: {why}"),
          "incorrect": N_("the reference answer is judged incorrect: {why}"),
          "invalid": N_("the reference answer is judged invalid: {why}")}

VERDICT_CHARS, VERDICT_LINES = 1_000, 12  # of the live value a verdict quotes
MESSAGE_CHARS = 300  # of a verdict's message and of each of its details


def judge_prompt(outcome: StepOutcome, prompt: Prompt, text: str) -> Verdict:
    """Judge a learner's `text` for `prompt` against the step's live value (what the
    verdict quotes of the live value is cut to a size a screen can show).

    For an `exception` prompt with `match:`, the verdict's details end with the
    part of the message the prompt is about (or a note that this torch raised
    another one), so every front end shows it after the verdict."""
    live = outcome.live(prompt) or {"type": "none"}
    verdict = judge(prompt.spec, text, live)
    note = match_note(prompt, live) if verdict.status is not Status.INVALID else None
    details = (*verdict.details[:8], *([note] if note else []))
    return replace(verdict,
                   expected=shorten(_as_read(verdict.expected, prompt.kind), VERDICT_CHARS,
                                    VERDICT_LINES),
                   message=shorten(_as_read(verdict.message, prompt.kind), MESSAGE_CHARS, 3),
                   details=tuple(shorten(d, MESSAGE_CHARS, 3) for d in details))


def shown_live(live: dict[str, Any] | None, kind: str) -> str:
    """A live value as a learner reads it: the judge's notation, cut to a size a screen
    (or a `check` report) can show."""
    return shorten(_as_read(display(live or {"type": "none"}, kind), kind))


# live values whose notation is English words, as a person reads them in another language
# (`spoken`); the notation itself stays in records, JSON and files
SPOKEN = {"same_storage": {"yes": N_("yes (the same memory)"), "no": N_("no (separate memory)")},
          "exception": {"no error": N_("no error")}}


def spoken(text: str, kind: str) -> str:
    """A live value as `shown_live` writes it, as a person reads it in the language
    spoken: same_storage's `yes`/`no` as its prompt words them (예 (같은 메모리) / 아니요
    (메모리가 따로임)), an exception prompt's `no error` (에러 없음).  English, and every
    other value, unchanged.  Only for what a person reads: never for JSON, records or
    files (they keep the judge's notation, whatever the language)."""
    said = SPOKEN.get(kind, {}).get(text)
    if said is None or language() == ENGLISH:
        return text
    return _(said)


def _as_read(text: str, kind: str) -> str:
    """A choice is lesson text with inline marks (`` `seq[0]` ``): the verdict quotes it
    as the list of choices shows it, without them."""
    return plain_inline(text) if kind == "choice" else text


def match_problem(prompt: Prompt, live: dict[str, Any] | None) -> str | None:
    """Why the live value breaks the prompt's `match:` (an exception prompt pinned to
    its message), or None: no exception, or one whose message the pattern is not in."""
    if prompt.match is None or live is None:
        return None
    if live.get("type") != "exception":
        return _("`match: {pattern}` expects an exception, and the code raised none "
                 "(kind exception: did the code change?)").format(pattern=prompt.match)
    message = str(live.get("message", ""))
    try:
        found = re.search(prompt.match, message)
    except re.error as exc:
        return _("`match: {pattern}` is not a valid regular expression: {why}").format(
            pattern=prompt.match, why=exc)
    if found is None:
        return _("the code raised {name} with another message: {message} does not match "
                 "`match: {pattern}` (is it still the error the lesson is about? fix the "
                 "code, or the pattern)").format(name=live.get("name"),
                                                 message=repr(short(message, 300)),
                                                 pattern=prompt.match)
    return None


def match_note(prompt: Prompt, live: dict[str, Any]) -> str | None:
    """For the learner, after the verdict: which error the question is about (the part
    of the message its `match:` found), or a note that this torch raised another one."""
    if prompt.match is None or live.get("type") != "exception":
        return None
    message = str(live.get("message", ""))
    try:
        found = re.search(prompt.match, message)
    except re.error:
        return None
    if found is not None:
        pinned = found.group(0).strip() or message
        return _("This is the error the question is about: its message says “{part}”.").format(
            part=short(pinned, 200))
    return _("Note: your torch raised this error with another message than the one this "
             "question was written for, so the explanation may be about a different error.")


# ---------------------------------------------------------------------- check


@dataclass
class PromptCheck:
    lesson: str
    file: str
    step: int  # 0-based indexes (the JSON record and the text number them from 1)
    prompt: int
    line: int
    passed: bool
    verdict: CheckVerdict  # the judge's word, or error / skipped / nondeterministic
    answer: str | None
    expected: str | None  # the live value, as displayed to a learner
    message: str
    ask: str = ""
    live: dict[str, Any] | None = None  # the raw observation (for `check --repeat`)
    variant: Variant = ()  # the values of the variant checked (lesson `vary:`), if any
    kind: str = ""  # the prompt's kind (the text report speaks `expected` by it: `spoken`)

    def __post_init__(self) -> None:
        self.message = shorten(self.message)  # (it may quote a live value or an exception)

    def record(self) -> dict[str, Any]:
        return {
            "type": "prompt",
            "lesson": self.lesson,
            "file": self.file,
            "step": self.step + 1,  # numbered from 1, as everywhere tutor shows them
            "prompt": self.prompt + 1,
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
    status: CheckStatus
    reason: str = ""
    # status error: the kind of failure (None when the lesson's own code raised)
    failure_kind: StepFailure | None = None
    prompts: list[PromptCheck] = field(default_factory=list)
    seconds: float = 0.0
    line: int = 1
    variants: int = 1  # how many variants of the lesson ran (`vary:`)
    skipped_variants: list[str] = field(default_factory=list)  # rows whose needs are unmet

    def __post_init__(self) -> None:
        self.reason = shorten(self.reason)

    @property
    def passed(self) -> bool:
        return self.status in ("passed", "skipped")


def check_prompt(lesson: Lesson, outcome: StepOutcome, prompt: Prompt) -> PromptCheck:
    live = outcome.live(prompt)
    base: dict[str, Any] = dict(
        lesson=lesson.id,
        file=str(lesson.file),
        step=outcome.step.index,
        prompt=prompt.index,
        line=prompt.pos.line,
        ask=prompt.ask,
        live=live,
        kind=prompt.kind,
    )
    # a broken lesson; or the code raised, but not the error the prompt is pinned to
    problem = outcome.lesson_problem(prompt) or match_problem(prompt, live)
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
            message=_("no reference answer: add `answer:` (or run `tutor record {file}` to fill "
                      "it from the live value)").format(file=lesson.file),
        )
    verdict = judge(prompt.spec, prompt.answer, live)
    if verdict.status is not Status.CORRECT:
        return PromptCheck(
            **base,
            passed=False,
            verdict=verdict.status.value,
            answer=prompt.answer,
            expected=expected,
            message=_(JUDGED[verdict.status.value]).format(why=verdict.message),
        )
    for wrong in prompt.wrong:
        if judge(prompt.spec, wrong, live).status is Status.CORRECT:
            return PromptCheck(
                **base,
                passed=False,
                verdict="correct",
                answer=prompt.answer,
                expected=expected,
                message=_("the wrong answer {wrong} listed under `wrong:` is judged correct: "
                          "the lesson can be passed by it").format(wrong=repr(wrong)),
            )
    return PromptCheck(
        **base,
        passed=True,
        verdict="correct",
        answer=prompt.answer,
        expected=expected,
        message=verdict.message,
    )


def skipped_prompt(lesson: Lesson, outcome: StepOutcome, prompt: Prompt,
                   why: str) -> PromptCheck:
    """A question whose own `requires:` this kernel does not meet: not checked."""
    return PromptCheck(lesson=lesson.id, file=str(lesson.file), step=outcome.step.index,
                       prompt=prompt.index, line=prompt.pos.line, passed=True,
                       verdict="skipped", answer=prompt.answer, expected=None,
                       message=_("skipped: {why}").format(why=why), ask=prompt.ask)


def check_lesson(kernel: Kernel, lesson: Lesson, *, timeout: float | None = None) -> LessonCheck:
    """Run `lesson` live and check every prompt's reference answer and `wrong:` answers,
    in every variant when it declares `vary:` (a failure names the variant's values)."""
    if len((lesson.template or lesson).variants) < 2:
        return _check_run(kernel, lesson, timeout=timeout)
    out = LessonCheck(lesson.id, str(lesson.file), "passed", variants=0)
    for each in variants_of(lesson):
        try:
            skip = unmet_variant(each, kernel.wait_ready())
        except KernelError:
            skip = None  # (_check_run says why the kernel is not there)
        if skip:  # this row of `vary:` needs what this kernel lacks: not run
            out.skipped_variants.append(skip)
            continue
        check = _check_run(kernel, each, timeout=timeout)
        out.variants += 1
        out.seconds += check.seconds
        values = describe(each.variant)
        for p in check.prompts:
            p.variant = each.variant
            if not p.passed:
                p.message = _("with {values}: ").format(values=values) + p.message
        out.prompts += check.prompts
        if check.status in ("skipped", "error") and out.status == "passed":
            out.status, out.line = check.status, check.line
            out.failure_kind = check.failure_kind
            out.reason = check.reason if check.status == "skipped" else _(
                "with {values}: ").format(values=values) + check.reason
        if check.status == "skipped":
            break  # (an unmet requirement is the same for every variant)
    if out.status == "passed" and not all(p.passed for p in out.prompts):
        out.status = "failed"
    if out.variants == 0 and out.skipped_variants:  # no variant can run here
        out.status, out.reason = "skipped", "; ".join(out.skipped_variants)
    return out


def _check_run(kernel: Kernel, lesson: Lesson, *, timeout: float | None = None) -> LessonCheck:
    """One live run of `lesson` (as filled in), every prompt checked."""
    started = time.monotonic()
    result = LessonCheck(lesson.id, str(lesson.file), "passed")
    try:
        info = kernel.wait_ready()
    except KernelError as exc:
        return LessonCheck(lesson.id, str(lesson.file), "error",
                           _("kernel: {why}").format(why=exc), failure_kind=exc.kind)
    why = unmet_requirement(lesson, info) or unmet_variant(lesson, info)
    if why:
        return LessonCheck(lesson.id, str(lesson.file), "skipped", why)
    raised: str | None = None  # an earlier step raised where no prompt asked about it
    try:
        with LessonRun(kernel, lesson, timeout=timeout) as run:
            for step in lesson.steps:
                outcome = run.run_step(step)
                if outcome.failure or (outcome.unexpected_error and not step.prompts):
                    result.status = "error"
                    result.failure_kind = outcome.failure_kind if outcome.failure else None
                    err = outcome.error or {}
                    result.reason = shorten(outcome.failure or _raised(
                        step.index, err.get("name"), said_message(err)))
                    result.line = step.pos.line
                    break
                checks = []
                for p in step.prompts:
                    skip = unmet_prompt(p, info)
                    checks.append(skipped_prompt(lesson, outcome, p, skip) if skip
                                  else check_prompt(lesson, outcome, p))
                for c in checks:
                    if raised and not c.passed:  # (a NameError of what that step defines)
                        c.message = _("not checkable: {raised}, so this step ran without what "
                                      "that step defines; fix it first (here: {why})").format(
                            raised=raised, why=c.message)
                result.prompts += checks
                if outcome.unexpected_error and raised is None:
                    err = outcome.error or {}
                    raised = _("step {step} raised {name}").format(step=step.index + 1,
                                                                   name=err.get("name"))
    except KernelError as exc:
        result.status, result.reason = "error", shorten(_("kernel: {why}").format(why=exc))
        result.failure_kind = exc.kind
    if result.status == "passed" and not all(p.passed for p in result.prompts):
        result.status = "failed"
    result.seconds = time.monotonic() - started
    return result
