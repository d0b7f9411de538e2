"""The rules of `tutor lint` that look at one lesson file (see `tutor.authoring.lint` for
the list, and `lint_vary` for rule `vary`): the file as loaded for linting (`LintedFile`),
and one function per rule returning its `Problem`s.  Pure: reads files, no torch.

Their own module so that `lint` (which runs them all) and `lint_vary` (which runs some
of them again in every variant) both import them without importing each other.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from tutor.authoring.schema import stale_modeline
from tutor.i18n import _
from tutor.lesson import format as fmt
from tutor.lesson.files import not_a_lesson
from tutor.lesson.loader import (
    LessonError,
    _build_lesson,
    compose,
    display_name,
    pack_setup,
    read_text,
)
from tutor.lesson.model import Lesson, Prompt, Step
from tutor.lesson.validate import Problem, Validation, validate

ERROR = "error"
WARNING = "warning"
EXITS = {"exit", "quit", "sys.exit", "os._exit", "_exit"}


@dataclass
class LintedFile:
    file: str
    lesson: Lesson | None
    validation: Validation | None
    problems: list[Problem] = field(default_factory=list)


def _parse_error():  # noqa: ANN202
    from tutor.judge import parse_error  # the judge's reader; no torch

    return parse_error


# ------------------------------------------------------------------ one file


def load_for_lint(path: Path) -> LintedFile:
    """Load like the loader does, but keep every problem and the key positions."""
    name = display_name(path)
    why = not_a_lesson(path) if path.is_file() else None  # (others: the loader says)
    if why:
        return LintedFile(name, None, None, [Problem(name, 1, 1, "", why)])
    try:
        text = read_text(path, name)
        node = compose(text, name)
    except LessonError as exc:
        return LintedFile(name, None, None, list(exc.problems))
    v = Validation(name, source=text)
    data = validate(node, fmt.LESSON, v)
    problems = sorted(v.problems, key=lambda p: (p.line, p.col))
    stale = stale_modeline(path, text.split("\n", 1)[0])
    if stale:
        problems.insert(0, Problem(name, 1, 1, "", stale, WARNING))
    lesson = None
    if not any(p.severity == ERROR for p in problems):
        lesson = _build_lesson(data, v, path, pack_setup(path))
    return LintedFile(name, lesson, v, problems)


def _problem(f: LintedFile, path: str, message: str, severity: str = ERROR) -> Problem:
    assert f.validation is not None
    line, col = f.validation.at(path)
    return Problem(f.file, line, col, path, message, severity)


def _prompt_path(step: Step, prompt: Prompt) -> str:
    return f"steps[{step.index}].predict[{prompt.index}]"


def _why(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def check_answers(f: LintedFile) -> list[Problem]:
    """Rules `answer`, `wrong`, `feedback`: can the judge read them for their kind?"""
    assert f.lesson is not None
    parse_error = _parse_error()
    out = []
    for step, prompt in f.lesson.prompts:
        base = _prompt_path(step, prompt)
        spec = prompt.spec
        kind = prompt.kind
        if prompt.answer is not None:
            why = parse_error(spec, prompt.answer)
            if why:
                out.append(_problem(f, f"{base}.answer", _(
                    "the judge cannot read {answer} as a {kind} answer: {why} Fix it, or let "
                    "`tutor record {file}` write it from the live value.").format(
                        answer=repr(prompt.answer), kind=kind, why=_why(why), file=f.file)))
        for i, wrong in enumerate(prompt.wrong):
            why = parse_error(spec, wrong)
            if why:
                out.append(_problem(f, f"{base}.wrong[{i}]", _(
                    "the judge cannot read {answer} as a {kind} answer: {why} A wrong answer "
                    "must be one a learner could type, or it proves nothing.").format(
                        answer=repr(wrong), kind=kind, why=_why(why))))
        for key, _text in prompt.feedback:
            why = parse_error(spec, key)
            if why:
                out.append(_problem(f, f"{base}.feedback.{key}", _(
                    "the judge cannot read the feedback key {key} as a {kind} answer: {why} "
                    "As written it can never match what a learner types.").format(
                        key=repr(key), kind=kind, why=_why(why))))
    return out


def check_foreseen(f: LintedFile) -> list[Problem]:
    """Rule `foreseen` (a warning): a foreseen mistake the question's precision can't
    tell from the answer."""
    assert f.lesson is not None
    from tutor.judge.api import rounds_onto  # the judge; no torch

    out = []
    for step, prompt in f.lesson.prompts:
        if prompt.kind != "number" or prompt.answer is None:
            continue
        for key, typed, digits in rounds_onto(prompt.spec, prompt.answer, prompt.ask):
            out.append(_problem(
                f, f"{_prompt_path(step, prompt)}.ask", _(
                    "the answer {answer} written as {typed}, at the precision this question "
                    "asks, is taken for the foreseen mistake {key} (under `wrong:` or "
                    "`feedback:`): a learner who rounds the right answer is marked wrong. Say "
                    "in the question the precision that tells them apart ({digits}, e.g. "
                    "\"to {spelled}\").").format(
                    answer=repr(prompt.answer), typed=repr(typed), key=repr(key),
                    digits=digits, spelled=_spelled(digits)), WARNING))
    return out


_SPELLED = dict(enumerate("zero one two three four five six seven eight nine ten".split()))


def _spelled(digits: str) -> str:
    """ "2 decimals" -> "two decimal places", "3 significant digits" -> "three
    significant digits"."""
    n, _, unit = digits.partition(" ")
    if not n.isdigit():
        return "the nearest whole number"
    word = _SPELLED.get(int(n), n)
    return f"{word} decimal place{'s' * (n != '1')}" if unit.startswith("decimal") \
        else f"{word} {unit}"


