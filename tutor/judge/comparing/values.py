"""Comparing value predictions (number, tensor, shape, dtype) with observations."""

from __future__ import annotations

from tutor import i18n

from ..base import dtypes
from ..base.obs import (
    Obs,
    Scalar,
    items,
    number_dtype,
    numel,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from ..base.parts import Fill, Item, Live, Msg, Said
from ..base.verdict import Outcome, Tolerance, correct, incorrect, partial
from ..reading.grammar import Cplx
from ..reading.numbers import NumLit, bool_lit
from ..reading.predictions import Claims, DtypeP, Leaf, NumP, ShapeP, TensorP, fmt_shape, leaf_text
from .numbers import hint, in_full, matches

_ZERO = NumLit(0, "0", 0, 1, True)
_PART_DTYPE = {"complex128": "float64", "complex64": "float32", "complex32": "float16"}


def leaf_matches(p: Leaf, v: Scalar | bool, dtype: str, tol: Tolerance | None) -> bool:
    if isinstance(v, bool):
        v = int(v)
    if isinstance(p, bool):
        p = bool_lit(p)
    part = _PART_DTYPE.get(dtype, dtype)
    if isinstance(p, Cplx):
        if isinstance(v, complex):
            return matches(p.real, v.real, part, tol) and matches(p.imag, v.imag, part, tol)
        return matches(p.real, v, part, tol) and matches(p.imag, 0, part, tol)
    if isinstance(v, complex):
        return matches(p, v.real, part, tol) and matches(_ZERO, v.imag, part, tol)
    return matches(p, v, dtype, tol)


def scalar_obs(v: Scalar | bool, dtype: str = "float64") -> Obs:
    """A live scalar as an observation of its own (to show it in a message)."""
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, complex):
        return {"type": "complex", "real": v.real, "imag": v.imag}
    if isinstance(v, int) and dtypes.dtype_class(dtype) != "float":
        return {"type": "int", "value": v}
    return {"type": "float", "value": float(v)}


def claim_problems(c: Claims, live: Obs) -> list[str]:
    out: list[str] = []
    if c.requires_grad is not None and c.requires_grad != bool(live.get("requires_grad")):
        out.append(i18n._("requires_grad is {live}, not {said}").format(
            live=not c.requires_grad, said=c.requires_grad))
    if c.grad_fn is not None:
        live_fn = str(live.get("grad_fn") or "None")
        if c.grad_fn.casefold() != live_fn.casefold():
            out.append(i18n._("grad_fn is {live}, not {said}").format(live=live_fn,
                                                                      said=c.grad_fn))
    if c.device is not None:
        live_dev = str(live.get("device", "cpu"))
        claimed = c.device.casefold()
        if claimed != live_dev.casefold() and claimed != live_dev.split(":")[0].casefold():
            out.append(i18n._("the device is {live}, not {said}").format(live=live_dev,
                                                                         said=c.device))
    if c.is_parameter is not None and c.is_parameter != bool(live.get("is_parameter")):
        out.append(i18n._("it is not an nn.Parameter") if c.is_parameter
                   else i18n._("it is an nn.Parameter"))
    return out


def compare_number(p: NumP, live: Obs, tol: Tolerance | None, answer: str) -> Outcome:
    v = single_number(live)
    if v is None:
        if otype(live) == "tensor":
            return incorrect("The live value is a tensor of shape ",
                             Fill(fmt_shape(tensor_shape(live))), ", not one number: ",
                             Live(live), ".")
        return incorrect("The live value is ", Live(live), ", not a number.")
    dtype = number_dtype(live)
    ok = leaf_matches(p.lit, v, dtype, tol)
    problems = claim_problems(p.claims, live) if otype(live) == "tensor" else []
    if ok and not problems:
        return correct("The live value is ", Live(live), ".")
    if ok:
        return incorrect("The value is right, but ", Fill("; ".join(problems)), ".")
    details: tuple[Msg, ...] = ()
    if isinstance(p.lit, NumLit) and not isinstance(v, (complex, bool)):
        why = hint(p.lit, v, dtype) if tol is None else None
        full = in_full(p.lit, float(v), dtype, str(live.get("repr") or ""))
        if why:
            details = ((why,),)
        elif full is not None:  # the print rounds away what the learner typed
            details = (("In full, the live value is ", Fill(full),
                        ": torch printed it rounded.",),)
    return incorrect("You said ", Said(answer), "; the live value is ", Live(live), ".",
                     details=details)


