"""Load lesson files safely, with `file:line:col: key.path: message` errors.

Safety, before anything is built: a size cap checked before reading, UTF-8 only,
one document per file, no anchors or aliases (alias bombs), no custom tags and a
nesting cap, all checked on the parser's event stream (iterative, so a 10,000-deep
document cannot exhaust the stack).  Then the composed node tree is validated
against `tutor.lesson.format` and turned into the frozen model.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

import yaml

from tutor.i18n import N_, _, language
from tutor.judge import Tolerance
from tutor.lesson import format as fmt
from tutor.lesson.files import pack_manifest
from tutor.lesson.model import (
    DEFAULT_TIMEOUT,
    Lesson,
    Module,
    Pack,
    Pos,
    Prompt,
    Requires,
    Setup,
    Step,
)
from tutor.lesson.spec import Obj
from tutor.lesson.translation import translated, translated_pack
from tutor.lesson.validate import Problem, Validation, validate
from tutor.lesson.vary import expand, instantiate, row_requires
from tutor.safetext import sanitize

MAX_FILE_BYTES = 512 * 1024
MAX_DEPTH = 32

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STANDARD_TAGS = {
    f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")
}


class LessonError(Exception):
    """A lesson (or pack) file that cannot be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def at(
        cls, file: str, message: str, line: int = 1, col: int = 1, path: str = ""
    ) -> LessonError:
        return cls([Problem(file, line, col, path, message)])


