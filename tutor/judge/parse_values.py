"""Reading answers of the value kinds: number, tensor, set/list, shape, dtype."""

from __future__ import annotations

import re

from . import dtypes
from .errors import InvalidPrediction
from .grammar import (
    Angle, BoolV, Call, Cplx, Name, Node, NoneV, Num, Seq, Str, parse_items, parse_value,
)  # fmt: skip
from .numbers import NumLit, bool_lit
from .predictions import (
    BoolP, Claims, DtypeP, Leaf, NoneP, NumP, Pred, SeqP, ShapeP, TensorP, TextP,
)  # fmt: skip
from .text import NONE_WORDS, collapse

TENSOR_CALLS = frozenset({"tensor", "torch.tensor", "Tensor", "torch.Tensor"})
PARAM_CALLS = frozenset(
    {"Parameter", "nn.Parameter", "torch.nn.Parameter", "torch.nn.parameter.Parameter"}
)
SIZE_CALLS = frozenset({"Size", "torch.Size"})
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
_KW_HELP = "use dtype=, requires_grad=, grad_fn=, device= or size="


# ---- tensors ---------------------------------------------------------------


def _grad_fn_name(node: Node) -> str:
    if isinstance(node, NoneV):
        return "None"
    if isinstance(node, Angle):
        word = node.text.split()
        if word:
            return word[0]
    if isinstance(node, (Name, Str)) and node.value.strip():
        return node.value.strip().split()[0].strip("<>")
    raise InvalidPrediction("Write grad_fn as grad_fn=<MulBackward0>.")


def _device(node: Node) -> str:
    if isinstance(node, (Str, Name)):
        return node.value
    if isinstance(node, Call) and node.name in ("device", "torch.device"):
        arg = node.kwargs.get("type") or (node.args[0] if node.args else None)
        if isinstance(arg, (Str, Name)):
            return arg.value
    raise InvalidPrediction("Write the device as device='cpu'.")


def _size(node: Node) -> tuple[int, ...]:
    items = node.items if isinstance(node, Seq) else (node,)
    if isinstance(node, Call) and node.name in SIZE_CALLS and len(node.args) == 1:
        return _size(node.args[0])
    if not all(isinstance(n, Num) and n.lit.is_int and n.lit.value >= 0 for n in items):
        raise InvalidPrediction("Write the size as size=(2, 0).")
    return tuple(int(n.lit.value) for n in items if isinstance(n, Num))


def _claims(
    kwargs: dict[str, Node], base: Claims
) -> tuple[Claims, str | None, tuple[int, ...] | None]:
    rg, gf, dev, dtype, size = base.requires_grad, base.grad_fn, base.device, None, None
    for key, node in kwargs.items():
        if key == "size":
            size = _size(node)
        elif key == "dtype":
            if not isinstance(node, (Name, Str)):
                raise InvalidPrediction("Write the dtype as dtype=torch.float32.")
            dtype = dtypes.read_dtype(node.value)
        elif key == "requires_grad":
            if not isinstance(node, BoolV):
                raise InvalidPrediction("requires_grad is True or False.")
            rg = node.value
        elif key == "grad_fn":
            gf = _grad_fn_name(node)
        elif key == "device":
            dev = _device(node)
        else:
            raise InvalidPrediction(f"I can't check {key}= on a tensor; {_KW_HELP}.")
    return Claims(rg, gf, dev, base.is_parameter), dtype, size


def _nest(node: Node) -> tuple[tuple[int, ...], list[Leaf]]:
    """Shape and row-major leaves of nested lists (depth is bounded by the lexer)."""
    if isinstance(node, Num):
        return (), [node.lit]
    if isinstance(node, Cplx):
        return (), [node]
    if isinstance(node, BoolV):
        return (), [node.value]
    if not isinstance(node, Seq) or node.kind not in ("list", "tuple"):
        raise InvalidPrediction("A tensor holds numbers, like tensor([3., 1.]) or [[1, 2], [3, 4]].")
    leaves: list[Leaf] = []
    shapes = []
    for child in node.items:
        shape, sub = _nest(child)
        shapes.append(shape)
        leaves.extend(sub)
    if any(s != shapes[0] for s in shapes):
        raise InvalidPrediction("The rows of that tensor have different lengths.")
    return (len(node.items),) + (shapes[0] if shapes else ()), leaves