def _index(i: int, shape: tuple[int, ...]) -> str:
    idx = []
    for d in reversed(shape):
        idx.append(i % d if d else 0)
        i //= d if d else 1
    return "[" + ", ".join(str(x) for x in reversed(idx)) + "]"


def _uniform_misses(fill: Leaf, leaves: list[Scalar | bool], dtype: str,
                    tol: Tolerance | None) -> list[int]:
    """Indices of the live values that are not `fill` (equality first: a tensor of
    zeros is compared in one quick pass)."""
    exact = None if isinstance(fill, Cplx) else fill if isinstance(fill, bool) else fill.value
    return [i for i, v in enumerate(leaves)
            if v != exact and not leaf_matches(fill, v, dtype, tol)]


def compare_tensor(p: TensorP, live: Obs, tol: Tolerance | None) -> Outcome:
    if otype(live) != "tensor":
        v = single_number(live)
        if v is not None and len(p.leaves) == 1 and (p.shape in (None, ())) \
                and leaf_matches(p.leaves[0], v, number_dtype(live), tol):
            return correct("The live value is ", Live(live), ".")
        return incorrect("The live value is ", Live(live), ", not that tensor.")
    shape, live_dtype = tensor_shape(live), tensor_dtype(live)
    problems: list[str] = []
    details: list[tuple[str | Said | Item, ...]] = []
    values_ok = reshaped = False
    if p.shape is not None and p.shape != shape:
        problems.append(i18n._("the live tensor has shape {live}, not {said}").format(
            live=fmt_shape(shape), said=fmt_shape(p.shape)))
        reshaped = _same_one_value(p, live, shape, tol)
    else:
        leaves = tensor_leaves(live)
        if leaves is None:
            return incorrect(
                "The live tensor is too large to show (", Fill(f"{numel(shape):,}"),
                " elements), so I can't confirm its values; its shape ", Fill(fmt_shape(shape)),
                " matches yours.")
        if p.uniform:
            bad = _uniform_misses(p.leaves[0], leaves, live_dtype, tol)
        else:
            bad = [i for i, (a, b) in enumerate(zip(p.leaves, leaves, strict=False))
                   if not leaf_matches(a, b, live_dtype, tol)]
        values_ok = not bad
        if bad:
            problems.append(i18n._("{n} of {count} values differ").format(n=len(bad),
                                                                          count=len(leaves)))
            for i in bad[:5]:
                where = _index(i, shape) if shape else i18n._("the value")
                said = leaf_text(p.leaves[0] if p.uniform else p.leaves[i])
                said += "0" if said.endswith(".") else ""  # `0.` beside the live 3.0: 0.0
                details.append(("At ", Fill(where), ": you said ", Said(said),
                                ", the live value is ",
                                Item(scalar_obs(leaves[i], live_dtype)), "."))
    dtype_off = _dtype_difference(p, live_dtype)
    claimed = claim_problems(p.claims, live)
    if reshaped and not claimed and not dtype_off:
        return partial("Right value, but the live value is ", Fill(_one(shape)), ", not ",
                       Fill(_one(p.shape or ())), ": ", Live(live), ".")
    if problems or claimed:
        if p.dtype and dtype_off:
            problems.append(i18n._("the dtype is {live}, not {said}").format(live=live_dtype,
                                                                             said=p.dtype))
        said = "; ".join(problems + claimed)
        if values_ok:
            return incorrect("Values right, but ", Fill(said), ". The live value is ",
                             Live(live), ".", details=tuple(details))
        return incorrect(Fill(said[:1].upper() + said[1:]), ". The live value is ", Live(live),
                         ".", details=tuple(details))
    if dtype_off:
        return partial("Right values, but the dtype differs: the live tensor is ",
                       Fill(live_dtype), "; yours, as written, is ", Fill(dtype_off), ".")
    if p.uniform and p.shape is None:
        n = numel(shape)
        if n != 1:
            return correct("All ", Fill(str(n)), " values are ", Fill(leaf_text(p.leaves[0])),
                           ".")
        return correct("Its one value is ", Fill(leaf_text(p.leaves[0])), ".")
    return correct("The live value is ", Live(live), ".")