def read_text(path: Path, name: str) -> str:
    """The text of a lesson file: a regular file, at most MAX_FILE_BYTES, UTF-8.

    A FIFO, a device (/dev/zero) or a socket is refused before anything is read,
    and no more than the cap is ever read (the file may grow meanwhile).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LessonError.at(name, _("cannot read the file: {why}").format(
            why=exc.strerror or exc)) from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise LessonError.at(name, _("is a directory, not a lesson file"))
        if not stat.S_ISREG(kind):
            raise LessonError.at(name, _("not a regular file (it is {what}): a lesson file "
                                         "must be a plain .yaml file").format(
                                             what=_file_kind(kind)))
        with os.fdopen(os.dup(fd), "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LessonError.at(name, _("cannot read the file: {why}").format(
            why=exc.strerror or exc)) from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise LessonError.at(
            name,
            _("file too large (more than {n} bytes, the most a lesson file may have): split "
              "it into several lessons").format(n=f"{MAX_FILE_BYTES:,}"),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LessonError.at(name, _("not valid UTF-8: save the file as UTF-8"),
                             line=line) from None
    return text.removeprefix("\ufeff")


def _file_kind(mode: int) -> str:
    for test, what in ((stat.S_ISFIFO, N_("a FIFO")), (stat.S_ISCHR, N_("a character device")),
                       (stat.S_ISBLK, N_("a block device")), (stat.S_ISSOCK, N_("a socket"))):
        if test(mode):
            return _(what)
    return _("not a plain file")


def compose(text: str, name: str) -> yaml.Node:
    """Compose one YAML document after checking its event stream is safe."""
    depth = 0
    documents = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            where = event.start_mark
            assert where is not None  # (pyyaml's events always carry their position)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise LessonError.at(
                    name,
                    _("YAML anchors and aliases (&name, *name, <<) are not allowed in "
                      "lesson files: write the value out"),
                    where.line + 1,
                    where.column + 1,
                )
            tag = getattr(event, "tag", None)
            if tag and tag != "!" and tag not in _STANDARD_TAGS:
                raise LessonError.at(
                    name,
                    _("custom YAML tag {tag} is not allowed").format(tag=repr(tag)),
                    where.line + 1,
                    where.column + 1,
                )
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise LessonError.at(
                        name,
                        _("only one YAML document per lesson file (found a second '---')"),
                        where.line + 1,
                        where.column + 1,
                    )
            elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise LessonError.at(
                        name,
                        _("nested more than {n} levels deep").format(n=MAX_DEPTH),
                        where.line + 1,
                        where.column + 1,
                    )
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        line, col, message = _syntax_error(text, exc)
        raise LessonError.at(name, _("YAML syntax error: {message}").format(message=message),
                             line, col) from None
    except yaml.YAMLError as exc:
        raise LessonError.at(name, _("YAML error: {error}").format(error=exc)) from None
    if node is None:
        raise LessonError.at(name, _("the file is empty: a lesson needs id, title, topic and "
                                     "steps"))
    return node


def _syntax_error(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, int, str]:
    """Where a YAML syntax error is and what to do about it, for the usual mistakes."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    context = exc.context or ""
    opened = exc.context_mark
    lines = text.split("\n")
    here = lines[line - 1][col - 1:col] if 0 < line <= len(lines) else ""
    runaway = _runaway_quote(text, lines, line)
    if runaway is not None:  # `title: "Broken: unclosed`, met lines later
        start, end = runaway
        return start[0], start[1], _(
            "this quoted value is not closed on its line: it runs on to line {end}, where "
            "the next quote ends it; add the closing quote on line {line}").format(
                end=end, line=start[0])
    if "nesting depth" in problem:  # libyaml's own limit (PyYAML >= 6.0.4), met before ours
        return line, col, _("nested more than {n} levels deep").format(n=MAX_DEPTH)
    if here == "\t":
        return line, col, _("a tab character: YAML indents with spaces only; replace the tab "
                            "with spaces")
    if "unknown escape character" in problem:  # match: "\d+"
        return line, col, _(
            "a backslash in a double-quoted value starts an escape (\\n, \\t, \\\\), and "
            "{escape} is none: write \\\\ for a backslash, or put the value in single "
            "quotes ('\\d+' keeps its backslash)").format(escape="`\\" + (
                lines[line - 1][col:col + 1] if 0 < line <= len(lines) else "") + "`")
    if "quoted scalar" in context and opened is not None:
        return opened.line + 1, opened.column + 1, \
            _("this quoted value is never closed: add the closing quote")
    if "flow" in context and opened is not None:
        bracket = (lines[opened.line][opened.column:opened.column + 1]
                   if opened.line < len(lines) else "")  # (a mark at the end of the text)
        if bracket not in ("[", "{"):  # e.g. "while parsing a flow node" at the end
            found = _unclosed_bracket(lines[:line])
            if found is not None:
                opened = yaml.Mark("", 0, found[0], found[1], None, 0)
                bracket = lines[found[0]][found[1]]
        bracket = bracket if bracket in ("[", "{") else "["
        close = {"[": "]", "{": "}"}[bracket]
        inner = lines[opened.line][opened.column + 1:]
        said = _("this '{bracket}' is never closed, or its items are not separated by commas: "
                 "add the missing '{close}' or ','").format(bracket=bracket, close=close)
        if any(ch in inner for ch in "([{"):  # e.g. [tensor([1., 2.])]: an item with brackets
            said += _("; or, if an item has brackets, parentheses or commas inside, quote it "
                      "(YAML reads [ ] {{ }} and , as its own): [\"tensor([1., 2.])\"]").format()
        return opened.line + 1, opened.column + 1, said
    if "cannot start any token" in problem and here:
        return line, col, _("a value cannot start with {char}: put the whole value in quotes, "
                            "e.g. \"{start}...\"").format(char=repr(here), start=here)
    if "could not find expected ':'" in problem and opened is not None:  # `title One`
        return opened.line + 1, opened.column + 1, _(
            "this line has no ': ' after its key: write `key: value`, with a space after the "
            "colon; if it goes on with the text of the line above, indent it deeper than that "
            "line's key, or put the whole value in quotes")
    if problem.startswith("mapping values are not allowed"):
        return line, col, _("unexpected ': ' here: if it is part of a value, put the whole "
                            "value in quotes (\"...\"); otherwise check this line's indentation "
                            "(deeper than the key above it?) and that a list item starts with "
                            "'- ' (dash, space)")
    if "block" in context and opened is not None:
        said = (_("this line does not line up with the list that starts at line {line}, "
                  "column {col}: indent it like the other keys of its item; or, if text "
                  "follows a quoted value on this line, put the whole value in quotes")
                if "collection" in context or "sequence" in context else
                _("this line does not line up with the mapping that starts at line {line}, "
                  "column {col}: indent it like the other keys of its item; or, if text "
                  "follows a quoted value on this line, put the whole value in quotes"))
        return line, col, said.format(line=opened.line + 1, col=opened.column + 1)
    return line, col, problem


_KEY_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*:(?:\s|$)")


def _runaway_quote(text: str, lines: list[str],
                   error_line: int) -> tuple[tuple[int, int], int] | None:
    """A quoted value opened on one line and closed lines later, at or before the line
    of the error, with a line in between that reads as a key (`topic: x`): a quote left
    open (pyyaml reads on to the next quote, and fails there).  ((line, column) where it
    opens, the line where it ends; 1-based.)"""
    found = None
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if token.start_mark.line + 1 > error_line:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") \
                    and token.end_mark.line > token.start_mark.line \
                    and token.end_mark.line + 2 >= error_line:  # (it ends where it fails)
                inside = lines[token.start_mark.line + 1:token.end_mark.line]
                if any(_KEY_LINE.match(line) for line in inside):
                    found = ((token.start_mark.line + 1, token.start_mark.column + 1),
                             token.end_mark.line + 1)
    except yaml.YAMLError:
        pass
    return found


