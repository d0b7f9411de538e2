"""Kinds bool, same_storage, text, choice, exception and stdout."""

from __future__ import annotations

from typing import Any

import pytest
from judge_obs import INV, NONE, C, P, X, b, exc, f, i, s, status, t

from tutor.judge import JudgeSpec, Status, judge

# ---- bool ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["True", "true", "yes", "Yes.", "y", "1", "yep", "yes, it is", "'True'", "`True`",
     "tensor(True)", "TRUE", "yeah"],
)  # fmt: skip
def test_bool_true_forms(text: str) -> None:
    assert status("bool", text, b(True)) is C, text
    assert status("bool", text, b(False)) is X, text


@pytest.mark.parametrize(
    "text", ["False", "false.", "no", "n", "0", "nope", "No, it is not", "nah", "tensor(False)"]
)
def test_bool_false_forms(text: str) -> None:
    assert status("bool", text, b(False)) is C, text


def test_bool_not() -> None:
    assert status("bool", "not true", b(False)) is C
    assert status("bool", "not", b(False)) is C
    assert status("bool", "not false", b(True)) is C
    assert status("bool", "not sure", b(False)) is INV
    assert status("same_storage", "not sure", b(False)) is INV


@pytest.mark.parametrize("text", ["maybe", "2", "it depends", "1.5", "", "shared"])
def test_bool_invalid(text: str) -> None:
    assert status("bool", text, b(True)) is INV, text


def test_bool_message_and_live_forms() -> None:
    v = judge(JudgeSpec("bool"), "yes", b(False))
    assert v.message == "You said yes; it is no (the live value is False)."
    assert v.expected == "False"
    v = judge(JudgeSpec("bool"), "True", b(False))
    assert v.message == "You said True; the live value is False."
    assert judge(JudgeSpec("bool"), "yes", b(True)).message == "Yes: the live value is True."
    assert judge(JudgeSpec("bool"), "True", b(True)).message == "It is True."
    assert status("bool", "True", t(True, [], dtype="bool")) is C
    assert status("bool", "False", i(0)) is C
    assert status("bool", "None", NONE) is C
    assert status("bool", "no", NONE) is X


# ---- same_storage ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["yes", "yes, same memory", "same memory", "shared", "they share", "shares storage",
     "same storage", "True", "it's a view", "not a copy", "no copy is made", "no new memory",
     "yep", "they share memory."],
)  # fmt: skip
def test_same_storage_yes(text: str) -> None:
    assert status("same_storage", text, b(True)) is C, text
    assert status("same_storage", text, b(False)) is X, text


@pytest.mark.parametrize(
    "text",
    ["no", "no, two storages", "separate", "different memory", "copy", "a copy", "not shared",
     "don't share", "they do not share", "doesn't share memory", "two storages", "False",
     "nope", "not the same memory", "it's a clone", "no."],
)  # fmt: skip
def test_same_storage_no(text: str) -> None:
    assert status("same_storage", text, b(False)) is C, text
    assert status("same_storage", text, b(True)) is X, text


def test_same_storage_messages() -> None:
    v = judge(JudgeSpec("same_storage"), "no", b(True))
    assert v.expected == "yes"
    assert v.message == "You said no; they share memory (one storage)."
    assert status("same_storage", "banana", b(True)) is INV


# ---- text ------------------------------------------------------------------

GRAD_FN = {"type": "grad_fn", "name": "LogBackward0"}


@pytest.mark.parametrize(
    "text",
    ["LogBackward0", "logbackward0", "'LogBackward0'", "`LogBackward0`", "LogBackward0.",
     "<LogBackward0 object at 0x7f3a2c1d5e80>", "<LogBackward0>", "grad_fn=<LogBackward0>",
     "  LogBackward0  "],
)  # fmt: skip
def test_text_grad_fn_forms(text: str) -> None:
    assert status("text", text, GRAD_FN) is C, text


def test_text_old_name_is_wrong() -> None:
    v = judge(JudgeSpec("text"), "LogBackward", GRAD_FN)
    assert v.status is X
    assert v.message == "You said LogBackward; the live value is LogBackward0."
    assert "LogBackward0" in v.details[0]


