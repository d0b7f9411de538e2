"""The kinds of prediction a prompt can have: one record per kind, in one table.

A `Kind` says everything about its kind: how it is described (lesson schema,
docs), what the answer entry shows (`label`, `examples`, `entry`), how an
unreadable answer is told how to write one (`how`), how an answer is read
(`read`) and compared with the live value (`compare`), how the live value is
shown (`style`) and written as an answer (`notate`), and a few facts the judge
needs (`outcome`, `judges_errors`, ...).  Adding a kind means adding one record.

    from tutor.kinds import REGISTRY
    kind = REGISTRY["number"]
    kind.label       # "a number, or None"
    kind.examples    # ("3.5", "-0.25", "1e-3", "tensor(3.5)", "7", "0.125")
    kind.entry       # "line"

`tutor.judge.entry_examples(spec, live)` gives the examples that are safe to
show once the live value is known (none of them is this question's answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

from tutor import i18n
from tutor.i18n import N_

from .base.errors import InvalidPrediction
from .base.obs import Obs, is_none, items, otype, single_number, truncated
from .base.parts import Fill, Item, Live, Said
from .base.text import clean, collapse, strip_noise
from .base.verdict import JudgeSpec, Outcome, Status, Tolerance, correct, incorrect
from .comparing import items as ci
from .comparing import values as cv
from .comparing import words as cw
from .reading import values as rv
from .reading import words as rw
from .reading.predictions import (
    BoolP,
    ChoiceP,
    DtypeP,
    ExcP,
    NoneP,
    NumP,
    Pred,
    SeqP,
    ShapeP,
    StdoutP,
    TensorP,
    TextP,
)  # fmt: skip
from .reading.tensors import read_tensor_pred
from .showing import display as sd
from .showing import notation as sn
from .showing.display import Style

Reader = Callable[[str, JudgeSpec], Pred]
Comparer = Callable[[Pred, Obs, JudgeSpec, str], Outcome]
ENTRIES = ("line", "items", "yes_no", "choice", "lines")


@dataclass(frozen=True)
class Kind:
    """One kind of prediction (see the module docstring)."""

    name: str
    description: str  # one line: what the answer is, with forms (schema, docs)
    # what the answer entry reads, the same words for every prompt of the kind (so they
    # never tell which answer is right), saying that None (for exceptions: no error; for
    # printed output: nothing) is an answer too wherever it is one
    label: str
    examples: tuple[str, ...]  # answers of this kind, for format only (shown as "e.g. ...")
    entry: str  # the answer entry: line, items, yes_no, choice or lines (multi-line)
    how: str  # how to write one: ends an unreadable answer's message
    read: Reader  # answer text -> prediction; raises InvalidPrediction
    compare: Comparer  # prediction, live value, spec, answer as typed -> Outcome
    notate: Callable[[Obs], list[str]]  # live value -> answer texts, best first
    style: Style = field(default_factory=Style)  # how the live value is shown
    natural: frozenset[str] = frozenset()  # observation types whose own kind this is
    outcome: bool = False  # may omit `expect`: the live value is then the step's outcome
    judges_errors: bool = False  # a live exception is a value to judge, not a lesson bug
    none_is_value: bool = False  # its comparer judges a live None itself
    # None typed for an empty live collection means "there are none": right (sets, lists,
    # whose live value is never None where the answer is a collection of items)
    none_is_empty: bool = False
    needs_values: bool = True  # a truncated live value can't confirm an answer
    names_options: bool = False  # `how` lists every option (yes/no, the choices)
    verbatim: bool = False  # the answer is kept as typed (no "no idea" check, no cleaning)

    def how_to(self, spec: JudgeSpec) -> str:
        how = i18n._(self.how)
        if "{choices}" in how:
            shown = spec.labels if len(spec.labels) == len(spec.choices) else spec.choices
            listed = "; ".join(f"{i + 1}) {c}" for i, c in enumerate(shown))
            return how.replace("{choices}", listed)
        return how


# ---- readers -----------------------------------------------------------------------


def _cleaned(text: str) -> str:
    t = clean(text)
    if not t:
        raise InvalidPrediction("Type an answer.")
    return t


def _value_reader(reader: rv.Reader, *, none_phrases: bool = True,
                  number_words: bool = False) -> Reader:
    def read(text: str, spec: JudgeSpec) -> Pred:
        return rv.read_value(reader, _cleaned(text), none_phrases=none_phrases,
                             number_words=number_words)

    return read


def _read_bool(text: str, spec: JudgeSpec) -> Pred:
    return rw.read_bool_pred(_cleaned(text))


def _read_storage(text: str, spec: JudgeSpec) -> Pred:
    return rw.read_bool_pred(_cleaned(text), same_storage=True)


def _read_text(text: str, spec: JudgeSpec) -> Pred:
    return rw.read_text_pred(text)


def _read_choice(text: str, spec: JudgeSpec) -> Pred:
    if not spec.choices:
        raise InvalidPrediction("This prompt has no choices to pick from.", how=False)
    return rw.read_choice_pred(_cleaned(text), spec.choices)


def _read_exception(text: str, spec: JudgeSpec) -> Pred:
    return rw.read_exception_pred(_cleaned(text))


def _read_stdout(text: str, spec: JudgeSpec) -> Pred:
    return rw.read_stdout_pred(text)


# ---- comparers ---------------------------------------------------------------------


def _adapt(pred_type: type, compare: Callable[..., Outcome], *, tolerance: bool = False,
           answer: bool = False) -> Comparer:
    """A kind's comparer from a comparing function: the prediction (of the type the
    kind's reader makes) and the live value, then the tolerance and the answer text
    where the function takes them."""
    def run(pred: Pred, live: Obs, spec: JudgeSpec, text: str) -> Outcome:
        if not isinstance(pred, pred_type):
            return incorrect("That answer is not of this prompt's kind.")  # no reader does it
        extra = ([spec.tolerance] if tolerance else []) + ([text] if answer else [])
        return compare(pred, live, *extra)

    return run


def _items(ordered: bool) -> Callable[[SeqP, Obs, Tolerance | None], Outcome]:
    def compare(pred: SeqP, live: Obs, tol: Tolerance | None) -> Outcome:
        return ci.compare_items(pred, live, tol, ordered=ordered)

    return compare


def _choice(pred: ChoiceP, live: Obs, spec: JudgeSpec) -> Outcome:
    idx = live_choice(live, spec.choices)
    shown = spec.labels if len(spec.labels) == len(spec.choices) else spec.choices
    chosen = shown[pred.index]
    if idx is None:
        return incorrect("The live value is ", Live(live), ", which is none of the choices.")
    if idx == pred.index:
        return correct("The answer is ", Fill(chosen), ".")
    return incorrect("You chose ", Fill(chosen), "; the answer is ", Fill(shown[idx]), ".")


def _choice_comparer(pred: Pred, live: Obs, spec: JudgeSpec, text: str) -> Outcome:
    assert isinstance(pred, ChoiceP), pred  # the choice reader's
    return _choice(pred, live, spec)


# ---- the registry ------------------------------------------------------------------

_KINDS = (
    Kind(
        "number", "A single number, e.g. a gradient: 0.6, 1.6094, 6e-1, 3/5, tensor(0.6000).",
        label=N_("a number, or None"),
        examples=("3.5", "-0.25", "1e-3", "tensor(3.5)", "7", "0.125"),
        entry="line",
        how=N_("Type one number"),
        read=_value_reader(rv.read_number_pred, number_words=True),
        compare=_adapt(NumP, cv.compare_number, tolerance=True, answer=True),
        notate=sn.number_candidates, style=Style(view=sd.view_number),
        natural=frozenset({"int", "float", "complex"}),
    ),
    Kind(
        "tensor", "A tensor by shape and values: tensor([3., 1.]), [3, 1] or torch.zeros(2, 3).",
        label=N_("a tensor's values, or None"),
        examples=("tensor([7., 9.])", "[[1, 0], [0, 1]]", "[True, False]", "[5, 6]",
                  "torch.zeros(2, 3)"),
        entry="line", how=N_("Write a tensor by its values"),
        read=_value_reader(read_tensor_pred),
        compare=_adapt(TensorP, cv.compare_tensor, tolerance=True),
        notate=sn.tensor_candidates, natural=frozenset({"tensor"}),
    ),
    Kind(
        "bool", "Yes or no: True/False, yes/no.",
        label=N_("yes or no"), examples=(), entry="yes_no",
        how=N_("Answer yes or no (or True / False)"),
        read=_read_bool, compare=_adapt(BoolP, cw.compare_bool),
        notate=sn.bool_candidates, style=Style(view=sd.view_bool),
        natural=frozenset({"bool"}), names_options=True,
    ),
    Kind(
        "text", "An exact name such as a grad_fn, a type or a string; case counts for strings "
        "such as attribute names.",
        label=N_("an exact name, or None"),
        examples=("SinBackward0", "TanhBackward0", "MaxBackward1", "AccumulateGrad", "CopySlices",
                  "float16", "Linear", "cpu"),
        entry="line",
        how=N_("Type the name"),
        read=_read_text, compare=_adapt(TextP, cw.compare_text),
        notate=sn.text_candidates, style=Style(quote_strings=False),
        natural=frozenset({"str", "none", "grad_fn", "device", "module", "object"}),
        none_is_value=True,
    ),
    Kind(
        "choice", "One of the prompt's `choices`, by text or by number.",
        label=N_("one of the choices"), examples=(), entry="choice",
        how=N_("Pick one of: {choices}"),
        read=_read_choice, compare=_choice_comparer,
        notate=sn.choice_candidates, style=Style(quote_strings=False),
        judges_errors=True, none_is_value=True, names_options=True,
    ),
    Kind(
        "set", "Names in any order, e.g. state_dict keys: ['a', 'b'] or a, b.",
        label=N_("items in any order, separated by commas; [] for none"),
        examples=("['w', 'v']", "x, y", "'a', 'b'", "['m', 'n']", '"s", "t"', "[7, 1]", "0.5, 4",
                  "6, 8", "[]"),
        entry="items", how=N_("List the items (brackets and quotes are optional)"),
        read=_value_reader(rv.read_items_pred, none_phrases=False),
        compare=_adapt(SeqP, _items(False), tolerance=True),
        notate=sn.items_candidates, style=Style(as_set=True),
        natural=frozenset({"set", "dict"}), none_is_empty=True,
    ),
    Kind(
        "list", "Names or values in order: ['a', 'b'] or a, b.",
        label=N_("items in order, separated by commas; [] for none"),
        examples=("['w', 'v']", "x, y", "'a', 'b'", "['m', 'n']", '"s", "t"', "[7, 1]", "0.5, 4",
                  "(3, 2)", "(8, 5)", "[]"),
        entry="items", how=N_("List the items in order (brackets and quotes are optional)"),
        read=_value_reader(rv.read_items_pred, none_phrases=False),
        compare=_adapt(SeqP, _items(True), tolerance=True),
        notate=sn.items_candidates, natural=frozenset({"list", "tuple"}), none_is_empty=True,
    ),
    Kind(
        "shape", "A shape: (2, 3), torch.Size([2, 3]) or 2x3.",
        label=N_("a shape, or None"),
        examples=("(4, 5)", "torch.Size([4, 5])", "4x5", "(7,)", "()"),
        entry="line", how=N_("Write a shape"),
        read=_value_reader(rv.read_shape_pred), compare=_adapt(ShapeP, cv.compare_shape),
        notate=sn.shape_candidates, style=Style(view=sd.view_shape),
        natural=frozenset({"size"}), needs_values=False,
    ),
    Kind(
        "dtype", "A dtype: torch.float32, float32, float, long.",
        label=N_("a dtype, or None"),
        examples=("torch.float16", "float16", "half", "int8", "torch.bfloat16"),
        entry="line", how=N_("Write a dtype"),
        read=_value_reader(rv.read_dtype_pred), compare=_adapt(DtypeP, cv.compare_dtype),
        notate=sn.dtype_candidates, style=Style(view=sd.view_dtype),
        natural=frozenset({"dtype"}), needs_values=False,
    ),
    Kind(
        "exception", "The exception raised (RuntimeError), 'raises', or 'no error'.",
        label=N_("the exception's name, or: no error"),
        examples=("IndexError", "TypeError", "KeyError", "ValueError", "AttributeError",
                  "ZeroDivisionError"), entry="line",
        how=N_("Name the exception raised, or say it raises, or no error"),
        read=_read_exception, compare=_adapt(ExcP, cw.compare_exception),
        notate=sn.exception_candidates, style=Style(view=sd.view_exception, none="no error"),
        natural=frozenset({"exception"}), outcome=True, judges_errors=True,
        none_is_value=True, needs_values=False,
    ),
    Kind(
        "same_storage", "Whether two tensors share memory: yes/no.",
        label=N_("yes (one memory) or no"), examples=(), entry="yes_no",
        how=N_("Say yes (they share memory) or no (separate memory)"),
        read=_read_storage, compare=_adapt(BoolP, cw.compare_storage),
        notate=sn.yes_no_candidates, style=Style(view=sd.view_bool, yes_no=True),
        names_options=True,
    ),
    Kind(
        "stdout", "What the step printed; whitespace differences are ignored.",
        label=N_("the printed lines (one per line, or separated by commas), or: nothing"),
        examples=(), entry="lines",
        how=N_("Type what it prints, or 'nothing'"),
        read=_read_stdout, compare=_adapt(StdoutP, cw.compare_stdout),
        notate=sn.stdout_candidates, style=Style(quote_strings=False),
        outcome=True, none_is_value=True, verbatim=True,
    ),
)

REGISTRY: MappingProxyType[str, Kind] = MappingProxyType({k.name: k for k in _KINDS})


def judged(kind: Kind, spec: JudgeSpec, pred: Pred, live: Obs, answer: str) -> Outcome:
    """Compare a prediction with the live value: what every kind has in common
    (a live error, None on either side, a truncated value), then its comparer."""
    if otype(live) == "exception" and not kind.judges_errors:
        return incorrect("Evaluating the expression raised ", Item(live), ".")
    if isinstance(pred, NoneP):
        if is_none(live):
            return correct("The live value is None.")
        if kind.none_is_empty and items(live) == [] and not truncated(live):
            return correct("There are none: the live value is ", Live(live),
                           ", empty (in Python an empty collection, not None).")
        return incorrect("The live value is ", Live(live), ", not None.")
    if is_none(live) and not kind.none_is_value:
        return incorrect("The live value is None, not ", Said(answer), ".")
    out = kind.compare(pred, live, spec, answer)
    assert out.status is not Status.INVALID, "only a reader may refuse an answer"
    if truncated(live) and kind.needs_values and out.status is not Status.INCORRECT:
        return incorrect("The live value was too large to show in full, so I can't confirm "
                         "your answer (on the part I can see: ", *out.message, ")")
    return out


def is_right(kind: Kind, spec: JudgeSpec, text: str, live: Obs) -> bool:
    """Would `text` be judged correct (without feedback or messages)?"""
    try:
        pred = kind.read(text, spec)
    except InvalidPrediction:
        return False
    return judged(kind, spec, pred, live, text).status is Status.CORRECT


def gives_an_item(kind: Kind, spec: JudgeSpec, text: str, live: Obs) -> bool:
    """For a set or list: does `text` name an item of the live value?"""
    if kind.entry != "items":
        return False
    try:
        pred = kind.read(text, spec)
    except InvalidPrediction:
        return False
    return isinstance(pred, SeqP) and ci.shares_an_item(pred, live, spec.tolerance)


def live_choice(live: Obs, choices: tuple[str, ...]) -> int | None:
    """Which choice the live value is, judging each choice text by the kinds the
    live value naturally is."""
    t = otype(live)
    kinds = [k for k in _KINDS if t in k.natural]
    if t == "tensor" and single_number(live) is not None:
        kinds.append(REGISTRY["number"])
    if t == "none":
        kinds.append(REGISTRY["exception"])  # "no error"
    for i, choice in enumerate(choices):
        if any(is_right(kind, JudgeSpec(kind.name), choice, live) for kind in kinds):
            return i
    shown = sn.choice_candidates(live)[0]
    plain = [collapse(strip_noise(c)) for c in choices]
    if collapse(shown) in plain:
        return plain.index(collapse(shown))
    folded = [rw.text_key(c) for c in choices]
    if folded.count(rw.text_key(shown)) == 1:  # case ignored only where it decides nothing
        return folded.index(rw.text_key(shown))
    return None
