"""Kind `number`: forms a learner may type, and the number rule."""

from __future__ import annotations

import pytest
from judge_obs import INV, NONE, C, X, b, f, i, s, status, t

from tutor.judge import JudgeSpec, Tolerance, judge, parse_error

F32_06 = 0.6000000238418579  # float32(0.6)
LN5 = 1.6094379425048828  # float32(ln 5), q.grad in the DIGEST


@pytest.mark.parametrize(
    "text",
    ["0.6", ".6", "6e-1", "6E-1", "0.60", "0.6000", " 0.6 ", "'0.6'", "`0.6`", "0.6.",
     "tensor(0.6000)", "tensor(0.6)", "torch.tensor(0.6000)", "tensor([0.6])", "[0.6]",
     "tensor(0.6000, requires_grad=False)", "+0.6", "3/5", "\uff10.\uff16", '"0.6"'],
)  # fmt: skip
def test_forms_accepted_for_0_6(text: str) -> None:
    assert status("number", text, f(F32_06)) is C, text


@pytest.mark.parametrize(
    ("text", "live", "expected"),
    [
        # the DIGEST values
        ("0.6", f(F32_06), C),
        ("1.2", f(1.2000000476837158), C),
        ("1.6094", f(LN5), C),
        ("1.61", f(LN5), C),
        ("1.6", f(LN5), C),
        ("1.609", f(LN5), C),
        ("1.60", f(LN5), X),
        ("4.8283", f(4.828313827514648), C),
        ("4.83", f(4.828313827514648), C),
        ("4.82", f(4.828313827514648), X),
        ("-4.0", f(-4.0), C),
        ("-4", f(-4.0), C),
        ("4", f(-4.0), X),
        ("0.008", f(0.00800000037997961), C),
        ("0.0080", f(0.00800000037997961), C),
        ("8e-3", f(0.00800000037997961), C),
        ("9.6566", f(9.656627655029297), C),
        ("9.66", f(9.656627655029297), C),
        ("9.65", f(9.656627655029297), X),
        ("116.3565", f(116.35649871826172), C),
        # precision rule
        ("0.61", f(F32_06), X),
        ("1", f(1.2), X),
        ("1.0", f(1.2), X),
        ("12", f(12.3), C),
        ("5", f(5.0), C),
        ("5.0", i(5), C),
        ("5", i(5), C),
        ("6", i(5), X),
        ("5.4", i(5), X),
        ("1e3", i(1000), C),
        ("1_000", i(1000), C),
        ("0.0", f(1e-7), X),  # sign and order of magnitude always count: 1e-7 is not zero
        ("0.000", f(0.004), X),
        ("1/3", f(0.3333333432674408), C),
        ("1/3", f(0.34), X),
        # specials
        ("nan", f("nan"), C),
        ("NaN", f("nan"), C),
        ("nan", f(1.0), X),
        ("1.0", f("nan"), X),
        ("inf", f("inf"), C),
        ("-inf", f("-inf"), C),
        ("inf", f("-inf"), X),
        ("float('inf')", f("inf"), C),
        ("torch.inf", f("inf"), C),
        # unicode minus
        ("\u22124.0", f(-4.0), C),
        # live 0-d and one-element tensors, bools
        ("0.6", t(F32_06, []), C),
        ("tensor(0.6000)", t(F32_06, []), C),
        ("0.6", t([F32_06], [1]), C),
        ("1", b(True), C),
        ("True", b(True), C),
        ("0", b(True), X),
    ],
)
def test_number_rule(text: str, live: dict, expected: object) -> None:
    assert status("number", text, live) is expected, (text, live)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "abc", "0.6 0.7", "[1, 2]", "1..2", "--1", "0.6x", "tensor(", "1/0",
     "1" * 51, "1e999", "1e-999", "'", "yes", "2**2**2**2**2", "(-8)**0.5", "ln(0)",
     "sqrt(-1)", "2*x", "[1]*3"],
)  # fmt: skip
def test_invalid_numbers(text: str) -> None:
    assert status("number", text, f(1.0)) is INV, text
    assert parse_error(JudgeSpec("number"), text)


def test_messages_say_what_differs() -> None:
    v = judge(JudgeSpec("number"), "0.61", f(F32_06))
    assert v.message == "You said 0.61; the live value is 0.6000."
    assert v.expected == "0.6000"
    assert v.answer == "0.61"
    assert any("0.60" in d for d in v.details)
    v = judge(JudgeSpec("number"), "1", f(1.2000000476837158))
    assert "significant digit" in " ".join(v.details)
    v = judge(JudgeSpec("number"), "[1, 2]", f(1.0))
    assert "one number" in v.message and "2 values" in v.message


