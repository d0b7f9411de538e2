"""Rendered pictures: golden snapshots from live data, width fitting, pure edge cases."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from tutor.kernel import Kernel
from tutor.pictures import Picture, line_text, render, render_text

from .test_inspect import MODULES, SEED_GRAPH

SCENES: dict[str, tuple[str, str, str | None]] = {
    # name: (code, picture, expr)
    "graph_seed": (SEED_GRAPH, "graph", "z"),
    "graph_freed": (SEED_GRAPH + "z.backward()\n", "graph", "z"),
    "graph_two_paths": ("x = torch.tensor(5., requires_grad=True)\ny = x ** 3\nw = x ** 2\n"
                        "y.retain_grad()\nh = w.register_hook(lambda g: g)\n"
                        "z = torch.log(y) + torch.sqrt(w)\nz.backward(retain_graph=True)\n",
                        "graph", "z"),
    "graph_leaf": (SEED_GRAPH, "graph", "x"),
    "graph_shared_node": ("x = torch.tensor(2., requires_grad=True)\ny = x * 3\nz = y * y\n"
                          "c = (x.clone() + 1).sum()\n", "graph", "z"),
    "graph_nothing_saved": ("x = torch.tensor(2., requires_grad=True)\n"
                            "c = (x.clone() + 1).sum()\nc.backward()\n", "graph", "c"),
    "storage_detach": ("A = torch.tensor([2., 1.], requires_grad=True)\nB = A.detach()\n"
                       "C = A.clone()\n", "storage", None),
    "storage_views": ("M = torch.zeros(3, 4)\ncol = M[:, 1]\nrow = M[1]\nMt = M.t()\n"
                      "big = torch.zeros(100)\nevery7 = big[::7]\n", "storage", None),
    "tree_plain_list": (MODULES, "tree", "net"),
}


@pytest.fixture(scope="module")
def scenes(kernel: Kernel) -> dict[str, dict[str, Any]]:
    """Each scene's kernel data (one lesson run per scene)."""
    out = {}
    for name, (code, what, expr) in SCENES.items():
        with kernel.open_session() as s:
            assert s.run_step(code)["error"] is None
            out[name] = s.inspect(what, expr)
    return out


@pytest.mark.kernel
@pytest.mark.parametrize("name", list(SCENES))
def test_golden_pictures(name: str, scenes: dict[str, dict[str, Any]],
                         golden: Callable[[str, str], None]) -> None:
    golden(name, render_text(scenes[name], 80))


@pytest.mark.kernel
@pytest.mark.parametrize("name", ["graph_two_paths", "storage_views", "tree_plain_list"])
def test_golden_pictures_narrow(name: str, scenes: dict[str, dict[str, Any]],
                                golden: Callable[[str, str], None]) -> None:
    golden(f"{name}_w50", render_text(scenes[name], 50))


@pytest.mark.kernel
@pytest.mark.parametrize("width", [40, 57, 80, 120])
def test_every_picture_fits_its_width_and_is_deterministic(
        width: int, scenes: dict[str, dict[str, Any]]) -> None:
    for name, data in scenes.items():
        text = render_text(data, width)
        assert text == render_text(data, width), name
        too_wide = [ln for ln in text.splitlines() if len(ln) > width]
        assert not too_wide, (name, too_wide)


def test_pictures_are_styled_segments_for_any_front_end() -> None:
    pic = render({"type": "exception", "name": "NameError",
                  "message": "name 'zz' is not defined"})
    assert isinstance(pic, Picture) and pic.kind == "error"
    assert [line_text(ln) for ln in pic.lines] == ["NameError: name 'zz' is not defined"]
    assert pic.lines[0][0].style == "bad"
    assert pic.text() == "cannot draw this picture\nNameError: name 'zz' is not defined\n"


