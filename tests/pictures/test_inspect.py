"""The kernel's inspectors: exact plain data for the seed examples."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutor.kernel import Kernel, Session

pytestmark = pytest.mark.kernel

SEED_GRAPH = ("x = torch.tensor(5., requires_grad=True)\n"
              "q = torch.tensor(3., requires_grad=True)\n"
              "z = torch.log(x ** q)\n")


def run(s: Session, code: str) -> None:
    reply = s.run_step(code)
    assert reply["error"] is None, reply["error"]


def leaf(name: str, grad: Any = None, **more: Any) -> dict[str, Any]:
    return {"names": [name], "shape": [], "dtype": "float32", "requires_grad": True,
            "is_leaf": True, "retains_grad": False, "is_parameter": False, "grad": grad,
            "hooks": 0, **more}


def test_graph_of_log_x_pow_q_maps_the_leaves_to_their_names(session: Session) -> None:
    run(session, SEED_GRAPH)
    data = session.inspect("graph", "z")
    json.dumps(data)  # plain data only
    z = {**leaf("z"), "is_leaf": False}
    assert data == {
        "type": "graph", "expr": "z", "root": "n1", "saved": "kept", "truncated": False,
        "tensor": z,
        "nodes": [
            {"id": "n1", "name": "LogBackward0", "next": ["n2"], "saved": "kept",
             "saved_names": ["self"], "saved_modified": [], "tensors": [z]},
            {"id": "n2", "name": "PowBackward1", "next": ["n3", "n4"], "saved": "kept",
             "saved_names": ["exponent", "result", "self"], "saved_modified": [],
             "tensors": []},
            {"id": "n3", "name": "AccumulateGrad", "next": [], "saved": "none",
             "saved_names": [], "saved_modified": [], "tensors": [], "variable": leaf("x")},
            {"id": "n4", "name": "AccumulateGrad", "next": [], "saved": "none",
             "saved_names": [], "saved_modified": [], "tensors": [], "variable": leaf("q")},
        ],
    }


def test_a_backward_without_retain_graph_frees_the_saved_tensors(session: Session) -> None:
    run(session, SEED_GRAPH + "z.backward()\n")
    data = session.inspect("graph", "z")
    assert data["saved"] == "freed"
    assert [(n["name"], n["saved"]) for n in data["nodes"]] == [
        ("LogBackward0", "freed"), ("PowBackward1", "freed"),
        ("AccumulateGrad", "none"), ("AccumulateGrad", "none")]
    grads = {n["variable"]["names"][0]: n["variable"]["grad"] for n in data["nodes"][2:]}
    assert grads["x"]["shape"] == [] and grads["x"]["values"] == pytest.approx(0.6)
    assert grads["q"]["values"] == pytest.approx(1.6094, abs=1e-4)
    # the picture's claim is true: a second backward raises
    reply = session.run_step("z.backward()")
    assert reply["error"]["name"] == "RuntimeError"
    assert "second time" in reply["error"]["message"]


def test_retain_graph_keeps_them_and_a_graph_that_saves_nothing_says_so(
        session: Session) -> None:
    run(session, SEED_GRAPH + "z.backward(retain_graph=True)\n"
        "a = torch.tensor([2., 3.], requires_grad=True)\nb = a.clone()\nc = (b + a).sum()\n"
        "c.backward()\n")
    assert session.inspect("graph", "z")["saved"] == "kept"
    data = session.inspect("graph", "c")
    assert data["saved"] == "none"  # clone, add and sum save no tensors: backward can run again
    assert [n["name"] for n in data["nodes"]] == [
        "SumBackward0", "AddBackward0", "CloneBackward0", "AccumulateGrad"]
    assert session.run_step("c.backward()")["error"] is None


def test_a_saved_tensor_changed_in_place_is_named_and_backward_then_raises(
        session: Session) -> None:
    """Reading a saved tensor whose version moved on raises in torch: the picture said
    "nothing saved" (a reader found it in versions/saved-inputs); it is kept, and marked."""
    from tutor.pictures import render_text

    run(session, "w = torch.tensor([1., 2.], requires_grad=True)\n"
        "a = torch.tensor([3., 4.])\nb = (w * a).sum()\na.add_(1)\n")
    data = session.inspect("graph", "b")
    mul = data["nodes"][1]
    assert (mul["name"], mul["saved"], mul["saved_names"], mul["saved_modified"]) == (
        "MulBackward0", "kept", ["other"], ["other"])
    assert data["saved"] == "kept"
    text = " ".join(render_text(data, 80).split())
    assert "MulBackward0 · ✗ changed in place since saved: other" in text, text
    assert "a backward() through this graph will raise" in text, text
    assert "nothing saved" not in text
    reply = session.run_step("b.backward()")  # the picture's claim is true
    assert "modified by an inplace operation" in reply["error"]["message"]


def test_two_paths_share_a_node_and_retained_grads_and_hooks_show(session: Session) -> None:
    run(session, "x = torch.tensor(5., requires_grad=True)\ny = x ** 3\nw = x ** 2\n"
        "y.retain_grad()\nh = w.register_hook(lambda g: g)\n"
        "z = torch.log(y) + torch.sqrt(w)\nz.backward()\n")
    data = session.inspect("graph", "z")
    nodes = {n["id"]: n for n in data["nodes"]}
    leaves = [n for n in data["nodes"] if n["name"] == "AccumulateGrad"]
    assert len(leaves) == 1 and leaves[0]["variable"]["names"] == ["x"]
    assert leaves[0]["variable"]["grad"]["values"] == pytest.approx(1.6)
    pointing = [n["id"] for n in data["nodes"] if leaves[0]["id"] in n["next"]]
    assert len(pointing) == 2  # one node, two edges: the DAG is not duplicated
    (y,) = [t for n in nodes.values() for t in n["tensors"] if t["names"] == ["y"]]
    assert y["retains_grad"] is True and y["grad"]["values"] == pytest.approx(0.008)
    (w,) = [t for n in nodes.values() for t in n["tensors"] if t["names"] == ["w"]]
    assert w["hooks"] == 1 and w["retains_grad"] is False and w["grad"] is None


def test_custom_functions_and_module_parameters(session: Session) -> None:
    run(session, """
