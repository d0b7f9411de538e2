"""The loader's checks of `vary:` and its `{{...}}` placeholders (see tutor.lesson.vary).

Run on the validated lesson mapping, so every problem has its `file:line:col` and key
path: a declaration that cannot be expanded, a value that is not typeable, a
placeholder naming an undeclared value or failing to compute in some variant, code or
an `expect` that is not valid Python once filled in, a placeholder where nothing is
filled in (title, topic, tags).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import yaml

from tutor.i18n import _
from tutor.lesson.validate import Problem, Validation, join_path
from tutor.lesson.vary import PLACEHOLDER, Variant, VaryError, describe, expand, names_in, render

FIXED = ("title", "topic")  # shown before any run: nothing is filled in there
PROMPT_TEXTS = ("ask", "answer", "hint", "explain", "show")


def templated(lesson: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(key path, text, what) of every text a variant fills in; what is "code", "expect"
    or "text"."""
    if isinstance(lesson.get("intro"), str):
        yield "intro", lesson["intro"], "text"
    for i, step in enumerate(lesson.get("steps") or ()):
        if not isinstance(step, dict):
            continue
        base = f"steps[{i}]"
        if isinstance(step.get("code"), str):
            yield f"{base}.code", step["code"], "code"
        if isinstance(step.get("explain"), str):
            yield f"{base}.explain", step["explain"], "text"
        for j, prompt in enumerate(step.get("predict") or ()):
            if isinstance(prompt, dict):
                yield from _prompt_texts(prompt, f"{base}.predict[{j}]")


def _prompt_texts(prompt: dict[str, Any], base: str) -> Iterator[tuple[str, str, str]]:
    for key in PROMPT_TEXTS:
        if isinstance(prompt.get(key), str):
            yield join_path(base, key), prompt[key], "text"
    expect = prompt.get("expect")
    if isinstance(expect, str):
        yield f"{base}.expect", expect, "expect"
    elif isinstance(expect, list):
        for n, e in enumerate(expect):
            if isinstance(e, str):
                yield f"{base}.expect[{n}]", e, "expect"
    for key in ("choices", "wrong"):
        for n, text in enumerate(prompt.get(key) or ()):
            if isinstance(text, str):
                yield f"{base}.{key}[{n}]", text, "text"
    for key, text in (prompt.get("feedback") or {}).items():
        yield f"{base}.feedback.{key}", key, "text"
        if isinstance(text, str):
            yield f"{base}.feedback.{key}", text, "text"


def syntax_problem(text: str, what: str) -> str | None:
    """Why filled-in code or an `expect` is not valid Python, or None."""
    try:
        ast.parse(text, mode="exec" if what == "code" else "eval")
    except SyntaxError as exc:
        if what == "code":
            return _("Python syntax error at line {line} of the code: {why}").format(
                line=exc.lineno, why=exc.msg)
        return _("{text} is not a valid Python expression ({why})").format(
            text=repr(text), why=exc.msg)
    except (ValueError, RecursionError, MemoryError):
        return _("cannot be parsed as Python")
    return None


def _error(v: Validation, path: str, message: str) -> None:
    line, col = v.at(path)
    v.problems.append(Problem(v.file, line, col, path, message))


def check_vary(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    """The lesson-level check (an `Obj` check of the lesson spec)."""
    spec = value.get("vary")
    fields = list(templated(value))
    if spec is None:
        # no variants: `{{` is plain text; code the step checks left alone is checked as is
        for where, text, what in fields:
            if what != "text" and PLACEHOLDER.search(text):
                problem = syntax_problem(text, what)
                if problem:
                    _error(v, where, problem)
        return
    try:
        variants = expand(spec)
    except VaryError as exc:
        _error(v, "vary", f"{exc}")
        return
    declared = [name for name, _value in variants[0]]
    for key in FIXED:
        if isinstance(value.get(key), str) and PLACEHOLDER.search(value[key]):
            _error(v, key, (_("`{{{{...}}}}` is not filled in in the title (it is shown before "
                              "a run draws its values): write the text without it")
                            if key == "title" else
                            _("`{{{{...}}}}` is not filled in in the {key} (it is shown before a "
                              "run draws its values): write the text without it")).format(
                                  key=key))
    for where, text, what in fields:
        try:
            unknown = sorted(names_in(text) - set(declared))
        except VaryError as exc:
            _error(v, where, str(exc))
            continue
        if unknown:
            _error(v, where, _("{{{{{name}}}}}: {quoted} is not declared under `vary:` "
                               "(declared: {declared})").format(
                name=unknown[0], quoted=repr(unknown[0]), declared=", ".join(declared)))
            continue
        problem = _first_failure(text, what, variants)
        if problem:
            _error(v, where, problem)


def _first_failure(text: str, what: str, variants: tuple[Variant, ...]) -> str | None:
    for variant in variants:
        try:
            filled = render(text, variant)
        except VaryError as exc:
            return str(exc)
        if what != "text":
            problem = syntax_problem(filled, what)
            if problem:
                return _("with {variant}: {why}").format(variant=describe(variant), why=problem)
    return None
