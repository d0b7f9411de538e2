"""Pictures of what a printout hides: autograd graphs, storage maps, module trees.

Pure: no torch, no textual.  The kernel (tutor.kernel.inspect) turns live values
into plain data; these renderers turn that data into a `Picture`: lines of
styled segments that fit a width, printable as box-drawing text (`tutor show`,
`tutor play`) or styled by the TUI.  See docs/pictures.md.

    spec = parse_show("graph z")                  # ShowSpec("graph", "z"), or ValueError
    data = session.inspect(spec.what, spec.expr)  # plain data from the kernel
    print(render(data, width=80).text())
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tutor.i18n import _
from tutor.kernel.words import translated
from tutor.pictures.graph import render_graph
from tutor.pictures.model import Line, Picture, Segment, line_text, wrap
from tutor.pictures.storage import render_storage
from tutor.pictures.tree import render_tree

__all__ = ["KINDS", "Line", "Picture", "Segment", "ShowSpec", "line_text", "parse_show",
           "render", "render_text", "suggest", "usage"]

KINDS = ("graph", "storage", "tree")


@dataclass(frozen=True)
class ShowSpec:
    """Which picture to draw: `what` is graph, storage or tree; `expr` a Python expression."""

    what: str
    expr: str | None = None

    def __str__(self) -> str:
        return f"{self.what} {self.expr}" if self.expr else self.what


def usage(colon: str = "") -> str:
    """The picture requests, as a lesson's `show:` writes them or (`colon=":"`) as they
    are typed at a `:` prompt."""
    return _("`{c}graph EXPR`, `{c}storage` (or `{c}storage EXPR`) or `{c}tree EXPR`").format(
        c=colon)


def parse_show(text: str) -> ShowSpec:
    """Read `graph z`, `storage`, `storage x`, `tree net` (a leading `:` is allowed;
    an error's examples then have one too, so they can be typed as shown)."""
    colon = ":" if text.strip().startswith(":") else ""
    words = text.strip().removeprefix(":").strip()
    what, _sep, expr = words.partition(" ")
    what, expr = what.strip().lower(), expr.strip()
    if what not in KINDS:
        raise ValueError(_("unknown picture {what}: use {usage}").format(
            what=repr(what), usage=usage(colon)))
    if not expr and what != "storage":
        raise ValueError(_("`{what}` needs an expression, e.g. `{example}`").format(
            what=colon + what, example=f"{colon}{what} {'z' if what == 'graph' else 'model'}"))
    if expr:
        try:
            ast.parse(expr, mode="eval")
        except SyntaxError as exc:
            raise ValueError(_("`{expr}` is not a Python expression: {error}").format(
                expr=expr, error=exc.msg)) from None
    return ShowSpec(what, expr or None)


def _error(data: dict[str, Any], width: int) -> Picture:
    pic = Picture("error", _("cannot draw this picture"), width=width)
    message = translated(str(data.get("message", "")), data.get("words"))  # (the kernel's own)
    pic.extend(wrap(f"{data.get('name', 'Error')}: {message}", width,
                    indent="  ", style="bad"))
    return pic


def render(data: Mapping[str, Any], width: int = 80) -> Picture:
    """The picture for kernel data (an `exception` observation becomes an error picture).

    `data` is what `Session.inspect` returns (`tutor.kernel.wire.Picture`, checked
    against its schema), or any mapping of the same shape; the renderers read it
    defensively, as a plain dict."""
    data = dict(data)
    width = max(40, width)
    kind = data.get("type")
    if kind == "graph":
        return render_graph(data, width)
    if kind == "storage":
        return render_storage(data, width)
    if kind == "tree":
        return render_tree(data, width)
    if kind == "exception":
        return _error(data, width)
    pic = Picture("error", _("cannot draw this picture"), width=width)
    pic.add(Segment(_("unexpected data of type {kind}").format(kind=repr(kind)), "bad"))
    return pic


def render_text(data: Mapping[str, Any], width: int = 80) -> str:
    return render(data, width).text()


# ------------------------------------------------------------ which picture fits

_AUTOGRAD_GRAD = re.compile(r"autograd\s*\.\s*grad\s*\(\s*\(?\s*([A-Za-z_][\w.]*)")
# a name's whole dotted path (`model.layer.weight`), never the tail of an indexed or
# called one (`w.grad_fn.next_functions[0][0].variable.grad`: not `variable`)
_GRAD_FN = re.compile(r"(?<![\w.\])])([A-Za-z_][\w.]*)\s*\.\s*"
                      r"(?:grad_fn|is_leaf|retain_grad|requires_grad)\b")
_GRAD = re.compile(r"(?<![\w.\])])([A-Za-z_][\w.]*)\s*\.\s*grad\b")
_MODULE = re.compile(r"([A-Za-z_][\w.]*?)\s*\.\s*(?:state_dict|named_children|children|"
                     r"named_parameters|parameters|named_buffers|buffers|named_modules|modules|"
                     r"training|_modules|_parameters|_buffers)\b")
_MEMORY = re.compile(r"data_ptr|untyped_storage|storage_offset|\._base\b|\bis\b|stride\(")
_MEMORY_CODE = re.compile(r"\.detach\(|\.data\b|\.view\(|\.clone\(|\b\w+_\(|\+=|-=|\*=|"
                          r"/=|\]\s*=[^=]")
_NAME = re.compile(r"[A-Za-z_]\w*(?:\[\d+\])?")
_PATH = re.compile(r"([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*){2,}")
MEMORY_TOPICS = {"memory", "tensors", "clone-detach", "detach", "views", "storage"}
MODULE_TOPICS = {"modules", "parameters", "buffers", "training"}


def _backward_targets(code: str) -> list[str]:
    """What `X.backward()` / `torch.autograd.grad(X, ...)` is called on at top level, in order.

    Calls inside functions and classes are skipped: their tensors are local, not in
    the namespace a picture can see.
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return re.findall(r"^([A-Za-z_][\w.]*)\s*\.\s*backward\s*\(", code, re.M) or \
            _AUTOGRAD_GRAD.findall(code)
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return
        if isinstance(node, ast.Call):
            func = node.func
            target = None
            if isinstance(func, ast.Attribute) and func.attr == "backward":
                target = func.value
            elif (isinstance(func, ast.Attribute) and func.attr == "grad" and node.args
                  and ast.unparse(func.value).endswith("autograd")):
                target = node.args[0]
                if isinstance(target, (ast.Tuple, ast.List)) and target.elts:
                    target = target.elts[0]
            if target is not None and isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
                found.append((node.lineno, node.col_offset, ast.unparse(target)))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return [t for _, _, t in sorted(found)]


def _local_only_names(code: str) -> set[str]:
    """Names the code (or an expression) binds only inside a function, lambda or
    comprehension, never at top level: they are not in the lesson's namespace, so no
    picture of them can be drawn."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    top: set[str] = set()
    inner: set[str] = set()
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp)

    def visit(node: ast.AST, names: set[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        for child in ast.iter_child_nodes(node):
            visit(child, inner if isinstance(node, scopes) else names)

    visit(tree, top)
    return inner - top


def suggest(kind: str, expect: str | Iterable[str] | None, code: str = "",
            topic: str = "") -> ShowSpec | None:
    """`_suggest`, less a picture of a name bound only inside a function or comprehension
    (`[n for n, layer in layers.items()]`): it is not in the namespace to be drawn."""
    spec = _suggest(kind, expect, code, topic)
    root = re.match(r"[A-Za-z_]\w*", spec.expr) if spec and spec.expr else None
    exprs = [expect] if isinstance(expect, str) else list(expect or [])
    if root and root.group(0) in _local_only_names("\n".join([code, *exprs])):
        return None
    return spec


def _suggest(kind: str, expect: str | Iterable[str] | None, code: str = "",
             topic: str = "") -> ShowSpec | None:
    """The picture that fits a question, from its kind, `expect` and the code run so far.

    - `same_storage`, or `expect` about data_ptr/_base/stride/`is`: the storage map;
      so is a `tensor`/`number`/`bool` question about a plain name in a lesson about
      memory (`topic`), or when the code detaches, views, clones or writes in place;
    - `expect` about state_dict(), children, parameters, buffers, training: the tree
      of that module;
    - `expect` about `.grad`/`grad_fn`/`is_leaf`: the graph of the tensor the code last
      called `backward()` on at top level; without one, the tree of the module whose
      parameter is asked about (`model.layer.weight.grad`), else the graph of the
      tensor asked about;
    - in a lesson about modules, parameters, buffers or training, a question about
      `model.sub.attr`: the tree of `model` (it shows small values and grads).
    None when nothing fits.
    """
    exprs = [expect] if isinstance(expect, str) else list(expect or [])
    text = " ".join(exprs)
    if kind == "same_storage":
        return ShowSpec("storage")
    module = _MODULE.search(text)
    if module:
        return ShowSpec("tree", module.group(1))
    grad_fn = _GRAD_FN.search(text)
    grad = _GRAD.search(text)
    if grad or grad_fn or kind == "exception" and "backward" in code:
        called = _backward_targets(code)
        if grad_fn and not grad:
            return ShowSpec("graph", grad_fn.group(1))
        if called:
            return ShowSpec("graph", called[-1])
        if grad and grad.group(1).count(".") >= 2:  # model.layer.weight.grad
            return ShowSpec("tree", grad.group(1).split(".")[0])
        target = grad or grad_fn
        if target:
            return ShowSpec("graph", target.group(1))
    if _MEMORY.search(text):
        return ShowSpec("storage")
    plain_name = _NAME.fullmatch(text.strip())
    if plain_name and kind in ("tensor", "number", "bool") and (
            topic in MEMORY_TOPICS or kind == "tensor" and _MEMORY_CODE.search(code)):
        return ShowSpec("storage")
    path = _PATH.fullmatch(text.strip())
    if path and topic in MODULE_TOPICS:
        return ShowSpec("tree", path.group(1))
    return None
