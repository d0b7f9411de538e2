"""Variants: values a lesson draws per run, filled into its code and texts.

A lesson declares them under `vary:`, either as lists combined every way

    vary: {x: [2.0, 3.0, 5.0], n: [2, 3]}          # 6 variants

or as explicit rows

    vary: [{x: 2.0, n: 2}, {x: 5.0, n: 3}]         # 2 variants

and writes `{{x}}` where a value goes, in its intro, step code and explanations and
in every text of a prompt (ask, expect, answer, choices, hint, explain, feedback,
wrong, show).  A placeholder may compute: `{{3 / x}}`, `{{x ** 2 + 1}}`,
`{{sqrt(x):.3f}}` (numbers, the declared names, + - * / // % **, parentheses and
abs round min max sqrt exp log ln log2 log10 floor ceil; an optional format after
`:`).  So a reference answer is a rule (`answer: "{{3 / x}}"`) that `tutor check`
proves in every variant.

`{{x}}` alone is the value as the author wrote it (`2.0` stays `2.0`); a computed
value is written like Python would, to 6 significant digits (`{{6 / x}}` with x = 4
is `1.5`; a float always shows a point).

Which variant a run gets is drawn from the run's id, so a resumed run (same id)
gets the same values and a new run (a retry, a redo, a review) new ones; `avoid`
keeps a redo off the values of the answer being redone.  A lesson without `vary:`
is untouched: `{{` means nothing special in it.

Pure: stdlib only.
"""

from __future__ import annotations

import ast
import itertools
import keyword
import math
import operator
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tutor.i18n import N_, _
from tutor.lesson.model import Lesson, Prompt, Step, Variant

PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_VARIANTS = 16
MAX_VALUE_LEN = 100
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\Z")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
MAX_POWER = 64

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs, "round": round, "min": min, "max": max, "sqrt": math.sqrt, "exp": math.exp,
    "log": math.log, "ln": math.log, "log2": math.log2, "log10": math.log10,
    "floor": math.floor, "ceil": math.ceil,
}
_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
VALUE_HINT = N_("a number (2, -1.5, 1e-3), True or False, or a name such as float64 or "
                 "torch.float16")


class VaryError(ValueError):
    """A `vary:` declaration or a `{{...}}` placeholder that cannot be used."""


class Word(str):
    """A declared value that is a name (`torch.float16`): text, never a number."""


# ------------------------------------------------------------------ declaring


def parse_value(text: str) -> int | float | bool | Word:
    """A declared value: a number, True/False or a (dotted) name; else VaryError."""
    text = text.strip()
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        value = float(text)
        if math.isfinite(value):
            return value
    if text in ("True", "False"):
        return text == "True"
    if _DOTTED.match(text) and len(text) <= MAX_VALUE_LEN:
        return Word(text)
    raise VaryError(_("{text} is not a value a lesson can vary: use {hint}").format(
        text=repr(text), hint=_(VALUE_HINT)))


def check_name(name: str) -> None:
    if not NAME.match(name) or keyword.iskeyword(name):
        raise VaryError(_("{name} is not a usable name: use letters, digits and '_', not "
                          "starting with a digit, and not a Python keyword").format(
                              name=repr(name)))
    if name in FUNCTIONS:
        raise VaryError(_("{name} is the name of a function placeholders can call: choose "
                          "another name").format(name=repr(name)))


