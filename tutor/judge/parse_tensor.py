"""Reading tensors: tensor([3., 1.], dtype=..., requires_grad=...), nested
lists, Parameter containing: ..."""

from __future__ import annotations

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
from .numbers import NumLit
from .predictions import BoolP, Claims, Leaf, NoneP, NumP, Pred, SeqP, TensorP

TENSOR_CALLS = frozenset({"tensor", "torch.tensor", "Tensor", "torch.Tensor"})
PARAM_CALLS = frozenset(
    {"Parameter", "nn.Parameter", "torch.nn.Parameter", "torch.nn.parameter.Parameter"}
)
SIZE_CALLS = frozenset({"Size", "torch.Size"})
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
        raise InvalidPrediction(
            "A tensor holds numbers, like tensor([3., 1.]) or [[1, 2], [3, 4]]."
        )
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
            {k: v for k, v in node.kwargs.items() if k == "requires_grad"},
            Claims(is_parameter=True),
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