def test_text_other_live_types() -> None:
    assert status("text", "float32", {"type": "dtype", "value": "float32"}) is C
    assert status("text", "torch.float", {"type": "dtype", "value": "float32"}) is C
    assert status("text", "torch.float64", {"type": "dtype", "value": "float32"}) is X
    assert status("text", "MulBackward0", s("MulBackward0")) is C
    assert status("text", "Linear", {"type": "module", "class": "Linear", "repr": "Linear()"}) is C
    assert status("text", "nn.Linear", {"type": "module", "class": "Linear", "repr": "x"}) is C
    assert status("text", "cpu", {"type": "device", "value": "cpu"}) is C
    assert status("text", "device(type='cpu')", {"type": "device", "value": "cpu"}) is C
    assert status("text", "None", NONE) is C
    assert status("text", "LogBackward0", NONE) is X
    assert status("text", "None", s("None")) is C
    assert status("text", "None", GRAD_FN) is X
    assert status("text", "1.5", f(1.5)) is C
    assert status("text", "", GRAD_FN) is INV


# ---- choice ----------------------------------------------------------------

CHOICES = ("powModel, logModel", "logModel, powModel", "nothing")


@pytest.mark.parametrize(
    "text", ["powModel, logModel", "POWMODEL, LOGMODEL", "1", "a", "(a)", "1)", "option 1", "'a'"]
)
def test_choice_forms(text: str) -> None:
    assert status("choice", text, s("powModel, logModel"), choices=CHOICES) is C, text
    assert status("choice", text, s("logModel, powModel"), choices=CHOICES) is X, text


def test_a_choice_without_its_closing_aside() -> None:
    """`z grows by ln 2` picks "z grows by ln 2 (about 0.69)" (reader r42 was asked to pick
    again); not when it is another choice's whole text, nor half of a choice."""
    aside = ("z is unchanged", "z grows by ln 2 (about 0.69)", "z doubles")
    live = s("z grows by ln 2 (about 0.69)")
    assert status("choice", "z grows by ln 2", live, choices=aside) is C
    assert status("choice", "z doubles", live, choices=aside) is X
    assert status("choice", "grows by ln 2", live, choices=aside) is INV
    both = ("x", "x (a)", "y")
    assert status("choice", "x", s("x (a)"), choices=both) is X  # "x" is the first choice


def test_choice_invalid_lists_the_choices() -> None:
    v = judge(JudgeSpec("choice", choices=CHOICES), "4", s("nothing"))
    assert v.status is INV
    assert v.message == "Pick one of: 1) powModel, logModel; 2) logModel, powModel; 3) nothing."
    assert status("choice", "d", s("nothing"), choices=CHOICES) is INV


def test_choice_by_meaning_of_the_live_value() -> None:
    nums = ("0.6", "1.2", "1.6094")
    assert status("choice", "2", f(1.2000000476837158), choices=nums) is C
    assert status("choice", "1.2", f(1.2000000476837158), choices=nums) is C
    assert status("choice", ".6", f(0.6000000238418579), choices=nums) is C
    yn = ("yes", "no")
    assert status("choice", "b", b(False), choices=yn) is C
    errs = ("no error", "RuntimeError", "IndexError")
    assert status("choice", "RuntimeError", exc("RuntimeError"), choices=errs) is C
    assert status("choice", "1", NONE, choices=errs) is C
    v = judge(JudgeSpec("choice", choices=yn), "yes", s("maybe"))
    assert v.status is X and "none of the choices" in v.message
    v = judge(JudgeSpec("choice", choices=errs), "1", exc("RuntimeError", "boom"))
    assert v.message == "You chose no error; the answer is RuntimeError."


def test_choice_without_choices_is_invalid() -> None:
    assert status("choice", "1", s("x")) is INV


# ---- exception -------------------------------------------------------------

RT = exc("RuntimeError", "Trying to backward through the graph a second time")
IDX = exc("IndexError", "list index out of range", ["IndexError", "LookupError", "Exception",
                                                    "BaseException"])  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["RuntimeError", "runtimeerror", "raises RuntimeError", "it raises a RuntimeError",
     "RuntimeError: whatever message", "`RuntimeError`", "RuntimeError.",
     "torch.RuntimeError", "RuntimeError('x')", "a RuntimeError is raised"],
)  # fmt: skip
def test_exception_named(text: str) -> None:
    assert status("exception", text, RT) is C, text
    assert status("exception", text, IDX) is X, text
    assert status("exception", text, NONE) is X, text


