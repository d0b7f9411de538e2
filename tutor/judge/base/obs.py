"""Reading observations (docs/observations.md): plain dicts from the kernel.

Every accessor tolerates a malformed observation (a missing key, a value of the
wrong type): the judge is handed whatever the kernel sent.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from . import dtypes

Obs = dict[str, Any]
Scalar = int | float | complex

_CLASS_REPR = re.compile(r"<(?:class|enum)\s+'([\w.]+)'>")


def otype(obs: object) -> str:
    return str(obs.get("type", "?")) if isinstance(obs, dict) else "?"


def is_none(obs: Obs) -> bool:
    return otype(obs) == "none"


def truncated(obs: Obs) -> bool:
    return bool(obs.get("truncated"))


def as_live(value: object) -> int | float:
    """A live scalar from an observation (`"nan"`, `"inf"`, bools as 0/1)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    raise TypeError(f"not a live number: {value!r}")


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


def numel(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def tensor_leaves(obs: Obs) -> list[Scalar | bool] | None:
    """The tensor's elements in row-major order, or None when values are missing."""
    if "values" not in obs or truncated(obs):
        return None
    is_complex = dtypes.dtype_class(tensor_dtype(obs)) == "complex"
    ndim = len(tensor_shape(obs))
    flat = _flat(obs["values"], ndim) if not is_complex else None
    if flat is not None:
        return flat
    out: list[Scalar | bool] = []
    stack: list[tuple[object, int]] = [(obs["values"], 0)]
    while stack:  # depth-first, left to right, without recursion
        v, depth = stack.pop()
        if depth < ndim and isinstance(v, list):
            stack.extend((x, depth + 1) for x in reversed(v))
        else:
            out.append(_leaf(v, is_complex))
    return out


_PLAIN = (int, float, bool)


def _flat(values: object, ndim: int) -> list[Scalar | bool] | None:
    """The quick way, for well-formed nested lists of plain numbers; None when
    anything is unusual (nan as a string, a ragged row)."""
    if ndim == 0:
        return [values] if type(values) in _PLAIN else None  # type: ignore[list-item]
    flat: list[Any] = values if isinstance(values, list) else []
    for _ in range(ndim - 1):
        if not all(isinstance(row, list) for row in flat):
            return None
        flat = [x for row in flat for x in row]
    if not isinstance(values, list) or not all(type(v) in _PLAIN for v in flat):
        return None
    return list(flat)


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


def number_dtype(obs: Obs) -> str:
    """The dtype a live number was computed in: a tensor's own, float64 for a
    Python float, int64 for an int or a bool."""
    t = otype(obs)
    if t == "tensor":
        return tensor_dtype(obs)
    if "dtype" in obs:  # an element of a tensor, taken out by the judge
        return str(obs["dtype"])
    if t in ("float", "complex"):
        return "float64"
    return "int64"


def items(obs: Obs) -> list[Obs] | None:
    """Items of a list/tuple/set, or the keys of a dict; None for other types."""
    t = otype(obs)
    if t in ("list", "tuple", "set"):
        return list(obs.get("items", []))
    if t == "dict":
        return [pair[0] for pair in obs.get("items", [])]
    return None


# exception classes torch raises under a private name, and the public name a learner
# knows them by (`torch.linalg.LinAlgError` is `torch._C._LinAlgError`)
PUBLIC_EXCEPTIONS: dict[str, str] = {"_LinAlgError": "torch.linalg.LinAlgError"}


def public_exception_name(obs: Obs) -> str:
    """The name an exception observation is shown by: its public one."""
    name = str(obs.get("name") or "Exception")
    return PUBLIC_EXCEPTIONS.get(name, name)


def class_path(obs: Obs) -> str | None:
    """For a class object (`type(x.shape)`, `torch.Tensor`), its dotted path
    (`torch.Size`); None for anything else."""
    if otype(obs) != "object":
        return None
    m = _CLASS_REPR.fullmatch(str(obs.get("repr", "")).strip())
    return m.group(1) if m else None


def token(obs: Obs) -> str | None:
    """The text an observation reads as: str value, grad_fn name, dtype, ..."""
    t = otype(obs)
    if t == "str":
        return str(obs.get("value", ""))
    if t == "grad_fn":
        return str(obs.get("name", ""))
    if t in ("dtype", "device"):
        return str(obs.get("value", ""))
    if t == "object" and class_path(obs):
        return class_path(obs)
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
    """A canonical key for de-duplicating observations (a big tensor by its
    shape, dtype, storage and repr: reading all its values would be slow)."""
    if otype(obs) == "tensor" and numel(tensor_shape(obs)) > 1000:
        obs = {k: obs.get(k) for k in ("type", "shape", "dtype", "storage", "repr")}
    return json.dumps(obs, sort_keys=True, default=str)
