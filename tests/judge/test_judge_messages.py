"""Messages as learners read them (findings of fresh reads): no verdict said twice,
a precision hint only where precision is the matter, counts in words, and the
answer of a choice called the answer."""

from __future__ import annotations

import pytest
from judge_obs import NONE, P, X, f, i, s, seq, t

from tutor.flow import entry_text
from tutor.judge import JudgeSpec, judge
from tutor.kinds import REGISTRY


@pytest.mark.parametrize(("typed", "live", "hint"), [
    ("2", 2.43, "Numbers are read to at least two significant digits. At 1 decimal the live "
                "value is 2.4."),  # right to the units: held to two digits
    ("0.69314", 0.6931471805599453, "At 5 decimals the live value is 0.69315."),  # last digit
    ("1.3", 1.2000000476837158, "At 1 decimal the live value is 1.2."),
    ("120", 123.0, "At 0 decimals the live value is 123."),  # typed to the tens
])
def test_a_precision_hint_when_the_answer_is_close(typed: str, live: float, hint: str) -> None:
    v = judge(JudgeSpec("number"), typed, f(live))
    assert v.status is X and v.details == (hint,)


@pytest.mark.parametrize(("typed", "live"), [
    ("3", f(2.43)), ("4", f(2.43)), ("2.7", f(2.43)), ("4", f(3.0)), ("4", i(3)), ("100", i(103)),
    ("5.0000", f(4.969767093658447)), ("-2.4", f(2.43)),
    # a whole number of one significant digit for a whole float value: another number,
    # not the live one rounded to the tens (a reader was told "At 0 decimals the live
    # value is 12" for 10, the value of another variant)
    ("10", f(12.0)), ("10", f(11.0)), ("100", f(120.0)),
])
def test_no_precision_hint_when_the_answer_is_off(typed: str, live: dict) -> None:
    v = judge(JudgeSpec("number"), typed, live)
    assert v.status is X and not any("decimal" in d or "digits" in d for d in v.details), v


def test_counts_in_words() -> None:
    two = seq("set", s("a"), s("b"))
    assert judge(JudgeSpec("set"), "a, b", two).message == "Both items."
    assert judge(JudgeSpec("list"), "a, b", seq("list", s("a"), s("b"))).message == \
        "Both items, in order."
    assert judge(JudgeSpec("list"), "a, b, c", seq("list", s("a"), s("b"), s("c"))).message \
        == "All 3 items, in order."
    assert judge(JudgeSpec("set"), "a", seq("set", s("a"))).message == \
        "Exactly that, and nothing more."
    assert judge(JudgeSpec("set"), "a, b, x", two).message.startswith(
        "Both live items are there, but you also listed 'x'")
    assert judge(JudgeSpec("set"), "a, x", seq("set", s("a"))).message.startswith(
        "The live item is there")


def test_one_typed_item_not_in_the_live_value_is_named() -> None:
    stride = seq("tuple", i(2))  # x.stride() of a 1-d tensor
    v = judge(JudgeSpec("list"), "(3,)", stride)
    assert v.message == "3 is not in the live value: (2,)."
    v = judge(JudgeSpec("list"), "3, 4", stride)
    assert v.message == "None of those is in the live value: (2,)."


def test_a_one_element_tensor_is_named_as_such() -> None:
    v = judge(JudgeSpec("tensor"), "-0.1", t([-0.1], [1]))
    assert v.status is P
    assert v.message == ("Right value, but the live value is a one-element tensor of shape (1,), "
                         "not a 0-d tensor (one number, shape ()): tensor([-0.1000]).")


def test_a_wrong_choice_names_the_answer_not_a_live_value() -> None:
    spec = JudgeSpec("choice", choices=("neither", "only e", "only r", "both"))
    v = judge(spec, "both", s("only r"))
    assert v.status is X and v.message == "You chose both; the answer is only r."
    assert "live value" not in v.message


@pytest.mark.parametrize("live", [f(0.5), t([1.0], [1]), seq("list", s("a")), NONE])
def test_messages_never_open_with_a_verdict(live: dict) -> None:
    for kind in ("number", "tensor", "list", "text"):
        for typed in ("0.5", "[1.]", "a", "None", "7"):
            v = judge(JudgeSpec(kind), typed, live)
            assert not v.message.startswith(("Right:", "Not quite", "Correct")), v.message


def test_case_beats_longer_in_a_names_hint() -> None:
    v = judge(JudgeSpec("text"), "parameter", s("Parameter"))
    assert v.details == ("Case matters here: the live value is Parameter.",)


def test_the_output_entry_says_commas_separate_lines() -> None:
    label = REGISTRY["stdout"].label
    assert "commas" in label and "nothing" in label
    assert entry_text("stdout") == label
    lines = {"type": "str", "value": "pre\nforward\nhook_b\n"}
    assert judge(JudgeSpec("stdout"), "pre, forward, hook_b", lines).passed


def test_floats_side_by_side_share_one_format() -> None:
    """A reader saw `[1.0, 1.0, 0.5000, 0.5000]` on a live line: floats in one list are
    written alike, as torch writes a tensor's elements."""
    from tutor.judge import display

    assert display(seq("list", f(1.0), f(1.0), f(0.5), f(0.5))) == \
        "[1.0000, 1.0000, 0.5000, 0.5000]"
    assert display(seq("tuple", f(1.0), f(8.0))) == "(1.0, 8.0)"  # all whole: as before
    assert display(seq("list", f(0.025), f(0.075))) == "[0.0250, 0.0750]"
    assert display(seq("list", f(1.0), i(2))) == "[1.0, 2]"  # not all floats: each its own
