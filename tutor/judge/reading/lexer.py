"""A small tokenizer for the prediction grammar (see grammar.py).

One compiled pattern reads a token at a time; limits (depth, tokens, scalars,
digits) are enforced here, in one linear pass, before anything recursive runs.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..base.errors import MAX_DEPTH, MAX_DIGITS, MAX_SCALARS, MAX_TOKENS, InvalidPrediction
from ..base.parts import Fill, Said
from .numbers import NUMBER_RE

_TOKEN = re.compile(
    r"\s*(?:"
    # `0.weight`, `2.bias`: state_dict keys of nn.Sequential start with a digit
    r"(?P<DNAME>[0-9]\w*(?:\.[0-9]\w*)*\.[^\W\d]\w*(?:\.\w+)*)"
    rf"|(?P<NUM>{NUMBER_RE.pattern})"
    r"|(?P<NAME>[^\W\d]\w*(?:\.[^\W\d]\w*|\.[0-9]\w*)*)"
    r"|(?P<STR>'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`\n]*`)"
    r"|(?P<ANGLE><[^<>]*>)"
    r"|(?P<OP>\*\*|[()\[\]{},:=+\-/*\u00d7^])"
    r"|(?P<END>$))"
)
_OPEN, _CLOSE = "([{", ")]}"
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


class Token(NamedTuple):
    kind: str  # NUM NAME STR ANGLE OP EOF
    text: str  # NUM/NAME/OP: as typed; STR: the decoded value; ANGLE: the inside
    pos: int


_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)


def _escaped(m: re.Match[str]) -> str:
    e = m.group(1)
    if len(e) == 1:
        return _ESCAPES.get(e, "\\" + e)  # an unknown escape keeps its backslash
    code = int(e[1:], 16)
    if code > 0x10FFFF:
        raise InvalidPrediction("That string has an escape I can't read.")
    return chr(code)


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    plain = body.replace("\\\\", "")
    if "\\" not in plain:  # only doubled backslashes: the quick way
        return body.replace("\\\\", "\\")
    return _ESCAPE.sub(_escaped, body)


def _fail_at(text: str, pos: int) -> InvalidPrediction:
    ch = text[pos]
    if ch in "'\"":
        return InvalidPrediction("A quote (", Fill(ch), ") is not closed.")
    if ch == "<":
        return InvalidPrediction("A '<' is not closed with '>'.")
    if ch.isdigit() or ch == ".":
        return InvalidPrediction("I can't read the number at ", Said(repr(text[pos : pos + 10])),
                                 ".")
    return InvalidPrediction("I can't read the character ", Said(repr(ch)), " here.")


_KIND = {index: name for name, index in _TOKEN.groupindex.items()}


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos, depth, scalars, n = 0, 0, 0, len(text)
    match, kinds, append, new = _TOKEN.match, _KIND, tokens.append, Token._make
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise _fail_at(text, len(text) - len(text[pos:].lstrip()))
        index = m.lastindex or 0
        kind = kinds[index]
        if kind == "END":
            break
        start, pos = m.start(index), m.end()
        value = m.group(index)
        if kind == "OP":
            if value in _OPEN:
                depth += 1
                if depth > MAX_DEPTH:
                    raise InvalidPrediction(
                        "That answer is nested too deeply (the limit is ", Fill(str(MAX_DEPTH)),
                        " levels).",
                        how=False)
            elif value in _CLOSE:
                depth -= 1
                if depth < 0:
                    raise InvalidPrediction("A ", Fill(repr(value)),
                                            " closes a bracket that was never opened.")
        else:
            scalars += 1
            if scalars > MAX_SCALARS:
                raise InvalidPrediction(
                    "That answer has too many values (the limit is ", Fill(f"{MAX_SCALARS:,}"),
                    ").",
                    how=False)
            if kind == "DNAME":
                num = NUMBER_RE.match(text, start)
                if num is not None and num.end() >= pos:  # 0.j, 1.e5: numbers
                    pos, kind, value = num.end(), "NUM", num.group()
                else:
                    kind = "NAME"
            if kind == "NUM":
                if len(value) > MAX_DIGITS and sum(c.isdigit() for c in value) > MAX_DIGITS:
                    raise InvalidPrediction(
                        "That number has too many digits (the limit is ",
                        Fill(str(MAX_DIGITS)), ").",
                        how=False)
            elif kind == "STR":
                value = _unescape(value[1:-1])
            elif kind == "ANGLE":
                value = value[1:-1].strip()
        append(new((kind, value, start)))
        if len(tokens) > MAX_TOKENS:
            raise InvalidPrediction("That answer is too long to read.", how=False)
    tokens.append(Token("EOF", "", n))
    return tokens