class MyPow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a ** b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b * a ** (b - 1), g * a ** b * torch.log(a)

x = torch.tensor(5., requires_grad=True)
q = torch.tensor(3., requires_grad=True)
r = MyPow.apply(x, q)
lin = torch.nn.Linear(1, 1, bias=False)
out = lin(torch.ones(1, 1)).squeeze()
""")
    data = session.inspect("graph", "r")
    assert (data["nodes"][0]["name"], data["nodes"][0]["saved"]) == ("MyPowBackward", "kept")
    run(session, "r.backward()")
    assert session.inspect("graph", "r")["nodes"][0]["saved"] == "freed"
    data = session.inspect("graph", "out")
    assert [n["name"] for n in data["nodes"]] == ["SqueezeBackward0", "MmBackward0",
                                                 "TBackward0", "AccumulateGrad"]
    var = data["nodes"][-1]["variable"]
    assert var["names"] == ["lin.weight"] and var["is_parameter"] is True


def test_graph_of_a_leaf_and_of_a_tensor_without_grad(session: Session) -> None:
    run(session, SEED_GRAPH + "A = torch.tensor([2., 1.], requires_grad=True)\nB = A.detach()")
    assert session.inspect("graph", "x")["note"] == "leaf"
    data = session.inspect("graph", "B")
    assert data["note"] == "no_grad" and data["nodes"] == [] and data["root"] is None
    assert session.inspect("graph", "z.grad_fn")["nodes"][0]["name"] == "LogBackward0"


def test_detach_shares_the_storage_at_offset_0(session: Session) -> None:
    run(session, "A = torch.tensor([2., 1.], requires_grad=True)\nB = A.detach()\n"
        "v = A[1:]\nC = A.clone()\nc = A\n")
    data = session.inspect("storage")
    json.dumps(data)
    label_a = session.observe("A")["storage"]  # the same labels as observations use
    (shared,) = [s for s in data["storages"] if s["label"] == label_a]
    assert shared["nbytes"] == 8 and shared["made_by"] == "created"
    assert shared["made_by_name"] == "A" and shared["device"] == "cpu"
    base = {"shape": [2], "dtype": "float32", "element_size": 4, "stride": [1], "offset": 0,
            "contiguous": True, "cells": [0, 1], "is_view": False, "view_of": None,
            "grad_fn": None}
    assert shared["tensors"] == [
        {**base, "names": ["A", "c"], "requires_grad": True, "is_leaf": True},
        {**base, "names": ["B"], "requires_grad": False, "is_leaf": True},
        {**base, "names": ["v"], "shape": [1], "offset": 1, "cells": [1], "is_view": True,
         "view_of": "A", "requires_grad": True, "is_leaf": False, "grad_fn": "SliceBackward0"},
    ]
    (copy,) = [s for s in data["storages"] if s["tensors"][0]["names"] == ["C"]]
    assert copy["label"] == session.observe("C")["storage"] != label_a
    assert copy["made_by"] == "CloneBackward0"
    # restricted to one expression: that tensor and whatever shares its memory
    only = session.inspect("storage", "B")
    assert only["expr"] == "B"
    assert [t["names"] for s in only["storages"] for t in s["tensors"]] == [
        ["B"], ["A", "c"], ["v"]]


def test_strided_views_cover_the_right_cells(session: Session) -> None:
    run(session, "M = torch.zeros(3, 4)\ncol = M[:, 1]\nMt = M.t()\n")
    tensors = session.inspect("storage")["storages"][0]["tensors"]
    col, mt = tensors[1], tensors[2]
    assert (col["stride"], col["offset"], col["cells"]) == ([4], 1, [1, 5, 9])
    assert mt["contiguous"] is False and mt["stride"] == [1, 4] and mt["view_of"] == "M"


MODULES = """
import torch.nn as nn

