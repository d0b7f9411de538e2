"""A small tokenizer for the prediction grammar (see grammar.py).

Limits (depth, number of scalars, digits) are enforced here, in one linear
pass, before anything recursive runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import MAX_DEPTH, MAX_DIGITS, MAX_SCALARS, InvalidPrediction
from .numbers import NUMBER_RE

_NAME = re.compile(r"[^\W\d]\w*(?:\.\w+)*")
# `0.weight`, `2.bias`: state_dict keys of nn.Sequential start with a digit.
_DIGIT_NAME = re.compile(r"[0-9]\w*(?:\.\w+)*")
_LETTER_SEGMENT = re.compile(r"\.[^\W\d]")
_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
_ANGLE = re.compile(r"<([^<>]*)>")
_SPACE = re.compile(r"\s+")
OPS = frozenset("()[]{},:=+-/*\u00d7")
_OPEN, _CLOSE = "([{", ")]}"
_HEX_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")
_DIGITS = frozenset("0123456789")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


@dataclass(frozen=True)
class Token:
    kind: str  # NUM NAME STR ANGLE OP EOF
    text: str  # NUM/NAME/OP: as typed; STR: the decoded value; ANGLE: the inside
    pos: int


def _unescape(body: str) -> str:
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


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos, depth, scalars = 0, 0, 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        m = _SPACE.match(text, pos)
        if m:
            pos = m.end()
            continue
        if ch in _DIGITS or (ch == "." and pos + 1 < n and text[pos + 1] in _DIGITS):
            num = NUMBER_RE.match(text, pos)
            name = _DIGIT_NAME.match(text, pos) if ch != "." else None
            num_end = num.end() if num else pos
            if name and name.end() > num_end and _LETTER_SEGMENT.search(name.group()):
                tokens.append(Token("NAME", name.group(), pos))
                pos = name.end()
            elif num is None:
                raise InvalidPrediction(f"I can't read the number at {text[pos : pos + 10]!r}.")
            else:
                digits = sum(c.isdigit() for c in num.group())
                if digits > MAX_DIGITS:
                    raise InvalidPrediction(
                        f"That number has too many digits (the limit is {MAX_DIGITS})."
                    )
                tokens.append(Token("NUM", num.group(), pos))
                pos = num_end
            scalars += 1
        elif ch.isalpha() or ch == "_":
            m = _NAME.match(text, pos)
            if m is None:
                raise InvalidPrediction(f"I can't read the character {ch!r} here.")
            tokens.append(Token("NAME", m.group(), pos))
            pos = m.end()
            scalars += 1
        elif ch in "'\"":
            m = _STRING.match(text, pos)
            if not m:
                raise InvalidPrediction(f"A quote ({ch}) is not closed.")
            tokens.append(Token("STR", _unescape(m.group()[1:-1]), pos))
            pos = m.end()
            scalars += 1
        elif ch == "<":
            m = _ANGLE.match(text, pos)
            if not m:
                raise InvalidPrediction("A '<' is not closed with '>'.")
            tokens.append(Token("ANGLE", m.group(1).strip(), pos))
            pos = m.end()
        elif ch in OPS:
            if ch in _OPEN:
                depth += 1
                if depth > MAX_DEPTH:
                    raise InvalidPrediction(
                        f"That answer is nested too deeply (the limit is {MAX_DEPTH} levels)."
                    )
            elif ch in _CLOSE:
                depth -= 1
            tokens.append(Token("OP", ch, pos))
            pos += 1
        else:
            raise InvalidPrediction(f"I can't read the character {ch!r} here.")
        if scalars > MAX_SCALARS:
            raise InvalidPrediction(
                f"That answer has too many values (the limit is {MAX_SCALARS})."
            )
    tokens.append(Token("EOF", "", n))
    return tokens
