"""A small tokenizer for the prediction grammar (see grammar.py).

One compiled pattern reads a token at a time; limits (depth, tokens, scalars,
digits) are enforced here, in one linear pass, before anything recursive runs.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..base.errors import MAX_DEPTH, MAX_DIGITS, MAX_SCALARS, MAX_TOKENS, InvalidPrediction
from ..base.parts import Said
from .numbers import NUMBER_RE

_TOKEN = re.compile(
    r"(?P<WS>\s+)"
    # `0.weight`, `2.bias`: state_dict keys of nn.Sequential start with a digit
    r"|(?P<DNAME>[0-9]\w*(?:\.[0-9]\w*)*\.[^\W\d]\w*(?:\.\w+)*)"
    rf"|(?P<NUM>{NUMBER_RE.pattern})"
    r"|(?P<NAME>[^\W\d]\w*(?:\.[^\W\d]\w*|\.[0-9]\w*)*)"
    r"|(?P<STR>'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`\n]*`)"
    r"|(?P<ANGLE><[^<>]*>)"
    r"|(?P<OP>\*\*|[()\[\]{},:=+\-/*\u00d7^])"
)
_OPEN, _CLOSE = "([{", ")]}"
_HEX_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


class Token(NamedTuple):
    kind: str  # NUM NAME STR ANGLE OP EOF
    text: str  # NUM/NAME/OP: as typed; STR: the decoded value; ANGLE: the inside
    pos: int


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            m = _HEX_ESCAPE.match(body, i)
            if m:
                code = int(next(g for g in m.groups() if g), 16)
                if code > 0x10FFFF:
                    raise InvalidPrediction("That string has an escape I can't read.")
                out.append(chr(code))
                i = m.end()
                continue
            out.append(_ESCAPES.get(body[i + 1], "\\" + body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _fail_at(text: str, pos: int) -> InvalidPrediction:
    ch = text[pos]
    if ch in "'\"":
        return InvalidPrediction(f"A quote ({ch}) is not closed.")
    if ch == "<":
        return InvalidPrediction("A '<' is not closed with '>'.")
    if ch.isdigit() or ch == ".":
        return InvalidPrediction("I can't read the number at ", Said(repr(text[pos : pos + 10])),
                                 ".")
    return InvalidPrediction("I can't read the character ", Said(repr(ch)), " here.")


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos, depth, scalars, n = 0, 0, 0, len(text)
    match = _TOKEN.match
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise _fail_at(text, pos)
        kind = m.lastgroup or ""
        value = m.group()
        if kind == "WS":
            pos = m.end()
            continue
        if kind == "OP":
            if value in _OPEN:
                depth += 1
                if depth > MAX_DEPTH:
                    raise InvalidPrediction(
                        f"That answer is nested too deeply (the limit is {MAX_DEPTH} levels).",
                        how=False)
            elif value in _CLOSE:
                depth -= 1
                if depth < 0:
                    raise InvalidPrediction(f"A '{value}' closes a bracket that was never opened.")
        else:
            scalars += 1
            if scalars > MAX_SCALARS:
                raise InvalidPrediction(
                    f"That answer has too many values (the limit is {MAX_SCALARS:,}).", how=False)
            if kind == "DNAME":
                num = NUMBER_RE.match(text, pos)
                if num is not None and num.end() >= m.end():  # 0.j, 1.e5: numbers
                    m, kind, value = num, "NUM", num.group()
                else:
                    kind = "NAME"
            if kind == "NUM" and sum(c.isdigit() for c in value) > MAX_DIGITS:
                raise InvalidPrediction(
                    f"That number has too many digits (the limit is {MAX_DIGITS}).", how=False)
            elif kind == "STR":
                value = _unescape(value[1:-1])
            elif kind == "ANGLE":
                value = value[1:-1].strip()
        tokens.append(Token(kind, value, pos))
        if len(tokens) > MAX_TOKENS:
            raise InvalidPrediction("That answer is too long to read.", how=False)
        pos = m.end()
    tokens.append(Token("EOF", "", n))
    return tokens
