"""A recursive-descent parser for the prediction grammar.

    value  := ['+' | '-'] number ['/' number | ('+' | '-') imaginary]
            | string | <angle> | name ['(' args ')']
            | '[' items ']' | '(' items ')' | '{' items | pairs '}'
            | 'Parameter' 'containing' ':' value
    items  := [value (',' value)*] [',']
    args   := [arg (',' arg)*] [',']      arg := name '=' value | value

It builds plain nodes; each kind decides what the nodes mean. Nothing here
evaluates anything, and depth is bounded by the lexer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidPrediction
from .lexer import Token, tokenize
from .numbers import NumLit, bool_lit, fraction, read_number, special_lit
from .text import NONE_WORDS


@dataclass(frozen=True)
class Num:
    lit: NumLit


@dataclass(frozen=True)
class Cplx:
    real: NumLit
    imag: NumLit


@dataclass(frozen=True)
class Str:
    value: str


@dataclass(frozen=True)
class Name:
    value: str


@dataclass(frozen=True)
class NoneV:
    pass


@dataclass(frozen=True)
class BoolV:
    value: bool


@dataclass(frozen=True)
class Angle:
    text: str


@dataclass(frozen=True)
class Seq:
    kind: str  # list, tuple, set, dict
    items: tuple[Node, ...]
    values: tuple[Node, ...] = ()  # dict values, parallel to items (the keys)


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Node, ...]
    kwargs: dict[str, Node] = field(default_factory=dict)


Node = Num | Cplx | Str | Name | NoneV | BoolV | Angle | Seq | Call


def _zero() -> NumLit:
    return NumLit(0, "0", 0, 0, True)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at(self, text: str) -> bool:
        return self.tok.kind == "OP" and self.tok.text == text

    def next(self) -> Token:
        tok = self.tok
        self.i = min(self.i + 1, len(self.tokens) - 1)
        return tok

    def expect(self, text: str) -> None:
        if not self.at(text):
            self.fail(f"expected '{text}'")
        self.next()

    def fail(self, what: str | None = None) -> None:
        tok = self.tok
        if tok.kind == "EOF":
            raise InvalidPrediction("The answer ends too early" + (f": {what}." if what else "."))
        shown = tok.text if tok.kind != "STR" else repr(tok.text)
        raise InvalidPrediction(
            f"I can't read the answer at {shown!r}" + (f" ({what})." if what else ".")
        )

    # value := ...
    def value(self) -> Node:
        tok = self.tok
        if tok.kind == "OP" and tok.text in "+-":
            self.next()
            return self.unsigned_number(negative=tok.text == "-")
        if tok.kind == "NUM" or tok.kind == "NAME" and special_lit(tok.text) is not None:
            return self.unsigned_number()
        if tok.kind == "STR":
            self.next()
            return Str(tok.text)
        if tok.kind == "ANGLE":
            self.next()
            return Angle(tok.text)
        if tok.kind == "NAME":
            return self.name()
        if self.at("["):
            self.next()
            return Seq("list", self.items("]"))
        if self.at("("):
            self.next()
            items, trailing = self.items_with_comma(")")
            if len(items) == 1 and not trailing:
                return items[0]
            return Seq("tuple", items)
        if self.at("{"):
            return self.braces()
        self.fail()
        raise AssertionError  # unreachable

    def unsigned_number(self, negative: bool = False) -> Num | Cplx:
        """A number; `negative` when a '-' came before it (it applies to the
        real part only: -1+2j is (-1)+2j)."""
        tok = self.next()
        special = special_lit(tok.text) if tok.kind == "NAME" else None
        if special is not None:
            lit = special.negated() if negative else special
        elif tok.kind == "NUM":
            if tok.text[-1] in "jJ":
                pure = read_number(tok.text[:-1])
                return Cplx(_zero(), pure.negated() if negative else pure)
            lit = read_number(tok.text)
            if self.at("/") and self.peek().kind == "NUM":
                self.next()
                lit = fraction(lit, read_number(self.next().text))
                return Num(lit.negated() if negative else lit)
            lit = lit.negated() if negative else lit
        else:
            self.i -= 1
            self.fail("expected a number")
            raise AssertionError  # unreachable
        imag = self.imaginary()
        return Num(lit) if imag is None else Cplx(lit, imag)

    def imaginary(self) -> NumLit | None:
        """`+2j`, `-0.5j`, `+nanj` after a real part."""
        nxt = self.peek()
        if not (self.tok.kind == "OP" and self.tok.text in "+-"):
            return None
        if nxt.kind == "NUM" and nxt.text[-1] in "jJ":
            imag = read_number(nxt.text[:-1])
        elif nxt.kind == "NAME" and nxt.text[-1:] in ("j", "J"):
            special = special_lit(nxt.text[:-1])
            if special is None:
                return None
            imag = special
        else:
            return None
        sign = self.next().text
        self.next()
        return imag.negated() if sign == "-" else imag

    def name(self) -> Node:
        tok = self.next()
        low = tok.text.casefold()
        if low in NONE_WORDS:
            return NoneV()
        if low in ("true", "false"):
            return BoolV(low == "true")
        if tok.text == "Parameter" and self.tok.kind == "NAME" and self.tok.text == "containing":
            self.next()
            if self.at(":"):
                self.next()
            return Call("Parameter", (self.value(),))
        if not self.at("("):
            return Name(tok.text)
        self.next()
        args: list[Node] = []
        kwargs: dict[str, Node] = {}
        while not self.at(")"):
            if self.tok.kind == "NAME" and self.peek().kind == "OP" and self.peek().text == "=":
                key = self.next().text
                self.next()
                kwargs[key] = self.value()
            else:
                args.append(self.value())
            if not self.at(","):
                break
            self.next()
        self.expect(")")
        if low == "float" and len(args) == 1 and isinstance(args[0], Str) and not kwargs:
            lit = special_lit(args[0].value)
            if lit is not None:
                return Num(lit)
        return Call(tok.text, tuple(args), kwargs)

    def items_with_comma(self, close: str) -> tuple[tuple[Node, ...], bool]:
        items: list[Node] = []
        trailing = False
        while not self.at(close):
            items.append(self.value())
            trailing = False
            if not self.at(","):
                break
            self.next()
            trailing = True
        self.expect(close)
        return tuple(items), trailing

    def items(self, close: str) -> tuple[Node, ...]:
        return self.items_with_comma(close)[0]

    def braces(self) -> Seq:
        self.expect("{")
        keys: list[Node] = []
        values: list[Node] = []
        is_dict = False
        while not self.at("}"):
            keys.append(self.value())
            if self.at(":"):
                if keys and len(values) != len(keys) - 1:
                    self.fail("mixing a set and a dict")
                self.next()
                values.append(self.value())
                is_dict = True
            elif is_dict:
                self.fail("expected ':'")
            if not self.at(","):
                break
            self.next()
        self.expect("}")
        if is_dict or not keys:
            if len(values) != len(keys):
                raise InvalidPrediction("I can't read that as a set or a dict.")
            return Seq("dict", tuple(keys), tuple(values))
        return Seq("set", tuple(keys))

    def done(self) -> None:
        if self.tok.kind != "EOF":
            self.fail()


def parse_value(text: str) -> Node:
    """Exactly one value."""
    p = _Parser(text)
    if p.tok.kind == "EOF":
        raise InvalidPrediction("Type an answer.")
    node = p.value()
    p.done()
    return node


def parse_items(text: str) -> tuple[Node, ...] | None:
    """Zero or more values separated by commas or spaces (`a, b` or `a b`).

    Returns the values; if the text is exactly one value, returns None so the
    caller can look at `parse_value` instead (a single `[..]` is a sequence).
    """
    p = _Parser(text)
    items: list[Node] = []
    while p.tok.kind != "EOF":
        items.append(p.value())
        if p.at(","):
            p.next()
        if items and p.tok.kind == "NAME" and p.tok.text.casefold() in ("and", "or"):
            p.next()  # "a, b and c" / "0 or 2": a plain-language separator
    if len(items) == 1:
        return None
    return tuple(items)


__all__ = [
    "Angle", "BoolV", "Call", "Cplx", "Name", "Node", "NoneV", "Num", "Seq", "Str",
    "bool_lit", "parse_items", "parse_value",
]  # fmt: skip
