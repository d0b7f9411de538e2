"""Reading answers of the value kinds: number, tensor, set/list, shape, dtype."""

from __future__ import annotations

import re

from . import dtypes
from .errors import InvalidPrediction
from .grammar import (
    Angle,
    BoolV,
    Call,
    Cplx,
    Name,
    Node,
    NoneV,
    Num,
    Seq,
    Str,
    parse_items,
    parse_value,
)
from .numbers import bool_lit
from .parse_tensor import PARAM_CALLS, SIZE_CALLS, TENSOR_CALLS, read_tensor
from .predictions import BoolP, DtypeP, NoneP, NumP, Pred, SeqP, ShapeP, TextP
from .text import NONE_WORDS, collapse

COLLECTION_CALLS = frozenset(
    {"set", "frozenset", "list", "tuple", "dict_keys", "odict_keys", "OrderedDict", "dict"}
)
EMPTY_WORDS = frozenset(
    {"empty", "nothing", "empty set", "empty list", "no keys", "no items", "none of them",
     "set()", "{}", "[]", "()", "frozenset()", "list()", "tuple()", "dict()", "odict_keys([])",
     "dict_keys([])"}
)  # fmt: skip
SCALAR_SHAPE_WORDS = frozenset(
    {"scalar", "a scalar", "0-d", "0d", "0-dim", "zero-dim", "torch.size([])", "size([])", "()",
     "[]", "torch.size(())", "empty"}
)  # fmt: skip
_SHAPE_X = re.compile(r"[0-9]+(?:\s*[x\u00d7*]\s*[0-9]+)+")

# ---- numbers ---------------------------------------------------------------


def read_number_pred(text: str) -> NumP | NoneP:
    node = parse_value(text)
    if isinstance(node, NoneV):
        return NoneP()
    if isinstance(node, Num):
        return NumP(node.lit)
    if isinstance(node, Cplx):
        return NumP(node)
    if isinstance(node, BoolV):
        return NumP(bool_lit(node.value))
    if isinstance(node, (Call, Seq)):
        try:
            t = read_tensor(node)
        except InvalidPrediction:
            t = None
        if t is not None and len(t.leaves) == 1:
            leaf = t.leaves[0]
            return NumP(bool_lit(leaf) if isinstance(leaf, bool) else leaf, t.claims)
        if t is not None:
            raise InvalidPrediction(f"Type one number; that has {len(t.leaves)} values.")
    raise InvalidPrediction("Type a number, like 0.6, -4.0, 1.6094 or tensor(0.6000).")


# ---- sets and lists --------------------------------------------------------


def read_item(node: Node) -> Pred:
    if isinstance(node, (Str, Name)):
        return TextP(node.value)
    if isinstance(node, Angle):
        return TextP(node.text.split()[0] if node.text.split() else "")
    if isinstance(node, Num):
        return NumP(node.lit)
    if isinstance(node, Cplx):
        return NumP(node)
    if isinstance(node, BoolV):
        return BoolP(node.value)
    if isinstance(node, NoneV):
        return NoneP()
    if isinstance(node, Seq):
        return SeqP(tuple(read_item(n) for n in node.items), node.kind)
    if isinstance(node, Call) and (node.name in TENSOR_CALLS or node.name in PARAM_CALLS):
        return read_tensor(node)
    if isinstance(node, Call) and node.name in COLLECTION_CALLS and not node.kwargs:
        return _collection(node)
    name = node.name if isinstance(node, Call) else type(node).__name__
    raise InvalidPrediction(f"I can't read {name}(...) as an item; use names, numbers or None.")


def _collection(node: Call) -> SeqP:
    if not node.args:
        return SeqP((), "set" if "set" in node.name else "list")
    if len(node.args) == 1 and isinstance(node.args[0], Seq):
        inner = read_item(node.args[0])
        assert isinstance(inner, SeqP)
        return SeqP(inner.items, "set" if "set" in node.name else inner.kind)
    raise InvalidPrediction(f"Write the items as ['a', 'b'], not {node.name}(...).")


def read_items_pred(text: str) -> SeqP | NoneP:
    if collapse(text).casefold() in EMPTY_WORDS:
        return SeqP(())
    items = parse_items(text)
    if items is not None:
        return SeqP(tuple(read_item(n) for n in items))
    node = parse_value(text)
    if isinstance(node, NoneV):
        return NoneP()
    pred = read_item(node)
    return pred if isinstance(pred, SeqP) else SeqP((pred,))


# ---- shape and dtype -------------------------------------------------------


def read_shape_pred(text: str) -> ShapeP | NoneP:
    low = collapse(text).casefold()
    if low in SCALAR_SHAPE_WORDS:
        return ShapeP(())
    if _SHAPE_X.fullmatch(low):
        return ShapeP(tuple(int(d) for d in re.findall(r"[0-9]+", low)))
    items = parse_items(text)
    if items is None:
        node = parse_value(text)
        if isinstance(node, NoneV):
            return NoneP()
        if isinstance(node, Call) and node.name in SIZE_CALLS and not node.kwargs:
            if not node.args:
                items = ()
            elif len(node.args) == 1 and isinstance(node.args[0], Seq):
                items = node.args[0].items
            else:
                raise InvalidPrediction("Write a size as torch.Size([2, 3]).")
        elif isinstance(node, Seq) and node.kind in ("list", "tuple"):
            items = node.items
        else:
            items = (node,)
    dims = []
    for n in items:
        if not (isinstance(n, Num) and n.lit.is_int and n.lit.value >= 0):
            raise InvalidPrediction(
                "A shape is whole numbers, like (2, 3), 2x3 or torch.Size([2])."
            )
        dims.append(int(n.lit.value))
    return ShapeP(tuple(dims))


def read_dtype_pred(text: str) -> DtypeP | NoneP:
    t = re.sub(r"^dtype\s*[=:]\s*", "", text.strip(), flags=re.I)
    if t.casefold() in NONE_WORDS:
        return NoneP()
    return DtypeP(dtypes.read_dtype(t))
