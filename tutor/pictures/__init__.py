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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tutor.pictures.graph import render_graph
from tutor.pictures.model import Line, Picture, Segment, line_text
from tutor.pictures.storage import render_storage
from tutor.pictures.tree import render_tree

__all__ = ["KINDS", "Line", "Picture", "Segment", "ShowSpec", "line_text", "parse_show",
           "render", "render_text", "suggest"]

KINDS = ("graph", "storage", "tree")
USAGE = "`graph EXPR`, `storage` (or `storage EXPR`) or `tree EXPR`"


@dataclass(frozen=True)
class ShowSpec:
    """Which picture to draw: `what` is graph, storage or tree; `expr` a Python expression."""

    what: str
    expr: str | None = None

    def __str__(self) -> str:
        return f"{self.what} {self.expr}" if self.expr else self.what


def parse_show(text: str) -> ShowSpec:
    """Read `graph z`, `storage`, `storage x`, `tree net` (a leading `:` is allowed)."""
    words = text.strip().removeprefix(":").strip()
    what, _, expr = words.partition(" ")
    what, expr = what.strip().lower(), expr.strip()
    if what not in KINDS:
        raise ValueError(f"unknown picture {what!r}: use {USAGE}")
    if not expr and what != "storage":
        raise ValueError(f"`{what}` needs an expression, e.g. `{what} "
                         f"{'z' if what == 'graph' else 'model'}`")
    if expr:
        try:
            ast.parse(expr, mode="eval")
        except SyntaxError as exc:
            raise ValueError(f"`{expr}` is not a Python expression: {exc.msg}") from None
    return ShowSpec(what, expr or None)


def _error(data: dict[str, Any], width: int) -> Picture:
    pic = Picture("error", "cannot draw this picture", width=width)
    pic.add(Segment(f"{data.get('name', 'Error')}: {data.get('message', '')}", "bad"))
    return pic


def render(data: dict[str, Any], width: int = 80) -> Picture:
    """The picture for kernel data (an `exception` observation becomes an error picture)."""
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
    pic = Picture("error", "cannot draw this picture", width=width)
    pic.add(Segment(f"unexpected data of type {kind!r}", "bad"))
    return pic


def render_text(data: dict[str, Any], width: int = 80) -> str:
    return render(data, width).text()


# ------------------------------------------------------------ which picture fits

_BACKWARD = re.compile(r"([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*\.\s*backward\s*\(")
_AUTOGRAD_GRAD = re.compile(r"autograd\s*\.\s*grad\s*\(\s*\(?\s*([A-Za-z_][\w.]*)")
_GRAD_FN = re.compile(r"([A-Za-z_][\w.]*)\s*\.\s*(?:grad_fn|is_leaf|retain_grad|requires_grad)\b")
_GRAD = re.compile(r"([A-Za-z_][\w.]*)\s*\.\s*grad\b")
_MODULE = re.compile(r"([A-Za-z_][\w.]*?)\s*\.\s*(?:state_dict|named_children|children|"
                     r"named_parameters|parameters|named_buffers|buffers|named_modules|modules|"
                     r"training|_modules|_parameters|_buffers)\b")
_MEMORY = re.compile(r"data_ptr|untyped_storage|storage_offset|\._base\b|\bis\b|stride\(")


def suggest(kind: str, expect: str | Iterable[str] | None,
            code: str = "") -> ShowSpec | None:
    """The picture that fits a question, from its kind, `expect` and the code run so far.

    A `same_storage` question or one about data_ptr/_base/stride gets the storage map;
    one about `.grad`/`grad_fn` gets the graph of the tensor the code last called
    `backward()` on (else of the tensor asked about); one about state_dict(),
    children, parameters or buffers gets the module tree.  None when nothing fits.
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
        called = _BACKWARD.findall(code) or _AUTOGRAD_GRAD.findall(code)
        if grad_fn and not grad:
            return ShowSpec("graph", grad_fn.group(1))
        if called:
            return ShowSpec("graph", called[-1])
        target = grad or grad_fn
        if target:
            return ShowSpec("graph", target.group(1))
    if _MEMORY.search(text):
        return ShowSpec("storage")
    return None
