"""Kind `tensor`: shapes, values, dtypes and stated attributes."""

from __future__ import annotations

import pytest
from judge_obs import INV, NONE, C, P, X, exc, f, status, t

from tutor.judge import JudgeSpec, judge

A = t([3.0, 1.0], [2], requires_grad=True)  # tensor([3., 1.], requires_grad=True)
M = t([[1, 2], [3, 4]], [2, 2], dtype="int64")


@pytest.mark.parametrize(
    "text",
    ["tensor([3., 1.])", "torch.tensor([3., 1.])", "[3, 1]", "(3, 1)", "[3.0, 1.0]", "3, 1",
     "tensor([3., 1.], requires_grad=True)", "tensor([3.0000, 1.0000])", "`[3, 1]`",
     "tensor([3., 1.], dtype=torch.float32)", "tensor([3., 1.], dtype=torch.float)",
     "tensor([3., 1.], device='cpu')", "tensor([3., 1.], requires_grad=True, grad_fn=None)",
     "tensor([3., 1.],)", "tensor([3., 1.], device=device(type='cpu'))", "[3, 1,]"],
)  # fmt: skip
def test_forms_accepted(text: str) -> None:
    assert status("tensor", text, A) is C, text


@pytest.mark.parametrize(
    "text",
    ["[[1, 2], [3, 4]]", "tensor([[1, 2], [3, 4]])", "tensor([[1, 2], [3, 4]], dtype=torch.int64)",
     "((1, 2), (3, 4))", "tensor([[1, 2],\n        [3, 4]])",
     "tensor([[1, 2], [3, 4]], dtype=torch.long)"],
)  # fmt: skip
def test_nested_forms(text: str) -> None:
    assert status("tensor", text, M) is C, text


def test_zero_d_tensor() -> None:
    live = t(0.6000000238418579, [])
    for text in ["0.6", "tensor(0.6000)", "tensor(0.6)", "tensor(.6)"]:
        assert status("tensor", text, live) is C, text
    v = judge(JudgeSpec("tensor"), "tensor([0.6])", live)
    assert v.status is P and "shape ()" in v.message  # the right value, in another shape
    assert status("tensor", "tensor(5.)", t(5.0, [])) is C


def test_values_differ_names_the_element() -> None:
    v = judge(JudgeSpec("tensor"), "[[1, 2], [3, 5]]", M)
    assert v.status is X
    assert "1 of 4 values differ" in v.message
    assert v.details == ("At [1, 1]: you said 5, the live value is 4.",)


def test_shape_differs() -> None:
    v = judge(JudgeSpec("tensor"), "[3, 1, 0]", A)
    assert v.status is X and "shape (2,), not (3,)" in v.message


def test_ints_for_a_float_tensor_are_fine_but_floats_for_ints_are_partial() -> None:
    assert status("tensor", "[3, 1]", t([3.0, 1.0], [2])) is C
    v = judge(JudgeSpec("tensor"), "[3., 1.]", t([3, 1], [2], dtype="int64"))
    assert v.status is P
    assert v.message == ("Right values, but the dtype differs: the live tensor is int64; yours, "
                         "as written, is floating point.")
    # tensor(...) notation with ints implies an integer tensor, as torch prints it
    v = judge(JudgeSpec("tensor"), "tensor([3, 1])", t([3.0, 1.0], [2]))
    assert v.status is P and "the live tensor is float32; yours, as written, is int64" in v.message
    assert status("tensor", "tensor([True, False])", t([1.0, 0.0], [2])) is P
    assert status("tensor", "[True, False]", t([True, False], [2], dtype="bool")) is C
    assert status("tensor", "tensor([True, False])", t([True, False], [2], dtype="bool")) is C


def test_explicit_dtype_must_match() -> None:
    v = judge(JudgeSpec("tensor"), "tensor([3, 1], dtype=torch.int32)", t([3, 1], [2], "int64"))
    assert v.status is P  # right values: partly right, as for a dtype the notation implies
    assert v.message.startswith("Right values, but the dtype differs: the live tensor is int64; "
                                "yours, as written, is int32")
    v = judge(JudgeSpec("tensor"), "tensor([3, 2], dtype=torch.int32)", t([3, 1], [2], "int64"))
    assert v.status is X and "the dtype is int64, not int32" in v.message
    assert status("tensor", "tensor([3, 1], dtype=torch.int32)", t([3, 1], [2], "int32")) is C
    assert status("tensor", "tensor([1., 2.], dtype=torch.float64)", t([1, 2], [2], "float64")) is C
    assert status("tensor", "tensor([1, 2], dtype=torch.float64)", t([1, 2], [2], "float64")) is C