def test_tolerance_replaces_rule() -> None:
    spec = JudgeSpec("number", tolerance=Tolerance(rtol=0.0, atol=0.1))
    assert judge(spec, "1.1", f(1.2)).passed
    assert judge(spec, "1", f(1.2)).status is X  # 0.2 > 0.1
    assert judge(spec, "1.3", f(1.2)).passed
    tight = JudgeSpec("number", tolerance=Tolerance(rtol=0.0, atol=0.0))
    assert not judge(tight, "0.6", f(F32_06)).passed  # default rule would accept
    assert judge(tight, "nan", f("nan")).passed
    rel = JudgeSpec("number", tolerance=Tolerance(rtol=0.1))
    assert judge(rel, "105", f(100.0)).passed
    assert not judge(rel, "111", f(100.0)).passed


def test_claims_on_a_live_tensor() -> None:
    live = t(F32_06, [], requires_grad=True, grad_fn="MulBackward0", is_leaf=False)
    assert status("number", "tensor(0.6000, grad_fn=<MulBackward0>)", live) is C
    v = judge(JudgeSpec("number"), "tensor(0.6000, grad_fn=<LogBackward0>)", live)
    assert v.status is X and "grad_fn is MulBackward0, not LogBackward0" in v.message
    assert status("number", "tensor(0.6000, requires_grad=False)", live) is X


def test_live_value_not_a_number() -> None:
    v = judge(JudgeSpec("number"), "3", t([3.0, 1.0], [2]))
    assert v.status is X and "shape (2,)" in v.message
    v = judge(JudgeSpec("number"), "3", s("3"))
    assert v.status is X and "not a number" in v.message


def test_complex() -> None:
    live = {"type": "complex", "real": 1.0, "imag": -2.0}
    assert status("number", "1-2j", live) is C
    assert status("number", "(1-2j)", live) is C
    assert status("number", "1+2j", live) is X
    assert status("number", "1", live) is X
    assert status("number", "2j", {"type": "complex", "real": 0.0, "imag": 2.0}) is C


def test_none() -> None:
    assert status("number", "None", NONE) is C
    assert status("number", "null", NONE) is C
    v = judge(JudgeSpec("number"), "0.6", NONE)
    assert v.status is X and v.message == "The live value is None, not 0.6."
    v = judge(JudgeSpec("number"), "none", f(F32_06))
    assert v.status is X and "0.6000, not None" in v.message


@pytest.mark.parametrize(
    ("text", "live", "expected"),
    [("10", 9.9982, C), ("10", 9.7706, X), ("10", 10.0, C), ("120", 123, X),
     ("100", 100.0, C), ("10.0", 9.9982, C), ("5.0", 4.9698, C), ("10", 10.6, X)],
)
def test_whole_numbers_are_read_to_the_units_and_two_significant_digits(
        text: str, live: float, expected: object) -> None:
    # "10" is read to the units digit, and never to fewer than two significant digits of
    # either number: 9.9982 is 10 to two significant digits (right); 9.7706 is 9.8 (wrong).
    assert status("number", text, f(live)) is expected


# ---- foreseen mistakes (issue 27, class 10) ---------------------------------------

MOMENTUM = JudgeSpec("number", feedback=(("2.4", "That is the buffer as a plain sum."),),
                     wrong=("2.6", "2.24"))


def test_a_number_that_fits_a_foreseen_mistake_is_that_mistake() -> None:
    v = judge(MOMENTUM, "2.4", f(2.4200000762939453))
    assert v.status.value == "incorrect"
    assert v.feedback == "That is the buffer as a plain sum."
    assert "2 decimals" in v.message
    assert "2.42" not in v.message  # the live value is not in the message


@pytest.mark.parametrize("text", ["2.42", "2.420", "tensor(2.4200)", "2.4200001"])
def test_the_digits_that_tell_them_apart_stay_right(text: str) -> None:
    assert judge(MOMENTUM, text, f(2.4200000762939453)).status is C, text


def test_a_mistake_that_the_live_value_does_not_round_onto_changes_nothing() -> None:
    assert status("number", "0.33", f(1 / 3), wrong=("0.3",)) is C  # fits the live value better
    assert status("number", "1/3", f(1 / 3), wrong=("0.3",)) is C
    assert status("number", "2.4", f(2.42), wrong=("7",)) is C


