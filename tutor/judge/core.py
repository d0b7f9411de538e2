"""judge() and parse_error(): read the answer, compare by kind, attach feedback."""

from __future__ import annotations

import re

from ..kinds import KINDS
from . import compare_items as ci
from . import compare_values as cv
from . import compare_words as cw
from .display import display
from .errors import InvalidPrediction
from .giveaway import SHOWS_OPTIONS, scrub
from .obs import Obs, is_none, otype, single_number, truncated
from .outcome import Outcome, correct, incorrect
from .parse_tensor import read_tensor_pred
from .parse_values import (
    read_dtype_pred,
    read_items_pred,
    read_number_pred,
    read_shape_pred,
)  # fmt: skip
from .parse_words import (
    read_bool_pred,
    read_choice_pred,
    read_exception_pred,
    read_stdout_pred,
    read_text_pred,
    text_key,
)  # fmt: skip
from .phrases import lead_in, number_forms, says_none
from .predictions import (
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
from .pseudo import to_observation
from .text import clean, short
from .verdict import JudgeSpec, Status, Verdict

_NATURAL = {
    "str": "text", "int": "number", "float": "number", "complex": "number", "bool": "bool",
    "none": "text", "exception": "exception", "size": "shape", "dtype": "dtype",
    "grad_fn": "text", "device": "text", "module": "text", "object": "text", "list": "list",
    "tuple": "list", "set": "set", "dict": "set", "tensor": "tensor",
}  # fmt: skip


def parse(spec: JudgeSpec, text: str) -> Pred:
    """Read `text` as a prediction of `spec.kind`; raises InvalidPrediction."""
    kind = spec.kind
    if kind not in KINDS:
        raise InvalidPrediction(f"This prompt has an unknown kind {kind!r}.")
    if not isinstance(text, str):
        raise InvalidPrediction("Type an answer.")
    if kind == "stdout":
        return read_stdout_pred(text)
    if kind == "text":
        return read_text_pred(text)
    t = clean(text)
    if not t:
        raise InvalidPrediction("Type an answer.")
    if kind in _VALUE_READERS:
        return _read_value(kind, t)
    if kind in ("bool", "same_storage"):
        return read_bool_pred(t, same_storage=kind == "same_storage")
    if kind == "choice":
        if not spec.choices:
            raise InvalidPrediction("This prompt has no choices to pick from.")
        return read_choice_pred(t, spec.choices)
    return read_exception_pred(t)


_VALUE_READERS = {
    "number": read_number_pred, "tensor": read_tensor_pred, "set": read_items_pred,
    "list": read_items_pred, "shape": read_shape_pred, "dtype": read_dtype_pred,
}  # fmt: skip


def _read_value(kind: str, t: str) -> Pred:
    """Read a value kind; when the text can't be read as it stands, try it as a
    None phrase ("no grad", "it's None") or without a lead-in (`x.grad = 0.6`,
    `state_dict keys: a, b`)."""
    reader = _VALUE_READERS[kind]
    try:
        return reader(t)
    except InvalidPrediction as e:
        error = e
    none_ok = kind not in ("set", "list")  # there "nothing" means empty
    rest = lead_in(t)
    for text in (t, rest) if rest else (t,):
        if none_ok and says_none(text):
            return NoneP()
        forms = [text] if text is not t else []
        if kind == "number":
            forms += number_forms(text)
        for form in forms:
            try:
                return reader(form)
            except InvalidPrediction:
                pass
    raise InvalidPrediction(_how_to(kind, t, error.message))


_HOW = {
    "number": "Type one number, like 0.6, -4.0, 1.6094 or tensor(0.6000).",
    "tensor": "Write a tensor like tensor([3., 1.]) or [3, 1] (or None).",
    "set": "List the items, like ['a', 'b'] or a, b (or [] for none).",
    "list": "List the items in order, like ['a', 'b'] or a, b (or [] for none).",
    "shape": "Write a shape like (2, 3), 2x3 or torch.Size([2, 3]).",
    "dtype": "Write a dtype like torch.float32, int64 or long.",
}  # fmt: skip
_EXPRESSION = re.compile(r"[*/]|\b(?:log|ln|exp|sqrt|full|ones|zeros|sum|mean|repeat)\(")
_SPACED = re.compile(r"[0-9.]\s+[0-9.+-]")
_DIGIT_COMMA = re.compile(r"^[+-]?[0-9]+,[0-9]+$")


def _how_to(kind: str, text: str, message: str) -> str:
    """An invalid answer's message, ending with how to write this kind."""
    if kind == "number" and _DIGIT_COMMA.match(text):
        return "Write the number without a comma: 4000, or 0.6 with a decimal point."
    how = _HOW[kind]
    if _EXPRESSION.search(text):
        return (f"I don't compute expressions such as {short(text, 30)}: "
                f"write the value itself. {how}")
    if "expected ']'" in message and _SPACED.search(text):
        return "Separate the values with commas, like [1, 2, 2]."
    if any(w in message for w in (how, "like", "e.g.", "Try ")):
        return message
    return f"{message} {how}"


def live_choice(live: Obs, choices: tuple[str, ...]) -> int | None:
    """Which choice the live value is, judging each choice text by the live
    value's natural kind."""
    kinds = [_NATURAL.get(otype(live), "text")]
    if otype(live) == "tensor" and single_number(live) is not None:
        kinds.append("number")
    if otype(live) == "none":
        kinds.append("exception")  # "no error"
    for i, choice in enumerate(choices):
        for kind in kinds:
            try:
                pred = parse(JudgeSpec(kind=kind), choice)
            except InvalidPrediction:
                continue
            if compare(JudgeSpec(kind=kind), pred, live, choice).status is Status.CORRECT:
                return i
        if text_key(choice) == text_key(display(live, "choice")):
            return i
    return None


def _compare_choice(spec: JudgeSpec, pred: ChoiceP, live: Obs) -> Outcome:
    exp = display(live, "choice")
    idx = live_choice(live, spec.choices)
    chosen = spec.choices[pred.index]
    if idx is None:
        return incorrect(f"The live value is {exp}, which is none of the choices.")
    if idx == pred.index:
        return correct(f"Right: {chosen}.")
    same = text_key(spec.choices[idx]) == text_key(exp)
    return incorrect(f"You chose {chosen}; the live value is {exp}" + ("." if same else
                     f" ({spec.choices[idx]})."))  # fmt: skip


def _by_kind(spec: JudgeSpec, pred: Pred, live: Obs, answer: str) -> Outcome:
    kind, tol = spec.kind, spec.tolerance
    if isinstance(pred, NumP):
        return cv.compare_number(pred, live, tol, answer)
    if isinstance(pred, TensorP):
        return cv.compare_tensor(pred, live, tol)
    if isinstance(pred, SeqP):
        return ci.compare_items(pred, live, kind, tol)
    if isinstance(pred, ShapeP):
        return cv.compare_shape(pred, live)
    if isinstance(pred, DtypeP):
        return cv.compare_dtype(pred, live)
    if isinstance(pred, BoolP):
        return cw.compare_bool(pred, live, kind)
    if isinstance(pred, TextP):
        return cw.compare_text(pred, live)
    if isinstance(pred, ChoiceP):
        return _compare_choice(spec, pred, live)
    if isinstance(pred, ExcP):
        return cw.compare_exception(pred, live)
    assert isinstance(pred, StdoutP), pred
    return cw.compare_stdout(pred, live)


def compare(spec: JudgeSpec, pred: Pred, live: Obs, answer: str) -> Outcome:
    kind = spec.kind
    if otype(live) == "exception" and kind not in ("exception", "choice"):
        return incorrect(f"Evaluating the expression raised {display(live)}.")
    if isinstance(pred, NoneP):
        if is_none(live):
            return correct("Right: the live value is None.")
        return incorrect(f"The live value is {display(live, kind)}, not None.")
    if is_none(live) and kind not in ("exception", "text", "stdout", "choice"):
        return incorrect(f"The live value is None, not {short(answer)}.")
    out = _by_kind(spec, pred, live, answer)
    if truncated(live) and kind not in ("shape", "dtype") and out.status is not Status.INCORRECT:
        return incorrect(
            "The live value was too large to show in full, so I can't confirm your answer "
            f"(on the part I can see: {out.message})"
        )
    return out


def _feedback(spec: JudgeSpec, pred: Pred, answer: str) -> str | None:
    base = JudgeSpec(kind=spec.kind, choices=spec.choices, tolerance=spec.tolerance)
    for key, explanation in spec.feedback:
        try:
            wrong = parse(base, key)
        except InvalidPrediction:
            continue
        pseudo = to_observation(wrong, spec.choices, spec.kind)
        if compare(base, pred, pseudo, answer).status is Status.CORRECT:
            return explanation
    return None


def _answer_text(spec: JudgeSpec, text: str) -> str:
    if spec.kind == "stdout":
        return text.strip()
    try:
        return clean(text)
    except InvalidPrediction:
        return text.strip()


def judge_strict(spec: JudgeSpec, text: str, live: Obs, *, guard: bool = True) -> Verdict:
    """`judge` without the safety net (tests call this to see real errors).

    With `guard`, a message about an unreadable answer never contains an example
    that would be this question's answer (see giveaway.py)."""
    expected = display(live, spec.kind)
    try:
        pred = parse(spec, text)
    except InvalidPrediction as e:
        message = e.message
        if guard and spec.kind not in SHOWS_OPTIONS:
            message = scrub(_unguarded, spec, live, message, text)  # no example is the answer
        return Verdict(Status.INVALID, message, expected, text)
    answer = short(_answer_text(spec, text), 80)
    out = compare(spec, pred, live, answer)
    feedback = _feedback(spec, pred, answer) if out.status is not Status.CORRECT else None
    return Verdict(out.status, out.message, expected, text, out.details, feedback)


def _unguarded(spec: JudgeSpec, text: str, live: Obs) -> Verdict:
    return judge_strict(spec, text, live, guard=False)


def judge(spec: JudgeSpec, text: str, live: dict) -> Verdict:
    """Judge the learner's `text` against the live observation. Never raises."""
    try:
        return judge_strict(spec, text, live)
    except Exception:  # a bug must not crash a lesson: ask the learner again
        try:
            expected = display(live, spec.kind)
        except Exception:
            expected = "?"
        return Verdict(
            Status.INVALID, "Sorry, I could not judge that answer. Try writing it another way.",
            expected, text if isinstance(text, str) else "",
        )  # fmt: skip


def parse_error(spec: JudgeSpec, text: str) -> str | None:
    """None if `text` reads as a prediction of `spec.kind`, else the message
    `judge` would give as invalid."""
    try:
        parse(spec, text)
    except InvalidPrediction as e:
        return e.message
    except Exception:
        return "Sorry, I could not read that answer."
    return None
