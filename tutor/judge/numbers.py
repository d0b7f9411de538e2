"""Typed numbers, the number rule, and number formatting.

A typed number remembers how it was written (its decimals and significant
digits) because the rule for "right" depends on the precision the learner gave.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import MAX_DIGITS, InvalidPrediction
from .verdict import Tolerance

# torch.testing's float32 defaults: the tolerance every answer gets.
ATOL = 1e-5
RTOL = 1.3e-6

_SPECIAL = {
    "nan": math.nan,
    "inf": math.inf,
    "infinity": math.inf,
}
_SPECIAL_PREFIXES = ("torch.", "math.", "np.", "numpy.", "float.")
NUMBER_RE = re.compile(
    r"(?:[0-9]+(?:_[0-9]+)*(?:\.(?:[0-9]+(?:_[0-9]+)*)?)?|\.[0-9]+(?:_[0-9]+)*)"
    r"(?:[eE][+-]?[0-9]+)?[jJ]?"
)


@dataclass(frozen=True)
class NumLit:
    """A number as typed."""

    value: int | float
    text: str
    decimals: int | None  # decimal places as written; None: exact value (fraction, nan)
    sig: int  # significant digits as written
    is_int: bool  # written as a whole number (no point, no exponent)

    def negated(self) -> NumLit:
        text = self.text[1:] if self.text.startswith("-") else "-" + self.text
        return NumLit(-self.value, text, self.decimals, self.sig, self.is_int)


def special_value(name: str) -> float | None:
    """nan / inf written as a name (`nan`, `torch.inf`, `Infinity`), else None."""
    low = name.casefold()
    for prefix in _SPECIAL_PREFIXES:
        if low.startswith(prefix):
            low = low[len(prefix) :]
            break
    return _SPECIAL.get(low)


def special_lit(name: str) -> NumLit | None:
    value = special_value(name)
    if value is None:
        return None
    return NumLit(value, name, None, 0, False)


def read_number(text: str) -> NumLit:
    """Read an unsigned decimal literal such as `0.6`, `.6`, `6e-1`, `1_000`."""
    if not NUMBER_RE.fullmatch(text) or text[-1] in "jJ":
        raise InvalidPrediction(f"I can't read {text!r} as a number.")
    s = text.replace("_", "")
    mantissa, _, exp_text = s.lower().partition("e")
    whole, point, frac = mantissa.partition(".")
    digits = whole + frac
    if len(digits) + len(exp_text) > MAX_DIGITS:
        raise InvalidPrediction(f"That number has too many digits (the limit is {MAX_DIGITS}).")
    is_int = not point and not exp_text
    exponent = int(exp_text) if exp_text else 0
    value: int | float = int(s) if is_int else float(s)
    if math.isinf(value):
        raise InvalidPrediction(f"{text} is too large to be a number I can compare.")
    if value == 0 and digits.strip("0"):
        raise InvalidPrediction(f"{text} is too small to be a number I can compare.")
    significant = digits.lstrip("0")
    if is_int:  # trailing zeros of a whole number are not significant: "10" is one digit
        significant = significant.rstrip("0") or "0"
    return NumLit(value, text, len(frac) - exponent, len(significant), is_int)


def fraction(num: NumLit, den: NumLit) -> NumLit:
    """`3/5`: both parts whole numbers; the value is compared exactly (rule a)."""
    if not (num.is_int and den.is_int):
        raise InvalidPrediction("Only simple fractions of whole numbers, like 3/5, are allowed.")
    if den.value == 0:
        raise InvalidPrediction("That fraction divides by zero.")
    return NumLit(num.value / den.value, f"{num.text}/{den.text}", None, 0, False)


def bool_lit(value: bool) -> NumLit:
    return NumLit(int(value), str(value), 0, 1, True)


def as_live(value: object) -> int | float:
    """A live scalar from an observation (`"nan"`, `"inf"`, bools as 0/1)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    raise TypeError(f"not a live number: {value!r}")


def matches(pred: NumLit, live: int | float, tol: Tolerance | None = None) -> bool:
    """The number rule (docs/judging.md)."""
    p = pred.value
    if isinstance(p, float) and math.isnan(p) or isinstance(live, float) and math.isnan(live):
        return (
            isinstance(p, float) and math.isnan(p) and isinstance(live, float) and math.isnan(live)
        )
    if isinstance(p, float) and math.isinf(p) or isinstance(live, float) and math.isinf(live):
        return p == live
    diff = abs(p - live)
    if tol is not None:
        return diff <= tol.atol + tol.rtol * abs(live) + _eps(p, live)
    if pred.is_int and isinstance(live, int):
        return p == live
    if diff <= ATOL + RTOL * abs(live):
        return True
    return rounds_to(pred, live)


def rounds_to(pred: NumLit, live: int | float) -> bool:
    """Rule (b): at least 2 significant digits, and `live` rounds to `pred` at the
    typed number of decimals."""
    if pred.decimals is None or pred.sig < 2:
        return False
    try:
        bound = 0.5 * 10.0 ** (-pred.decimals)
    except OverflowError:
        return True
    return abs(pred.value - live) <= bound * (1 + 1e-9) + _eps(pred.value, live)


def _eps(p: int | float, live: int | float) -> float:
    """Slack for binary floats: typed decimals are not exact in binary."""
    return 4 * math.ulp(max(abs(float(p)), abs(float(live))))


def hint(pred: NumLit, live: int | float) -> str | None:
    """Why a typed number is wrong, when the reason is its precision."""
    if pred.decimals is None or not math.isfinite(float(live)) or not math.isfinite(pred.value):
        return None
    if pred.sig < 2 and rounds_to(NumLit(pred.value, pred.text, pred.decimals, 2, False), live):
        return (
            f"{pred.text} has only one significant digit; give at least two "
            f"(the live value is {fmt_float(float(live))})."
        )
    if 0 < pred.decimals <= 8 and pred.sig >= 2:
        unit = "decimal" if pred.decimals == 1 else "decimals"
        return f"At {pred.decimals} {unit} the live value is {float(live):.{pred.decimals}f}."
    return None


def fmt_float(x: float) -> str:
    """A float as torch prints a scalar: 4 decimals, scientific when tiny or huge."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 1e8:
        return f"{x:.1f}"
    if 1e-4 <= abs(x) < 1e8:
        return f"{x:.4f}"
    return f"{x:.4e}"


def fmt_live(value: int | float) -> str:
    return str(value) if isinstance(value, int) else fmt_float(value)


def _strip_zeros(text: str) -> str:
    mantissa, e, exp = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0")
        if mantissa.endswith("."):
            mantissa += "0"
    return mantissa + e + exp


def notation(value: int | float) -> str:
    """The shortest torch-like text for `value` that the number rule accepts."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value.is_integer() and abs(value) < 1e15:
        return f"{value:.1f}"
    fixed, sci = f"{value:.4f}", f"{value:.4e}"
    if 1e-4 <= abs(value) < 1e8:
        candidates = [_strip_zeros(fixed), fixed, _strip_zeros(sci), sci]
    else:
        candidates = [_strip_zeros(sci), sci]
    for text in candidates:
        try:
            lit = read_signed(text)
        except InvalidPrediction:  # e.g. 1.7977e+308 rounds up to inf
            continue
        if matches(lit, value):
            return text
    return repr(value)


def read_signed(text: str) -> NumLit:
    """`read_number` with an optional leading sign (used on notation output)."""
    if text[:1] in "+-":
        lit = read_number(text[1:])
        return lit.negated() if text[0] == "-" else lit
    return read_number(text)
