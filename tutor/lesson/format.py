"""Lesson format v1: the one declaration both the loader and `tutor schema` use."""

from __future__ import annotations

import ast
import keyword
import re
import sys
from typing import Any

import yaml

from tutor.i18n import N_, _
from tutor.kinds import KINDS, OUTCOME_KINDS
from tutor.lesson.spec import (
    AnyOf,
    Bool,
    Field,
    Int,
    ListOf,
    MapOf,
    Num,
    Obj,
    Scalar,
    Str,
    When,
)
from tutor.lesson.validate import Problem, Validation, join_path
from tutor.lesson.vary import MAX_VALUE_LEN, MAX_VARIANTS, PLACEHOLDER
from tutor.lesson.vary_rules import check_vary

FORMAT_VERSION = 1
LESSON_ID = r"[a-z0-9][a-z0-9_.-]*(/[a-z0-9][a-z0-9_.-]*)*"
ID_HINT = N_(
    "use lowercase letters, digits, '-', '_' or '.', with '/' between parts "
    "(e.g. autograd/accumulate)"
)
EXPR_MAX = 2_000


def _expr_problem(text: str) -> str | None:
    try:
        ast.parse(text, mode="eval")
    except SyntaxError as exc:
        return _("not a valid Python expression ({why})").format(why=exc.msg)
    except (ValueError, RecursionError, MemoryError):
        return _("not a valid Python expression")
    return None


def _check_code(value: dict[str, Any], node: yaml.Node, path: str, v: Validation,
                key: str = "code") -> None:
    """Python code that does not compile: reported at the offending line in the file."""
    code = value.get(key)
    if not code or (key == "code" and PLACEHOLDER.search(code)):  # (check_vary fills it in)
        return
    try:
        ast.parse(code, mode="exec")
        return
    except SyntaxError as exc:
        lineno, offset, why = exc.lineno or 1, exc.offset or 1, exc.msg
    except (ValueError, RecursionError, MemoryError):
        lineno, offset, why = 1, 1, _("the code cannot be parsed")
    val = next(n for k, n in node.value if isinstance(k, yaml.ScalarNode) and k.value == key)
    line, col = v.inside(val, lineno, offset)
    v.problems.append(Problem(v.file, line, col, join_path(path, key),
                              _("Python syntax error: {why} (line {line} of the code)")
                              .format(why=why, line=lineno)))