def test_stated_attributes_are_judged() -> None:
    plain = t([3.0, 1.0], [2])
    v = judge(JudgeSpec("tensor"), "tensor([3., 1.], requires_grad=True)", plain)
    assert v.status is X and "requires_grad is False, not True" in v.message
    cloned = t([2.0], [1], requires_grad=True, grad_fn="CloneBackward0", is_leaf=False)
    assert status("tensor", "tensor([2.], grad_fn=<CloneBackward0>)", cloned) is C
    v = judge(JudgeSpec("tensor"), "tensor([2.], grad_fn=<MulBackward0>)", cloned)
    assert v.status is X and "grad_fn is CloneBackward0, not MulBackward0" in v.message
    v = judge(JudgeSpec("tensor"), "tensor([2.], grad_fn=<MulBackward0>)", t([2.0], [1]))
    assert v.status is X and "grad_fn is None" in v.message
    assert status("tensor", "tensor([2.], device='cuda')", t([2.0], [1])) is X


def test_parameter() -> None:
    live = t([1.0], [1], requires_grad=True, is_parameter=True)
    assert status("tensor", "Parameter containing:\ntensor([1.], requires_grad=True)", live) is C
    assert status("tensor", "nn.Parameter(torch.tensor([1.]))", live) is C
    v = judge(JudgeSpec("tensor"), "Parameter containing: tensor([1.])", t([1.0], [1]))
    assert v.status is X and "not an nn.Parameter" in v.message


def test_precision_per_element() -> None:
    live = t([0.6000000238418579, 1.6094379425048828], [2])
    assert status("tensor", "tensor([0.6000, 1.6094])", live) is C
    assert status("tensor", "[0.6, 1.61]", live) is C
    assert status("tensor", "[0.6, 1.60]", live) is X


def test_special_values_and_bools() -> None:
    assert status("tensor", "[nan, inf, -inf]", t(["nan", "inf", "-inf"], [3])) is C
    assert status("tensor", "[nan, inf, inf]", t(["nan", "inf", "-inf"], [3])) is X


def test_truncated_tensor_cannot_be_confirmed() -> None:
    live = t(None, [200, 100], truncated=True)
    del live["values"]
    v = judge(JudgeSpec("tensor"), "[[0.]]", live)
    assert v.status is X and "shape (200, 100)" in v.message
    v = judge(JudgeSpec("tensor"), "[" + ", ".join(["[0.]"] * 200) + "]", live)
    assert v.status is X  # shape (200, 1) differs
    assert status("shape", "(200, 100)", live) is C
    assert status("dtype", "float32", live) is C


def test_truncated_same_shape_says_cannot_confirm() -> None:
    live = {"type": "tensor", "dtype": "float32", "shape": [2], "truncated": True}
    v = judge(JudgeSpec("tensor"), "[1., 2.]", live)
    assert v.status is X and "can't confirm" in v.message


def test_ragged_and_junk_is_invalid() -> None:
    for text in ["[[1, 2], [3]]", "tensor([1., 2.], foo=1)", "tensor(['a'])", "tensor()",
                 "tensor([1.], requires_grad=yes)", "[1, 2"]:  # fmt: skip
        assert status("tensor", text, A) is INV, text


def test_none_and_live_errors() -> None:
    assert status("tensor", "None", NONE) is C
    v = judge(JudgeSpec("tensor"), "None", A)
    assert v.status is X and "tensor([3., 1.], requires_grad=True), not None" in v.message
    v = judge(JudgeSpec("tensor"), "[3, 1]", NONE)
    assert v.status is X and v.message.startswith("The live value is None")
    err = exc("RuntimeError", "a leaf Variable that requires grad is being used")
    v = judge(JudgeSpec("tensor"), "[3, 1]", err)
    assert v.status is X
    assert v.message.startswith("Evaluating the expression raised RuntimeError: a leaf")


def test_live_python_number_for_tensor_kind() -> None:
    assert status("tensor", "tensor(2.)", f(2.0)) is C
    assert status("tensor", "tensor(3.)", f(2.0)) is X


def test_complex_tensor() -> None:
    live = t([[1.0, 2.0], [3.0, -1.0]], [2], dtype="complex64")
    assert status("tensor", "tensor([1.+2.j, 3.-1.j])", live) is C
    assert status("tensor", "tensor([1.+2.j, 3.+1.j])", live) is X


def test_a_sentence_quotes_a_value_torch_writes_on_several_lines_on_one_line() -> None:
    """"The live value is Parameter containing:⏎tensor(...)." broke the verdict's line
    (reader r36); the value's own block, shown beside it, keeps torch's layout."""
    param = t([0.0, 0.0], [1, 2], requires_grad=True, is_parameter=True)
    param["repr"] = "Parameter containing:\ntensor([[0., 0.]], requires_grad=True)"
    v = judge(JudgeSpec("tensor"), "[[1., 0.]]", param)
    assert v.status is X and "\n" not in v.message
    assert "The live value is Parameter containing: tensor([[0., 0.]], requires_grad=True)." \
        in v.message
    assert v.expected == param["repr"]  # the block itself is torch's
    grid = t([0.0, 1.0, 2.0, 3.0], [2, 2])
    grid["repr"] = "tensor([[0., 1.],\n        [2., 3.]])"
    v = judge(JudgeSpec("number"), "3", grid)
    assert "not one number: tensor([[0., 1.], [2., 3.]])." in v.message
