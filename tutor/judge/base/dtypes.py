"""torch dtype names and their aliases (no torch import)."""

from __future__ import annotations

import math
import re

from .errors import InvalidPrediction
from .parts import Said

ALIASES: dict[str, str] = {
    "float": "float32",
    "single": "float32",
    "double": "float64",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "chalf": "complex32",
    "bool": "bool",
    "boolean": "bool",
    "byte": "uint8",  # torch.byte
    "char": "int8",  # torch.char
}

KNOWN = frozenset(
    {
        "float16", "float32", "float64", "bfloat16",
        "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64",
        "complex32", "complex64", "complex128",
        "bool", "qint8", "quint8", "qint32", "quint4x2", "quint2x4",
        "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
        "float8_e8m0fnu", "float4_e2m1fn_x2",
    }
)  # fmt: skip

# Names a future torch may add: float8_..., uint1..uint7, int1..int7, bits16 ...
_DTYPE_LIKE = re.compile(r"(?:u?int|float|bfloat|complex|qu?int|bits)\d+\w*")
_PREFIXES = ("torch.", "np.", "numpy.")
_DTYPE_CALL = re.compile(r"(?:np\.|numpy\.)?dtype\(\s*['\"]?([\w.]+)['\"]?\s*\)")

# Dtypes torch leaves out of a tensor's repr.
REPR_DEFAULTS = frozenset({"float32", "int64", "bool", "complex64"})


def canonical(text: str) -> str | None:
    """`torch.float`, `Float32`, `'long'` -> the canonical name, or None."""
    t = text.strip().strip("'\"").casefold()
    m = _DTYPE_CALL.fullmatch(t)
    if m:
        t = m.group(1)  # numpy's `dtype('float32')`
    for prefix in _PREFIXES:
        if t.startswith(prefix):
            t = t[len(prefix) :]
            break
    t = ALIASES.get(t, t)
    if t in KNOWN or _DTYPE_LIKE.fullmatch(t):
        return t
    return None


def read_dtype(text: str) -> str:
    name = canonical(text)
    if name is None:
        raise InvalidPrediction(Said(repr(text.strip())), " is not a dtype I know.")
    return name


def dtype_class(name: str) -> str:
    """'float', 'int', 'bool', 'complex' or 'other'."""
    if name == "bool":
        return "bool"
    if name.startswith("complex"):
        return "complex"
    if name.startswith(("float", "bfloat")):
        return "float"
    if name.startswith(("int", "uint", "qint", "quint")):
        return "int"
    return "other"


# Bits of mantissa of the floating dtypes: their resolution (see `spacing`).
MANTISSA_BITS = {
    "float64": 52, "float32": 23, "float16": 10, "bfloat16": 7, "float8_e4m3fn": 3,
    "float8_e4m3fnuz": 3, "float8_e5m2": 2, "float8_e5m2fnuz": 2, "complex128": 52,
    "complex64": 23, "complex32": 10,
}  # fmt: skip


def spacing(value: float, dtype: str) -> float:
    """The gap between `value` and the next number the float dtype can hold
    (its resolution there); 0 for integer dtypes, whose values are exact."""
    bits = MANTISSA_BITS.get(dtype)
    if bits is None or value == 0 or not math.isfinite(value):
        return 0.0
    return math.ldexp(1.0, math.frexp(abs(value))[1] - 1 - bits)