class Pow(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = nn.Parameter(torch.tensor(1.))
        self.register_buffer("seen", torch.zeros(()))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = Pow()
        self.models = [Pow(), Pow()]          # a plain list: not registered
        self.extra = {"w": nn.Parameter(torch.ones(1))}
        self.avg = torch.zeros(1)             # a plain tensor attribute

net = Net()
"""


def test_modules_in_a_plain_list_are_absent_from_state_dict_but_listed(
        session: Session) -> None:
    run(session, MODULES)
    data = session.inspect("tree", "net")
    json.dumps(data)
    assert data["state_dict"] == ["first.p", "first.seen"]
    root = data["root"]
    assert (root["name"], root["class"], root["registered"], root["training"]) == (
        "net", "Net", True, True)
    assert [c["name"] for c in root["children"]] == ["first"]
    first = root["children"][0]
    assert first["params"] == [{"name": "p", "shape": [], "dtype": "float32",
                                "requires_grad": True, "grad": None, "is_parameter": True,
                                "grad_fn": None, "values": 1.0}]
    assert [(b["name"], b["persistent"]) for b in first["buffers"]] == [
        ("seen", True), ("scratch", False)]
    plain = [(p["path"], p["what"], p["container"]) for p in root["plain"]]
    assert plain == [("models[0]", "module", "list"), ("models[1]", "module", "list"),
                     ("extra['w']", "parameter", "dict"), ("avg", "tensor", None)]
    unregistered = root["plain"][0]["module"]
    assert unregistered["registered"] is False and unregistered["class"] == "Pow"
    assert [p["name"] for p in unregistered["params"]] == ["p"]


def test_tree_follows_training_flags_grads_and_shared_children(session: Session) -> None:
    run(session, MODULES + "net.first.eval()\nnet.again = net.first\n"
        "(net.first.p * 2).backward()\nnet.first.register_forward_hook(lambda *a: None)\n")
    root = session.inspect("tree", "net")["root"]
    first, again = root["children"]
    assert root["training"] is True and first["training"] is False
    assert first["params"][0]["grad"] == {"shape": [], "values": 2.0}
    assert first["hooks"] == {"forward": 1}
    assert again["name"] == "again" and again["same_as"] == "first"


def test_errors_come_back_as_exception_observations(session: Session) -> None:
    run(session, SEED_GRAPH)
    missing = session.inspect("graph", "nope")
    assert (missing["type"], missing["name"]) == ("exception", "NameError")
    wrong = session.inspect("tree", "x")
    assert (wrong["name"], wrong["message"]) == (
        "InspectError", "tree: `x` is a Tensor, not an nn.Module")
    assert session.inspect("graph", "[1]")["message"].startswith("graph: `[1]` is a list")
    assert session.inspect("storage", "3")["type"] == "exception"
    assert session.inspect("bogus", "x")["type"] == "exception"


def test_every_bundled_question_with_a_picture_can_draw_it(kernel: Kernel) -> None:
    """`show:` pictures and suggested ones draw without error in every bundled lesson."""
    from tutor.engine import LessonRun, unmet_requirement
    from tutor.lesson import load_catalog
    from tutor.pictures import parse_show, suggest

    failures, drawn = [], 0
    for lesson in load_catalog(with_env=False).lessons:
        if unmet_requirement(lesson, kernel.wait_ready()):  # e.g. the CUDA pack, without CUDA
            continue
        with LessonRun(kernel, lesson) as run:
            for step in lesson.steps:
                if run.run_step(step).failure:
                    break
                code = "\n".join(s.code for s in lesson.steps[: step.index + 1])
                for p in step.prompts:
                    spec = (parse_show(p.show) if p.show
                            else suggest(p.kind, p.expect, code, lesson.topic))
                    if spec is None:
                        continue
                    assert run.session is not None
                    data = run.session.inspect(spec.what, spec.expr)
                    drawn += 1
                    if data["type"] == "exception":
                        failures.append(f"{lesson.id} step {step.index + 1} prompt {p.index + 1}: "
                                        f"{spec}: {data['name']}: {data['message']}")
    assert not failures, "\n".join(failures)
    assert drawn >= 10
