"""The one rule of what a typed item of a set or list matches among live items."""

from __future__ import annotations

from ..base.obs import (
    Obs,
    is_none,
    items,
    key,
    number_dtype,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from ..base.verdict import Status, Tolerance
from ..reading.numbers import NumLit
from ..reading.predictions import BoolP, NoneP, NumP, Pred, SeqP, ShapeP, TensorP, TextP
from ..reading.tensors import seq_as_tensor
from .names import name_matches
from .values import compare_tensor, leaf_matches, live_shape


def item_matches(p: Pred, obs: Obs, tol: Tolerance | None) -> bool:
    """Is the typed item `p` the live item `obs`?"""
    if isinstance(p, NoneP):
        return is_none(obs)
    if isinstance(p, TextP):
        return name_matches(p.token, obs, forms=False)
    if isinstance(p, NumP):
        if otype(obs) == "str":  # a child named '0' typed as 0
            return isinstance(p.lit, NumLit) and p.lit.text == obs.get("value")
        v = single_number(obs)
        return v is not None and leaf_matches(p.lit, v, number_dtype(obs), tol)
    if isinstance(p, BoolP):
        return otype(obs) == "bool" and bool(obs.get("value")) == p.value
    if isinstance(p, TensorP):
        return not _differs(p, obs, tol) and compare_tensor(p, obs, tol).status is Status.CORRECT
    if isinstance(p, ShapeP):
        return otype(obs) in ("size", "list", "tuple") and live_shape(obs) == p.dims
    if isinstance(p, SeqP):
        t = otype(obs)
        if t == "tensor":
            tensor = seq_as_tensor(p)
            return tensor is not None and item_matches(tensor, obs, tol)
        if t == "size":
            dims = [x.lit.value for x in p.items if isinstance(x, NumP)
                    and isinstance(x.lit, NumLit) and isinstance(x.lit.value, int)]
            return len(dims) == len(p.items) and tuple(dims) == live_shape(obs)
        its = items(obs)
        return (its is not None and len(its) == len(p.items)
                and all(item_matches(a, b, tol) for a, b in zip(p.items, its, strict=False)))
    return False


def _differs(p: TensorP, obs: Obs, tol: Tolerance | None) -> bool:
    """A quick look for a difference between a typed tensor and a live one: the
    shape, then the values up to the first that differs.  False means "maybe
    equal": `compare_tensor` decides."""
    if otype(obs) != "tensor":
        return False
    shape = tensor_shape(obs)
    if p.shape is not None and p.shape != shape:
        return True
    leaves = tensor_leaves(obs)
    if leaves is None or p.uniform:
        return False
    dtype = tensor_dtype(obs)
    return any(not leaf_matches(a, b, dtype, tol) for a, b in zip(p.leaves, leaves, strict=False))


def dedupe_key(obs: Obs) -> object:
    """What makes two live items the same item (quick for plain values)."""
    t = otype(obs)
    if t in ("int", "float", "str", "bool", "none"):
        return (t, repr(obs.get("value")))  # repr: -0.0 is not 0.0, as in the kernel's JSON
    if t in ("list", "tuple", "set") and not obs.get("truncated"):
        return (t, tuple(dedupe_key(i) for i in obs.get("items", [])))
    return key(obs)
