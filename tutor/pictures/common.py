"""Small formatters shared by the renderers."""

from __future__ import annotations

from typing import Any

# box drawing: a branch, the last branch, a vertical continuation, nothing
TEE, ELBOW, PIPE, BLANK = "├─ ", "└─ ", "│  ", "   "


def number(v: Any) -> str:
    """A value the way torch prints it: 4 decimals (0.6000, 1.6094), whole floats as 2.0."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return f"{v:.1f}"
        if abs(v) >= 1e6 or abs(v) < 1e-4:
            return f"{v:.4e}"
        return f"{v:.4f}"
    if isinstance(v, list):
        return "[" + ", ".join(number(x) for x in v) + "]"
    return str(v)


def shape(s: list[int]) -> str:
    return "[" + ", ".join(str(d) for d in s) + "]"


def grad(g: dict[str, Any] | None) -> str:
    """`None`, a value (small grads), or `tensor [shape]`."""
    if g is None:
        return "None"
    if "values" in g:
        return number(g["values"])
    return f"tensor {shape(g['shape'])}"


def names(ns: list[str], limit: int = 3) -> str:
    if len(ns) <= limit:
        return ", ".join(ns)
    return ", ".join(ns[:limit]) + f" (+{len(ns) - limit})"
