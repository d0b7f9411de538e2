"""Reading observations (docs/observations.md): plain dicts from the kernel."""

from __future__ import annotations

import json
import math
from typing import Any

from . import dtypes
from .numbers import as_live

Obs = dict[str, Any]
Scalar = int | float | complex


def otype(obs: object) -> str:
    return str(obs.get("type", "?")) if isinstance(obs, dict) else "?"


def is_none(obs: Obs) -> bool:
    return otype(obs) == "none"


def truncated(obs: Obs) -> bool:
    return bool(obs.get("truncated"))


def _leaf(value: object, complex_dtype: bool) -> Scalar | bool:
    if complex_dtype and isinstance(value, list) and len(value) == 2:
        return complex(as_live(value[0]), as_live(value[1]))
    if isinstance(value, bool):
        return value
    return as_live(value)


def tensor_shape(obs: Obs) -> tuple[int, ...]:
    return tuple(int(d) for d in obs.get("shape", ()))


def tensor_dtype(obs: Obs) -> str:
    return str(obs.get("dtype", "float32"))


def tensor_leaves(obs: Obs) -> list[Scalar | bool] | None:
    """The tensor's elements in row-major order, or None when values are missing."""
    if "values" not in obs or truncated(obs):
        return None
    is_complex = dtypes.dtype_class(tensor_dtype(obs)) == "complex"
    ndim = len(tensor_shape(obs))
    out: list[Scalar | bool] = []

    def walk(v: object, depth: int) -> None:
        if depth < ndim and isinstance(v, list):
            for x in v:
                walk(x, depth + 1)
        else:
            out.append(_leaf(v, is_complex))

    walk(obs["values"], 0)
    return out


def numel(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def single_number(obs: Obs) -> Scalar | bool | None:
    """The one number an observation holds: int/float/bool/complex or a
    one-element tensor; None otherwise."""
    t = otype(obs)
    if t == "bool":
        return bool(obs.get("value"))
    if t in ("int", "float"):
        return as_live(obs.get("value"))
    if t == "complex":
        return complex(as_live(obs.get("real", 0.0)), as_live(obs.get("imag", 0.0)))
    if t == "tensor" and numel(tensor_shape(obs)) == 1:
        leaves = tensor_leaves(obs)
        return leaves[0] if leaves else None
    return None


def items(obs: Obs) -> list[Obs] | None:
    """Items of a list/tuple/set, or the keys of a dict; None for other types."""
    t = otype(obs)
    if t in ("list", "tuple", "set"):
        return list(obs.get("items", []))
    if t == "dict":
        return [pair[0] for pair in obs.get("items", [])]
    return None


def token(obs: Obs) -> str | None:
    """The text an observation reads as: str value, grad_fn name, dtype, ..."""
    t = otype(obs)
    if t == "str":
        return str(obs.get("value", ""))
    if t == "grad_fn":
        return str(obs.get("name", ""))
    if t in ("dtype", "device"):
        return str(obs.get("value", ""))
    if t in ("module", "object"):
        return str(obs.get("class", ""))
    if t == "exception":
        return str(obs.get("name", ""))
    if t == "bool":
        return str(bool(obs.get("value")))
    if t == "int":
        return str(obs.get("value"))
    if t == "none":
        return "None"
    return None


def key(obs: Obs) -> str:
    """A canonical key for de-duplicating observations."""
    return json.dumps(obs, sort_keys=True, default=str)