def expand(spec: Mapping[str, Sequence[str]] | Sequence[Mapping[str, str]]
           ) -> tuple[Variant, ...]:
    """Every variant a `vary:` declaration allows, in a fixed order (the first is the
    one a lesson shows when nothing drew one).  VaryError says what is wrong."""
    if isinstance(spec, Mapping):
        names = list(spec)
        for name in names:
            check_name(name)
            if not spec[name]:
                raise VaryError(_("{name}: give at least one value").format(name=name))
        count = math.prod(len(spec[n]) for n in names)
        if count > MAX_VARIANTS:
            raise VaryError(_("{count} variants (every combination of the lists): at most "
                              "{most}, since `tutor check` runs each; use fewer values, or list "
                              "the combinations you want as rows: [{{x: 2, n: 3}}, ...]").format(
                                  count=count, most=MAX_VARIANTS))
        combos = itertools.product(*(spec[n] for n in names))
        rows: list[Variant] = [tuple(zip(names, combo, strict=True)) for combo in combos]
    else:
        if not spec:
            raise VaryError(_("give at least one row of values"))
        if len(spec) > MAX_VARIANTS:
            raise VaryError(_("{count} rows: at most {most}, since `tutor check` runs "
                              "each").format(count=len(spec), most=MAX_VARIANTS))
        spec = [{k: v for k, v in row.items() if k != ROW_REQUIRES} for row in spec]
        names = list(spec[0])
        for name in names:
            check_name(name)
        rows = []
        for i, given in enumerate(spec):
            if set(given) != set(names):
                raise VaryError((_("row {n} names {given}; every row must name the same "
                                   "values as the first ({names})") if given else
                                 _("row {n} names nothing; every row must name the same values "
                                   "as the first ({names})")).format(
                    n=i + 1, given=", ".join(given), names=", ".join(names)))
            rows.append(tuple((n, given[n]) for n in names))
    out: list[Variant] = []
    for row in rows:
        variant = tuple((n, str(v).strip()) for n, v in row)
        for _name, text in variant:
            parse_value(text)
        if variant in out:
            raise VaryError(_("the variant {variant} is declared twice").format(
                variant=describe(variant)))
        out.append(variant)
    return tuple(out)


ROW_REQUIRES = "requires"  # in a row of `vary:`: what that variant needs (not a value)


def row_requires(spec: Mapping[str, Sequence[str]] | Sequence[Mapping[str, Any]]
                 ) -> list[tuple[Variant, Mapping[str, Any]]]:
    """The rows of a `vary:` list that say what they need: (the variant, its `requires:`)."""
    if isinstance(spec, Mapping):
        return []
    out = []
    for row in spec:
        req = row.get(ROW_REQUIRES)
        if isinstance(req, Mapping):
            values = {k: v for k, v in row.items() if k != ROW_REQUIRES}
            out.append((tuple((n, str(v).strip()) for n, v in values.items()), req))
    return out


def describe(variant: Variant) -> str:
    """`x = 2.0, n = 3`: the values, as a person reads them."""
    return ", ".join(f"{name} = {value}" for name, value in variant)


# ------------------------------------------------------------------ filling in


def _evaluate(node: ast.AST, values: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, values)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise VaryError((_("{name} is not declared under `vary:` (declared: {declared})")
                             if values else _("{name} is not declared under `vary:`")).format(
                name=repr(node.id), declared=", ".join(values)))
        value = values[node.id]
        if isinstance(value, Word):
            raise VaryError(_("{name} is {value}, a name, not a number: write it alone, as "
                              "{{{{{name}}}}}").format(name=node.id, value=value))
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand, values)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left, values), _evaluate(node.right, values)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_POWER:
            raise VaryError(_("a power above {most} is not allowed").format(most=MAX_POWER))
        return _BINARY[type(node.op)](left, right)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in FUNCTIONS and not node.keywords):
        return FUNCTIONS[node.func.id](*(_evaluate(a, values) for a in node.args))
    raise VaryError(_("only numbers, the names under `vary:`, + - * / // % **, parentheses "
                      "and {functions} may be used").format(functions=", ".join(FUNCTIONS)))


def _split(inner: str) -> tuple[str, str]:
    expr, _colon, spec = inner.partition(":")
    return expr.strip(), spec.strip()


def _parse(expr: str) -> ast.Expression:
    try:
        return ast.parse(expr, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise VaryError(_("not an expression")) from None


def names_in(text: str) -> set[str]:
    """The names the placeholders of `text` use (VaryError if one cannot be read)."""
    out: set[str] = set()
    for match in PLACEHOLDER.finditer(text):
        expr, _spec = _split(match.group(1))
        if not expr:
            raise VaryError(_("{placeholder} is empty: write a name, e.g. {{{{x}}}}").format(
                placeholder=match.group(0)))
        try:
            tree = _parse(expr)
        except VaryError as exc:
            raise VaryError(f"{match.group(0)}: {exc}") from None
        out |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                and not (n.id in FUNCTIONS and _called(tree, n))}
    return out


def _called(tree: ast.AST, name: ast.Name) -> bool:
    return any(isinstance(n, ast.Call) and n.func is name for n in ast.walk(tree))