def _unclosed_bracket(lines: list[str]) -> tuple[int, int] | None:
    """(line, column), 0-based, of the last `[` or `{` still open at the end of `lines`."""
    stack: list[tuple[int, int]] = []
    for n, text in enumerate(lines):
        quote = ""
        for i, ch in enumerate(text):
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "\"'" and (i == 0 or text[i - 1] in " [{,:"):
                quote = ch
            elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
                break
            elif ch in "[{":
                stack.append((n, i))
            elif ch in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _parse(path: Path, spec: Obj, name: str) -> tuple[dict[str, Any], Validation]:
    text = read_text(path, name)
    node = compose(text, name)
    v = Validation(name, source=text)
    value = validate(node, spec, v)
    errors = [p for p in v.problems if p.severity == "error"]
    if errors:
        raise LessonError(sorted(errors, key=lambda p: (p.line, p.col)))
    return value, v


@contextmanager
def never_raises(name: str) -> Iterator[None]:
    """Loading a file raises LessonError and nothing else: a loader bug on some odd
    input is that file's error (and the catalog loads the rest), never a crash."""
    try:
        yield
    except LessonError:
        raise
    except (Exception, RecursionError) as exc:  # noqa: BLE001
        raise LessonError.at(name, _("this file could not be read: {error} (a bug in tutor: "
                                     "please report it)").format(
                                         error=f"{type(exc).__name__}: {str(exc)[:300]}")) from None


def display_name(path: Path) -> str:
    """The path as shown in messages: relative to the current directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, no cwd, a symlink loop
        return str(path)


def load_lesson(path: str | Path) -> Lesson:
    """Load a lesson file, with its pack's shared `setup:` (from a pack.yaml that has
    one but does not load, a setup that carries the problem: the lesson loads, and
    cannot run)."""
    path = Path(path)
    name = display_name(path)
    with never_raises(name):
        data, v = _parse(path, fmt.LESSON, name)
        return _build_lesson(data, v, path, pack_setup(path), pack_modules(path),
                             lang=language())


def pack_setup(lesson_file: Path) -> Setup | None:
    """The shared setup code of the pack `lesson_file` belongs to, if it has one."""
    manifest = pack_manifest(lesson_file)
    if manifest is None:
        return None
    try:
        return _load_pack_cached(manifest, *_stamp(manifest)).setup
    except LessonError as exc:
        try:
            declared = re.search(r"^(setup|modules)[ \t]*:", read_text(manifest, ""),
                                 re.MULTILINE)
        except LessonError:
            declared = None
        if declared is None:  # nothing to run first: the lesson runs as it is
            return None
        first = exc.problems[0] if exc.problems else None
        why = (_("{problem} (the pack's manifest does not load, so its `setup:` cannot run)")
               if declared.group(1) == "setup" else
               _("{problem} (the pack's manifest does not load, so its `modules:` cannot be "
                 "given to its lessons)"))
        return Setup("", manifest, 1, problem=why.format(
            problem=first or display_name(manifest)))


def pack_modules(lesson_file: Path) -> tuple[Module, ...]:
    """The modules of the pack `lesson_file` belongs to (none where its manifest does
    not load: its setup then carries the problem, see pack_setup)."""
    manifest = pack_manifest(lesson_file)
    if manifest is None:
        return ()
    try:
        return _load_pack_cached(manifest, *_stamp(manifest)).modules
    except LessonError:
        return ()


def topic_name(lesson: Lesson) -> str:
    """How `lesson`'s topic is shown in the current language: the name its pack's
    translation gives it (`pack.ko.yaml`'s `topics:`), else as written."""
    manifest = pack_manifest(lesson.file)
    if manifest is None or language() == "en":
        return lesson.topic
    try:
        return load_pack(manifest).topic_name(lesson.topic)
    except LessonError:
        return lesson.topic


def _modules(data: dict[str, Any], v: Validation, path: Path) -> tuple[Module, ...]:
    out = []
    for name, source in (data.get("modules") or {}).items():
        line, _col = v.inside(v.nodes[f"modules.{name}"], 1, 1)
        out.append(Module(name, source, path, line))
    return tuple(out)


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return 0, 0
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=64)
def _load_pack_cached(path: Path, mtime: int, size: int) -> Pack:
    del mtime, size  # (part of the cache key: an edited manifest is read again)
    return load_pack(path, "bundled", "en")  # (for its setup and modules: no texts needed)


