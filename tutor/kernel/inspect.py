"""Look inside live values: autograd graphs, storage maps and module trees as plain data.

Runs inside the kernel process only (it imports torch).  Every function returns a
JSON-serialisable dict; no torch object and no memory address leaves the kernel.
The renderers in `tutor.pictures` turn these dicts into text.  See docs/pictures.md.

* `graph(value, expr, namespace, observer)`   the autograd graph behind a tensor
* `storage(namespace, observer, value, expr)` which names share which storage
* `tree(value, expr, namespace)`              what a module registered, and what not

Names: tensors are named by where the lesson keeps them: top-level variables
(`x`), one level into plain lists/tuples/dicts (`pair[0]`, `d['w']`) and, for
the graph, the parameters and buffers of modules in the namespace
(`net.first.weight`).  One object kept under two names gets both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch

from tutor.kernel import observe as obs
from tutor.kernel.words import N_, Worded, english, said

MAX_NODES = 300  # graph nodes, module-tree entries
MAX_TENSORS = 500  # tensors in a storage map
MAX_CELLS = 1024  # elements whose positions are listed for the memory bar
GRAD_VALUES = 6  # a .grad with at most this many elements is sent with its values
MAX_NAMES = 10_000


class InspectError(Worded, TypeError):
    """The expression does not give something this picture can show (its message: a
    msgid marked with N_ and its values, sent as words to translate)."""

    def __init__(self, msgid: str, **args: object):
        self.words = said(msgid, **args)
        super().__init__(english(self.words))


# --------------------------------------------------------------------- naming


def _item_name(base: str, key: Any) -> str:
    return f"{base}[{key!r}]" if isinstance(key, str) else f"{base}[{key}]"


def _visible(name: str) -> bool:
    return not name.startswith("_") and name != "torch"


def named_tensors(namespace: dict[str, Any], *, modules: bool) -> list[tuple[str, torch.Tensor]]:
    """(name, tensor) pairs the lesson can see, in namespace order."""
    out: list[tuple[str, torch.Tensor]] = []
    seen_modules: set[int] = set()
    for name, value in list(namespace.items()):
        if len(out) >= MAX_NAMES:
            break
        if not isinstance(name, str) or not _visible(name):
            continue
        if isinstance(value, torch.Tensor):
            out.append((name, value))
        elif isinstance(value, (list, tuple)):
            out += [(_item_name(name, i), v) for i, v in enumerate(value[:MAX_TENSORS])
                    if isinstance(v, torch.Tensor)]
        elif isinstance(value, dict):
            out += [(_item_name(name, k), v) for k, v in list(value.items())[:MAX_TENSORS]
                    if isinstance(v, torch.Tensor) and isinstance(k, (str, int))]
        elif modules and isinstance(value, torch.nn.Module) and id(value) not in seen_modules:
            seen_modules.add(id(value))
            try:
                out += [(f"{name}.{n}", t)
                        for n, t in value.named_parameters(remove_duplicate=False)]
                out += [(f"{name}.{n}", t) for n, t in value.named_buffers(remove_duplicate=False)]
            except Exception:  # noqa: BLE001 - a broken module still has a namespace
                pass
    return out


def _names_by_id(pairs: list[tuple[str, torch.Tensor]]) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for name, t in pairs:
        names.setdefault(id(t), []).append(name)
    return names


def _grad_summary(t: torch.Tensor) -> dict[str, Any] | None:
    try:
        g = t.grad
    except Exception:  # noqa: BLE001 - .grad of a non-leaf warns, of odd tensors may raise
        return None
    if g is None:
        return None
    out: dict[str, Any] = {"shape": list(g.shape)}
    if g.numel() <= GRAD_VALUES and g.layout == torch.strided and g.device.type != "meta":
        out["values"] = obs._clean(g.detach().cpu().tolist())
    return out


def _small_values(t: torch.Tensor) -> dict[str, Any]:
    """{"values": ...} for a tensor small enough to show (at most GRAD_VALUES elements)."""
    if t.numel() > GRAD_VALUES or t.layout != torch.strided or t.device.type == "meta":
        return {}
    try:
        with torch.no_grad():
            return {"values": obs._clean(t.detach().cpu().resolve_conj().resolve_neg().tolist())}
    except Exception:  # noqa: BLE001 - odd tensor subclasses
        return {}


def _hook_count(t: torch.Tensor) -> int:
    hooks = getattr(t, "_backward_hooks", None)
    return len(hooks) if hooks else 0


# ---------------------------------------------------------------------- graph


def _is_tensors(value: Any) -> bool:
    if isinstance(value, torch.Tensor):
        return True
    return (isinstance(value, (tuple, list)) and bool(value)
            and all(isinstance(v, torch.Tensor) for v in value))


def _saved_state(node: Any) -> tuple[str, list[str], list[str]]:
    """("freed" | "kept" | "none", names of the tensors the node saved for backward,
    the names among them changed in place since they were saved).

    C++ nodes expose what they saved as `_saved_<name>` attributes; reading a
    saved *tensor* after a backward without `retain_graph=True` raises
    RuntimeError ("... after they have already been freed").  Saved scalars
    (`_saved_alpha`, an int exponent) are never freed and do not count.  Custom
    Functions expose `saved_tensors`, which raises the same way.  A saved tensor
    changed in place since (its version moved on) raises "... modified by an inplace
    operation": still kept, and a backward through the node will raise.
    """
    names: list[str] = []
    modified: list[str] = []
    freed = False
    attrs = [a for a in dir(node) if a.startswith("_saved_")]
    if isinstance(node, torch.autograd.function.BackwardCFunction):
        attrs.append("saved_tensors")
    for attr in attrs:
        try:
            value = getattr(node, attr)
        except RuntimeError as exc:
            if "freed" in str(exc) or "second time" in str(exc):
                freed = True
                names.append(attr.removeprefix("_saved_"))
            elif "modified by an inplace operation" in str(exc):
                names.append(attr.removeprefix("_saved_"))
                modified.append(attr.removeprefix("_saved_"))
            continue
        except Exception:  # noqa: BLE001 - unreadable is not "saved"
            continue
        if _is_tensors(value):
            names.append(attr.removeprefix("_saved_"))
    if freed:
        return "freed", names, []
    return ("kept" if names else "none"), names, modified


def graph(value: Any, expr: str, namespace: dict[str, Any],
          observer: obs.Observer | None = None) -> dict[str, Any]:
    """The autograd graph that `backward()` on `value` would walk."""
    if hasattr(value, "next_functions") and not isinstance(value, torch.Tensor):
        root_node, tensor = value, None
    elif isinstance(value, torch.Tensor):
        root_node, tensor = value.grad_fn, value
    else:
        raise InspectError(N_("graph: `{expr}` is a {type}, not a tensor (or a grad_fn)"),
                           expr=expr, type=type(value).__name__)
    pairs = named_tensors(namespace, modules=True)
    names = _names_by_id(pairs)
    by_node: dict[int, list[torch.Tensor]] = {}  # grad_fn id -> non-leaf tensors with it
    by_var: dict[int, torch.Tensor] = {}
    for _, t in pairs:
        if t.grad_fn is not None:
            by_node.setdefault(id(t.grad_fn), [])
            if all(t is not u for u in by_node[id(t.grad_fn)]):
                by_node[id(t.grad_fn)].append(t)
        by_var[id(t)] = t

    def tensor_entry(t: torch.Tensor) -> dict[str, Any]:
        return {"names": names.get(id(t), []), "shape": list(t.shape),
                "dtype": str(t.dtype).removeprefix("torch."),
                "requires_grad": bool(t.requires_grad), "is_leaf": bool(t.is_leaf),
                "retains_grad": bool(t.retains_grad) if not t.is_leaf else False,
                "is_parameter": isinstance(t, torch.nn.Parameter),
                "grad": _grad_summary(t) if (t.is_leaf or t.retains_grad) else None,
                "hooks": _hook_count(t)}

    out: dict[str, Any] = {"type": "graph", "expr": expr, "nodes": [], "root": None,
                           "saved": "none", "truncated": False}
    if tensor is not None:
        out["tensor"] = tensor_entry(tensor)
        if not tensor.requires_grad:
            out["note"] = "no_grad"
            return out
        if root_node is None:  # a leaf that requires grad: its own AccumulateGrad is not made yet
            out["note"] = "leaf"
            return out

    ids: dict[int, str] = {}
    order: list[Any] = []
    keep_alive: list[Any] = []

    def node_id(node: Any) -> str:
        key = id(node)
        if key not in ids:
            ids[key] = f"n{len(ids) + 1}"
            order.append(node)
            keep_alive.append(node)
        return ids[key]

    out["root"] = node_id(root_node)
    i = 0
    states = set()
    while i < len(order):
        node = order[i]
        i += 1
        if len(out["nodes"]) >= MAX_NODES:
            out["truncated"] = True
            break
        nxt = []
        for fn, _ in getattr(node, "next_functions", ()) or ():
            if fn is not None:
                nxt.append(node_id(fn))
        saved, saved_names, modified = _saved_state(node)
        states.add(saved)
        entry: dict[str, Any] = {"id": ids[id(node)], "name": type(node).__name__, "next": nxt,
                                 "saved": saved, "saved_names": saved_names,
                                 "saved_modified": modified,
                                 "tensors": [tensor_entry(t) for t in by_node.get(id(node), [])]}
        var = getattr(node, "variable", None) if type(node).__name__ == "AccumulateGrad" else None
        if isinstance(var, torch.Tensor):
            entry["variable"] = tensor_entry(var)
        out["nodes"].append(entry)
    # nodes queued but not described (over the cap) must not be dangling references
    described = {n["id"] for n in out["nodes"]}
    for n in out["nodes"]:
        n["next"] = [x for x in n["next"] if x in described]
    out["saved"] = "freed" if "freed" in states else "kept" if "kept" in states else "none"
    return out


# -------------------------------------------------------------------- storage


def _cells(t: torch.Tensor) -> list[int] | None:
    """Positions (in elements of t's dtype, from the storage start) that t covers."""
    n = t.numel()
    if n == 0:
        return []
    if n > MAX_CELLS or t.layout != torch.strided:
        return None
    positions = [int(t.storage_offset())]
    for size, stride in zip(t.shape, t.stride(), strict=True):
        positions = [p + k * stride for p in positions for k in range(size)]
    return sorted(set(positions))


def _tensors_in(value: Any, expr: str) -> list[tuple[str, torch.Tensor]]:
    if isinstance(value, torch.Tensor):
        return [(expr, value)]
    if isinstance(value, torch.nn.Module):
        return ([(f"{expr}.{n}", t) for n, t in value.named_parameters(remove_duplicate=False)]
                + [(f"{expr}.{n}", t) for n, t in value.named_buffers(remove_duplicate=False)])
    if isinstance(value, (list, tuple)):
        return [(_item_name(expr, i), v) for i, v in enumerate(value[:MAX_TENSORS])
                if isinstance(v, torch.Tensor)]
    if isinstance(value, dict):
        return [(_item_name(expr, k), v) for k, v in list(value.items())[:MAX_TENSORS]
                if isinstance(v, torch.Tensor)]
    raise InspectError(N_("storage: `{expr}` is a {type}: give a tensor, a module, or a list "
                          "or dict of tensors"), expr=expr, type=type(value).__name__)


def storage(namespace: dict[str, Any], observer: obs.Observer, value: Any = None,
            expr: str | None = None) -> dict[str, Any]:
    """Which named tensors live on which storage, where, and how they got there."""
    everything = named_tensors(namespace, modules=False)
    if expr is not None:
        wanted = _tensors_in(value, expr)
        labels = {observer.storage_label(t) for _, t in wanted} - {None}
        ids = {id(t) for _, t in wanted}
        extra = [(n, t) for n, t in everything
                 if id(t) not in ids and observer.storage_label(t) in labels]
        pairs = wanted + extra
    else:
        pairs = everything
    truncated = len(pairs) > MAX_TENSORS
    pairs = pairs[:MAX_TENSORS]
    names = _names_by_id(pairs)
    groups: dict[str | None, list[torch.Tensor]] = {}
    seen: set[int] = set()
    for _, t in pairs:
        if id(t) in seen:
            continue
        seen.add(id(t))
        groups.setdefault(observer.storage_label(t), []).append(t)

    storages = []
    for label, tensors in groups.items():
        entries = []
        for t in tensors:
            base = t._base
            entry: dict[str, Any] = {
                "names": names[id(t)], "shape": list(t.shape),
                "dtype": str(t.dtype).removeprefix("torch."),
                "element_size": int(t.element_size()),
                "requires_grad": bool(t.requires_grad), "is_leaf": bool(t.is_leaf),
                "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
                "view_of": None, "is_view": base is not None,
            }
            if label is not None:
                entry.update(offset=int(t.storage_offset()), stride=list(t.stride()),
                             contiguous=bool(t.is_contiguous()), cells=_cells(t))
            if base is not None:
                entry["view_of"] = next(iter(names.get(id(base), ())), None)
            entries.append(entry)
        item: dict[str, Any] = {"label": label, "tensors": entries}
        if label is not None:
            first = tensors[0]
            maker = first._base if first._base is not None else first
            made = next((t for t in tensors if t._base is None), maker)
            item.update(
                nbytes=int(first.untyped_storage().nbytes()),
                device=str(first.device),
                made_by=type(made.grad_fn).__name__ if made.grad_fn is not None else "created",
                made_by_name=next(iter(names.get(id(made), ())), None),
            )
        storages.append(item)
    out: dict[str, Any] = {"type": "storage", "expr": expr, "storages": storages,
                           "truncated": truncated}
    return out


# ----------------------------------------------------------------------- tree


def _extra(module: torch.nn.Module) -> str:
    try:
        text = module.extra_repr()
    except Exception:  # noqa: BLE001
        return ""
    text = " ".join(str(text).split())
    return text if len(text) <= 80 else text[:79] + "…"


def _hooks(module: torch.nn.Module) -> dict[str, int]:
    out = {}
    for key, attr in (("forward_pre", "_forward_pre_hooks"), ("forward", "_forward_hooks"),
                      ("backward", "_backward_hooks"), ("backward_pre", "_backward_pre_hooks")):
        n = len(getattr(module, attr, None) or {})
        if n:
            out[key] = n
    return out


_MODULE_INTERNALS = {"training", "_parameters", "_buffers", "_non_persistent_buffers_set",
                     "_modules", "_backward_pre_hooks", "_backward_hooks", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                     "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
                     "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks", "_is_full_backward_hook"}


def _plain_items(module: torch.nn.Module) -> Iterator[tuple[str, Any, str | None]]:
    """(path, value, container) of modules/tensors held in plain attributes (not registered)."""
    for attr, value in list(vars(module).items()):
        if attr in _MODULE_INTERNALS:
            continue
        if isinstance(value, (torch.nn.Module, torch.Tensor)):
            yield attr, value, None
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value[:MAX_NODES]):
                if isinstance(v, (torch.nn.Module, torch.Tensor)):
                    yield _item_name(attr, i), v, type(value).__name__
        elif isinstance(value, dict):
            for k, v in list(value.items())[:MAX_NODES]:
                if isinstance(v, (torch.nn.Module, torch.Tensor)) and isinstance(k, (str, int)):
                    yield _item_name(attr, k), v, "dict"


