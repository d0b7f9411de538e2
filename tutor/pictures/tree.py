"""The module tree: what an nn.Module registered, and what it only holds.

    module tree of net (✗ = held, not registered)
    net: Net · train
    ├─ scale  parameter [1] · grad None
    ├─ first: Linear(in_features=2, out_features=2, bias=True) · train
    │  ├─ weight  parameter [2, 2] · grad None
    │  └─ bias  parameter [2] · grad None
    └─ ✗ blocks[0]: Linear(in_features=2, out_features=2, bias=True) · in a plain list
       ├─ weight  parameter [2, 2] · grad None
       └─ bias  parameter [2] · grad None
    state_dict(): 3 keys: scale, first.weight, first.bias
    not in state_dict(): blocks[0].weight, blocks[0].bias (not registered)
"""

from __future__ import annotations

from typing import Any

from tutor.i18n import N_, _, ngettext
from tutor.i18n import width as cells
from tutor.pictures.common import BLANK, ELBOW, PIPE, TEE, grad, number, shape
from tutor.pictures.model import Picture, Segment, seg, wrap

# where a module or tensor that is held but not registered is: ` · in a plain list`
WHERE = {None: N_("in a plain attribute"), "list": N_("in a plain list"),
         "tuple": N_("in a plain tuple"), "dict": N_("in a plain dict")}
KINDS = {"parameter": N_("parameter"), "buffer": N_("buffer"), "tensor": N_("tensor")}


