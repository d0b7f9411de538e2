"""The autograd graph behind a tensor, as an indented tree (a DAG: shared nodes once).

    autograd graph of z: what z.backward() walks
    LogBackward0 = z.grad_fn · saved: self
    └─ PowBackward1 · saved: exponent, result, self
       ├─ AccumulateGrad → x.grad = None
       └─ AccumulateGrad → q.grad = None
    saved tensors kept: the nodes still hold what they saved for backward.

A picture may be open while the learner thinks about a later question, so it says
what the graph *is* (nodes, names, grads, what is saved or freed), never what an
operation on it would do (whether another backward() works is a question).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tutor.i18n import N_, _, ngettext
from tutor.pictures.common import BLANK, ELBOW, PIPE, TEE, grad, names, shape
from tutor.pictures.model import GRAD_FN_OF, Picture, Segment, seg, wrap

INTEGER = ("int", "uint", "bool")  # dtypes that can never require grad


def _tensor_names(entries: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for e in entries:
        out += [n for n in e.get("names", []) if n not in out]
    return out


def _grad_fn_of(tensors: list[dict[str, Any]]) -> list[Segment]:
    """` = y.grad_fn`, or ` = grad_fn of feature, identity` where several names hold
    the node's tensor (a long list of names may go on below: it opens like a fact)."""
    named = _tensor_names(tensors)
    if not named:
        return []
    if len(named) == 1:
        return [seg(" = ", "rule"), seg(f"{named[0]}.grad_fn", "name")]
    return [seg(_(GRAD_FN_OF), "rule"), seg(names(named), "name")]


def _node_segments(node: dict[str, Any]) -> list[Segment]:
    parts = [seg(node["name"], "op")]
    var = node.get("variable")
    if var is not None:
        who = var["names"][0] if var.get("names") else _("(an unnamed leaf)")
        g = var.get("grad")
        # the leaf's shape while its grad is None (a grad shows it: values, `tensor [10, 10]`)
        size = f" · shape {shape(var['shape'])}" if var.get("shape") and g is None else ""
        parts += [seg(" → ", "rule"), seg(f"{who}.grad", "leaf"),
                  seg(f" = {grad(g)}"), seg(size, "dim")]
        if len(var.get("names", [])) > 1:
            parts.append(seg(" " + _("(also {names})").format(names=names(var["names"][1:])),
                             "dim"))
        if var.get("hooks"):
            n = var["hooks"]
            parts.append(seg(" · " + ngettext("{n} hook", "{n} hooks", n).format(n=n), "warn"))
    tensors = node.get("tensors") or []
    parts += _grad_fn_of(tensors)
    for t in tensors:
        who = t["names"][0] if t.get("names") else "?"
        if t.get("retains_grad"):
            parts.append(seg(" · " + _("retains grad: {name}.grad = {grad}").format(
                name=who, grad=grad(t.get("grad"))), "leaf"))
        if t.get("hooks"):
            n = t["hooks"]
            parts.append(seg(" · " + ngettext("{n} hook on {name}", "{n} hooks on {name}", n)
                             .format(n=n, name=who), "warn"))
    saved = node.get("saved")
    modified = [n for n in node.get("saved_modified") or [] if isinstance(n, str)]
    what = ", ".join(n for n in node.get("saved_names") or [] if n not in modified)
    if saved == "kept":
        if what:
            parts.append(seg(" · " + _("saved: {names}").format(names=what), "dim"))
        if modified:
            parts.append(seg(" · ✗ " + _("changed in place since saved: {names}").format(
                names=", ".join(modified)), "bad"))
    elif saved == "freed":
        parts.append(seg(" · ✗ " + _("freed: {names}").format(names=what), "bad"))
    return parts


# what the saved tensors' names (the arguments of torch's derivative formulas) mean
ARGUMENTS = {"self": N_("the operation's first input"), "other": N_("its second input"),
             "result": N_("its output"), "exponent": N_("pow's exponent"),
             "mat1": N_("a matrix product's first matrix"), "mat2": N_("its second matrix")}


def _name_key(nodes: Iterable[dict[str, Any]]) -> str:
    """The saved names the nodes show (`self`, `other`, `result`: torch's argument
    names), said once in words above the legend; "" when none is shown."""
    used = {n for node in nodes for n in node.get("saved_names") or []}
    said = [f"{name} = {_(ARGUMENTS[name])}" for name in ARGUMENTS if name in used]
    return _("saved names: {names}").format(names=", ".join(said)) if said else ""


