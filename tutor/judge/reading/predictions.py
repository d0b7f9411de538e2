"""What a learner's answer means, once read: one small type per kind of claim."""

from __future__ import annotations

from dataclasses import dataclass, field

from .grammar import Cplx
from .numbers import NumLit

Leaf = NumLit | Cplx | bool


@dataclass(frozen=True)
class NoneP:
    """The learner predicted None."""


@dataclass(frozen=True)
class Claims:
    """Tensor attributes the learner stated explicitly (None: not stated)."""

    requires_grad: bool | None = None
    grad_fn: str | None = None  # a node name, or "None" for grad_fn=None
    device: str | None = None
    is_parameter: bool | None = None


@dataclass(frozen=True)
class NumP:
    lit: NumLit | Cplx
    claims: Claims = Claims()


@dataclass(frozen=True)
class TensorP:
    shape: tuple[int, ...] | None  # None: not stated ("zeros")
    leaves: tuple[Leaf, ...]  # row-major; for a uniform tensor, its one value
    dtype: str | None = None  # stated with dtype=
    implied: str | None = None  # dtype class the notation implies: float/int/bool/complex
    claims: Claims = Claims()
    uniform: bool = False  # zeros(2, 3), ones(4), full((2, 2), 7.), "zeros"
    # written as torch writes or makes it (tensor(...), zeros(...)): without dtype=, it is
    # torch's default dtype for its values (float32, int64, bool, complex64)
    written: bool = False


@dataclass(frozen=True)
class BoolP:
    value: bool
    # typed as words (yes, no, "they share"), not True/False/1/0: said back in words
    worded: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class TextP:
    token: str  # form noise removed, whitespace collapsed, case kept


@dataclass(frozen=True)
class ChoiceP:
    index: int  # 0-based


@dataclass(frozen=True)
class SeqP:
    items: tuple[Pred, ...]
    kind: str = "list"  # list / tuple / set: how it was written


@dataclass(frozen=True)
class ShapeP:
    dims: tuple[int, ...]


@dataclass(frozen=True)
class DtypeP:
    name: str  # canonical, e.g. float32


@dataclass(frozen=True)
class ExcP:
    mode: str  # "none" (no error), "any" (it raises), "named"
    name: str = ""


@dataclass(frozen=True)
class StdoutP:
    text: str  # as typed, surrounding whitespace removed
    says_empty: bool = False  # "nothing", "no output", ...


Pred = NoneP | NumP | TensorP | BoolP | TextP | ChoiceP | SeqP | ShapeP | DtypeP | ExcP | StdoutP


def fmt_shape(dims: tuple[int, ...]) -> str:
    if len(dims) == 1:
        return f"({dims[0]},)"
    return "(" + ", ".join(str(d) for d in dims) + ")"


def leaf_text(leaf: Leaf) -> str:
    if isinstance(leaf, bool):
        return str(leaf)
    if isinstance(leaf, Cplx):
        imag = leaf.imag.text
        sign = "" if imag.startswith("-") else "+"
        return f"{leaf.real.text}{sign}{imag}j"
    return leaf.text


def _nested(leaves: tuple[Leaf, ...], shape: tuple[int, ...]) -> str:
    if not shape:
        return leaf_text(leaves[0]) if leaves else ""
    if len(shape) == 1:
        return "[" + ", ".join(leaf_text(x) for x in leaves) + "]"
    step = len(leaves) // shape[0] if shape[0] else 0
    rows = [_nested(leaves[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(rows) + "]"


def pred_text(pred: Pred) -> str:
    """A prediction written back compactly, for messages (the learner's own claim)."""
    if isinstance(pred, NoneP):
        return "None"
    if isinstance(pred, NumP):
        return leaf_text(pred.lit)
    if isinstance(pred, TensorP):
        if pred.uniform:
            value = leaf_text(pred.leaves[0]) if pred.leaves else "?"
            if pred.shape is None:
                return f"all {value}"
            return f"full({fmt_shape(pred.shape)}, {value})"
        return f"tensor({_nested(pred.leaves, pred.shape or ())})"
    if isinstance(pred, BoolP):
        return str(pred.value)
    if isinstance(pred, TextP):
        return repr(pred.token)
    if isinstance(pred, SeqP):
        return "[" + ", ".join(pred_text(p) for p in pred.items) + "]"
    if isinstance(pred, ShapeP):
        return fmt_shape(pred.dims)
    if isinstance(pred, DtypeP):
        return f"torch.{pred.name}"
    if isinstance(pred, ExcP):
        return {"none": "no error", "any": "it raises"}.get(pred.mode, pred.name)
    if isinstance(pred, ChoiceP):
        return f"choice {pred.index + 1}"
    return pred.text