def _one(shape: tuple[int, ...]) -> str:
    """A one-element tensor's shape, in words."""
    if shape == ():
        return i18n._("a 0-d tensor (one number, shape ())")
    return i18n._("a one-element tensor of shape {shape}").format(shape=fmt_shape(shape))


def _same_one_value(p: TensorP, live: Obs, shape: tuple[int, ...],
                    tol: Tolerance | None) -> bool:
    """A typed one-element tensor whose value is the live one-element tensor's, in
    another shape (`-0.1` for tensor([-0.1000]))."""
    if p.shape is None or numel(p.shape) != 1 or numel(shape) != 1 or len(p.leaves) != 1:
        return False
    leaves = tensor_leaves(live)
    if not leaves:
        return False
    return leaf_matches(p.leaves[0], leaves[0], tensor_dtype(live), tol)


# The dtype torch gives a tensor written without dtype=, by the values it holds.
DEFAULT_DTYPE = {"float": "float32", "int": "int64", "bool": "bool", "complex": "complex64"}
_CLASS_WORDS = {"float": "floating point", "int": "integer", "bool": "bool",
                "complex": "complex"}


def _dtype_difference(p: TensorP, live_dtype: str) -> str | None:
    """The dtype a typed tensor claims, when it is not the live one (None: no
    difference).  `dtype=` claims its dtype; a tensor written as torch writes or
    makes it (`tensor([1., 2.])`, `torch.zeros(3)`) claims torch's default dtype
    for its values, as torch prints every other dtype with `dtype=`; a bare list
    claims only the kind of its values (floats, bools), and whole numbers claim
    nothing (people write `[3, 1]` for a float tensor)."""
    if p.dtype:
        return p.dtype if p.dtype != live_dtype else None
    if not p.implied:
        return None
    if p.written:
        claimed = DEFAULT_DTYPE.get(p.implied)
        return claimed if claimed and claimed != live_dtype else None
    if p.implied != dtypes.dtype_class(live_dtype):
        return _CLASS_WORDS.get(p.implied, p.implied)
    return None


def live_shape(live: Obs) -> tuple[int, ...] | None:
    t = otype(live)
    if t == "size":
        return tuple(int(d) for d in live.get("value", ()))
    if t == "tensor":
        return tensor_shape(live)
    its = items(live)
    if its is not None and t in ("list", "tuple") and all(otype(i) == "int" for i in its):
        return tuple(int(i["value"]) for i in its)
    return None


def compare_shape(p: ShapeP, live: Obs) -> Outcome:
    dims = live_shape(live)
    if dims is None:
        return incorrect("The live value is ", Live(live), ", not a shape.")
    if p.dims == dims:
        return correct("The shape is ", Fill(fmt_shape(dims)), ".")
    details: tuple[Msg, ...] = ()
    if sorted(p.dims) == sorted(dims):
        details = (("Same sizes, in a different order.",),)
    elif len(p.dims) != len(dims):
        details = (("The live value has ", Fill(str(len(dims))), " dimensions, not ",
                    Fill(str(len(p.dims))), "."),)
    return incorrect("You said ", Fill(fmt_shape(p.dims)), "; the live shape is ",
                     Fill(fmt_shape(dims)), ".", details=details)


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
        return incorrect("The live value is ", Live(live), ", not a dtype.")
    if p.name == name:
        return correct("The dtype is ", Fill(f"torch.{name}"), ".")
    return incorrect("You said ", Fill(f"torch.{p.name}"), "; the live dtype is ",
                     Fill(f"torch.{name}"), ".")