def _key(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _tensor_segments(item: dict[str, Any], kind: str) -> list[Segment]:
    dtype = item.get("dtype")
    parts = [seg(item["name"], "leaf" if kind == "parameter" else "name"),
             seg(f"  {_(KINDS.get(kind, kind))} {shape(item.get('shape', []))}"
                 + (f" {dtype}" if dtype and dtype != "float32" else ""), "dim")]
    values = item.get("values")
    if values is not None and (not isinstance(values, list) or len(values) <= 3
                               and not any(isinstance(v, list) for v in values)):
        parts.append(seg(f" = {number(values)}"))
    if kind == "buffer":
        if not item.get("persistent", True):
            parts.append(seg(" · " + _("not persistent"), "warn"))
    elif kind == "parameter" and not item.get("requires_grad"):
        parts.append(seg(" · requires_grad=False", "warn"))
    if item.get("grad_fn"):
        parts.append(seg(f" · grad_fn {item['grad_fn']}", "op"))
    if kind == "parameter" or item.get("grad") is not None:
        parts.append(seg(f" · grad {grad(item.get('grad'))}"))
    return parts


def _module_segments(node: dict[str, Any], before: int = 0, after: int = 0,
                     width: int = 10_000) -> list[Segment]:
    """`name: Class(extra) · train ...`; the extra_repr gives way first when too wide."""
    name = node["name"]
    tail = [seg(" · " + ("train" if node.get("training") else "eval"), "dim")]
    hooks = node.get("hooks") or {}
    if hooks:
        tail.append(seg(" · " + _("hooks: {hooks}").format(
            hooks=", ".join(f"{k}×{v}" for k, v in hooks.items())), "warn"))
    if node.get("same_as") is not None:
        tail.append(seg(" · " + _("the same module as {name}").format(
            name=node["same_as"] or _("the root")), "dim"))
    extra = node.get("extra") or ""
    used = (before + after + len(name) + 2 + len(node["class"])
            + sum(cells(t.text) for t in tail))
    room = width - used - 2  # the parentheses
    if extra and len(extra) > room:
        extra = extra[: max(0, room - 1)] + "…"
    cls = node["class"] + (f"({extra})" if extra else "")
    return [seg(name, "name"), seg(": ", "dim"), seg(cls, "op"), *tail]


def render_tree(data: dict[str, Any], width: int = 80) -> Picture:
    expr = data.get("expr") or "?"
    pic = Picture("tree", _("module tree of {expr}").format(expr=expr), width=width)
    missing_unregistered: list[str] = []
    missing_nonpersistent: list[str] = []

    def collect_unregistered(node: dict[str, Any], path: str) -> None:
        for p in node.get("params", []) + node.get("buffers", []):
            missing_unregistered.append(_key(path, p["name"]))
        for child in node.get("children", []):
            collect_unregistered(child, _key(path, child["name"]))
        for plain in node.get("plain", []):
            if plain["what"] == "module":
                collect_unregistered(plain["module"], _key(path, plain["path"]))

    def walk(node: dict[str, Any], path: str, prefix: str, branch: str,
             registered: bool) -> None:
        pic.add(seg(prefix + branch, "rule"),
                *_module_segments(node, len(prefix + branch), 0, width))
        if node.get("same_as") is not None or node.get("truncated"):
            if node.get("truncated"):
                pic.add(seg(prefix + BLANK + "…", "dim"))
            return
        inner = prefix + (PIPE if branch == TEE else BLANK if branch == ELBOW else "")
        items: list[tuple[str, Any]] = (
            [("parameter", p) for p in node.get("params", [])]
            + [("buffer", b) for b in node.get("buffers", [])]
            + [("child", c) for c in node.get("children", [])]
            + [("plain", x) for x in node.get("plain", [])])
        for i, (kind, item) in enumerate(items):
            b = ELBOW if i == len(items) - 1 else TEE
            if kind in ("parameter", "buffer"):
                pic.add(seg(inner + b, "rule"), *_tensor_segments(item, kind))
                if registered and kind == "buffer" and not item.get("persistent", True):
                    missing_nonpersistent.append(_key(path, item["name"]))
            elif kind == "child":
                walk(item, _key(path, item["name"]), inner, b, registered)
            elif item["what"] == "module":
                sub = item["module"]
                note = " · " + _(WHERE.get(item.get("container"), WHERE[None]))
                pic.add(seg(inner + b, "rule"), seg("✗ ", "warn"),
                        *_module_segments(sub, len(inner + b) + 2, cells(note), width),
                        seg(note, "warn"))
                if sub.get("same_as") is None:
                    collect_unregistered(sub, _key(path, item["path"]))
                    sub_inner = inner + (PIPE if b == TEE else BLANK)
                    sub_items = ([("parameter", p) for p in sub.get("params", [])]
                                 + [("buffer", q) for q in sub.get("buffers", [])])
                    rest = sub.get("children", []) + [x for x in sub.get("plain", [])]
                    for j, (k2, it2) in enumerate(sub_items):
                        b2 = ELBOW if j == len(sub_items) - 1 and not rest else TEE
                        pic.add(seg(sub_inner + b2, "rule"), *_tensor_segments(it2, k2))
                    for j, child in enumerate(sub.get("children", [])):
                        b2 = ELBOW if j == len(rest) - 1 else TEE
                        walk(child, _key(_key(path, item["path"]), child["name"]), sub_inner,
                             b2, False)
                    if sub.get("plain"):
                        pic.add(seg(sub_inner + ELBOW, "rule"),
                                seg("… " + ngettext("and {n} plain attribute",
                                                    "and {n} plain attributes",
                                                    len(sub["plain"])).format(
                                    n=len(sub["plain"])), "dim"))
            else:
                where = _(WHERE.get(item.get("container"), WHERE[None]))
                missing_unregistered.append(_key(path, item["path"]))
                pic.add(seg(inner + b, "rule"), seg("✗ ", "warn"),
                        *_tensor_segments({**item, "name": item["path"]}, item["what"]),
                        seg(" · " + where, "warn"))

    walk(data["root"], "", "", "", True)
    if any(part.text == "✗ " for ln in pic.lines for part in ln):  # the legend, when used
        pic.title += " " + _("(✗ = held, not registered)")
    if data.get("truncated"):
        pic.add(seg("… " + _("(the tree is cut: too many entries)"), "dim"))
    keys = data.get("state_dict", [])
    if data["root"].get("state_dict_error"):
        pic.extend(wrap(_("state_dict() raised {error}").format(
            error=data["root"]["state_dict_error"]), width, "  ", "bad"))
    else:
        pic.extend(wrap("state_dict(): " + ngettext("{n} key", "{n} keys", len(keys)).format(
            n=len(keys)) + (": " + ", ".join(keys) if keys else ""), width, "  ", "ok"))
    if missing_nonpersistent or missing_unregistered:
        why = []
        if missing_unregistered:
            why.append(", ".join(dict.fromkeys(missing_unregistered)) + " "
                       + _("(not registered)"))
        if missing_nonpersistent:
            why.append(", ".join(missing_nonpersistent) + " "
                       + _("(buffer, persistent=False)"))
        pic.extend(wrap(_("not in state_dict(): {names}").format(names="; ".join(why)),
                        width, "  ", "warn"))
    return pic
