"""Typed numbers: literals that remember how they were written, and safe arithmetic.

The number rule (comparing/numbers.py) depends on the precision the learner
gave, so a typed number keeps its decimals and significant digits.  A value the
learner computed (`3/5`, `3*ln(5)+5`, `pi`) is *exact* when every number in it
was exact (whole numbers, constants), and otherwise carries the precision of its
least precise decimal.  Nothing here calls `eval`: operators and functions are
applied one by one on floats, with every overflow and domain error turned into
a friendly `InvalidPrediction`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..base.errors import MAX_DIGITS, InvalidPrediction
from ..base.parts import Said

NUMBER_RE = re.compile(
    r"(?:[0-9]+(?:_[0-9]+)*(?:\.(?:[0-9]+(?:_[0-9]+)*)?)?|\.[0-9]+(?:_[0-9]+)*)"
    r"(?:[eE][+-]?[0-9]+)?[jJ]?"
)
_SPECIAL = {"nan": math.nan, "inf": math.inf, "infinity": math.inf}
_PREFIXES = ("torch.", "math.", "np.", "numpy.", "float.")
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
_BIG = 2.0**53  # beyond this a float no longer holds every whole number


@dataclass(frozen=True)
class NumLit:
    """A number as typed (or computed from what was typed)."""

    value: int | float
    text: str
    decimals: int | None  # decimal places as written (the exponent counts); None: not a literal
    sig: int  # significant digits as written (for a computed value: of its least precise part)
    is_int: bool  # written as a whole number (no point, no exponent), or a whole exact result
    exact: bool = False  # a computed exact value: compared at the live dtype's resolution

    def negated(self) -> NumLit:
        text = self.text[1:] if self.text.startswith("-") else "-" + self.text
        return replace(self, value=-self.value, text=text)


def _strip_prefix(name: str) -> str:
    low = name.casefold()
    for prefix in _PREFIXES:
        if low.startswith(prefix):
            return low[len(prefix) :]
    return low


def special_lit(name: str) -> NumLit | None:
    """nan / inf written as a name (`nan`, `torch.inf`, `Infinity`), else None."""
    value = _SPECIAL.get(_strip_prefix(name))
    if value is None:
        return None
    return NumLit(value, name, None, 0, False, exact=True)


def constant_lit(name: str) -> NumLit | None:
    """pi, e and tau (`math.pi`, `torch.pi`), else None."""
    low = _strip_prefix(name)
    if low not in CONSTANTS or name[-1] == "E":
        return None
    return NumLit(CONSTANTS[low], name, None, 0, False, exact=True)


def read_number(text: str) -> NumLit:
    """Read an unsigned decimal literal such as `0.6`, `.6`, `6e-1`, `1_000`."""
    if not NUMBER_RE.fullmatch(text) or text[-1] in "jJ":
        raise InvalidPrediction("I can't read ", Said(repr(text)), " as a number.")
    s = text.replace("_", "")
    mantissa, _, exp_text = s.lower().partition("e")
    whole, point, frac = mantissa.partition(".")
    digits = whole + frac
    if len(digits) + len(exp_text) > MAX_DIGITS:
        raise InvalidPrediction(f"That number has too many digits (the limit is {MAX_DIGITS}).",
                                how=False)
    is_int = not point and not exp_text
    exponent = int(exp_text) if exp_text else 0
    value: int | float = int(s) if is_int else float(s)
    if math.isinf(value):
        raise InvalidPrediction(Said(text), " is too large to be a number I can compare.",
                                how=False)
    if value == 0 and digits.strip("0"):
        raise InvalidPrediction(Said(text), " is too small to be a number I can compare.",
                                how=False)
    significant = digits.lstrip("0")
    if is_int:  # trailing zeros of a whole number are not significant: "10" is one digit
        significant = significant.rstrip("0") or "0"
    return NumLit(value, text, len(frac) - exponent, len(significant), is_int)


def bool_lit(value: bool) -> NumLit:
    return NumLit(int(value), str(value), 0, 1, True)


# ---- arithmetic ------------------------------------------------------------------


def _finite(value: float, what: str) -> float:
    if math.isnan(value) or math.isinf(value):
        raise InvalidPrediction(f"{what} is too large (or undefined) to compare.", how=False)
    return value


def _result(value: float, text: str, parts: tuple[NumLit, ...]) -> NumLit:
    """A computed value: exact when every part is; otherwise as precise as its
    least precise part (decimals for + and -, significant digits otherwise)."""
    value = _finite(value, text)
    if all(p.exact or p.is_int for p in parts):
        whole = value.is_integer() and abs(value) < _BIG
        return NumLit(int(value) if whole else value, text, None, 0, whole, exact=True)
    loose = [p for p in parts if not (p.exact or p.is_int)]
    sig = min(max(p.sig, 2) for p in loose)
    return NumLit(value, text, None, sig, False)


def _additive(op: str, a: NumLit, b: NumLit, text: str) -> NumLit:
    value = float(a.value) + float(b.value) if op == "+" else float(a.value) - float(b.value)
    out = _result(value, text, (a, b))
    loose = [p for p in (a, b) if not (p.exact or p.is_int)]
    if loose and all(p.decimals is not None for p in loose):
        # 1.61 + 2: as precise as the decimals written
        decimals = min(p.decimals for p in loose if p.decimals is not None)
        out = replace(out, decimals=decimals, sig=max(out.sig, 2))
    return out


def combine(op: str, a: NumLit, b: NumLit) -> NumLit:
    """`a op b` for op in + - * / ** (and ^ as **)."""
    text = f"{a.text}{op}{b.text}"
    if op in "+-":
        return _additive(op, a, b, text)
    x, y = float(a.value), float(b.value)
    if op == "*":
        return _result(x * y, text, (a, b))
    if op == "/":
        if y == 0:
            raise InvalidPrediction(Said(text), " divides by zero.", how=False)
        return _result(x / y, text, (a, b))
    if x < 0 and not y.is_integer():
        raise InvalidPrediction(Said(text), " is not a real number.", how=False)
    if x == 0 and y < 0:
        raise InvalidPrediction(Said(text), " divides by zero.", how=False)
    try:
        value = math.pow(x, y)
    except OverflowError:
        raise InvalidPrediction(Said(text), " is too large to compare.", how=False) from None
    return _result(value, text, (a, b))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


FUNCTIONS: dict[str, Callable[[float], float]] = {
    "ln": math.log, "log": math.log, "log2": math.log2, "log10": math.log10,
    "log1p": math.log1p, "sqrt": math.sqrt, "exp": math.exp, "expm1": math.expm1,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "tanh": math.tanh,
    "sigmoid": _sigmoid, "abs": abs,
}  # fmt: skip


def function_name(name: str) -> str | None:
    """`ln`, `math.log`, `torch.sqrt` -> the function's name; None if not one."""
    low = _strip_prefix(name)
    return low if low in FUNCTIONS else None


def apply(name: str, arg: NumLit) -> NumLit:
    """A function of one number: `ln(5)`, `sqrt(2)`, `exp(-1)`."""
    func = FUNCTIONS[name]
    text = f"{name}({arg.text})"
    try:
        value = func(float(arg.value))
    except (ValueError, OverflowError):
        raise InvalidPrediction(Said(text), " is not a number I can compute.", how=False) from None
    return _result(value, text, (arg,))
