"""Reading tensors: tensor([3., 1.], dtype=..., requires_grad=...), nested
lists, Parameter containing: ..., and uniform tensors: zeros(2, 3), ones(4),
full((2, 2), 7.), "zeros", "all ones"."""

from __future__ import annotations

import re
from dataclasses import replace

from ..base import dtypes
from ..base.errors import InvalidPrediction
from ..base.parts import Fill, Said
from ..base.text import collapse
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
    as_number,
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
_UNIFORM_CALLS = frozenset({"zeros", "ones", "full"})
_KW_HELP = "use dtype=, requires_grad=, grad_fn=, device= or size="
_ZERO = NumLit(0, "0", 0, 1, True)
_ONE = NumLit(1, "1", 0, 1, True)
# "zeros", "all zeros", "a tensor of ones", "all 7s", "all 0.5"
_UNIFORM_WORDS = re.compile(
    r"(?:(?:it'?s|it\s+is)\s+)?(?:(?:all|only|just)\s+)?(?:an?\s+)?(?:tensor\s+of\s+)?"
    r"(?P<word>zeros|ones)(?:\s+tensor)?"
    r"|(?:all|only|just)\s+(?P<num>-?[0-9]+(?:\.[0-9]*)?)(?:'?s)?",
    re.IGNORECASE,
)

# ---- tensors ---------------------------------------------------------------------


def _grad_fn_name(node: Node) -> str:
    if isinstance(node, NoneV):
        return "None"
    if isinstance(node, Angle):
        word = node.text.split()
        if word:
            return word[0]
    if isinstance(node, (Name, Str)) and node.value.strip():
        return node.value.strip().split()[0].strip("<>")
    raise InvalidPrediction("Write grad_fn as grad_fn=<NameBackward0>, with the node's name.")


def _device(node: Node) -> str:
    if isinstance(node, (Str, Name)):
        return node.value
    if isinstance(node, Call) and node.name in ("device", "torch.device"):
        arg = node.kwargs.get("type") or (node.args[0] if node.args else None)
        if isinstance(arg, (Str, Name)):
            return arg.value
    raise InvalidPrediction("Write the device as device='cpu' or device='cuda'.")


def read_size(node: Node) -> tuple[int, ...]:
    """A shape written as (2, 3), [2, 3], torch.Size([2, 3]) or 4."""
    if isinstance(node, Call) and node.name in SIZE_CALLS and len(node.args) <= 1 \
            and not node.kwargs:
        return read_size(node.args[0]) if node.args else ()
    items = node.items if isinstance(node, Seq) and node.kind in ("list", "tuple") else (node,)
    dims = []
    for n in items:
        if not (isinstance(n, Num) and isinstance(n.lit.value, int) and n.lit.value >= 0):
            raise InvalidPrediction("A size is whole numbers, like (2, 3).", how=False)
        dims.append(int(n.lit.value))
    return tuple(dims)


def _claims(
    kwargs: dict[str, Node], base: Claims
) -> tuple[Claims, str | None, tuple[int, ...] | None]:
    rg, gf, dev, dtype, size = base.requires_grad, base.grad_fn, base.device, None, None
    for key, node in kwargs.items():
        if key == "size":
            size = read_size(node)
        elif key == "dtype":
            if not isinstance(node, (Name, Str)):
                raise InvalidPrediction("Write the dtype as dtype=torch.<name>.", how=False)
            dtype = dtypes.read_dtype(node.value)
        elif key == "requires_grad":
            if not isinstance(node, BoolV):
                raise InvalidPrediction("requires_grad is True or False.", how=False)
            rg = node.value
        elif key == "grad_fn":
            gf = _grad_fn_name(node)
        elif key == "device":
            dev = _device(node)
        else:
            raise InvalidPrediction("I can't check ", Said(key), "= on a tensor; " + _KW_HELP + ".",
                                    how=False)
    return Claims(rg, gf, dev, base.is_parameter), dtype, size


def _leaf(node: Node) -> Leaf | None:
    if isinstance(node, BoolV):
        return node.value
    num = as_number(node)
    if isinstance(num, Num):
        return num.lit
    return num


