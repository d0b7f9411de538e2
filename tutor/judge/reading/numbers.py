"""Typed numbers: literals that remember how they were written, and safe arithmetic.

The number rule (comparing/numbers.py) depends on the precision the learner
gave, so a typed number keeps its decimals and significant digits.  A value the
learner computed (`3/5`, `3*ln(5)+5`, `pi`) is *exact* when every number in it
was exact (whole numbers, constants); otherwise it carries the uncertainty its
decimals give it (`3*1.6094+5` is 9.8282 give or take 0.00015), found by
computing it again at the ends of each part's interval.  Nothing here calls
`eval`: operators and functions are applied one by one on floats, with every
overflow and domain error turned into a friendly `InvalidPrediction`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import product

from ..base.errors import MAX_DIGITS, InvalidPrediction
from ..base.parts import Fill, Said

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
    err: float | None = None  # a computed inexact value: how far off its decimals allow

    def negated(self) -> NumLit:
        text = self.text[1:] if self.text.startswith("-") else "-" + self.text
        return replace(self, value=-self.value, text=text)

    @cached_property
    def reach(self) -> float:
        """How far from this value what was typed reaches, before the live value is
        known: half a unit in its last decimal, and in its second significant digit
        (a typed 0 reaches nothing; an exact value, nothing)."""
        if self.exact:
            return 0.0
        t = float(self.value)
        if t == 0 or not math.isfinite(t):
            return 0.0
        gap = math.inf
        if self.err is not None:  # computed from decimals: as far off as they allow
            gap = self.err
        elif self.decimals is not None:
            gap = half_unit(-self.decimals)
        return min(gap, half_unit(magnitude(t) - 1))


def half_unit(exponent: int) -> float:
    """0.5 * 10**exponent, clamped to the float range."""
    if exponent > 308:
        return math.inf
    if exponent < -340:
        return 0.0
    return 0.5 * 10.0**exponent


def magnitude(x: float) -> int:
    """The power of ten of the first significant digit of x (x != 0)."""
    m = math.floor(math.log10(abs(x)))
    if m < 308 and abs(x) >= 10.0 ** (m + 1):  # log10 rounding near powers of ten
        m += 1
    return m


def _strip_prefix(name: str) -> str:
    low = name.casefold()
    if "." not in low or not low.startswith(_PREFIXES):
        return low
    return low.split(".", 1)[1]


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


def read_number(text: str, *, checked: bool = False) -> NumLit:
    """Read an unsigned decimal literal such as `0.6`, `.6`, `6e-1`, `1_000`
    (`checked`: the lexer has already matched it)."""
    if not checked and (not NUMBER_RE.fullmatch(text) or text[-1] in "jJ"):
        raise InvalidPrediction("I can't read ", Said(repr(text)), " as a number.")
    s = text.replace("_", "") if "_" in text else text
    mantissa, _, exp_text = s.lower().partition("e")
    whole, point, frac = mantissa.partition(".")
    digits = whole + frac
    if len(digits) + len(exp_text) > MAX_DIGITS:
        raise InvalidPrediction("That number has too many digits (the limit is ",
                                Fill(str(MAX_DIGITS)), ").",
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
        raise InvalidPrediction(Said(what), " is too large (or undefined) to compare.",
                                how=False)
    return value


def uncertainty(p: NumLit) -> float:
    """How far the true value of what was typed may be from `p.value`: half a
    unit in its last decimal; 0 for whole numbers and exact values."""
    if p.exact or p.is_int:
        return 0.0
    if p.err is not None:
        return p.err
    if p.decimals is not None:
        return 0.5 * 10.0 ** -p.decimals if p.decimals > -300 else math.inf
    return 0.0


def compute(text: str, func: Callable[..., float], *args: NumLit) -> NumLit:
    """func(*args) as a typed value: exact when every argument is, otherwise with
    the spread func takes over the arguments' uncertainty (at the corners)."""
    xs = [float(a.value) for a in args]
    errs = [uncertainty(a) for a in args]
    try:
        value = func(*xs)
    except ZeroDivisionError:
        raise InvalidPrediction(Said(text), " divides by zero.", how=False) from None
    except (ValueError, OverflowError):
        raise InvalidPrediction(Said(text), " is not a number I can compute.",
                                how=False) from None
    if isinstance(value, complex):
        raise InvalidPrediction(Said(text), " is not a real number.", how=False)
    value = _finite(float(value), text)
    if not any(errs):
        whole = value.is_integer() and abs(value) < _BIG
        return NumLit(int(value) if whole else value, text, None, 0, whole, exact=True)
    err = 0.0
    for signs in product((-1.0, 1.0), repeat=len(xs)):
        try:
            corner = func(*(x + s * e for x, s, e in zip(xs, signs, errs, strict=True)))
            err = max(err, abs(float(corner) - value))
        except (ValueError, OverflowError, ZeroDivisionError, TypeError):
            err = math.inf
    if math.isnan(err):
        err = math.inf
    return NumLit(value, text, None, 0, False, err=err)


def _pow(x: float, y: float) -> float:
    if x < 0 and not y.is_integer():
        raise ValueError("not a real number")
    return math.pow(x, y)


_OPS: dict[str, Callable[[float, float], float]] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": lambda x, y: x / y,
    "**": _pow,
}


def combine(op: str, a: NumLit, b: NumLit) -> NumLit:
    """`a op b` for op in + - * / ** (and ^ as **)."""
    text = f"{a.text}{op}{b.text}"
    if op == "**" and float(a.value) < 0 and not float(b.value).is_integer():
        raise InvalidPrediction(Said(text), " is not a real number.", how=False)
    return compute(text, _OPS[op], a, b)


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
    return compute(f"{name}({arg.text})", FUNCTIONS[name], arg)
