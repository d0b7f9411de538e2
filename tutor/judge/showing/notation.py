"""Notation: the answer text for a live value, as an author writes it in a
lesson's `answer:` and a learner would type it.

Each function here proposes candidates, best first; the kind registry checks
each with the judge's own reader and comparer and keeps the first judged right.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import dtypes
from ..base.errors import InvalidPrediction
from ..base.obs import (
    Obs,
    as_live,
    items,
    number_dtype,
    otype,
    public_exception_name,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
    token,
)  # fmt: skip
from ..base.text import normalise_chars
from ..comparing.numbers import matches
from ..comparing.values import live_dtype, live_shape
from ..comparing.words import live_bool, live_exception
from ..reading.numbers import read_number
from ..reading.predictions import fmt_shape
from .display import show


def _strip_zeros(text: str) -> str:
    mantissa, e, exp = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0")
        if mantissa.endswith("."):
            mantissa += "0"
    return mantissa + e + exp


def _read_signed(text: str) -> Any:
    if text[:1] in "+-":
        lit = read_number(text[1:])
        return lit.negated() if text[0] == "-" else lit
    return read_number(text)


def number_text(value: int | float | bool, dtype: str = "float64") -> str:
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
    candidates = [_strip_zeros(sci), sci]
    if 1e-4 <= abs(value) < 1e8:
        candidates = [_strip_zeros(fixed), fixed, *candidates]
    for text in candidates:
        try:
            lit = _read_signed(text)
        except InvalidPrediction:  # e.g. 1.7977e+308 rounds up to inf
            continue
        if matches(lit, value, dtype):
            return text
    return repr(value)


def _float_elem(v: float, dtype: str) -> str:
    if math.isfinite(v) and v.is_integer() and abs(v) < 1e15:
        return f"{v:.0f}."
    return number_text(v, dtype)


def _complex(v: complex, elem: bool, dtype: str) -> str:
    part = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
    real = _float_elem(v.real, part) if elem else number_text(v.real, part)
    imag = _float_elem(abs(v.imag), part) if elem else number_text(abs(v.imag), part)
    return f"{real}{'-' if math.copysign(1, v.imag) < 0 else '+'}{imag}j"


def _elem(v: Any, cls: str, dtype: str) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        return _complex(v, True, dtype)
    if cls == "int" and isinstance(v, int):
        return str(v)
    return _float_elem(float(v), dtype)


def _nest(flat: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0] if shape[0] else 0
    rows = [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(rows) + "]"


def _dtype_suffix(dtype: str, empty: bool) -> str:
    if dtype not in dtypes.REPR_DEFAULTS or (empty and dtype != "float32"):
        return f", dtype=torch.{dtype}"
    return ""


def tensor_text(obs: Obs) -> str:
    leaves = tensor_leaves(obs)
    if leaves is None:
        raise ValueError("a truncated tensor cannot be written as an answer")
    shape, dtype = tensor_shape(obs), tensor_dtype(obs)
    cls = dtypes.dtype_class(dtype)
    extra = ""
    if not leaves and len(shape) != 1:
        body = "[]"
        extra = f", size={tuple(shape)}"
    else:
        body = _nest([_elem(v, cls, dtype) for v in leaves], shape)
    return f"tensor({body}{extra}{_dtype_suffix(dtype, not leaves)})"


def uniform_text(obs: Obs) -> str | None:
    """torch.zeros(2, 3), torch.ones(4), torch.full((2, 2), 7.) for a tensor whose
    elements are all equal; None otherwise."""
    leaves = tensor_leaves(obs)
    if not leaves or any(v != leaves[0] or isinstance(v, complex) for v in leaves):
        return None
    shape, dtype = tensor_shape(obs), tensor_dtype(obs)
    dims = ", ".join(str(d) for d in shape)
    suffix = "" if dtype == "float32" else f", dtype=torch.{dtype}"
    first = leaves[0]
    if first == 0 and not isinstance(first, bool):
        return f"torch.zeros({dims}{suffix})"
    if first == 1 and not isinstance(first, bool):
        return f"torch.ones({dims}{suffix})"
    fill = _elem(first, dtypes.dtype_class(dtype), dtype)
    return f"torch.full({fmt_shape(shape)}, {fill}{suffix})"


def _number(obs: Obs) -> str:
    v = single_number(obs)
    if v is None:
        raise ValueError(f"{show(obs)} is not one number")
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        return _complex(v, False, number_dtype(obs))
    return number_text(v, number_dtype(obs))


def _quoted(value: str) -> str:
    """repr(value), with \\u escapes if answers' character normalisation
    (full-width forms, curly quotes) would change it."""
    text = repr(value)
    return text if normalise_chars(text) == text else ascii(value)


def _item(obs: Obs, exact: bool = False) -> str:
    t = otype(obs)
    if t == "str":
        return _quoted(str(obs.get("value", "")))
    if exact and t == "float":
        v = as_live(obs.get("value"))
        return repr(v) if math.isfinite(v) else number_text(v)
    if t in ("int", "float", "complex", "bool"):
        return _number(obs)
    if t == "none":
        return "None"
    if t == "tensor":
        return tensor_text(obs)
    if t == "size":
        return fmt_shape(tuple(int(d) for d in obs.get("value", ())))
    if t in ("list", "tuple", "set", "dict"):
        return "[" + ", ".join(_item(i, exact) for i in items(obs) or []) + "]"
    if t == "dtype":
        return f"torch.{obs.get('value')}"
    return repr(token(obs) or show(obs))


# ---- candidates, one function per notation ---------------------------------------


def number_candidates(live: Obs) -> list[str]:
    return [_number(live)]


def tensor_candidates(live: Obs) -> list[str]:
    if otype(live) != "tensor":
        return [_number(live)]
    out = []
    try:
        out.append(tensor_text(live))
    except ValueError:
        pass
    uniform = uniform_text(live)
    if uniform is None:
        return out
    # a tensor of zeros is written as such, unless it is short enough to read out
    return [uniform, *out] if len(tensor_leaves(live) or ()) > 6 else [*out, uniform]


def bool_candidates(live: Obs) -> list[str]:
    v = live_bool(live)
    return [] if v is None else [str(v)]


def yes_no_candidates(live: Obs) -> list[str]:
    v = live_bool(live)
    return [] if v is None else ["yes" if v else "no"]


def items_candidates(live: Obs) -> list[str]:
    its = items(live)
    if its is None:
        leaves = tensor_leaves(live) if otype(live) == "tensor" else None
        if leaves is None:
            return []
        return ["[" + ", ".join(str(v) if isinstance(v, bool) else _number(
            {"type": "float", "value": v}) for v in leaves) + "]"]  # fmt: skip
    # exact numbers as a fallback, when rounding makes two items look alike
    return ["[" + ", ".join(_item(i, exact) for i in its) + "]" for exact in (False, True)]


def shape_candidates(live: Obs) -> list[str]:
    dims = live_shape(live)
    return [fmt_shape(dims)] if dims is not None else []


def dtype_candidates(live: Obs) -> list[str]:
    name = live_dtype(live)
    return [f"torch.{name}"] if name else []


def exception_candidates(live: Obs) -> list[str]:
    live = live_exception(live)
    if otype(live) == "none":
        return ["no error"]
    return [public_exception_name(live).rsplit(".", 1)[-1].lstrip("_")]


def stdout_candidates(live: Obs) -> list[str]:
    text = str(live.get("value", "")) if otype(live) == "str" else show(live)
    return [text] if text.strip() else ["nothing"]


def choice_candidates(live: Obs) -> list[str]:
    return [show(live) if otype(live) != "str" else str(live.get("value", ""))]


def text_candidates(live: Obs) -> list[str]:
    if otype(live) == "none":
        return ["None"]
    tok = token(live)
    if otype(live) == "dtype":
        tok = f"torch.{live.get('value')}"
    base = tok if tok is not None else show(live)
    return [base, repr(base), "''"] if base else ["''"]