def test_an_explicit_tolerance_is_the_authors_rule() -> None:
    assert status("number", "2.4", f(2.42), tolerance=Tolerance(rtol=0.05), wrong=("2.4",)) is C


def test_a_wrong_answer_that_is_the_live_value_is_left_to_tutor_check() -> None:
    # `tutor check` must still see that this `wrong:` is judged right
    t32 = {"type": "tensor", "dtype": "float32", "shape": [], "values": F32_06}
    assert status("number", "0.6", t32, wrong=("0.6",)) is C
    assert status("number", "1.0", f(1.0), wrong=("1.0",)) is C


# ---- foreseen mistakes beyond single numbers (readers of packs 26 and 27) -----------

def test_a_list_that_is_a_foreseen_mistake_is_that_mistake_at_any_precision() -> None:
    """`[100, 99]` for a live [99.9, 98.9] was judged right (two significant digits)
    although `wrong:` lists [100.0, 99.0]: neither weight took Adam's step."""
    spec = JudgeSpec("list", wrong=("[100.0, 99.0]",),
                     feedback=(("[100.0, 99.0]", "Neither took the step."),))
    live = {"type": "list", "items": [f(99.9), f(98.9)]}
    for text in ("[100, 99]", "100, 99", "[100.0, 99.0]"):
        v = judge(spec, text, live)
        assert v.status is X and v.feedback == "Neither took the step.", (text, v)
    assert judge(spec, "[99.9, 98.9]", live).status is C


def test_a_set_that_is_a_foreseen_mistake_is_not_partly_right() -> None:
    """Listing every function (the misconception the question is built on) was
    "partly right" since the live item is among them."""
    spec = JudgeSpec("set", wrong=("f_item, f_if, f_where",))
    live = {"type": "set", "items": [s("f_where")]}
    v = judge(spec, "f_item, f_if, f_where", live)
    assert v.status is X and "one of the mistakes this question foresees" in v.message
    assert judge(spec, "f_where", live).status is C
    assert judge(spec, "f_if, f_where", live).status.value == "partial"  # not foreseen


def test_an_answer_that_does_not_say_what_sets_the_mistake_apart_stays_right() -> None:
    """`tensor([20., 40.])` for a live x.grad whose `wrong:` has the same numbers with
    requires_grad=True: it says nothing about the flag, so it is the live value."""
    spec = JudgeSpec("tensor", wrong=("tensor([20., 40.], requires_grad=True)",))
    live = t([20.0, 40.0], [2])
    assert judge(spec, "tensor([20., 40.])", live).status is C
    assert judge(spec, "tensor([20., 40.], requires_grad=True)", live).status is not C


# ------------------------------------------------------- the print hides the learner's digits
def _half(value: float, printed: str) -> dict:
    return t(value, [], "float16", repr=f"tensor({printed}, dtype=torch.float16)")


def test_a_wrong_answer_more_precise_than_the_print_sees_the_value_in_full() -> None:
    # floats/cancellation: float16(1.001) - 1 = 1/1024, printed `0.0010`; a learner who
    # typed 0.000977 must not be left believing they were nearer than the value shown
    v = judge(JudgeSpec(kind="number", tolerance=Tolerance(rtol=0, atol=5e-8)), "0.000977",
              _half(0.0009765625, "0.0010"))
    assert v.status is X
    assert v.details == ("In full, the live value is 0.0009766: torch printed it rounded.",)


@pytest.mark.parametrize(("typed", "live", "printed"), [
    ("0.0011", 0.0009765625, "0.0010"),   # no more digits than the print: it is enough
    ("0.25", 0.5, "0.5000"),              # the print holds them
    ("0.123", 0.125, "0.1250"),           # (the print's trailing zeros count)
])
def test_no_value_in_full_where_the_print_holds_what_was_typed(typed, live, printed) -> None:
    v = judge(JudgeSpec(kind="number", tolerance=Tolerance(rtol=0, atol=1e-9)), typed,
              _half(live, printed))
    assert v.status is X and not any("In full" in d for d in v.details), v.details


def test_shortest_names_a_value_of_its_dtype() -> None:
    from tutor.judge.comparing.numbers import shortest

    assert shortest(0.0009765625, "float16") == "0.000977"
    assert shortest(0.10000000149011612, "float32") == "0.1"
    assert shortest(0.1, "float64") == "0.1"