def _check_prompt(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    """What the declarative rules cannot say: expressions and patterns that do not parse."""
    fields = {k.value: (k, val) for k, val in node.value if isinstance(k, yaml.ScalarNode)}
    expect = value.get("expect")
    exprs = expect if isinstance(expect, list) else [expect] if expect else []
    for i, expr in enumerate(exprs):
        if expr is None or PLACEHOLDER.search(expr):  # checked filled in, by check_vary
            continue
        problem = _expr_problem(expr)
        if problem:
            node_e = fields["expect"][1]
            target = node_e.value[i] if isinstance(node_e, yaml.SequenceNode) else node_e
            v.error(target, join_path(path, "expect"), _("{expr} is {problem}").format(
                expr=repr(expr), problem=problem))
    pattern = value.get("match")
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as exc:
            v.error(fields["match"][1], join_path(path, "match"),
                    _("{pattern} is not a valid regular expression: {why}; `match` is a Python "
                      "regular expression searched for in the exception's message (escape ( ) "
                      "[ ] . * + ? with a backslash to mean the character)").format(
                          pattern=repr(pattern), why=exc))


def _check_step(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    _check_code(value, node, path, v)


PROMPT_RULES = (
    When("kind", tuple(sorted(OUTCOME_KINDS)), negate=True, require=("expect",),
         # (the kinds named are OUTCOME_KINDS: tests/lesson/test_format_doc.py checks it)
         message="kind {value!r} needs an `expect` expression (only exception and stdout "
         "prompts may ask about the step's outcome)"),
    When("kind", ("same_storage",),
         shape=(("expect", ListOf(item=Str(max_len=EXPR_MAX), min_items=2, max_items=2)),),
         message="kind same_storage needs `expect: [a, b]`: the two tensors to compare"),
    When("kind", ("same_storage",), negate=True, shape=(("expect", Str(max_len=EXPR_MAX)),),
         message="a list of two expressions is only for kind same_storage"),
    When("kind", ("choice",), require=("choices",),
         message="kind choice needs `choices:` (a list of the options)"),
    When("kind", ("choice",), negate=True, forbid=("choices",),
         message="`choices` is only for kind choice"),
    When("kind", ("exception",), negate=True, forbid=("match",),
         message="`match` is only for kind exception (a pattern for the exception's message)"),
)


def _check_requires(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    for key, val in node.value:
        spec = value.get(key.value) if key.value in ("torch", "python") else None
        if not isinstance(spec, str):
            continue
        try:
            SpecifierSet(spec)
        except InvalidSpecifier:
            v.error(val, join_path(path, key.value),
                    _("{spec} is not a version specifier: write e.g. '>=2.1' or '>=2.1,<3' "
                      "(PEP 440: an operator, then a version of numbers and dots)").format(
                          spec=repr(spec)))


REQUIRES = Obj(
    name="requires",
    doc="What the lesson (or, on a prompt, the question) needs; a lesson or question "
    "whose needs the learner's kernel does not meet is skipped with the reason.",
    fields={
        "torch": Field(Str(max_len=100), doc="A version specifier, e.g. '>=2.1' or '>=2.1,<3'."),
        "python": Field(Str(max_len=100), doc="A version specifier for Python."),
        "cuda": Field(Bool(), doc="True if the lesson needs a CUDA device."),
        "numpy": Field(Bool(), doc="True if it needs NumPy working with torch "
                       "(`torch.from_numpy`, `.numpy()`); a lesson whose code says `numpy` "
                       "needs it without saying so."),
    },
    checks=(_check_requires,),
)

TOLERANCE = Obj(
    name="tolerance",
    doc="Numeric tolerance replacing the default digits rule: "
    "|typed - live| <= atol + rtol*|live|.",
    fields={
        "rtol": Field(Num(min=0), doc="Relative tolerance."),
        "atol": Field(Num(min=0), doc="Absolute tolerance."),
    },
)

PROMPT = Obj(
    name="prompt",
    doc="One question asked after the step's code has run.",
    checks=(_check_prompt,),
    rules=PROMPT_RULES,
    fields={
        "ask": Field(Str(max_len=2000), required=True, doc="The question, in Markdown."),
        "kind": Field(
            Str(enum=tuple(KINDS)),
            required=True,
            doc="What kind of prediction: " + "; ".join(f"`{k}`: {d}" for k, d in KINDS.items()),
            brief="What kind of prediction: number, tensor, bool, text, choice, set, list, "
            "shape, dtype, exception, same_storage or stdout; see docs/judging.md",
        ),
        "expect": Field(
            AnyOf(
                options=(
                    Str(max_len=EXPR_MAX),
                    ListOf(item=Str(max_len=EXPR_MAX), min_items=2, max_items=2),
                ),
                doc="a Python expression, or for same_storage a list of two",
            ),
            doc="Python expression evaluated live after the step's code; its value is what the "
            "learner predicts. For `same_storage`, a list of two tensor expressions. Omit it for "
            "`exception` and `stdout` prompts about the step itself.",
        ),
        "answer": Field(
            Scalar(max_len=20_000),
            doc="The reference answer, written as a learner would type it. `tutor check` judges it "
            "against the live value; `tutor record` fills it in.",
        ),
        "choices": Field(
            ListOf(item=Scalar(max_len=500), min_items=2, max_items=26),
            doc="The options of a `choice` prompt.",
        ),
        "tolerance": Field(TOLERANCE),
        "hint": Field(Str(max_len=2000), doc="A nudge, shown on request before answering."),
        "explain": Field(Str(), doc="Markdown shown after the verdict: the mental model."),
        "feedback": Field(
            MapOf(value=Str(max_len=5000)),
            doc="Targeted explanations for typical wrong answers: a map from an answer a learner "
            "may give (matched by meaning, not by text) to what to tell them.",
        ),
        "wrong": Field(
            ListOf(item=Scalar(max_len=2000), max_items=50),
            doc="Answers a careless learner would give; "
            "`tutor check` verifies each is judged wrong.",
        ),
        "show": Field(
            Str(max_len=200), doc="A picture to offer after the verdict, e.g. `graph z`."
        ),
        "requires": Field(
            REQUIRES,
            doc="What this question needs (torch and Python versions, a CUDA device, "
            "NumPy), as the lesson's `requires:`: where unmet, the question is skipped with "
            "the reason, and `tutor check` does not check it.",
        ),
        "match": Field(
            # (no `format: regex`: that means ECMA-262, and validators that check formats
            # reject Python-only syntax such as `(?i)`; `tutor lint` compiles it instead)
            Str(max_len=2000),
            doc="For `exception` prompts: a Python regular expression that must be found in "
            "the exception's message (`re.search`). `tutor check` fails when the code raises "
            "the right type with another message; the learner sees the message after the "
            "verdict.",
        ),
    },
)

STEP = Obj(
    name="step",
    doc="Code that runs in the lesson's namespace, then the questions about it.",
    checks=(_check_step,),
    fields={
        "code": Field(
            Str(max_len=20_000),
            required=True,
            doc="Python run in the lesson's namespace; `torch` is already imported.",
        ),
        "predict": Field(
            ListOf(item=PROMPT, max_items=20), doc="Questions asked after the code ran."
        ),
        "explain": Field(Str(), doc="Markdown shown after the step's questions."),
    },
)

MODULE_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
MODULE_HINT = N_("a module's name is a Python identifier (letters, digits and '_', not "
                 "starting with a digit), e.g. `loaders` or `ranks`; it is imported as "
                 "`import NAME`")
# names a lesson's module may not take: what lesson code imports besides the standard
# library (which `sys.stdlib_module_names` lists), and tutor's own
TAKEN_MODULES = frozenset({"torch", "torchvision", "torchaudio", "numpy", "tutor", "yaml",
                           "typing_extensions", "sympy", "networkx", "jinja2", "fsspec",
                           "filelock", "mpmath", "functorch", "triton"})


def _module_taken(name: str) -> str | None:
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return _("a Python keyword cannot be imported")
    if name in sys.stdlib_module_names:
        return _("the standard library has a module of that name, which it would hide")
    if name in TAKEN_MODULES or name.startswith("__"):
        return _("lesson code imports a module of that name already, which it would hide")
    return None


def _check_modules(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    """`modules:`: names that would hide another module, sources that do not compile."""
    given = value.get("modules")
    if not isinstance(given, dict):
        return
    mods = next((n for k, n in node.value if isinstance(k, yaml.ScalarNode)
                 and k.value == "modules"), None)
    if not isinstance(mods, yaml.MappingNode):
        return
    for key, val in mods.value:
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        if name is None or not re.fullmatch(MODULE_NAME, name):
            continue  # (reported by the type check)
        where = join_path(join_path(path, "modules"), name)
        taken = _module_taken(name)
        if taken:
            v.error(key, where, _("module name {name} cannot be used: {why}; rename it (e.g. "
                                  "`lesson_{bare}`) and import it by that name").format(
                                      name=repr(name), why=taken, bare=name))
        source = given.get(name)
        if not isinstance(source, str):
            continue
        try:
            ast.parse(source, mode="exec")
            continue
        except SyntaxError as exc:
            lineno, offset, why = exc.lineno or 1, exc.offset or 1, exc.msg
        except (ValueError, RecursionError, MemoryError):
            lineno, offset, why = 1, 1, _("the code cannot be parsed")
        line, col = v.inside(val, lineno, offset)
        v.problems.append(Problem(v.file, line, col, where, _(
            "Python syntax error: {why} (line {line} of module {name}.py)").format(
                why=why, line=lineno, name=name)))


MODULES_DOC = (
    "The lesson's own Python modules: a mapping from a module name to its source. Each is "
    "written as NAME.py into the run's private directory, which is put on the import path "
    "before the pack's setup and the first step run: lesson code imports it (`from loaders "
    "import SquareDataset`), and so do the processes it starts, including spawned ones, "
    "which cannot import functions or classes defined in the steps themselves. The learner "
    "sees each module's source before the first step."
)
MODULES = MapOf(value=Str(max_len=100_000), max_items=20, key_pattern=MODULE_NAME,
                key_hint=MODULE_HINT)


VARY_VALUE = Scalar(max_len=MAX_VALUE_LEN)
VARY = AnyOf(
    options=(
        MapOf(value=ListOf(item=VARY_VALUE, min_items=1, max_items=MAX_VARIANTS)),
        ListOf(item=MapOf(value=AnyOf(options=(VARY_VALUE, REQUIRES))), min_items=1,
               max_items=MAX_VARIANTS),
    ),
    doc="`vary:` is a mapping from names to lists of values ({x: [2.0, 3.0]}: every "
    "combination), or a list of rows ([{x: 2.0, n: 3}, ...])",
)

LESSON = Obj(
    name="lesson",
    doc="A tutor lesson: predict, then run.",
    checks=(check_vary, _check_modules),
    fields={
        "id": Field(
            Str(max_len=120, pattern=LESSON_ID, pattern_hint=ID_HINT),
            required=True,
            doc="Unique across all packs, e.g. autograd/accumulate.",
        ),
        "title": Field(Str(max_len=200), required=True, doc="Short title."),
        "topic": Field(Str(max_len=80), required=True, doc="Topic, e.g. autograd."),
        "level": Field(Int(min=1, max=3), doc="1 basics .. 3 deep (default 1)."),
        "intro": Field(Str(), doc="Markdown shown before the code."),
        "steps": Field(
            ListOf(item=STEP, min_items=1, max_items=50),
            required=True,
            doc="The steps, a list of `- code: ...` items, run in order in one namespace per "
            "lesson run.",
        ),
        "vary": Field(
            VARY,
            doc="Values drawn per run, written `{{name}}` (or computed: `{{3 / x}}`) in the "
            "intro, code and prompt texts: a mapping from names to lists of values (every "
            f"combination is a variant) or a list of rows (a row may say what it needs: "
            f"`requires:`, as the lesson's); at most {MAX_VARIANTS} variants. "
            "Values are numbers, True/False or names. `tutor check` runs every variant.",
        ),
        "requires": Field(REQUIRES),
        "tags": Field(ListOf(item=Str(max_len=60), max_items=30)),
        "timeout": Field(Num(min=0.1, max=600), doc="Seconds allowed per step (default 10)."),
        "seed": Field(
            Int(min=0, max=2**32 - 1), doc="Random seed set before the first step (default 0)."
        ),
        "order": Field(
            Int(min=0, max=100_000), doc="Position within its pack (default: by file name)."
        ),
        "format": Field(Int(min=1, max=FORMAT_VERSION), doc="Lesson format version (1)."),
        "modules": Field(MODULES, doc=MODULES_DOC + " A lesson's module replaces its pack's "
                         "module of the same name."),
    },
)

def _check_pack(value: dict[str, Any], node: yaml.Node, path: str, v: Validation) -> None:
    _check_code(value, node, path, v, "setup")
    _check_modules(value, node, path, v)


PACK = Obj(
    name="pack",
    doc="A pack manifest (pack.yaml): a directory of lessons read as one course unit.",
    checks=(_check_pack,),
    fields={
        "title": Field(Str(max_len=200), required=True),
        "description": Field(Str(max_len=5000)),
        "order": Field(Int(min=0, max=100_000), doc="Position of the pack in the catalog."),
        "lessons": Field(
            ListOf(item=Str(max_len=120), max_items=1000),
            doc="Lesson ids in course order; unlisted lessons follow, by file name.",
        ),
        "setup": Field(
            Str(max_len=100_000),
            doc="Python run before the first step of every lesson of this pack, in the "
            "lesson's namespace: shared imports, helper functions and model classes. "
            "The learner sees it before the first step.",
        ),
        "modules": Field(MODULES, doc=MODULES_DOC + " A pack's modules are there for every "
                         "lesson of the pack."),
    },
)
