"""Validate a composed YAML node tree against a spec, with positions.

`validate(node, spec, v)` returns plain Python values and collects every problem
in `v.problems` with its `file:line:col` and key path, so an author sees all of
them at once.  YAML scalars are always read as the text the author wrote
(`answer: 0.60` is the text "0.60"); only where the spec asks for an int, a number
or a bool is the text converted, strictly.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from tutor.i18n import N_, _
from tutor.lesson.spec import AnyOf, Bool, Int, ListOf, MapOf, Num, Obj, Scalar, Str, Type, When


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth a warning) in a lesson file."""

    file: str
    line: int  # 1-based
    col: int  # 1-based
    path: str  # key path, e.g. steps[1].predict[0].kind ("" for the document)
    message: str
    severity: str = "error"  # "error" | "warning"

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        level = "" if self.severity == "error" else "warning: "
        return f"{self.file}:{self.line}:{self.col}: {level}{where}{self.message}"


Positions = dict[str, tuple[int, int]]  # key path -> (line, col), 1-based


@dataclass
class Validation:
    file: str
    problems: list[Problem] = field(default_factory=list)
    positions: Positions = field(default_factory=dict)
    source: str = ""  # the file's text, when known: for positions inside a value
    nodes: dict[str, yaml.Node] = field(default_factory=dict)  # key path -> its node

    def error(self, node: yaml.Node, path: str, message: str, severity: str = "error") -> None:
        mark = node.start_mark
        self.problems.append(
            Problem(self.file, mark.line + 1, mark.column + 1, path, message, severity)
        )

    def text_of(self, node: yaml.Node) -> str | None:
        """The source text of a one-line `node` as written, or None if unknown."""
        start, end = node.start_mark, node.end_mark
        lines = self.source.split("\n")
        if not self.source or start.line != end.line or start.line >= len(lines):
            return None
        return lines[start.line][start.column:end.column]

    def inside(self, node: yaml.Node, line: int, col: int) -> tuple[int, int]:
        """File (line, col) of line `line`, column `col` (1-based) of the text of a
        scalar `node` (e.g. code in a `|` block); the node's own position if unknown."""
        start = node.start_mark
        lines = self.source.split("\n")
        style = getattr(node, "style", None)
        if style in ("|", ">") and self.source:
            body = [t for t in lines[start.line + 1:] if t.strip()]
            indent = len(body[0]) - len(body[0].lstrip(" ")) if body else 0
            target = start.line + line  # 0-based file line of the code's line `line`
            if target < len(lines):
                return target + 1, indent + max(col, 1)
        if line <= 1:
            quote = 1 if style in ("'", '"') else 0
            return start.line + 1, start.column + quote + max(col, 1)
        return start.line + 1, start.column + 1

    def at(self, path: str) -> tuple[int, int]:
        """The best-known position of `path` (falls back to its nearest parent)."""
        while path not in self.positions and path:
            path = _parent(path)
        return self.positions.get(path, (1, 1))


def _parent(path: str) -> str:
    if path.endswith("]"):
        return path[: path.rindex("[")]
    return path.rpartition(".")[0]


