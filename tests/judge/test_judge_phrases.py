"""Plain-language wrappers learners type around an answer (tutor/judge/phrases.py):
None phrases, `name = value` lead-ins, labels. Form, never substance."""

from __future__ import annotations

import pytest
from judge_obs import INV, NONE, C, X, f, s, status, t

from tutor.judge import JudgeSpec, judge

F32_06 = 0.6000000238418579
KEYS = {"type": "dict", "items": [[s("a"), NONE], [s("b"), NONE]]}


@pytest.mark.parametrize(
    "text",
    ["no grad", "no gradient", "it's None", "it is None", "nothing", "nothing yet",
     "None (y is not a leaf)", "none, y is not a leaf", "y.grad = None", "y.grad is None",
     "no grad yet", "not computed"],
)  # fmt: skip
@pytest.mark.parametrize("kind", ["number", "tensor", "shape", "dtype"])
def test_none_phrases_in_value_kinds(kind: str, text: str) -> None:
    assert status(kind, text, NONE) is C, (kind, text)


@pytest.mark.parametrize("text", ["no grad", "it's None", "x.grad = None"])
def test_a_none_phrase_is_wrong_for_a_value(text: str) -> None:
    v = judge(JudgeSpec("number"), text, f(F32_06))
    assert v.status is X and v.message == "The live value is 0.6000, not None."
    assert status("tensor", text, t([3.0, 1.0], [2])) is X


@pytest.mark.parametrize(
    "text",
    ["None", "no grad_fn", "no grad fn", "nothing", "it has none", "it's None",
     "a.grad_fn = None", "a.grad_fn is None", "None (a is a leaf)"],
)  # fmt: skip
def test_none_phrases_for_a_none_grad_fn(text: str) -> None:
    assert status("text", text, NONE) is C, text
    assert status("text", text, {"type": "grad_fn", "name": "CloneBackward0"}) is X, text


def test_none_feedback_key_matches_a_none_phrase() -> None:
    spec = JudgeSpec("text", feedback=(("None", "fb"),))
    v = judge(spec, "no grad_fn", {"type": "grad_fn", "name": "CloneBackward0"})
    assert v.status is X and v.feedback == "fb"


@pytest.mark.parametrize(
    ("kind", "text", "live"),
    [("number", "x.grad = 0.6", f(F32_06)), ("number", "x.grad is 0.6", f(F32_06)),
     ("number", "= 0.6", f(F32_06)), ("number", "x.grad: 0.6", f(F32_06)),
     ("tensor", "b = tensor([3., 1.])", t([3.0, 1.0], [2])),
     ("shape", "t.shape = (3, 2)", {"type": "size", "value": [3, 2]}),
     ("dtype", "m.dtype = torch.int64", {"type": "dtype", "value": "int64"}),
     ("set", "state_dict keys: a, b", KEYS), ("set", "keys: b, a", KEYS),
     ("list", "named_children: nothing", {"type": "list", "items": []}),
     ("text", "z.grad_fn = LogBackward0", {"type": "grad_fn", "name": "LogBackward0"}),
     ("text", "it is LogBackward0", {"type": "grad_fn", "name": "LogBackward0"}),
     ("text", "a tuple", s("tuple")), ("text", "<class 'tuple'>", s("tuple"))],
)  # fmt: skip
def test_lead_ins_are_form(kind: str, text: str, live: dict) -> None:
    assert status(kind, text, live) is C, (kind, text)


@pytest.mark.parametrize(
    ("kind", "text", "live"),
    [("number", "x.grad = 0.5", f(F32_06)), ("number", "x.grad is 1.2", f(F32_06)),
     ("shape", "t.shape = (2, 3)", {"type": "size", "value": [3, 2]}),
     ("text", "z.grad_fn = MulBackward0", {"type": "grad_fn", "name": "LogBackward0"}),
     ("text", "a list", s("tuple"))],
)  # fmt: skip
def test_lead_ins_keep_substance(kind: str, text: str, live: dict) -> None:
    assert status(kind, text, live) is X, (kind, text)


