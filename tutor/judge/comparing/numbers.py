"""The number rule: a typed number is right when the live value rounds to it at
the precision typed (docs/judging.md, "The number rule").

For a typed *t* and a live *v*, the allowed gap |t - v| is the smallest of

* half a unit in the last decimal typed (`1.61`: 0.005; `6e-1`: 0.05);
* half a unit in the second significant digit of *t*, and of *v*: at least two
  significant digits always count, so sign and order of magnitude always matter
  (`0` is not 3.2e-6, `0.6` is not 0.64);

but never less than the live dtype's resolution at *v* (its spacing): float32
can't tell 0.6 from 0.6000000238, so typing more digits than float32 holds is not
held against the learner.  A computed answer with decimals in it (`3*1.61+5`) may be off by what
its decimals allow.  A computed exact answer (`3/5`, `ln(5)`) is right
within a few steps of that resolution, and never held to more than float32's
(about seven significant digits); a whole number typed for an integer live value
must be equal.  An author's `tolerance:` replaces all of this.
"""

from __future__ import annotations

import math
import re
import struct

from tutor import i18n

from ..base.dtypes import spacing
from ..base.verdict import Tolerance
from ..reading.numbers import NumLit, half_unit, magnitude

EXACT_STEPS = 16  # resolution steps a computed exact answer may differ by (rounding on the way)
_FINE = frozenset({"float64", "float32", "int64", "int32", "int16", "int8", "uint8", "bool"})


def typed_gap(p: NumLit) -> float:
    """The gap what was typed allows, before the live value is known."""
    return p.reach


def allowed_gap(p: NumLit, v: float, dtype: str) -> float:
    """How far the live value may be from what was typed."""
    resolution = spacing(v, dtype)
    if p.exact:
        t = float(p.value)
        return max(EXACT_STEPS * resolution, 2 * spacing(v, "float32"), 1e-12 * abs(t))
    gap = typed_gap(p)
    if v != 0:
        gap = min(gap, half_unit(magnitude(v) - 1))
    return max(gap, resolution)


def _slack(t: float, v: float) -> float:
    """Typed decimals are not exact in binary: a few ulps either way."""
    return 4 * math.ulp(max(abs(t), abs(v)))


def matches(p: NumLit, live: int | float, dtype: str = "float64",
            tol: Tolerance | None = None) -> bool:
    """The number rule (module docstring) for a typed number and a live one."""
    t = p.value
    if isinstance(t, float) and math.isnan(t) or isinstance(live, float) and math.isnan(live):
        return (isinstance(t, float) and math.isnan(t)
                and isinstance(live, float) and math.isnan(live))  # fmt: skip
    if isinstance(t, float) and math.isinf(t) or isinstance(live, float) and math.isinf(live):
        return t == live
    if t == live:
        return True  # the very value: right at any precision
    if isinstance(t, int) and isinstance(live, int) and (p.is_int or p.exact):
        return False
    diff = abs(float(t) - float(live))
    if tol is not None:
        return diff <= tol.atol + tol.rtol * abs(live) + _slack(float(t), float(live))
    if diff > p.reach * 1.000001 and diff > 1e-5 * abs(live) and dtype in _FINE:
        return False  # far beyond what was typed, and beyond the dtype's resolution
    gap = allowed_gap(p, float(live), dtype)
    return diff <= gap * (1 + 1e-9) + _slack(float(t), float(live))


def close(p: NumLit, v: float) -> bool:
    """Is a wrong typed literal wrong only by its precision?  The live value rounds
    to it at the precision typed (`2` for 2.43, held to two significant digits;
    `120` for 123, typed to the tens), or,
    with two significant digits or more, it is off by at most one unit in its last
    digit (`0.69314` for 0.693147...)."""
    if p.decimals is None:
        return False
    last = -p.decimals  # the power of ten of the last digit typed
    if p.is_int and isinstance(p.value, int) and p.value:
        whole = abs(p.value)
        while whole % 10 == 0 and last < 300:  # `120`: typed to the tens
            whole //= 10
            last += 1
    unit = 2 * half_unit(last)
    diff = abs(float(p.value) - v) - _slack(float(p.value), v)
    return diff <= unit / 2 * (1 + 1e-9) or (p.sig >= 2 and diff <= unit * (1 + 1e-9))


def hint(p: NumLit, live: int | float, dtype: str = "float64") -> str | None:
    """Why a typed number is wrong, when the reason is its precision: the live
    value at the precision the answer was read to."""
    v, t = float(live), float(p.value)
    if p.exact or p.decimals is None or not (math.isfinite(v) and math.isfinite(t)) or v == 0:
        return None
    if isinstance(live, int) and p.is_int:
        return None  # whole numbers are equal or not
    if p.is_int and p.sig < 2 and v.is_integer():
        return None  # `10` for a live 12.0: another number, not 12 rounded to the tens
    if not close(p, v):
        return None  # not a matter of precision: the answer is off
    gap = allowed_gap(p, v, dtype)
    if gap <= 0:
        return None
    decimals = round(-math.log10(2 * gap))
    sig = decimals + magnitude(v) + 1
    if (abs(v) < 1e-3 or abs(v) >= 1e6) and 1 <= sig <= 15:
        at = i18n._("At {n} significant digits the live value is {value}.").format(
            n=sig, value=f"{v:.{sig - 1}e}")
    elif 0 <= decimals <= 12:
        at = i18n.ngettext("At {n} decimal the live value is {value}.",
                           "At {n} decimals the live value is {value}.", decimals).format(
                               n=decimals, value=f"{v:.{decimals}f}")
    else:
        return None
    if p.decimals is not None and p.sig < 2:
        return i18n._("Numbers are read to at least two significant digits.") + " " + at
    return at


_PACK = {"float16": "e", "float32": "f"}  # dtypes whose values struct can round to
_SHOWN = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", re.IGNORECASE)


def significant(text: str) -> int:
    """Significant digits of a number as written (`0.0010`: 2, `1.5e-07`: 2)."""
    digits = re.sub(r"e.*$", "", text.lower()).lstrip("-").replace(".", "").lstrip("0")
    return max(len(digits), 1)


def shortest(v: float, dtype: str) -> str:
    """`v` with the fewest digits that still name exactly this value of `dtype`
    (float16's 0.0009765625 is `0.0009766`; float32's 0.1 is `0.1`)."""
    code = _PACK.get(dtype)
    if code is None:
        return repr(float(v))
    for digits in range(1, 18):
        text = f"{v:.{digits}g}"
        if struct.unpack(code, struct.pack(code, float(text)))[0] == v:
            return text
    return repr(float(v))


def in_full(p: NumLit, v: float, dtype: str, repr_text: str) -> str | None:
    """The live value to one digit more than the learner typed, when torch printed it with fewer
    significant digits than the learner typed and the print hides how far off they were
    (`0.000977` typed, `tensor(0.0010, dtype=torch.float16)` printed: 0.0009766): the
    print alone would have them believe they were nearer than the value shown.  None
    when the print holds the learner's precision, or is the value itself."""
    shown = _SHOWN.search(repr_text.removeprefix("tensor(")) if repr_text else None
    if shown is None or p.decimals is None or not math.isfinite(v):
        return None
    if significant(shown.group()) >= p.sig:
        return None
    # one digit more than typed (float16's shortest name of a value may have no more
    # digits than the answer: 0.000977 names 0.0009765625), or all the dtype holds
    digits = max(p.sig + 1, significant(shortest(v, dtype)))
    full = f"{v:.{digits}g}"
    if float(full) == float(shown.group()):
        return None  # (printed exactly)
    return full