def _implied(leaves: list[Leaf], tensor_form: bool) -> str | None:
    if not leaves:
        return None
    if any(isinstance(x, Cplx) for x in leaves):
        return "complex"
    if any(isinstance(x, NumLit) and not x.is_int for x in leaves):
        return "float"
    if all(isinstance(x, bool) for x in leaves):
        return "bool"
    return "int" if tensor_form else None


def read_tensor(node: Node) -> TensorP:
    claims = Claims()
    is_call = False
    dtype, size = None, None
    if isinstance(node, Call) and node.name in PARAM_CALLS:
        if len(node.args) != 1:
            raise InvalidPrediction("Write a parameter as Parameter(tensor([...])).")
        claims, _, _ = _claims(
            {k: v for k, v in node.kwargs.items() if k == "requires_grad"}, Claims(is_parameter=True)
        )
        if set(node.kwargs) - {"requires_grad"}:
            raise InvalidPrediction("Parameter(...) only takes requires_grad=.")
        node = node.args[0]
        is_call = True
    if isinstance(node, Call) and node.name in TENSOR_CALLS:
        if len(node.args) != 1:
            raise InvalidPrediction("Write a tensor as tensor([3., 1.]).")
        claims, dtype, size = _claims(node.kwargs, claims)
        node = node.args[0]
        is_call = True
    shape, leaves = _nest(node)
    if size is not None and size != shape:
        if leaves or 0 not in size:
            raise InvalidPrediction(f"size={size} does not match the values' shape {shape}.")
        shape = size  # torch prints an empty (0, 3) tensor as tensor([], size=(0, 3))
    return TensorP(shape, tuple(leaves), dtype, _implied(leaves, is_call), claims)


def read_tensor_pred(text: str) -> TensorP | NoneP:
    items = parse_items(text)
    node = Seq("list", items) if items is not None else parse_value(text)
    if isinstance(node, NoneV):
        return NoneP()
    return read_tensor(node)


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
            raise InvalidPrediction("A shape is whole numbers, like (2, 3), 2x3 or torch.Size([2]).")
        dims.append(int(n.lit.value))
    return ShapeP(tuple(dims))


def read_dtype_pred(text: str) -> DtypeP | NoneP:
    t = re.sub(r"^dtype\s*[=:]\s*", "", text.strip(), flags=re.I)
    if t.casefold() in NONE_WORDS:
        return NoneP()
    return DtypeP(dtypes.read_dtype(t))


__all__ = ["read_dtype_pred", "read_items_pred", "read_number_pred",
           "read_shape_pred", "read_tensor", "read_tensor_pred"]  # fmt: skip


def seq_as_tensor(p: SeqP) -> TensorP | None:
    """A bare nested list of numbers, read as a tensor (None if it is not one)."""

    def nest(x: Pred) -> tuple[tuple[int, ...], list[Leaf]] | None:
        if isinstance(x, NumP):
            return (), [x.lit]
        if isinstance(x, BoolP):
            return (), [x.value]
        if not isinstance(x, SeqP):
            return None
        subs = [nest(c) for c in x.items]
        if any(s is None for s in subs):
            return None
        shapes = [s[0] for s in subs if s is not None]
        if any(s != shapes[0] for s in shapes):
            return None
        leaves = [leaf for s in subs if s is not None for leaf in s[1]]
        return (len(subs),) + (shapes[0] if shapes else ()), leaves

    got = nest(p)
    if got is None:
        return None
    return TensorP(got[0], tuple(got[1]), None, _implied(got[1], False))
