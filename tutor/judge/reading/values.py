"""Reading answers of the value kinds: number, tensor, set/list, shape, dtype;
and `read_value`, which retries an unreadable one without its wrapping
("x.grad = 0.6", "it's None", "about 0.6", "four")."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..base import dtypes
from ..base.errors import InvalidPrediction
from ..base.parts import Fill, Said
from ..base.text import NONE_WORDS, collapse
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
from .numbers import bool_lit
from .phrases import lead_ins, none_then_reason, number_forms, says_none
from .predictions import BoolP, DtypeP, NoneP, NumP, Pred, SeqP, ShapeP, TensorP, TextP
from .tensors import PARAM_CALLS, SIZE_CALLS, TENSOR_CALLS, read_size, read_tensor

COLLECTION_CALLS = frozenset(
    {"set", "frozenset", "list", "tuple", "dict_keys", "odict_keys", "OrderedDict", "dict"}
)
_MODULE_CALL = re.compile(r"(?:[a-z_][\w]*\.)*[A-Z]\w*")  # `Linear`, `nn.ReLU`
_UNIFORM = frozenset({"zeros", "ones", "full", "torch.zeros", "torch.ones", "torch.full"})
EMPTY_WORDS = frozenset(
    {"empty", "nothing", "empty set", "empty list", "no keys", "no items", "none of them",
     "set()", "{}", "[]", "()", "frozenset()", "list()", "tuple()", "dict()", "odict_keys([])",
     "dict_keys([])", "an empty list", "an empty set", "it's empty", "it is empty"}
)  # fmt: skip
# an empty collection in words: "there are none", "no parameters", "it has no children",
# "the model has no buffers", "none at all", "there aren't any", "it's an empty dict"
_EMPTY_SAID = re.compile(
    r"(?:(?:[\w.()'\[\]]+\s+){0,3}?(?:has|have|had|are|is|contains|holds|returns|gives|yields"
    r"|lists|there'?s|there\s+are|there\s+is|it'?s|they'?re)\s+)?"
    r"(?:none|nothing|no\s+(?:[a-z_.-]+\s+){0,2}?[a-z_.-]+|not\s+(?:a\s+single\s+)?(?:any|one)"
    r"(?:\s+[a-z_.-]+){0,2}|(?:an?\s+|the\s+)?empty(?:\s+(?:set|list|dict|tuple|collection))?"
    r"(?:\s*(?:set|list|dict|tuple)\(\))?"
    r"|zero\s+[a-z_.-]+|(?:there\s+)?(?:aren'?t|isn'?t)\s+any(?:\s+[a-z_.-]+)?"
    r"|(?:(?:it|they|the\s+[\w.]+)\s+)?(?:doesn'?t|does\s+not|don'?t|do\s+not)\s+have\s+any"
    r"(?:\s+[a-z_.-]+){0,2})"
    r"(?:\s+(?:at\s+all|of\s+them|yet))?",
    re.I)
_NOT_EMPTY = re.compile(r"\bno\s+(?:idea|clue|guess)\b", re.I)  # hedges, asked again

SCALAR_SHAPE_WORDS = frozenset(
    {"scalar", "a scalar", "0-d", "0d", "0-dim", "zero-dim", "torch.size([])", "size([])", "()",
     "[]", "torch.size(())", "empty"}
)  # fmt: skip
_SHAPE_X = re.compile(r"[0-9]+(?:\s*[x\u00d7*]\s*[0-9]+)+")
_DIGIT_COMMA = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+|[+-]?[0-9]+,[0-9]+")
_SPACED = re.compile(r"[0-9.]\s+[0-9.+-]")

Reader = Callable[[str], Pred]
_TWO_ANSWERS = re.compile(r"\S\s+or\s+\S", re.I)  # "2 or 3", "float32 or float64"


def read_value(reader: Reader, text: str, *, none_phrases: bool = True,
               number_words: bool = False) -> Pred:
    """Read a value kind; when the text can't be read as it stands, try it as a
    None phrase ("no grad", "it's None") or without a lead-in (`x.grad = 0.6`,
    `state_dict keys: a, b`, "It's 0.6"), and for numbers without "about", a unit
    or number words."""
    try:
        return reader(text)
    except InvalidPrediction as e:
        error = e
    if len(text) <= 300 and _TWO_ANSWERS.search(text):
        error = InvalidPrediction("That gives two answers; which one is it? ", how=False)
    for form in [text, *lead_ins(text)]:
        if none_phrases and says_none(form):
            return NoneP()
        tries = [form] if form is not text else []
        if number_words:
            tries += number_forms(form)
        for attempt in tries:
            try:
                return reader(attempt)
            except InvalidPrediction:
                pass
    raise error


# ---- numbers ---------------------------------------------------------------------


def read_number_pred(text: str) -> NumP | NoneP:
    typed = text.strip()
    if _DIGIT_COMMA.fullmatch(typed):
        if re.fullmatch(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+", typed):
            raise InvalidPrediction("Write the number without a comma: ",
                                    Said(typed.replace(",", "")), ".", how=False)
        raise InvalidPrediction("Write the number without a comma, with a decimal point: ",
                                Said(typed.replace(",", ".")), ".", how=False)
    node = parse_value(text)
    if isinstance(node, NoneV):
        return NoneP()
    num = as_number(node)
    if isinstance(num, Num):
        return NumP(num.lit)
    if isinstance(num, Cplx):
        return NumP(num)
    if isinstance(node, BoolV):
        return NumP(bool_lit(node.value))
    if isinstance(node, (Call, Seq)):
        t = read_tensor(node)
        if len(t.leaves) == 1 and not t.uniform:
            leaf = t.leaves[0]
            return NumP(bool_lit(leaf) if isinstance(leaf, bool) else leaf, t.claims)
        raise InvalidPrediction("Type one number; that has ", Fill(str(len(t.leaves))), " values.",
                                how=False)
    raise InvalidPrediction("I can't read that as a number.")


# ---- sets and lists --------------------------------------------------------------


def read_item(node: Node) -> Pred:
    if isinstance(node, Num):  # the commonest items first
        return NumP(node.lit)
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
    if isinstance(node, Call):
        if node.name in TENSOR_CALLS or node.name in PARAM_CALLS or node.name in _UNIFORM:
            return read_tensor(node)
        if node.name in SIZE_CALLS:
            return ShapeP(read_size(node))
        if node.name in COLLECTION_CALLS and not node.kwargs:
            return _collection(node)
        if _MODULE_CALL.fullmatch(node.name):
            return TextP(node.name)  # a module's repr, `Linear(in_features=2, ...)`, `ReLU()`
        raise InvalidPrediction("I can't read ", Said(node.name), "(...) as an item; use names, "
                                "numbers or None.")
    raise InvalidPrediction("I can't read that as an item.")


def _collection(node: Call) -> SeqP:
    if not node.args:
        return SeqP((), "set" if "set" in node.name else "list")
    if len(node.args) == 1 and isinstance(node.args[0], Seq):
        inner = read_item(node.args[0])
        assert isinstance(inner, SeqP)
        return SeqP(inner.items, "set" if "set" in node.name else inner.kind)
    raise InvalidPrediction("Write the items themselves, not ", Said(node.name), "(...).")


def read_items_pred(text: str) -> SeqP | NoneP:
    if len(text) < 40 and collapse(text).casefold() in EMPTY_WORDS:
        return SeqP(())
    if len(text) < 100 and _EMPTY_SAID.fullmatch(collapse(text)) \
            and not _NOT_EMPTY.search(text) and collapse(text).casefold() not in NONE_WORDS:
        return SeqP(())
    if len(text) < 200 and none_then_reason(text):
        return NoneP()  # "None (no params)", "None, because all are frozen": there are none
    try:
        items = parse_items(text)
    except InvalidPrediction as e:
        if "expected ']'" in e.message and _SPACED.search(text):
            raise InvalidPrediction("Separate the values with commas.", how=False) from None
        raise
    if isinstance(items, tuple):
        return SeqP(tuple(read_item(n) for n in items))
    if isinstance(items, NoneV):
        return NoneP()
    pred = read_item(items)
    return pred if isinstance(pred, SeqP) else SeqP((pred,))


# ---- shape and dtype -------------------------------------------------------------


def read_shape_pred(text: str) -> ShapeP | NoneP:
    low = collapse(text).casefold()
    if low in SCALAR_SHAPE_WORDS:
        return ShapeP(())
    if _SHAPE_X.fullmatch(low):
        return ShapeP(tuple(int(d) for d in re.findall(r"[0-9]+", low)))
    items = parse_items(text, or_items=False)
    if not isinstance(items, tuple):
        node = items
        if isinstance(node, NoneV):
            return NoneP()
        if isinstance(node, Call) and node.name not in SIZE_CALLS:
            raise InvalidPrediction("I can't read ", Said(node.name), "(...) as a shape.")
        try:
            return ShapeP(read_size(node))
        except InvalidPrediction:
            raise InvalidPrediction("A shape is whole numbers.") from None
    try:
        return ShapeP(read_size(Seq("tuple", items)))
    except InvalidPrediction:
        raise InvalidPrediction("A shape is whole numbers.") from None


_DTYPE_LEAD = re.compile(r"^dtype\s*[=:]\s*", re.I)


def read_dtype_pred(text: str) -> DtypeP | NoneP:
    t = _DTYPE_LEAD.sub("", text.strip())
    if t.casefold() in NONE_WORDS:
        return NoneP()
    return DtypeP(dtypes.read_dtype(t))


__all__ = ["TensorP", "read_dtype_pred", "read_item", "read_items_pred", "read_number_pred",
           "read_shape_pred", "read_value"]