def render_graph(data: dict[str, Any], width: int = 80) -> Picture:
    expr = data.get("expr") or "?"
    root = data.get("root")
    pic = Picture("graph", _("autograd graph of {expr}: what {expr}.backward() walks")
                  .format(expr=expr), width=width)
    tensor = data.get("tensor") or {}
    if root is None:
        if data.get("note") == "no_grad":
            pic.extend(wrap(_no_graph(expr, str(tensor.get("dtype") or "")), width))
        elif data.get("note") == "leaf":
            pic.add(seg(expr, "leaf"), seg(_(" is a leaf: it has no grad_fn. "), "dim"),
                    seg(f"{expr}.grad = {grad(tensor.get('grad'))}"))
            pic.extend(wrap(_("Graphs built from {expr} end in an AccumulateGrad node for it "
                              "(the node that fills {expr}.grad).").format(expr=expr),
                            width, style="dim"))
        else:
            pic.add(seg(_("(no graph)"), "dim"))
        return pic

    nodes = {n["id"]: n for n in data.get("nodes", [])}
    shown: set[str] = set()

    def walk(node_id: str, prefix: str, branch: str) -> None:
        node = nodes.get(node_id)
        if node is None:
            return
        # where this node's lines go on below it: its children's branches, its facts
        child_prefix = prefix + (PIPE if branch == TEE else BLANK if branch == ELBOW else "")
        if node_id in shown:
            label = [seg(node["name"], "op")]
            var = node.get("variable")
            if var is not None and var.get("names"):
                label += [seg(" → ", "rule"), seg(f"{var['names'][0]}.grad", "leaf")]
            else:  # named as where it was first shown
                label += _grad_fn_of(node.get("tensors") or [])
            pic.add_flowing((seg(prefix + branch, "rule"), *label,
                             seg(" ↑ " + _("again (shown above)"), "dim")),
                            lead=child_prefix + BLANK)
            return
        shown.add(node_id)
        nxt = node.get("next", [])
        pic.add_flowing((seg(prefix + branch, "rule"), *_node_segments(node)),
                        lead=child_prefix + (PIPE if nxt else BLANK))
        for i, child in enumerate(nxt):
            walk(child, child_prefix, ELBOW if i == len(nxt) - 1 else TEE)

    walk(root, "", "")
    if data.get("truncated"):
        pic.add(seg("… " + _("(only the first {n} nodes are shown)").format(n=len(nodes)),
                    "dim"))
    saved = data.get("saved")  # what is, not what a backward() would do next
    key = _name_key(nodes.values())
    if key and saved in ("freed", "kept"):
        pic.extend(wrap(key, width, "  ", "dim"))
    if saved == "freed":
        pic.extend(wrap(_("saved tensors freed: a backward() without retain_graph=True has "
                          "run through this graph and released what its nodes saved."),
                        width, "  ", "bad"))
    elif saved == "kept" and any(n.get("saved_modified") for n in nodes.values()):
        pic.extend(wrap(_("saved tensors kept, but one was changed in place after it was "
                          "saved (✗): a backward() through this graph will raise."),
                        width, "  ", "bad"))
    elif saved == "kept":
        pic.extend(wrap(_("saved tensors kept: the nodes still hold what they saved for "
                          "backward."), width, "  ", "ok"))
    else:
        pic.extend(wrap(_("nothing saved: none of these nodes keeps a tensor for backward."),
                        width, "  ", "ok"))
    return pic


def _no_graph(expr: str, dtype: str) -> str:
    """Why a tensor that does not require grad has no graph: for an integer or bool
    tensor the dtype alone says it; otherwise only the possible causes can be named."""
    if dtype.startswith(INTEGER):
        return _("{expr} is {dtype}: only floating-point and complex tensors can require "
                 "grad, so no graph leads to it (an op with an integer or bool result, such "
                 "as .long() or a comparison, is not differentiable).").format(
                     expr=expr, dtype=dtype)
    return _("{expr} does not require grad: there is no graph behind it. (A tensor has none "
             "when nothing it was computed from requires grad, when it was computed under "
             "torch.no_grad() or inference_mode(), or when it came from detach() or "
             ".data.)").format(expr=expr)
