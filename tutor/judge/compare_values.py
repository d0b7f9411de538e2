"""Comparing value predictions (number, tensor, shape, dtype, set, list) with
observations."""

from __future__ import annotations

from . import dtypes
from .display import display
from .grammar import Cplx
from .numbers import NumLit, bool_lit, fmt_live, hint, matches
from .obs import (
    Obs,
    Scalar,
    items,
    numel,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from .outcome import Outcome, correct, incorrect, partial
from .predictions import (
    Claims,
    DtypeP,
    Leaf,
    NumP,
    ShapeP,
    TensorP,
    fmt_shape,
    leaf_text,
)  # fmt: skip
from .verdict import Tolerance

_ZERO = NumLit(0, "0", 0, 0, True)


def leaf_matches(p: Leaf, v: Scalar | bool, tol: Tolerance | None) -> bool:
    if isinstance(v, bool):
        v = int(v)
    if isinstance(p, bool):
        p = bool_lit(p)
    if isinstance(p, Cplx):
        if isinstance(v, complex):
            return matches(p.real, v.real, tol) and matches(p.imag, v.imag, tol)
        return matches(p.real, v, tol) and matches(p.imag, 0.0, tol)
    if isinstance(v, complex):
        return matches(p, v.real, tol) and matches(_ZERO, v.imag, tol)
    return matches(p, v, tol)


def _fmt_leaf(v: Scalar | bool) -> str:
    if isinstance(v, (bool, complex)):
        return str(v)
    return fmt_live(v)


def claim_problems(c: Claims, live: Obs) -> list[str]:
    out: list[str] = []
    if c.requires_grad is not None and c.requires_grad != bool(live.get("requires_grad")):
        out.append(f"requires_grad is {not c.requires_grad}, not {c.requires_grad}")
    if c.grad_fn is not None:
        live_fn = str(live.get("grad_fn") or "None")
        if c.grad_fn.casefold() != live_fn.casefold():
            out.append(f"grad_fn is {live_fn}, not {c.grad_fn}")
    if c.device is not None:
        live_dev = str(live.get("device", "cpu"))
        claimed = c.device.casefold()
        if claimed != live_dev.casefold() and claimed != live_dev.split(":")[0].casefold():
            out.append(f"the device is {live_dev}, not {c.device}")
    if c.is_parameter is not None and c.is_parameter != bool(live.get("is_parameter")):
        out.append("it is not an nn.Parameter" if c.is_parameter else "it is an nn.Parameter")
    return out


def compare_number(p: NumP, live: Obs, tol: Tolerance | None, answer: str) -> Outcome:
    exp = display(live, "number")
    v = single_number(live)
    if v is None:
        if otype(live) == "tensor":
            return incorrect(
                f"The live value is a tensor of shape {fmt_shape(tensor_shape(live))}, "
                f"not one number: {exp}."
            )
        return incorrect(f"The live value is {exp}, not a number.")
    ok = leaf_matches(p.lit, v, tol)
    problems = claim_problems(p.claims, live) if otype(live) == "tensor" else []
    if ok and not problems:
        return correct(f"Right: the live value is {exp}.")
    if ok:
        return incorrect(f"The value is right, but {'; '.join(problems)}.")
    details: tuple[str, ...] = ()
    if isinstance(p.lit, NumLit) and not isinstance(v, complex) and tol is None:
        why = hint(p.lit, v)
        details = (why,) if why else ()
    return incorrect(f"You said {answer}; the live value is {exp}.", *details)


def _index(i: int, shape: tuple[int, ...]) -> str:
    idx = []
    for d in reversed(shape):
        idx.append(i % d if d else 0)
        i //= d if d else 1
    return "[" + ", ".join(str(x) for x in reversed(idx)) + "]"


def compare_tensor(p: TensorP, live: Obs, tol: Tolerance | None) -> Outcome:
    exp = display(live, "tensor")
    if otype(live) != "tensor":
        v = single_number(live)
        if v is not None and len(p.leaves) == 1 and leaf_matches(p.leaves[0], v, tol):
            return correct(f"Right: the live value is {exp}.")
        return incorrect(f"The live value is {exp}, not that tensor.")
    shape, live_dtype = tensor_shape(live), tensor_dtype(live)
    problems: list[str] = []
    details: list[str] = []
    values_ok = False
    if p.shape != shape:
        problems.append(f"the live tensor has shape {fmt_shape(shape)}, not {fmt_shape(p.shape)}")
    else:
        leaves = tensor_leaves(live)
        if leaves is None:
            return incorrect(
                f"The live tensor is too large to show ({numel(shape)} elements), so I can't "
                f"confirm its values; its shape {fmt_shape(shape)} matches yours."
            )
        bad = [
            i
            for i, (a, b) in enumerate(zip(p.leaves, leaves, strict=False))
            if not leaf_matches(a, b, tol)
        ]
        values_ok = not bad
        if bad:
            problems.append(f"{len(bad)} of {len(leaves)} values differ")
            for i in bad[:5]:
                where = _index(i, shape) if shape else "the value"
                details.append(
                    f"At {where}: you said {leaf_text(p.leaves[i])}, "
                    f"the live value is {_fmt_leaf(leaves[i])}."
                )
    if p.dtype and p.dtype != live_dtype:
        problems.append(f"the dtype is {live_dtype}, not {p.dtype}")
    problems += claim_problems(p.claims, live)
    if problems:
        lead = "Values right, but " if values_ok else "Not quite: "
        return incorrect(f"{lead}{'; '.join(problems)}. The live value is {exp}.", *details)
    if not p.dtype and p.implied and p.implied != dtypes.dtype_class(live_dtype):
        return partial(f"Right values; only the dtype differs: live is {live_dtype}.")
    return correct(f"Right: the live value is {exp}.")


def live_shape(live: Obs) -> tuple[int, ...] | None:
    t = otype(live)
    if t == "size":
        return tuple(int(d) for d in live.get("value", ()))
    if t == "tensor":
        return tensor_shape(live)
    its = items(live)
    if its is not None and all(otype(i) == "int" for i in its) and t in ("list", "tuple"):
        return tuple(int(i["value"]) for i in its)
    return None


def compare_shape(p: ShapeP, live: Obs) -> Outcome:
    dims = live_shape(live)
    if dims is None:
        return incorrect(f"The live value is {display(live, 'shape')}, not a shape.")
    if p.dims == dims:
        return correct(f"Right: the shape is {fmt_shape(dims)}.")
    details = []
    if sorted(p.dims) == sorted(dims):
        details.append("Same sizes, in a different order.")
    elif len(p.dims) != len(dims):
        details.append(f"The live value has {len(dims)} dimensions, not {len(p.dims)}.")
    return incorrect(
        f"You said {fmt_shape(p.dims)}; the live shape is {fmt_shape(dims)}.", *details
    )


def live_dtype(live: Obs) -> str | None:
    t = otype(live)
    if t == "dtype":
        return str(live.get("value"))
    if t == "tensor":
        return tensor_dtype(live)
    if t == "str":
        return dtypes.canonical(str(live.get("value")))
    return None


def compare_dtype(p: DtypeP, live: Obs) -> Outcome:
    name = live_dtype(live)
    if name is None:
        return incorrect(f"The live value is {display(live, 'dtype')}, not a dtype.")
    if p.name == name:
        return correct(f"Right: the dtype is torch.{name}.")
    return incorrect(f"You said torch.{p.name}; the live dtype is torch.{name}.")