@pytest.mark.parametrize(
    "text", ["error", "it raises", "raises", "an error", "exception", "it fails", "Error", "yes"]
)
def test_exception_generic(text: str) -> None:
    # hedging must not beat knowing: a generic "it raises" is partly right
    v = judge(JudgeSpec("exception"), text, RT)
    assert v.status is P, text
    assert v.message == "It raises, yes: a RuntimeError. Name the class for full credit."
    assert status("exception", text, NONE) is X


@pytest.mark.parametrize(
    "text",
    ["no error", "none", "None", "nothing", "no", "works", "no exception", "runs fine",
     "it runs without error", "doesn't raise", "it works fine", "null"],
)  # fmt: skip
def test_exception_none(text: str) -> None:
    v = judge(JudgeSpec("exception"), text, NONE)
    assert v.status is C, text
    v = judge(JudgeSpec("exception"), text, RT)
    assert v.status is X
    assert v.message.startswith("It raised RuntimeError: Trying to backward")


def test_exception_base_class_from_mro() -> None:
    v = judge(JudgeSpec("exception"), "LookupError", IDX)
    assert v.status is C
    assert "the exact type is IndexError" in v.message
    v = judge(JudgeSpec("exception"), "Exception", IDX)  # as generic as "it raises"
    assert v.status is P and "Name the class for full credit" in v.message
    v = judge(JudgeSpec("exception"), "KeyError", IDX)
    assert v.status is X and v.message == "It raised IndexError, not KeyError."


def test_exception_display_and_invalid() -> None:
    v = judge(JudgeSpec("exception"), "no error", NONE)
    assert v.expected == "no error"
    assert judge(JudgeSpec("exception"), "x", RT).expected.startswith("RuntimeError: Trying")
    v = judge(JudgeSpec("exception"), "LogBackward0", RT)
    assert v.status is INV and "doesn't look like an exception" in v.message
    assert status("exception", "banana split", RT) is INV
    assert status("exception", "KeyboardInterrupt", exc("KeyboardInterrupt")) is C
    assert status("exception", "StopIteration", exc("StopIteration")) is C


# ---- stdout ----------------------------------------------------------------


def test_stdout_whitespace_and_newlines() -> None:
    live = s("tensor([1.])\ntensor([2.])\n")
    for text in ["tensor([1.]) tensor([2.])", "tensor([1.])\\ntensor([2.])",
                 "  tensor([1.])\n\n   tensor([2.])  ", "'tensor([1.]) tensor([2.])'"]:  # fmt: skip
        assert status("stdout", text, live) is C, text
    v = judge(JudgeSpec("stdout"), "tensor([1.]) tensor([3.])", live)
    assert v.status is X and v.details[0] == \
        "Line 2: you said 'tensor([3.])'; it printed 'tensor([2.])'."
    v = judge(JudgeSpec("stdout"), "tensor([1.])tensor([3.])", live)  # not line by line
    assert v.status is X and "character 13" in v.details[0]


def test_stdout_lines_typed_with_commas_differ_by_line_not_by_character() -> None:
    """`pre, forward, hook_a, hook_b` against four printed lines: the detail names the
    line, not the character where the learner's comma is (reader r32)."""
    live = s("pre\nforward\nhook_b\nhook_a\n")
    said = {"pre, forward, hook_a, hook_b": "Line 3: you said 'hook_a'; it printed 'hook_b'.",
            "pre\nforward": "It printed 4 lines, you said 2; the next one is 'hook_b'.",
            "pre forward hook_b hook_a hook_a": "It printed only 4 lines; you said 5."}
    for text, detail in said.items():
        v = judge(JudgeSpec("stdout"), text, live)
        assert v.status is X and v.details == (detail,), text


def test_stdout_substance_matters() -> None:
    live = s("tensor([1], dtype=torch.int32)")
    assert status("stdout", "tensor([1.])", live) is X
    assert status("stdout", "Tensor([1], dtype=torch.int32)", live) is X
    assert status("stdout", "tensor([1], dtype=torch.int32)", live) is C


def test_stdout_quotes_and_periods_only_when_not_printed() -> None:
    assert status("stdout", "'hi'", s("'hi'")) is C
    assert status("stdout", "hi", s("'hi'")) is X
    assert status("stdout", "'hi'", s("hi")) is C
    assert status("stdout", "done.", s("done")) is C
    assert status("stdout", "done", s("done.")) is X


