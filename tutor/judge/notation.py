"""notation(): the canonical answer text for a live value, as an author would
write it in a lesson's `answer:` field. Every result is checked with the judge
itself, so it is judged correct against the value it came from."""

from __future__ import annotations

import math
from typing import Any

from . import dtypes
from . import numbers as nums
from .display import display
from .obs import (
    Obs,
    items,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
    token,
)  # fmt: skip
from .predictions import fmt_shape
from .text import normalise_chars
from .verdict import JudgeSpec, Status


def _float_elem(v: float) -> str:
    if math.isfinite(v) and v.is_integer() and abs(v) < 1e15:
        return f"{v:.0f}."
    return nums.notation(v)


def _complex(v: complex, elem: bool) -> str:
    real = _float_elem(v.real) if elem else nums.notation(v.real)
    imag = _float_elem(abs(v.imag)) if elem else nums.notation(abs(v.imag))
    return f"{real}{'-' if math.copysign(1, v.imag) < 0 else '+'}{imag}j"


def _elem(v: Any, cls: str) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        return _complex(v, True)
    if cls == "int" and isinstance(v, int):
        return str(v)
    return _float_elem(float(v))


def _nest(flat: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0] if shape[0] else 0
    rows = [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(rows) + "]"


def tensor_notation(obs: Obs) -> str:
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
        body = _nest([_elem(v, cls) for v in leaves], shape)
    if dtype not in dtypes.REPR_DEFAULTS or (not leaves and dtype != "float32"):
        extra += f", dtype=torch.{dtype}"
    return f"tensor({body}{extra})"


def _number(obs: Obs) -> str:
    v = single_number(obs)
    if v is None:
        raise ValueError(f"{display(obs)} is not one number")
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, complex):
        return _complex(v, False)
    return nums.notation(v)


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
        v = nums.as_live(obs.get("value"))
        return repr(v) if math.isfinite(v) else nums.notation(v)
    if t in ("int", "float", "complex", "bool"):
        return _number(obs)
    if t == "none":
        return "None"
    if t == "tensor":
        return tensor_notation(obs)
    if t in ("list", "tuple", "set", "dict"):
        return "[" + ", ".join(_item(i) for i in items(obs) or []) + "]"
    if t == "dtype":
        return f"torch.{obs.get('value')}"
    return repr(token(obs) or display(obs))


def _candidates(live: Obs, kind: str) -> list[str]:
    t = otype(live)
    if t == "none":
        return ["no error" if kind == "exception" else "None"]
    if kind == "number":
        return [_number(live)]
    if kind == "tensor":
        return [tensor_notation(live)] if t == "tensor" else [_number(live)]
    if kind in ("bool", "same_storage"):
        v = live.get("value") if t == "bool" else single_number(live)
        if kind == "same_storage":
            return ["yes" if v else "no"]
        return [str(bool(v))]
    if kind in ("set", "list"):
        its = items(live)
        if its is None:
            return ["[" + ", ".join(_number({"type": "float", "value": v}) if not isinstance(
                v, bool) else str(v) for v in (tensor_leaves(live) or [])) + "]"]  # fmt: skip
        # exact numbers as a fallback, when rounding makes two items look alike
        return ["[" + ", ".join(_item(i, exact) for i in its) + "]" for exact in (False, True)]
    if kind == "shape":
        from .compare_values import live_shape

        dims = live_shape(live)
        return [fmt_shape(dims)] if dims is not None else []
    if kind == "dtype":
        from .compare_values import live_dtype

        name = live_dtype(live)
        return [f"torch.{name}"] if name else []
    if kind == "exception":
        return [str(live.get("name", "")).rsplit(".", 1)[-1]] if t == "exception" else []
    if kind == "stdout":
        text = str(live.get("value", "")) if t == "str" else display(live)
        return [text] if text.strip() else ["nothing"]
    if kind == "choice":
        return [display(live, "choice")]
    tok = token(live)
    if t == "dtype":
        tok = f"torch.{live.get('value')}"
    base = tok if tok is not None else display(live, kind)
    return [base, repr(base), "''"] if base else ["''"]


def notation(live: dict, kind: str) -> str:
    """The canonical answer text for `live`, judged correct against it.

    Raises ValueError when no such text exists (a truncated value, a value
    beyond the input limits, an observation that is not of this kind)."""
    from .core import judge_strict

    try:
        candidates = _candidates(live, kind)
    except (ValueError, TypeError) as e:
        raise ValueError(f"cannot write {display(live, kind)} as a {kind} answer: {e}") from e
    for text in candidates:
        spec = JudgeSpec(kind=kind, choices=(text,) if kind == "choice" else ())
        if judge_strict(spec, text, live).status is Status.CORRECT:
            return text
    raise ValueError(f"cannot write {display(live, kind)} as a {kind} answer the judge accepts")
