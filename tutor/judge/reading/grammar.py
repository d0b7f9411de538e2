"""A recursive-descent parser for the prediction grammar.

    value   := sum
    sum     := product (('+' | '-') product)*
    product := signed (('*' | '/' | '×') signed)*
    signed  := ['+' | '-'] power                 (one sign: `--1` is refused)
    power   := primary [('**' | '^') signed]
    primary := number | string | <angle> | name ['(' args ')']
             | '[' items ']' | '(' items ')' | '{' items | pairs '}'
             | 'Parameter' 'containing' ':' value
    items   := [value (',' value)*] [',']
    args    := [arg (',' arg)*] [',']      arg := name '=' value | value

Arithmetic is applied as it is read, on numbers only (`3/5`, `3*ln(5)+5`,
`2**-3`); `pi` and `e` are numbers inside arithmetic, and names elsewhere.
Everything else becomes plain nodes, whose meaning each kind decides.  Nothing
here evaluates text, sums and products are loops, and depth is bounded by the
lexer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..base.errors import InvalidPrediction
from ..base.parts import Fill, Said
from ..base.text import NONE_WORDS
from . import numbers as nums
from .lexer import Token, tokenize
from .numbers import NumLit

_GLUED = re.compile(r"(ln|log|sqrt|exp|sin|cos|tan|tanh|sigmoid|abs)([0-9]+(?:\.[0-9]+)?)")
# why an answer cannot be read, beyond where (Parser.fail)
SIGNS, MIXED = "signs", "mixed"

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

_ZERO = NumLit(0, "0", 0, 1, True)
_PLAIN = frozenset({"NUM", "STR", "NAME", "ANGLE"})
_ENDS = frozenset({",", ")", "]", "}", ":", "="})
_MUL = {"*": "*", "\u00d7": "*", "/": "/"}


def as_number(node: Node) -> Num | Cplx | None:
    """A node that is a number: a literal, a computed value, or a constant name."""
    if isinstance(node, (Num, Cplx)):
        return node
    if isinstance(node, Name):
        lit = nums.constant_lit(node.value) or nums.special_lit(node.value)
        return Num(lit) if lit else None
    return None


def _real(node: Num | Cplx, op: str) -> NumLit:
    if isinstance(node, Cplx):
        raise InvalidPrediction("I compute with complex numbers only by + and -, not ",
                                Fill(op), ".",
                                how=False)
    return node.lit


def _operand(node: Node, op: str) -> Num | Cplx:
    num = as_number(node)
    if num is not None:
        return num
    if isinstance(node, Name):
        raise InvalidPrediction("I compute only with numbers, and ", Said(node.value),
                                " is not one I know.")
    raise InvalidPrediction("I compute (", Fill(op), ") only with numbers: write the values "
                            "themselves.")


def arith(op: str, left: Node, right: Node) -> Num | Cplx:
    a, b = _operand(left, op), _operand(right, op)
    if op in "+-" and (isinstance(a, Cplx) or isinstance(b, Cplx)):
        ar, ai = (a.real, a.imag) if isinstance(a, Cplx) else (a.lit, _ZERO)
        br, bi = (b.real, b.imag) if isinstance(b, Cplx) else (b.lit, _ZERO)
        real = br.negated() if op == "-" else br
        imag = bi.negated() if op == "-" else bi
        return Cplx(_add(ar, real), _add(ai, imag))
    return Num(nums.combine(op, _real(a, op), _real(b, op)))


def _add(a: NumLit, b: NumLit) -> NumLit:
    """Add the parts of complex numbers; a zero part added keeps the other as typed."""
    if a is _ZERO or a.value == 0 and a.is_int:
        return b
    if b is _ZERO or b.value == 0 and b.is_int:
        return a
    return nums.combine("+", a, b)


def negate(node: Node) -> Node:
    num = _operand(node, "-")
    if isinstance(num, Cplx):
        return Cplx(num.real.negated(), num.imag.negated())
    return Num(num.lit.negated())


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.i = 0
        self.last = len(self.tokens) - 1  # the EOF token
        # `ln2` as ln(2): only where one number is read (in items, `ln1` is a name,
        # such as a transformer block's first LayerNorm)
        self.glued = False

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        j = self.i + k
        return self.tokens[j] if j < self.last else self.tokens[self.last]

    def at(self, text: str) -> bool:
        tok = self.tokens[self.i]
        return tok.text == text and tok.kind == "OP"

    def at_op(self, ops: str | tuple[str, ...]) -> str | None:
        tok = self.tokens[self.i]
        return tok.text if tok.kind == "OP" and tok.text in ops else None

    def next(self) -> Token:
        tok = self.tokens[self.i]
        if self.i < self.last:
            self.i += 1
        return tok

    def expect(self, text: str) -> None:
        if not self.at(text):
            self.fail_expected(text)
        self.next()

    def _shown(self) -> str:
        tok = self.tok
        return repr(tok.text if tok.kind != "STR" else repr(tok.text))

    def fail_expected(self, text: str) -> None:
        """`text` (`]`, `:`) should come here.  (Each reason is a sentence of its own,
        so that the catalog translates it whole.)"""
        if self.tok.kind == "EOF":
            raise InvalidPrediction("The answer ends too early: expected ", Fill(repr(text)),
                                    ".")
        raise InvalidPrediction("I can't read the answer at ", Said(self._shown(), 40),
                                " (expected ", Fill(repr(text)), ").")

    def fail(self, why: str | None = None) -> None:
        """The answer cannot be read here; `why`: SIGNS or MIXED (or nothing to add)."""
        if self.tok.kind == "EOF":
            raise InvalidPrediction("The answer ends too early.")
        if why == SIGNS:
            raise InvalidPrediction("I can't read the answer at ", Said(self._shown(), 40),
                                    " (one sign is enough).")
        if why == MIXED:
            raise InvalidPrediction("I can't read the answer at ", Said(self._shown(), 40),
                                    " (mixing a set and a dict).")
        raise InvalidPrediction("I can't read the answer at ", Said(self._shown(), 40), ".")

    # value := sum
    def value(self) -> Node:
        tok, nxt = self.tokens[self.i], self.peek()
        if tok.kind in _PLAIN and (nxt.kind != "OP" or nxt.text in _ENDS):
            if tok.kind == "NUM" and tok.text[-1] not in "jJ":
                self.i += 1  # a plain number, the commonest item
                return Num(nums.read_number(tok.text, checked=True))
            return self.primary()  # a plain item: no operators to look for
        node = self.product()
        while (op := self.at_op("+-")) is not None:
            self.next()
            node = arith(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.signed()
        while (op := self.at_op(("*", "/", "\u00d7"))) is not None:
            self.next()
            node = arith(_MUL[op], node, self.signed())
        return node

    def signed(self) -> Node:
        op = self.at_op("+-")
        if op is None:
            return self.power()
        self.next()
        if self.at_op("+-"):
            self.fail(SIGNS)
        num = _operand(self.power(), op)
        return negate(num) if op == "-" else num

    def power(self) -> Node:
        """primary (** signed)*, folded from the right, with each operand's sign
        applied after its own power (`-2**2` is -4, as in Python)."""
        chain: list[tuple[str | None, Node]] = [(None, self.primary())]
        while self.at_op(("**", "^")):
            self.next()
            sign = self.at_op("+-")
            if sign is not None:
                self.next()
            chain.append((sign, self.primary()))
        if len(chain) == 1:
            return chain[0][1]
        sign, result = chain[-1]
        result = negate(result) if sign == "-" else result
        for sign, base in reversed(chain[:-1]):
            result = arith("**", base, result)
            if sign == "-":
                result = negate(result)
        return result

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "NUM":
            return self.number()
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

    def number(self) -> Num | Cplx:
        text = self.next().text
        if text[-1] in "jJ":
            return Cplx(_ZERO, nums.read_number(text[:-1], checked=True))
        return Num(nums.read_number(text, checked=True))

    def name(self) -> Node:
        tok = self.next()
        low = tok.text.casefold()
        if low in NONE_WORDS:
            return NoneV()
        if low in ("true", "false"):
            return BoolV(low == "true")
        special = nums.special_lit(tok.text)
        if special is not None:
            return Num(special)
        if tok.text[-1:] in ("j", "J"):
            imag = nums.special_lit(tok.text[:-1])  # nanj, infj
            if imag is not None:
                return Cplx(_ZERO, imag)
        glued = _GLUED.fullmatch(low) if self.glued else None
        if glued and nums.function_name(low) is None and not self.at("(") \
                and not low.startswith(("log2", "log10", "log1p")):
            # `ln2`, `sqrt2`, `exp1`: a function and its number typed together
            # (`log28` could be log2(8): asked again, as any unknown name is)
            arg_lit = nums.read_number(glued.group(2), checked=True)
            return Num(nums.apply(glued.group(1), arg_lit))
        after = self.tok.kind
        func = nums.function_name(tok.text) if after in ("NUM", "NAME", "OP") else None
        if func is not None and (after == "NUM" or after == "NAME"
                                 and nums.constant_lit(self.tok.text) is not None):
            arg = _operand(self.power(), func)  # `ln 2`, `sqrt 2`: a function without brackets
            return Num(nums.apply(func, _real(arg, func)))
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
            word = args[0].value.strip()
            lit = nums.special_lit(word.lstrip("+-"))
            if lit is not None:
                return Num(lit.negated() if word.startswith("-") else lit)
        if func is not None and len(args) == 1 and not kwargs:
            arg = _operand(args[0], func)
            return Num(nums.apply(func, _real(arg, func)))
        return Call(tok.text, tuple(args), kwargs)

    def items_with_comma(self, close: str) -> tuple[tuple[Node, ...], bool]:
        items: list[Node] = []
        trailing = False
        tokens = self.tokens
        while not self.at(close):
            items.append(self.value())
            trailing = False
            tok = tokens[self.i]
            if tok.text != "," or tok.kind != "OP":
                break
            self.i += 1  # the comma (never the last token: EOF is)
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
                    self.fail(MIXED)
                self.next()
                values.append(self.value())
                is_dict = True
            elif is_dict:
                self.fail_expected(":")
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
    p.glued = True
    if p.tok.kind == "EOF":
        raise InvalidPrediction("Type an answer.")
    node = p.value()
    p.done()
    return node


@lru_cache(maxsize=4096)
def number_in(text: str) -> Num | None:
    """`text` as one number (`'1.5'`, `3/5`), or None; cached, since a name is
    looked at as a number against every live number it might be."""
    try:
        node = parse_value(text)
    except InvalidPrediction:
        return None
    num = as_number(node)
    return num if isinstance(num, Num) else None


_SEPARATOR_WORDS = frozenset({"and", "or"})


def parse_items(text: str, *, or_items: bool = True) -> Node | tuple[Node, ...]:
    """Values separated by commas or spaces (`a, b` or `a b`): a tuple of them,
    or, when the text is exactly one value, that value (a single `[..]` is a
    sequence, not an item).  "or" between items separates them (`p or b`, for a
    set) only with `or_items`, and never between sequences, calls or reprs: there
    it offers two answers, which is invalid."""
    p = _Parser(text)
    if p.tok.kind == "EOF":
        raise InvalidPrediction("Type an answer.")
    items: list[Node] = []
    alternatives = False
    while p.tok.kind != "EOF":
        items.append(p.value())
        if p.at(","):
            p.next()
        if items and p.tok.kind == "NAME" and p.tok.text.casefold() in _SEPARATOR_WORDS:
            alternatives |= p.tok.text.casefold() == "or"
            p.next()  # "a, b and c" / "0 or 2": a plain-language separator
    if alternatives and (not or_items or any(isinstance(n, (Seq, Call, Angle)) for n in items)):
        # "[1, 2] or [2, 1]", "(2, 3) or (3, 2)": two answers, not the items of one
        raise InvalidPrediction("That gives two answers; which one is it? ", how=False)
    if len(items) == 1 and not (p.tokens[-2].kind == "OP" and p.tokens[-2].text == ","):
        return items[0]
    return tuple(items)


__all__ = [
    "Angle", "BoolV", "Call", "Cplx", "Name", "Node", "NoneV", "Num", "Seq", "Str",
    "as_number", "number_in", "parse_items", "parse_value",
]  # fmt: skip