def test_set_nothing_still_means_empty() -> None:
    assert status("set", "nothing", {"type": "list", "items": []}) is C
    assert status("set", "nothing", KEYS) is X
    assert status("number", "x.grad = ", f(F32_06)) is INV


@pytest.mark.parametrize(
    ("text", "live", "expected"),
    [("zero", {"type": "int", "value": 0}, C), ("zero", f(0.0), C), ("zero", f(F32_06), X),
     ("four", {"type": "int", "value": 4}, C), ("seven", {"type": "int", "value": 7}, C),
     ("minus four", f(-4.0), C), ("four", f(-4.0), X),
     ("4000 bytes", {"type": "int", "value": 4000}, C), ("0 bytes", {"type": "int", "value": 0}, C),
     ("3 modules", {"type": "int", "value": 3}, C), ("4 bytes", {"type": "int", "value": 8}, X),
     ("about 0.6", f(F32_06), C), ("~0.6", f(F32_06), C), ("\u2248 0.6", f(F32_06), C),
     ("about 0.5", f(F32_06), X), ("gap = 8 bytes", {"type": "int", "value": 8}, C)],
)  # fmt: skip
def test_number_words_units_and_about(text: str, live: dict, expected: object) -> None:
    assert status("number", text, live) is expected, text


def test_number_words_do_not_widen_other_kinds() -> None:
    assert status("shape", "three", {"type": "size", "value": [3]}) is INV
    assert status("number", "8 KB", {"type": "int", "value": 8}) is INV


@pytest.mark.parametrize(
    ("kind", "text", "words"),
    [("tensor", "[0.1]*10", "I compute (*) only with numbers: write the values themselves"),
     ("tensor", "[0.1] * 10", "themselves. Write a tensor by its values, like "),
     ("number", "log(x)", "I compute only with numbers, and x is not one I know"),
     ("number", "0,6", "without a comma, with a decimal point: 0.6"),
     ("number", "4,000", "without a comma: 4000."),
     ("number", "60%", "Type one number, like "),  # three examples, picked per prompt
     ("shape", "(3, 2", "Write a shape, like "),
     ("list", "[1 2 2]", "Separate the values with commas"),
     ("set", "['a', 'b'", "List the items (brackets and quotes are optional), like ")],
)  # fmt: skip
def test_invalid_messages_say_how_to_write_it(kind: str, text: str, words: str) -> None:
    live = {"number": f(2.5), "tensor": t([0.1] * 10, [10]), "shape": {"type": "size",
            "value": [3, 2]}, "list": {"type": "list", "items": []}, "set": KEYS}[kind]  # fmt: skip
    v = judge(JudgeSpec(kind), text, live)
    assert v.status is INV and words in v.message, v.message


def test_messages_read_as_plain_english() -> None:
    one = {"type": "list", "items": [s("first")]}
    assert judge(JudgeSpec("list"), "first", one).message == "Exactly that, and nothing more."
    assert judge(JudgeSpec("list"), "[]", {"type": "list", "items": []}).message == (
        "It is empty."
    )
    assert judge(JudgeSpec("list"), "[]", one).message == "The live value has 1 item: ['first']."
    v = judge(JudgeSpec("number"), "1.3", f(1.2000000476837158))
    assert v.details == ("At 1 decimal the live value is 1.2.",)
    exc = {"type": "exception", "name": "TypeError", "message": "bad call.",
           "mro": ["TypeError", "Exception", "BaseException"]}  # fmt: skip
    assert judge(JudgeSpec("exception"), "TypeError", exc).message == (
        "It raises TypeError: bad call."
    )
    message = judge(JudgeSpec("exception"), "no error", exc).message
    assert message == "It raised TypeError: bad call."
    long = {**exc, "message": "Weights only load failed. " * 5}  # under it, not in it
    assert judge(JudgeSpec("exception"), "TypeError", long).message == "It raises TypeError."
    assert judge(JudgeSpec("exception"), "no error", long).message == "It raised TypeError."
    assert "an TypeError" not in judge(JudgeSpec("exception"), "Exception", exc).message
    nums = {"type": "list", "items": [f(0.0), f(2.0)]}
    assert not judge(JudgeSpec("set"), "[0., 1.]", nums).message.endswith("..")