def test_pictures_and_tutor_show_import_neither_torch_nor_textual() -> None:
    probe = ("import sys, tutor.pictures, tutor.commands.show\n"
             "print(sorted(m for m in ('torch', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() == "[]"


def test_graph_edge_cases_render_without_a_kernel() -> None:
    var = {"names": [], "shape": [3], "grad": {"shape": [3], "values": [1.0, 0.5, 0.25]},
           "hooks": 2}
    data = {"type": "graph", "expr": "out", "root": "n1", "saved": "none", "truncated": True,
            "nodes": [
                {"id": "n1", "name": "SumBackward0", "next": ["n2"], "saved": "none",
                 "saved_names": [], "tensors": [{"names": ["out", "alias"], "hooks": 0}]},
                {"id": "n2", "name": "AccumulateGrad", "next": [], "saved": "none",
                 "saved_names": [], "tensors": [], "variable": var}]}
    assert render_text(data, 80) == (
        "autograd graph of out: what out.backward() walks\n"
        "SumBackward0 = grad_fn of out, alias\n"
        "└─ AccumulateGrad → (an unnamed leaf).grad = [1.0, 0.5000, 0.2500] · 2 hooks\n"
        "… (only the first 2 nodes are shown)\n"
        "nothing saved: none of these nodes keeps a tensor for backward.\n")


def test_storage_edge_cases_render_without_a_kernel() -> None:
    data = {"type": "storage", "expr": None, "truncated": False, "storages": [
        {"label": None, "tensors": [{"names": ["sp"], "shape": [4, 4], "dtype": "float32",
                                     "element_size": 4, "requires_grad": False,
                                     "is_leaf": True, "grad_fn": None, "is_view": False,
                                     "view_of": None}]}]}
    text = render_text(data, 60)
    assert "no two names share a storage" in text
    assert "no storage (sparse, meta or other layouts)" in text
    empty = render_text({"type": "storage", "expr": None, "storages": []})
    assert empty.splitlines()[1] == "(no tensors in the lesson's namespace yet)"


def test_a_node_too_wide_goes_on_below_under_the_trees_lines() -> None:
    """Facts that do not fit go on the next lines, under the tree's own lines (a `│`
    where the node's children follow), and the title goes on below too; only what is
    too long for a line of its own is cut (reader r52 lost `✗ freed: other, se…` at 80
    columns)."""
    data = {"type": "graph", "expr": "loss", "root": "n1", "saved": "freed", "nodes": [
        {"id": "n1", "name": "MulBackward0", "next": ["n2"], "saved": "freed",
         "saved_names": ["other", "self"],
         "tensors": [{"names": ["feature_t", "identity_t"], "hooks": 0}]},
        {"id": "n2", "name": "PowBackward0", "next": [], "saved": "kept",
         "saved_names": ["self", "result", "exponent", "other", "mat1", "mat2"],
         "tensors": [{"names": ["t"], "hooks": 0}]}]}
    lines = render_text(data, 40).splitlines()
    assert lines[:2] == ["autograd graph of loss: what", "  loss.backward() walks"]  # not cut
    assert lines[2:7] == [
        "MulBackward0",
        "│  = grad_fn of feature_t, identity_t",
        "│  · ✗ freed: other, self",
        "└─ PowBackward0 = t.grad_fn",
        "      · saved: self, result, exponent, …",
    ]
    assert all(len(ln) <= 40 for ln in lines)


def test_a_node_shown_again_is_named_as_it_was_first() -> None:
    """`MulBackward0 = grad_fn of feature, identity`, then its repeat named
    `feature.grad_fn` only: one node, two names (a reviewer's find)."""
    shared = {"id": "n2", "name": "MulBackward0", "next": [], "saved": "kept",
              "saved_names": ["other"],
              "tensors": [{"names": ["feature", "identity"], "hooks": 0}]}
    data = {"type": "graph", "expr": "out", "root": "n1", "saved": "kept", "nodes": [
        {"id": "n1", "name": "AddBackward0", "next": ["n2", "n3"], "saved": "none",
         "saved_names": [], "tensors": [{"names": ["out"], "hooks": 0}]},
        shared,
        {"id": "n3", "name": "MulBackward0", "next": ["n2"], "saved": "none",
         "saved_names": [], "tensors": []}]}
    lines = render_text(data, 80).splitlines()
    assert lines[2] == "├─ MulBackward0 = grad_fn of feature, identity · saved: other"
    assert lines[4] == "   └─ MulBackward0 = grad_fn of feature, identity ↑ again (shown above)"


def test_an_error_picture_says_all_of_its_message() -> None:
    """`InspectError: graph: `delivered` is a list, not a tensor (or a grad…` lost its
    end at 70 columns (a reviewer's find): the message wraps."""
    message = "graph: `delivered` is a list, not a tensor (or a grad_fn)"
    lines = render_text({"type": "exception", "name": "InspectError", "message": message},
                        40).splitlines()
    assert all(len(ln) <= 40 for ln in lines) and "…" not in "".join(lines)
    assert " ".join(ln.strip() for ln in lines[1:]) == f"InspectError: {message}"