def join_path(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


MAX_DIGITS = 40  # a number written with more digits is refused before it is converted
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\Z")
_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


def _plain(node: yaml.Node) -> bool:
    """A plain (unquoted, non-block) scalar: the C and Python parsers differ on its style."""
    return isinstance(node, yaml.ScalarNode) and not node.style


def _is_null(node: yaml.Node) -> bool:
    return _plain(node) and node.value in ("", "~", "null", "Null", "NULL")


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return _("a mapping")
    if isinstance(node, yaml.SequenceNode):
        return _("a list")
    return f"{node.value!r}" if len(node.value) < 40 else _("a text")


def validate(node: yaml.Node, spec: Type, v: Validation, path: str = "") -> Any:
    """Check `node` against `spec`; return the plain value (None where invalid)."""
    v.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    v.nodes[path] = node
    if isinstance(spec, AnyOf):
        return _validate_any(node, spec, v, path)
    if isinstance(spec, Obj):
        return _validate_obj(node, spec, v, path)
    if isinstance(spec, ListOf):
        if not isinstance(node, yaml.SequenceNode):
            v.error(node, path, _("expected a list, got {kind}").format(kind=_kind(node)))
            return None
        if len(node.value) < spec.min_items:
            v.error(node, path, _("needs at least {n} item(s)").format(n=spec.min_items))
        if len(node.value) > spec.max_items:
            v.error(node, path, _("too many items ({n} > {most})").format(
                n=len(node.value), most=spec.max_items))
            return None
        split = _comma_split(node) if isinstance(spec.item, (Str, Scalar)) else None
        if split is not None:
            pieces = next(g for g in split if len(g) > 1)
            fixed = ", ".join(json.dumps(", ".join(g), ensure_ascii=False) for g in split)
            v.error(node, path, _("YAML split {text} at its commas: inside [...] a comma "
                                  "separates items, so {first} and {second} became separate "
                                  "items; quote each item: [{fixed}]").format(
                text=repr(", ".join(pieces)), first=repr(pieces[0]), second=repr(pieces[1]),
                fixed=fixed))
            return None
        return [validate(n, spec.item, v, join_path(path, i)) for i, n in enumerate(node.value)]
    if isinstance(spec, MapOf):
        if not isinstance(node, yaml.MappingNode):
            v.error(node, path, _("expected a mapping, got {kind}").format(kind=_kind(node)))
            return None
        out: dict[str, Any] = {}
        for k, val in node.value:
            if not isinstance(k, yaml.ScalarNode):
                v.error(k, path, _("keys must be plain text"))
                continue
            if k.value in out:
                v.error(k, join_path(path, k.value), _("duplicate key {key}").format(
                    key=repr(k.value)))
            if spec.key_pattern and not re.fullmatch(spec.key_pattern, k.value):
                v.error(k, join_path(path, k.value), _("{name} is not a valid name here").format(
                    name=repr(k.value)) + (": " + _(spec.key_hint) if spec.key_hint else ""))
            out[k.value] = validate(val, spec.value, v, join_path(path, k.value))
        return out
    if not isinstance(node, yaml.ScalarNode):
        v.error(node, path, _("expected {what}, got {kind}").format(
            what=_scalar_name(spec), kind=_kind(node)) + _retyped(node, v))
        return None
    return _validate_scalar(node, spec, v, path)


def _retyped(node: yaml.Node, v: Validation) -> str:
    """Why YAML made a list or mapping of what was meant as text, and the fix."""
    written = v.text_of(node) if getattr(node, "flow_style", False) else None
    example = f": {json.dumps(written, ensure_ascii=False)}" if written else ""
    if isinstance(node, yaml.SequenceNode):
        if getattr(node, "flow_style", False):
            return ": " + _("YAML read this as a list because it starts with '['; to mean "
                            "the text, quote it") + example
        return ": " + _("YAML read the lines starting with '- ' as a list; to mean the text, "
                        "quote it")
    if getattr(node, "flow_style", False):
        return ": " + _("YAML read this as a mapping because it starts with '{'; to mean the "
                        "text, quote it") + example
    return ": " + _("YAML read the `key: value` text as a mapping; to mean the text, quote it "
                    "(or write it as a `|` block)")


_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _balance(text: str) -> int:
    """Open brackets left unclosed in `text` (negative: more closed than opened)."""
    depth = 0
    for ch in text:
        if ch in _PAIRS:
            depth += 1
        elif ch in _PAIRS.values():
            depth -= 1
    return depth


def _comma_split(node: yaml.SequenceNode) -> list[list[str]] | None:
    """The items of a `[...]` list regrouped where YAML split one value at its commas
    (`[(1, 4)]` read as "(1" and "4)"), or None when no value was split."""
    if not node.flow_style or not all(
            isinstance(n, yaml.ScalarNode) and not n.style for n in node.value):
        return None
    groups: list[list[str]] = []
    depth = 0
    for item in node.value:
        if depth > 0:
            groups[-1].append(item.value)
        else:
            groups.append([item.value])
        depth = max(0, depth + _balance(item.value))
    return groups if any(len(g) > 1 for g in groups) else None


def _scalar_name(spec: Type) -> str:
    return _({Int: N_("a whole number"), Num: N_("a number"),
              Bool: N_("true or false")}.get(type(spec), N_("text")))


def _validate_any(node: yaml.Node, spec: AnyOf, v: Validation, path: str) -> Any:
    for option in spec.options:
        trial = Validation(v.file, source=v.source)
        value = validate(node, option, trial, path)
        if not trial.problems:
            v.positions.update(trial.positions)
            v.nodes.update(trial.nodes)
            return value
    v.error(node, path, _(spec.doc) if spec.doc else _("does not match any allowed form"))
    return None


def _validate_scalar(node: yaml.ScalarNode, spec: Type, v: Validation, path: str) -> Any:
    text = node.value
    if isinstance(spec, Num):  # (Int is a Num)
        whole = isinstance(spec, Int)
        if not _plain(node) or not (_INT if whole else _FLOAT).match(text) or (
                not whole and not math.isfinite(float(text))):
            quoted = "" if _plain(node) or not (_INT if whole else _FLOAT).match(text) else (
                ": " + _("the quotes make it text; remove them"))
            v.error(node, path, _("expected {what}, got {kind}").format(
                what=_scalar_name(spec), kind=_kind(node)) + quoted)
            return None
        if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            v.error(node, path, _("number too large ({n} digits)").format(n=f"{len(text):,}")
                    + (": " + _("must be between {low} and {high}").format(
                        low=spec.min, high=spec.max)
                       if spec.min is not None and spec.max is not None else ""))
            return None
        value: int | float = int(text) if whole else float(text)
        if (spec.min is not None and value < spec.min) or (
            spec.max is not None and value > spec.max
        ):
            v.error(node, path, _("must be between {low} and {high}, got {text}").format(
                low=spec.min, high=spec.max, text=text))
            return None
        return value
    if isinstance(spec, Bool):
        low = text.lower()
        if _plain(node) and low in _TRUE | _FALSE:
            return low in _TRUE
        v.error(node, path, _("expected true or false, got {kind}").format(kind=_kind(node)))
        return None
    assert isinstance(spec, (Str, Scalar)), spec
    if isinstance(spec, Str) and _is_null(node):
        v.error(node, path, _("is empty: write a value or remove the key"))
        return None
    if len(text) > spec.max_len:
        v.error(node, path, _("too long ({n} characters, at most {most})").format(
            n=len(text), most=spec.max_len))
        return None
    if isinstance(spec, Str):
        if spec.enum and text not in spec.enum:
            close = difflib.get_close_matches(text, spec.enum, n=1)
            allowed = ", ".join(spec.enum)
            v.error(node, path, (_("unknown value {text} (did you mean {close}?); allowed: "
                                   "{allowed}") if close else
                                 _("unknown value {text}; allowed: {allowed}")).format(
                text=repr(text), close=repr(close[0]) if close else "", allowed=allowed))
            return None
        if spec.pattern and not re.fullmatch(spec.pattern, text):
            v.error(node, path, _("{text} is not valid: {hint}").format(
                text=repr(text), hint=_(spec.pattern_hint) if spec.pattern_hint else spec.pattern))
            return None
    return text


def _validate_obj(node: yaml.Node, spec: Obj, v: Validation, path: str) -> Any:
    if not isinstance(node, yaml.MappingNode):
        v.error(node, path, _("expected a mapping ({name}), got {kind}").format(
            name=spec.name or "object", kind=_kind(node)))
        return None
    out: dict[str, Any] = {}
    for k, val in node.value:
        if not isinstance(k, yaml.ScalarNode):
            v.error(k, path, _("keys must be plain text"))
            continue
        key = k.value
        key_path = join_path(path, key)
        if key in out:
            v.error(k, key_path, _("duplicate key {key}").format(key=repr(key)))
            continue
        f = spec.fields.get(key)
        if f is None:
            close = difflib.get_close_matches(key, list(spec.fields), n=1)
            allowed = ", ".join(spec.fields)
            v.error(k, key_path, (_("unknown key {key} (did you mean {close}?); allowed here: "
                                    "{allowed}") if close else
                                  _("unknown key {key}; allowed here: {allowed}")).format(
                key=repr(key), close=repr(close[0]) if close else "", allowed=allowed))
            continue
        if (
            not f.required
            and _is_null(val)
            and not (isinstance(f.type, Scalar) and val.value not in ("", "~"))
        ):
            v.positions[key_path] = (val.start_mark.line + 1, val.start_mark.column + 1)
            out[key] = None
            continue
        out[key] = validate(val, f.type, v, key_path)
    for key, f in spec.fields.items():
        if f.required and key not in out:
            v.error(node, path, _("missing required key {key}: add `{name}:`").format(
                key=repr(key), name=key) + (f" ({_(f.brief or f.doc).rstrip('.')})"
                                            if f.brief or f.doc else ""))
    keys: dict[str, tuple[yaml.Node, yaml.Node]] = {
        k.value: (k, val) for k, val in node.value if isinstance(k, yaml.ScalarNode)}
    for rule in spec.rules:
        if rule.applies(out.get(rule.key)):
            _apply_rule(rule, out, keys, node, path, v)
    for check in spec.checks:
        check(out, node, path, v)
    return out


def _apply_rule(rule: When, out: dict[str, Any], keys: dict[str, tuple[yaml.Node, yaml.Node]],
                node: yaml.Node, path: str, v: Validation) -> None:
    def say(at: yaml.Node, name: str, key_path: str) -> None:
        v.error(at, key_path, _(rule.message).format(value=out.get(rule.key), name=name))

    for name in rule.require:
        # a misspelling of the key has its own error ("unknown key ... did you mean")
        typo = difflib.get_close_matches(name, [k for k in keys if k != name], n=1)
        reported = any(p.path == join_path(path, name) for p in v.problems)  # invalid value
        if out.get(name) is None and not typo and not reported:
            say(node, name, path)
    for name in rule.forbid:
        if name in keys and out.get(name) is not None:
            say(keys[name][0], name, join_path(path, name))
    for name, shape in rule.shape:
        if name in keys and out.get(name) is not None:
            trial = Validation(v.file, source=v.source)
            validate(keys[name][1], shape, trial, join_path(path, name))
            if trial.problems:
                say(keys[name][1], name, join_path(path, name))
