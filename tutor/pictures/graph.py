"""The autograd graph behind a tensor, as an indented tree (a DAG: shared nodes once).

    autograd graph of z: what z.backward() walks
    LogBackward0 = z.grad_fn · saved: self
    └─ PowBackward1 · saved: exponent, result, self
       ├─ AccumulateGrad → x.grad = None
       └─ AccumulateGrad → q.grad = None
    saved tensors kept: backward() can walk this graph.
"""

from __future__ import annotations

from typing import Any

from tutor.pictures.common import BLANK, ELBOW, PIPE, TEE, grad, names, shape
from tutor.pictures.model import Picture, Segment, seg, wrap


def _tensor_names(entries: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for e in entries:
        out += [n for n in e.get("names", []) if n not in out]
    return out


def _node_segments(node: dict[str, Any]) -> list[Segment]:
    parts = [seg(node["name"], "op")]
    var = node.get("variable")
    if var is not None:
        who = var["names"][0] if var.get("names") else "(an unnamed leaf)"
        size = f" {shape(var['shape'])}" if var.get("shape") else ""
        parts += [seg(" → ", "rule"), seg(f"{who}.grad", "leaf"),
                  seg(f" = {grad(var.get('grad'))}"), seg(size, "dim")]
        if len(var.get("names", [])) > 1:
            parts.append(seg(f" (also {names(var['names'][1:])})", "dim"))
        if var.get("hooks"):
            parts.append(seg(f" · {var['hooks']} hook{'s' * (var['hooks'] > 1)}", "warn"))
    tensors = node.get("tensors") or []
    named = _tensor_names(tensors)
    if named:
        if len(named) == 1:
            parts += [seg(" = ", "rule"), seg(f"{named[0]}.grad_fn", "name")]
        else:
            parts += [seg(" = grad_fn of ", "rule"), seg(names(named), "name")]
    for t in tensors:
        who = t["names"][0] if t.get("names") else "?"
        if t.get("retains_grad"):
            parts.append(seg(f" · retains grad: {who}.grad = {grad(t.get('grad'))}", "leaf"))
        if t.get("hooks"):
            parts.append(seg(f" · {t['hooks']} hook{'s' * (t['hooks'] > 1)} on {who}", "warn"))
    saved = node.get("saved")
    what = ", ".join(node.get("saved_names") or [])
    if saved == "kept":
        parts.append(seg(f" · saved: {what}", "dim"))
    elif saved == "freed":
        parts.append(seg(f" · ✗ freed: {what}", "bad"))
    return parts


def render_graph(data: dict[str, Any], width: int = 80) -> Picture:
    expr = data.get("expr") or "?"
    root = data.get("root")
    pic = Picture("graph", f"autograd graph of {expr}: what {expr}.backward() walks",
                  width=width)
    tensor = data.get("tensor") or {}
    if root is None:
        if data.get("note") == "no_grad":
            pic.extend(wrap(f"{expr} does not require grad: there is no graph behind it "
                            "(made from tensors that do not require grad, under "
                            "torch.no_grad(), or detached).", width))
        elif data.get("note") == "leaf":
            pic.add(seg(expr, "leaf"), seg(" is a leaf: it has no grad_fn. ", "dim"),
                    seg(f"{expr}.grad = {grad(tensor.get('grad'))}"))
            pic.extend(wrap("A backward() through a result of it ends in an AccumulateGrad "
                            f"node that adds into {expr}.grad.", width, style="dim"))
        else:
            pic.add(seg("(no graph)", "dim"))
        return pic

    nodes = {n["id"]: n for n in data.get("nodes", [])}
    shown: set[str] = set()

    def walk(node_id: str, prefix: str, branch: str) -> None:
        node = nodes.get(node_id)
        if node is None:
            return
        if node_id in shown:
            label = [seg(node["name"], "op")]
            var = node.get("variable")
            if var is not None and var.get("names"):
                label += [seg(" → ", "rule"), seg(f"{var['names'][0]}.grad", "leaf")]
            elif _tensor_names(node.get("tensors") or []):
                first = _tensor_names(node["tensors"])[0]
                label += [seg(" = ", "rule"), seg(f"{first}.grad_fn", "name")]
            pic.add(seg(prefix + branch, "rule"), *label, seg(" ↑ again (shown above)", "dim"))
            return
        shown.add(node_id)
        pic.add(seg(prefix + branch, "rule"), *_node_segments(node))
        nxt = node.get("next", [])
        child_prefix = prefix + (PIPE if branch == TEE else BLANK if branch == ELBOW else "")
        for i, child in enumerate(nxt):
            walk(child, child_prefix, ELBOW if i == len(nxt) - 1 else TEE)

    walk(root, "", "")
    if data.get("truncated"):
        pic.add(seg(f"… (only the first {len(nodes)} nodes are shown)", "dim"))
    saved = data.get("saved")
    if saved == "freed":
        pic.extend(wrap("saved tensors FREED: a backward() without retain_graph=True already "
                        "ran through here, so another backward() through this graph raises "
                        "RuntimeError (\"Trying to backward through the graph a second time\").",
                        width, "  ", "bad"))
    elif saved == "kept":
        pic.extend(wrap("saved tensors kept: backward() can walk this graph (once, unless "
                        "retain_graph=True keeps them for another).", width, "  ", "ok"))
    else:
        pic.extend(wrap("nothing saved: these nodes need no saved tensors, so backward() can "
                        "run through them again even without retain_graph=True.", width, "  ",
                        "ok"))
    return pic