def load_pack(path: str | Path, source: str = "bundled", lang: str | None = None) -> Pack:
    """A pack manifest, its title and description in `lang` (default: the current
    language) where its translation beside it (`pack.ko.yaml`) matches it, else in
    English (`Pack.lang`)."""
    path = Path(path)
    name = display_name(path)
    with never_raises(name):
        data, v = _parse(path, fmt.PACK, name)
        setup = None
        if data.get("setup"):
            line, col = v.inside(v.nodes["setup"], 1, 1)
            setup = Setup(data["setup"], path, line, col)
        pack = _build_pack(data, path, source, setup, _modules(data, v, path))
        lang = language() if lang is None else lang
        return translated_pack(pack, path, lang) if lang != "en" else pack


def _build_pack(data: dict[str, Any], path: Path, source: str,
                setup: Setup | None = None, modules: tuple[Module, ...] = ()) -> Pack:
    return Pack(
        directory=path.parent,
        title=shown(data["title"]),
        description=shown(data.get("description") or ""),
        order=data.get("order"),
        lesson_order=tuple(data.get("lessons") or ()),
        source=source,
        setup=setup,
        modules=modules,
    )


@overload
def shown(text: str) -> str: ...


@overload
def shown(text: str | None) -> str | None: ...


def shown(text: str | None) -> str | None:
    """Text a learner reads, made terminal-safe once, here, for every front end.

    Code, `expect`, answers, `wrong:` answers, choices and feedback keys are kept as
    written (they run or are judged); what shows them sanitises them itself.
    """
    return None if text is None else sanitize(text)


def _pos(v: Validation, path: str) -> Pos:
    line, col = v.at(path)
    return Pos(line, col)


def _build_prompt(data: dict[str, Any], v: Validation, path: str, index: int) -> Prompt:
    expect = data.get("expect")
    tol = data.get("tolerance")
    return Prompt(
        index=index,
        ask=shown(data["ask"]),
        kind=data["kind"],
        expect=tuple(expect) if isinstance(expect, list) else expect,
        answer=data.get("answer"),
        pos=_pos(v, path),
        answer_pos=_pos(v, f"{path}.answer") if "answer" in data else None,
        choices=tuple(data.get("choices") or ()),
        tolerance=Tolerance(tol.get("rtol") or 0.0, tol.get("atol") or 0.0) if tol else None,
        hint=shown(data.get("hint")),
        explain=shown(data.get("explain")),
        feedback=tuple((k, shown(m)) for k, m in (data.get("feedback") or {}).items()),
        wrong=tuple(data.get("wrong") or ()),
        show=data.get("show"),
        match=data.get("match"),
        requires=_requires(data["requires"]) if data.get("requires") else None,
    )


def _requires(req: dict[str, Any]) -> Requires:
    return Requires(req.get("torch"), req.get("python"), bool(req.get("cuda")),
                    bool(req.get("numpy")))


def _merged(pack: tuple[Module, ...], own: tuple[Module, ...]) -> tuple[Module, ...]:
    """The pack's modules, then the lesson's: a lesson's module replaces its pack's of
    the same name."""
    mine = {m.name for m in own}
    return tuple(m for m in pack if m.name not in mine) + own


def _build_lesson(data: dict[str, Any], v: Validation, path: Path,
                  setup: Setup | None = None, pack_mods: tuple[Module, ...] = (),
                  lang: str = "en") -> Lesson:
    """The lesson `data` describes; its texts in `lang` where a translation beside it
    matches it (tutor.lesson.translation), else in English."""
    steps = []
    for i, s in enumerate(data["steps"]):
        prompts = tuple(
            _build_prompt(p, v, f"steps[{i}].predict[{j}]", j)
            for j, p in enumerate(s.get("predict") or ())
        )
        steps.append(
            Step(
                i,
                s["code"],
                prompts,
                _pos(v, f"steps[{i}]"),
                shown(s.get("explain")),
            )
        )
    req = data.get("requires") or {}
    variants = expand(data["vary"]) if data.get("vary") else ()
    lesson = Lesson(
        id=data["id"],
        title=shown(data["title"]),
        topic=shown(data["topic"]),
        file=path,
        steps=tuple(steps),
        level=data.get("level") or 1,
        intro=shown(data.get("intro") or ""),
        requires=_requires(req),
        tags=tuple(shown(t) for t in data.get("tags") or ()),
        timeout=data.get("timeout") or DEFAULT_TIMEOUT,
        seed=data.get("seed") or 0,
        order=data.get("order"),
        setup=setup,
        modules=_merged(pack_mods, _modules(data, v, path)),
        variants=variants,
        variant_requires=tuple((v, _requires(dict(r))) for v, r in row_requires(data["vary"]))
        if data.get("vary") else (),
    )
    if lang != "en":
        lesson = translated(lesson, lang)
    # a lesson with variants is the first one filled in (the others: tutor.lesson.vary)
    return instantiate(lesson, variants[0]) if variants else lesson