def _nest(node: Node) -> tuple[tuple[int, ...], list[Leaf]]:
    """Shape and row-major leaves of nested lists (depth is bounded by the lexer)."""
    leaf = _leaf(node)
    if leaf is not None:
        return (), [leaf]
    if not isinstance(node, Seq) or node.kind not in ("list", "tuple"):
        raise InvalidPrediction("A tensor holds numbers, written as nested lists of the "
                                "values, or tensor(...) of them.")
    leaves: list[Leaf] = []
    shapes = []
    for child in node.items:
        shape, sub = _nest(child)
        shapes.append(shape)
        leaves.extend(sub)
    if any(s != shapes[0] for s in shapes):
        raise InvalidPrediction("The rows of that tensor have different lengths.", how=False)
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


def _uniform_call(node: Call, name: str) -> TensorP:
    """zeros(2, 3), torch.zeros((2, 3), dtype=torch.int64), ones(4), full((2, 2), 7.)"""
    args = list(node.args)
    kwargs = dict(node.kwargs)
    if name == "full":
        fill_node = kwargs.pop("fill_value", None) or (args.pop() if len(args) >= 2 else None)
        fill = _leaf(fill_node) if fill_node is not None else None
        if fill is None:
            raise InvalidPrediction("Write a filled tensor as full((rows, columns), value).",
                                    how=False)
        implied = _implied([fill], True)
    else:
        fill = _ZERO if name == "zeros" else _ONE
        implied = "float"
    if "size" in kwargs:
        args.append(kwargs.pop("size"))
    if len(args) == 1:
        shape = read_size(args[0])
    else:
        shape = read_size(Seq("tuple", tuple(args)))
    claims, dtype, _ = _claims(kwargs, Claims())
    return TensorP(shape, (fill,), dtype, implied, claims, uniform=True, written=True)


def read_tensor(node: Node) -> TensorP:
    claims = Claims()
    is_call = False
    dtype, size = None, None
    if isinstance(node, Call) and node.name in PARAM_CALLS:
        if len(node.args) != 1:
            raise InvalidPrediction("Write a parameter as Parameter(tensor(...)).", how=False)
        claims, _, _ = _claims(
            {k: v for k, v in node.kwargs.items() if k == "requires_grad"},
            Claims(is_parameter=True),
        )
        if set(node.kwargs) - {"requires_grad"}:
            raise InvalidPrediction("Parameter(...) only takes requires_grad=.", how=False)
        node = node.args[0]
        is_call = True
    if isinstance(node, Call):
        uniform = node.name.removeprefix("torch.")
        if uniform in _UNIFORM_CALLS:
            made = _uniform_call(node, uniform)
            return replace(made, claims=replace(made.claims, is_parameter=claims.is_parameter))
    if isinstance(node, Call) and node.name in TENSOR_CALLS:
        if len(node.args) != 1:
            raise InvalidPrediction("Write a tensor as tensor([...]) with its values.")
        claims, dtype, size = _claims(node.kwargs, claims)
        node = node.args[0]
        is_call = True
    shape, leaves = _nest(node)
    if size is not None and size != shape:
        if leaves or 0 not in size:
            raise InvalidPrediction("size=", Fill(str(size)), " does not match the values' shape ",
                                    Fill(str(shape)), ".",
                                    how=False)
        shape = size  # torch prints an empty (0, 3) tensor as tensor([], size=(0, 3))
    return TensorP(shape, tuple(leaves), dtype, _implied(leaves, is_call), claims,
                   written=is_call)


def read_uniform_words(text: str) -> TensorP | None:
    """"zeros", "all zeros", "all 7s": every element the same, shape not stated."""
    m = _UNIFORM_WORDS.fullmatch(collapse(text))
    if m is None:
        return None
    word = (m.group("word") or "").casefold()
    if word:
        fill = _ZERO if word in ("zeros", "0s") else _ONE
    else:
        node = parse_value(m.group("num"))
        fill = node.lit if isinstance(node, Num) else _ZERO
    return TensorP(None, (fill,), None, None, Claims(), uniform=True)


def read_tensor_pred(text: str) -> TensorP | NoneP:
    words = read_uniform_words(text) if len(text) < 100 else None
    if words is not None:
        return words
    items = parse_items(text, or_items=False)
    node = Seq("list", items) if isinstance(items, tuple) else items
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