def _show(value: Any, spec: str) -> str:
    if spec:
        return format(value, spec)
    if isinstance(value, bool) or isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        raise VaryError(_("the value is {value}").format(value=value))
    text = f"{value:.6g}"
    return text if any(c in text for c in ".en") else text + ".0"


def render(text: str, variant: Variant) -> str:
    """`text` with its placeholders filled in from `variant` (VaryError says why not)."""
    if "{{" not in text:
        return text
    values = {name: parse_value(value) for name, value in variant}
    written = dict(variant)

    def fill(match: re.Match[str]) -> str:
        expr, spec = _split(match.group(1))
        try:
            if expr in written and not spec:
                return written[expr]  # the value as the author wrote it
            return _show(_evaluate(_parse(expr), values), spec)
        except VaryError as exc:
            raise VaryError(f"{match.group(0)}: {exc}") from None
        except (ArithmeticError, ValueError, TypeError) as exc:
            why = _("division by zero") if isinstance(exc, ZeroDivisionError) else str(exc)
            raise VaryError(_("{placeholder} with {variant}: {why}").format(
                placeholder=match.group(0), variant=describe(variant), why=why)) from None

    return PLACEHOLDER.sub(fill, text)


def _prompt(p: Prompt, fill: Callable[[str], str]) -> Prompt:
    def opt(text: str | None) -> str | None:
        return None if text is None else fill(text)

    expect = p.expect
    if isinstance(expect, tuple):
        expect = (fill(expect[0]), fill(expect[1]))
    elif expect is not None:
        expect = fill(expect)
    return replace(
        p, ask=fill(p.ask), expect=expect, answer=opt(p.answer),
        choices=tuple(fill(c) for c in p.choices), hint=opt(p.hint), explain=opt(p.explain),
        feedback=tuple((fill(k), fill(v)) for k, v in p.feedback),
        wrong=tuple(fill(w) for w in p.wrong), show=opt(p.show))


def _step(s: Step, fill: Callable[[str], str]) -> Step:
    return replace(s, code=fill(s.code), explain=None if s.explain is None else fill(s.explain),
                   prompts=tuple(_prompt(p, fill) for p in s.prompts))


def instantiate(template: Lesson, variant: Variant) -> Lesson:
    """The lesson as a run with `variant` shows and runs it (VaryError if it cannot be)."""
    def fill(text: str) -> str:
        return render(text, variant)

    return replace(template, intro=fill(template.intro),
                   steps=tuple(_step(s, fill) for s in template.steps),
                   variant=variant, template=template)


def with_variant(lesson: Lesson, variant: Variant) -> Lesson:
    """`lesson` (as loaded, or another variant of it) with `variant`'s values."""
    template = lesson.template or lesson
    if not template.variants:
        return lesson
    if variant not in template.variants:
        raise VaryError(_("{id} has no variant {variant}").format(
            id=template.id, variant=describe(variant)))
    return instantiate(template, variant)


def variants_of(lesson: Lesson) -> list[Lesson]:
    """The lesson once per variant (the lesson itself if it declares none)."""
    template = lesson.template or lesson
    return [instantiate(template, v) for v in template.variants] or [lesson]


def draw(lesson: Lesson, run_id: str, avoid: Variant = ()) -> Variant:
    """The variant of the run `run_id`: the same for the same run, fresh for a new one;
    never `avoid` (e.g. the values of an answer being redone) when there is another."""
    options = list((lesson.template or lesson).variants)
    if not options:
        return ()
    pool = [v for v in options if v != tuple(avoid)] or options
    return random.Random(f"{lesson.id}\n{run_id}").choice(pool)


def for_run(lesson: Lesson, run_id: str, avoid: Variant = ()) -> Lesson:
    """`lesson` with the values the run `run_id` draws."""
    return with_variant(lesson, draw(lesson, run_id, avoid))


def texts(lesson: Lesson) -> list[str]:
    """Every text of `lesson` a variant fills in (as written, when given the template)."""
    out = [lesson.intro]
    for step in lesson.steps:
        out += [step.code, step.explain or ""]
        for p in step.prompts:
            expect = p.expect if isinstance(p.expect, tuple) else (p.expect or "",)
            out += [p.ask, p.answer or "", p.hint or "", p.explain or "", p.show or "",
                    *expect, *p.choices, *p.wrong, *(t for pair in p.feedback for t in pair)]
    return [t for t in out if t]