def tree(value: Any, expr: str, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `value` (a module) holds: registered children, parameters and buffers, and not."""
    if not isinstance(value, torch.nn.Module):
        raise InspectError(N_("tree: `{expr}` is a {type}, not an nn.Module"),
                           expr=expr, type=type(value).__name__)
    count = [0]
    seen: dict[int, str] = {}
    truncated = [False]

    def param(name: str, p: torch.Tensor, **more: Any) -> dict[str, Any]:
        return {"name": name, "shape": list(p.shape), "dtype": str(p.dtype).removeprefix("torch."),
                "requires_grad": bool(p.requires_grad), "grad": _grad_summary(p)
                if p.is_leaf else None, "is_parameter": isinstance(p, torch.nn.Parameter),
                "grad_fn": type(p.grad_fn).__name__ if p.grad_fn is not None else None,
                **_small_values(p), **more}

    def describe(m: torch.nn.Module, name: str, path: str, registered: bool,
                 depth: int) -> dict[str, Any]:
        count[0] += 1
        node: dict[str, Any] = {"name": name, "path": path, "class": type(m).__name__,
                                "training": bool(m.training), "registered": registered,
                                "extra": _extra(m), "hooks": _hooks(m), "params": [],
                                "buffers": [], "children": [], "plain": []}
        if id(m) in seen:
            node["same_as"] = seen[id(m)]
            return node
        seen[id(m)] = path
        if count[0] > MAX_NODES or depth > 32:
            truncated[0] = True
            node["truncated"] = True
            return node
        for pname, p in m._parameters.items():
            if p is not None:
                node["params"].append(param(pname, p))
        non_persistent: set[str] = getattr(m, "_non_persistent_buffers_set", set())
        for bname, b in m._buffers.items():
            if b is not None:
                node["buffers"].append(param(bname, b, persistent=bname not in non_persistent))
        for cname, child in m._modules.items():
            if child is not None:
                node["children"].append(
                    describe(child, cname, f"{path}.{cname}" if path else cname, registered,
                             depth + 1))
        for ppath, v, container in _plain_items(m):
            full = f"{path}.{ppath}" if path else ppath
            if isinstance(v, torch.nn.Module):
                node["plain"].append({"path": ppath, "what": "module", "container": container,
                                      "module": describe(v, ppath, full, False, depth + 1)})
            else:
                what = "parameter" if isinstance(v, torch.nn.Parameter) else "tensor"
                node["plain"].append({"path": ppath, "what": what, "container": container,
                                      **param(ppath, v)})
        return node

    root = describe(value, expr, "", True, 0)
    try:
        keys = [str(k) for k in value.state_dict().keys()]
    except Exception as exc:  # noqa: BLE001 - show the tree even if state_dict() breaks
        keys = []
        root["state_dict_error"] = f"{type(exc).__name__}: {exc}"
    return {"type": "tree", "expr": expr, "root": root, "state_dict": keys[:MAX_NODES * 4],
            "truncated": truncated[0]}