def check_missing(f: LintedFile) -> list[Problem]:
    """Rules `no-answer`, `hint`, `explain` (warnings)."""
    assert f.lesson is not None
    out = []
    for step, prompt in f.lesson.prompts:
        base = _prompt_path(step, prompt)
        if prompt.answer is None:
            out.append(_problem(f, f"{base}.answer" if prompt.answer_pos else base,
                                _("no reference answer yet: run `tutor record {file}` to write "
                                  "it from the live value").format(file=f.file), WARNING))
        if not prompt.hint:
            out.append(_problem(f, base, _("no `hint:`: add a nudge the learner can ask for "
                                           "before answering"), WARNING))
        if not prompt.explain and not step.explain:
            out.append(_problem(f, base, _("no `explain:` (here or on the step): add the "
                                           "mental model shown after the verdict"), WARNING))
    return out


def _always_stops(code: str) -> tuple[int, int | None] | None:
    """(line of a top-level statement that always raises or exits, line of the next
    statement or None), 1-based within the code; None when there is no such statement."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for i, stmt in enumerate(tree.body):
        stops = isinstance(stmt, ast.Raise) or (
            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and ast.unparse(stmt.value.func) in EXITS)
        if stops:
            after = tree.body[i + 1].lineno if i + 1 < len(tree.body) else None
            return stmt.lineno, after
    return None


def _at_code_line(f: LintedFile, problem: Problem, n: int) -> Problem:
    """Move `problem` (at a step's `code:` value) to line `n` of a block-scalar code."""
    assert f.lesson is not None
    try:
        lines = Path(f.lesson.file).read_text(encoding="utf-8").splitlines()
        here = lines[problem.line - 1][problem.col - 1:]
    except (OSError, UnicodeDecodeError, IndexError):
        return problem
    if here.startswith(("|", ">")) and problem.line + n <= len(lines):
        target = lines[problem.line - 1 + n]
        col = len(target) - len(target.lstrip()) + 1
        return replace(problem, line=problem.line + n, col=col)
    return problem


def check_unreachable(f: LintedFile) -> list[Problem]:
    """Rule `unreachable`: see the module docstring."""
    assert f.lesson is not None
    out = []
    for step in f.lesson.steps:
        found = _always_stops(step.code)
        if found is None:
            continue
        line, after = found
        if after is not None:
            problem = _problem(
                f, f"steps[{step.index}].code", _(
                    "the code after its line {line} never runs: line {line} always raises or "
                    "exits; remove it or guard line {line}").format(line=line), WARNING)
            out.append(_at_code_line(f, problem, after))
        if any(p.kind == "exception" and p.expect is None for p in step.prompts):
            continue
        for prompt in step.prompts:
            out.append(_problem(
                f, _prompt_path(step, prompt), _(
                    "unreachable: this step's code always stops at its line {line} (a "
                    "top-level raise or exit) and no prompt asks about that exception, so this "
                    "prompt can never be judged; add a `kind: exception` prompt without "
                    "`expect`, or guard line {line}").format(line=line)))
    return out


def check_show(f: LintedFile) -> list[Problem]:
    """Rule `show`: can the picture a prompt asks for be drawn? (tutor.pictures, no torch)"""
    from tutor.pictures import parse_show

    assert f.lesson is not None
    out = []
    for step, prompt in f.lesson.prompts:
        if prompt.show is None:
            continue
        try:
            parse_show(prompt.show)
        except ValueError as exc:
            out.append(_problem(f, f"{_prompt_path(step, prompt)}.show", _why(str(exc))))
    return out


# `2**16` in prose: Markdown reads the two stars as the start or end of bold text, so the
# screen shows "216" (and bolds whatever lies up to the next pair); inside backticks it is code
_POWER = re.compile(r"(?<=[\w)\]])\*\*(?=[\w(\-])")
_CODE_SPAN = re.compile(r"`[^`]*`")


def _prose(f: LintedFile) -> list[tuple[str, str]]:
    """Every text the learner reads as Markdown, with its path in the file."""
    assert f.lesson is not None
    lesson = f.lesson
    out = [("title", lesson.title), ("intro", lesson.intro)]
    for step in lesson.steps:
        if step.explain:
            out.append((f"steps[{step.index}].explain", step.explain))
    for step, prompt in lesson.prompts:
        base = _prompt_path(step, prompt)
        out += [(f"{base}.ask", prompt.ask), (f"{base}.hint", prompt.hint or ""),
                (f"{base}.explain", prompt.explain or "")]
        out += [(f"{base}.choices[{i}]", c) for i, c in enumerate(prompt.choices)]
        out += [(f"{base}.feedback.{key}", text) for key, text in prompt.feedback]
    return out


def check_powers(f: LintedFile) -> list[Problem]:
    """Rule `power` (a warning): `2**16` written in prose outside backticks where another
    `**` in the same text pairs with it, so that the screen shows bold text ("216")
    instead of the power."""
    out = []
    for path, text in _prose(f):
        bare = _CODE_SPAN.sub("", text)
        m = _POWER.search(bare)
        if m and bare.count("**") >= 2:  # (one pair of stars is enough to make bold)
            start = max(0, m.start() - 12)
            shown = bare[start:m.end() + 12].strip()
            out.append(_problem(
                f, path, _("'{text}' writes a power with `**` outside backticks: the screen "
                           "reads the stars as bold and shows the digits run together. Put "
                           "the expression in backticks (`2**16`) or write 2^16.").format(
                    text=shown), WARNING))
    return out


RULES = (check_answers, check_missing, check_unreachable, check_show, check_foreseen,
         check_powers)
