"""Form noise: what is stripped from every answer before it is read."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .errors import MAX_CHARS, InvalidPrediction
from .parts import Fill, short

NONE_WORDS = frozenset({"none", "null", "nil"})

_CHAR_MAP = str.maketrans(
    {
        "\u2212": "-",  # minus sign
        "\u2013": "-",  # en dash
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00a0": " ",
        "\u00f7": "/",  # division sign
        "\u00b7": "*",  # middle dot: 2.5·10⁻³
        "\u221e": "inf",  # infinity
        "\u2205": "set()",  # the empty set
        "\u2044": "/",  # fraction slash (NFKC makes ½ 1⁄2)
        "\u221a": "sqrt",  # square root: √2 is sqrt2, read as sqrt(2)
        "\u22c5": "*",  # dot operator
        "\u03c0": "pi",  # the letter pi
        "\u2026": "...",
    }
)



def check_length(text: str) -> None:
    if len(text) > MAX_CHARS:
        raise InvalidPrediction(
            "That answer is too long (", Fill(f"{len(text):,}"), " characters; the limit is ",
            Fill(f"{MAX_CHARS:,}"), ").",
            how=False,
        )


def normalise_chars(text: str) -> str:
    """NFKC (full-width digits and brackets become ASCII), unicode minus, curly
    quotes, the division sign and the letter pi become ASCII."""
    if text.isascii():
        return text
    return nfkc(text)


# superscripts are exponents: 10⁻⁷ is 10**-7 (NFKC alone would make it 10-7, and 10⁷ 107)
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾"
_SUPER_RUN = re.compile(f"(?<=[0-9A-Za-z_).\\]])[{_SUPERSCRIPTS}]+")  # after a base
_SUPER_MAP = str.maketrans(_SUPERSCRIPTS, "0123456789+-()")


def _exponent(m: re.Match[str]) -> str:
    return "**" + m.group().translate(_SUPER_MAP)


@lru_cache(maxsize=16)
def nfkc(text: str) -> str:  # an answer is normalised several times over
    if any(c in _SUPERSCRIPTS for c in text):
        text = _SUPER_RUN.sub(_exponent, text)
    return unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)


def strip_noise(text: str) -> str:
    """Strip surrounding whitespace, one or more layers of surrounding quotes or
    backticks, and a trailing period."""
    t = text.strip()
    while True:
        if len(t) >= 2 and t[0] == t[-1] == "`" and "`" not in t[1:-1]:
            t = t[1:-1].strip()
        elif len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"" and t[0] not in t[1:-1]:
            t = t[1:-1].strip()
        elif t.endswith(".") and not t.endswith(".."):
            t = t[:-1].rstrip()
        else:
            return t


def clean(text: str) -> str:
    """Length check, character normalisation and noise stripping."""
    check_length(text)
    t = strip_noise(normalise_chars(text))
    check_length(t)
    return t


def collapse(text: str) -> str:
    """Every run of whitespace becomes one space; ends stripped."""
    return " ".join(text.split())


__all__ = ["NONE_WORDS", "check_length", "clean", "collapse", "normalise_chars", "short",
           "strip_noise"]
