"""A prediction turned into the observation it describes.

Used to match an author's `feedback` answers by meaning: the learner's answer
is judged against the pseudo-observation of each feedback key.
"""

from __future__ import annotations

from typing import Any

from ..base.obs import Obs, numel
from ..base.text import NONE_WORDS
from ..reading.grammar import Cplx
from ..reading.numbers import NumLit
from ..reading.predictions import (
    BoolP,
    ChoiceP,
    DtypeP,
    ExcP,
    Leaf,
    NoneP,
    NumP,
    Pred,
    SeqP,
    ShapeP,
    StdoutP,
    TensorP,
    TextP,
)  # fmt: skip
from ..reading.words import BUILTIN_MRO

MAX_VALUES = 10_000  # a pseudo tensor bigger than this is sent as the kernel would: truncated

_IMPLIED_DTYPE = {"float": "float32", "int": "int64", "bool": "bool", "complex": "complex64"}


def _number(lit: NumLit | Cplx) -> Obs:
    if isinstance(lit, Cplx):
        return {"type": "complex", "real": float(lit.real.value), "imag": float(lit.imag.value)}
    if isinstance(lit.value, int):
        return {"type": "int", "value": lit.value}
    return {"type": "float", "value": _json_float(lit.value)}


def _json_float(v: float) -> float | str:
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


def _leaf_value(leaf: Leaf, dtype: str) -> Any:
    if isinstance(leaf, bool):
        return leaf
    if isinstance(leaf, Cplx):
        return [_json_float(float(leaf.real.value)), _json_float(float(leaf.imag.value))]
    if dtype.startswith(("int", "uint")) and isinstance(leaf.value, int):
        return leaf.value
    return _json_float(float(leaf.value))


def _nest(flat: list[Any], shape: tuple[int, ...]) -> Any:
    if not shape:
        return flat[0] if flat else 0.0
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def _tensor(p: TensorP) -> Obs:
    dtype = p.dtype or _IMPLIED_DTYPE.get(p.implied or "float", "float32")
    grad_fn = p.claims.grad_fn if p.claims.grad_fn not in (None, "None") else None
    shape = p.shape or ()
    flat = [_leaf_value(x, dtype) for x in p.leaves]
    if p.uniform:
        flat = flat * numel(shape) if numel(shape) <= MAX_VALUES else []
    values: dict[str, Any] = (
        {"values": _nest(flat, shape)} if len(flat) == numel(shape) else {"truncated": True})
    return {
        "type": "tensor",
        "dtype": dtype,
        "shape": list(shape),
        **values,
        "requires_grad": bool(p.claims.requires_grad or grad_fn),
        "is_leaf": grad_fn is None,
        "grad_fn": grad_fn,
        "is_parameter": bool(p.claims.is_parameter),
        "device": p.claims.device or "cpu",
    }


def to_observation(pred: Pred, choices: tuple[str, ...] = ()) -> Obs:
    if isinstance(pred, NoneP):
        return {"type": "none"}
    if isinstance(pred, NumP):
        return _number(pred.lit)
    if isinstance(pred, TensorP):
        return _tensor(pred)
    if isinstance(pred, BoolP):
        return {"type": "bool", "value": pred.value}
    if isinstance(pred, TextP):
        if pred.token.casefold() in NONE_WORDS:
            return {"type": "none"}
        return {"type": "str", "value": pred.token}
    if isinstance(pred, ChoiceP):
        return {"type": "str", "value": choices[pred.index]}
    if isinstance(pred, SeqP):  # a list: for a set prompt the comparer ignores order anyway
        return {"type": "list", "items": [to_observation(x) for x in pred.items]}
    if isinstance(pred, ShapeP):
        return {"type": "size", "value": list(pred.dims)}
    if isinstance(pred, DtypeP):
        return {"type": "dtype", "value": pred.name}
    if isinstance(pred, ExcP):
        if pred.mode == "none":
            return {"type": "none"}
        name = pred.name if pred.mode == "named" else "Exception"
        mro = BUILTIN_MRO.get(name, [name, "Exception", "BaseException"])
        return {"type": "exception", "name": name, "message": "", "mro": mro}
    assert isinstance(pred, StdoutP)
    return {"type": "str", "value": pred.text.replace("\\n", "\n")}
