"""A tiny declarative schema language for lesson files.

The same spec objects drive two things, so they cannot drift apart:

* `tutor.lesson.validate.validate(node, spec)` checks a composed YAML node tree;
* `to_json_schema(spec)` emits the JSON Schema (draft-07) that editors use for
  completion (see `tutor schema`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Type:
    doc: str = ""

    def json(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True)
class Str(Type):
    max_len: int = 20_000
    pattern: str | None = None
    pattern_hint: str = ""
    enum: tuple[str, ...] = ()
    format: str | None = None  # a JSON Schema format, e.g. "regex" (checked by a rule)

    def json(self) -> dict[str, Any]:
        # the loader reads any scalar as the text written (`title: 5` is the title "5"),
        # so the schema accepts what YAML types as numbers and booleans too
        kinds: Any = "string" if self.enum else ["string", "number", "boolean"]
        out: dict[str, Any] = {"type": kinds, "maxLength": self.max_len}
        if self.format:
            out["format"] = self.format
        if self.pattern:  # JSON Schema patterns search; the loader matches the whole text
            out["pattern"] = f"^(?:{self.pattern})$"
        if self.enum:
            out["enum"] = list(self.enum)
        return out


@dataclass(frozen=True)
class Scalar(Type):
    """Any scalar, kept as the text written (numbers, bools, null included)."""

    max_len: int = 20_000

    def json(self) -> dict[str, Any]:
        return {"type": ["string", "number", "boolean", "null"]}


@dataclass(frozen=True)
class Num(Type):
    min: float | None = None
    max: float | None = None
    json_type: ClassVar[str] = "number"

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.json_type}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return out


@dataclass(frozen=True)
class Int(Num):
    min: int | None = None
    max: int | None = None
    json_type: ClassVar[str] = "integer"


@dataclass(frozen=True)
class Bool(Type):
    def json(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class ListOf(Type):
    item: Type = field(default_factory=Str)
    min_items: int = 0
    max_items: int = 1000

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.json()}
        if self.min_items:
            out["minItems"] = self.min_items
        out["maxItems"] = self.max_items
        return out


@dataclass(frozen=True)
class MapOf(Type):
    """A mapping from scalar keys (read as text) to values of one type."""

    value: Type = field(default_factory=Str)
    max_items: int = 200
    key_pattern: str | None = None  # a regular expression every key must match in full
    key_hint: str = ""  # what to write instead, for the error message

    def json(self) -> dict[str, Any]:
        out = {"type": "object", "additionalProperties": self.value.json()}
        if self.key_pattern:
            out["propertyNames"] = {"pattern": f"^(?:{self.key_pattern})$"}
        return out


@dataclass(frozen=True)
class AnyOf(Type):
    options: tuple[Type, ...] = ()

    def json(self) -> dict[str, Any]:
        return {"anyOf": [o.json() for o in self.options]}


@dataclass(frozen=True)
class Field:
    type: Type
    required: bool = False
    doc: str = ""
    # what a missing required key's message says of it, where `doc` is too long for
    # a message (or is built from other values, so not translated): one literal
    brief: str = ""


@dataclass(frozen=True)
class When:
    """A cross-field rule: when the value of `key` is one of `values` (with `negate`:
    is not one of them), the keys in `require` must be there, those in `forbid` must
    not, and those in `shape` must have that type.  The loader checks it and the JSON
    Schema states it as an `if`/`then`, so an editor flags what lint flags.

    `message` is the error, formatted with `value` (the value of `key`) and `name`
    (the key the rule is about)."""

    key: str
    values: tuple[str, ...]
    negate: bool = False
    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    shape: tuple[tuple[str, Type], ...] = ()
    message: str = ""

    def applies(self, value: object) -> bool:
        return isinstance(value, str) and (value in self.values) != self.negate

    def json(self) -> dict[str, Any]:
        cond: dict[str, Any] = {"enum": list(self.values)}
        props: dict[str, Any] = {name: False for name in self.forbid}
        props.update({name: t.json() for name, t in self.shape})
        then: dict[str, Any] = {}
        if self.require:
            then["required"] = list(self.require)
        if props:
            then["properties"] = props
        return {"if": {"properties": {self.key: {"not": cond} if self.negate else cond},
                       "required": [self.key]},
                "then": then}


@dataclass(frozen=True)
class Obj(Type):
    name: str = ""
    fields: dict[str, Field] = field(default_factory=dict)
    # extra cross-field checks: (value, positions, report) -> None
    checks: tuple[Callable[..., None], ...] = ()
    rules: tuple[When, ...] = ()  # declarative cross-field rules (in the JSON Schema too)

    def json(self) -> dict[str, Any]:
        props = {}
        for key, f in self.fields.items():
            schema = f.type.json()
            doc = f.doc or f.type.doc
            if doc:
                schema["description"] = doc
                schema["markdownDescription"] = doc
            props[key] = schema
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }
        required = [k for k, f in self.fields.items() if f.required]
        if required:
            out["required"] = required
        if self.rules:
            out["allOf"] = [rule.json() for rule in self.rules]
        if self.doc:
            out["description"] = self.doc
        return out


def to_json_schema(spec: Obj, *, title: str, schema_id: str) -> dict[str, Any]:
    out = {"$schema": "http://json-schema.org/draft-07/schema#", "$id": schema_id, "title": title}
    out.update(spec.json())
    return out