def test_stdout_nothing() -> None:
    for text in ["nothing", "(nothing)", "no output"]:
        assert status("stdout", text, s("")) is C, text
    assert status("stdout", "None", s("")) is X  # print(f()) prints None: that is output
    assert status("stdout", "None", s("None\n")) is C
    assert status("stdout", "nothing", s("x")) is X
    assert status("stdout", "   ", s("")) is INV


def test_stdout_truncated() -> None:
    live = {"type": "str", "value": "a" * 50, "truncated": True}
    v = judge(JudgeSpec("stdout"), "a" * 60, live)
    assert v.status is X and "can't confirm" in v.message


# ---- review fixes: one-letter words, code on the left, "not <adjective>" -----------


@pytest.mark.parametrize(
    "text, live",
    [("t.is_contiguous() = False", False), ("t.is_contiguous() == False", False),
     ("y.is_leaf = False", False), ("y.is_leaf: False", False), ("B.requires_grad = True", True),
     ("not contiguous", False), ("not a leaf", False)],
)  # fmt: skip
def test_bool_code_and_not_phrases(text: str, live: bool) -> None:
    assert status("bool", text, b(live)) is C, text
    assert status("bool", text, b(not live)) is X, text


def test_bool_one_letter_is_a_word_only_on_its_own() -> None:
    # `t.…` / `y.…` / `t is …` name a variable: they must never read as True
    assert status("bool", "t is not contiguous", b(False)) is C  # a negated state: no
    assert status("bool", "t is not contiguous", b(True)) is X
    assert status("bool", "t", b(True)) is C
    assert status("bool", "n, it is not", b(False)) is C


@pytest.mark.parametrize(
    ("text", "expected"),
    [("MyPowBackward", C), ("torch.autograd.function.MyPowBackward", C),
     ("<torch.autograd.function.MyPowBackward object at 0x7f8b2c>", C),
     ("torch.autograd.function.MyPow", X), ("MyPowBackward0", X), ("foo.PowBackward0", X)],
)  # fmt: skip
def test_custom_function_grad_fn_printed_with_its_module(text: str, expected: object) -> None:
    # print(y.grad_fn) shows <torch.autograd.function.MyPowBackward object at …>
    assert status("text", text, {"type": "grad_fn", "name": "MyPowBackward"}) is expected, text


@pytest.fixture(scope="module")
def linalg_error(kernel: Any) -> dict[str, Any]:
    """What the kernel reports for torch.linalg.inv of a singular matrix: the class
    behind torch.linalg.LinAlgError is torch._C._LinAlgError.  (Asked of the shared
    kernel: this process never imports torch.)"""
    with kernel.open_session() as session:
        reply = session.run_step("torch.linalg.inv(torch.zeros(2, 2))",
                                 prompts=[{"kind": "exception", "expect": None}])
    (live,) = reply["observations"]
    return dict(live)


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [("exception", "LinAlgError", C), ("exception", "torch.linalg.LinAlgError", C),
     ("exception", "RuntimeError", C), ("exception", "it raises", P),
     ("exception", "Exception", P), ("exception", "ValueError", X),
     ("exception", "no error", X), ("number", "3", X), ("tensor", "[1, 2]", X)],
)
@pytest.mark.kernel
def test_a_private_exception_class_is_shown_and_judged_by_its_public_name(
        kind: str, text: str, expected: Status, linalg_error: dict[str, Any]) -> None:
    live = linalg_error
    assert live["name"] == "_LinAlgError"  # the kernel reports the class as it is
    v = judge(JudgeSpec(kind), text, live)
    assert v.status is expected, v.message
    shown = " ".join([v.message, v.expected, *v.details])
    assert "_LinAlgError" not in shown, shown
    assert "torch.linalg.LinAlgError" in v.expected


@pytest.mark.kernel
def test_a_choice_names_the_public_exception_class(linalg_error: dict[str, Any]) -> None:
    live = linalg_error
    v = judge(JudgeSpec("choice", choices=("no error", "torch.linalg.LinAlgError")), "1", live)
    assert v.status is X
    assert v.message == "You chose no error; the answer is torch.linalg.LinAlgError."


@pytest.mark.parametrize("text", ["option 2", "choice 2", "2)", "b", "(b)"])
def test_a_position_among_whole_number_choices_is_typed_as_such(text: str) -> None:
    # issue 27, class 8: there a bare number is a text; these forms are positions
    assert status("choice", text, s("3"), choices=("1", "3", "2")) is C
