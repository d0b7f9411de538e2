"""Find import cycles between tutor's files (run it: `python tests/import_cycles.py`).

Every import counts, at module level or inside a function, under `if TYPE_CHECKING:` or
not: a cycle hidden in a function is still two files that need each other.  An import
of `pkg.mod` is an edge to pkg/mod.py (or pkg/mod/__init__.py); `from pkg import name`
is an edge to the module `pkg.name` if there is one, else to pkg/__init__.py.  Stdlib
only (ast), so it runs without importing tutor.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

Graph = dict[str, dict[str, int]]  # module -> {imported module: line of the first import}


def modules(root: Path = ROOT, package: str = "tutor") -> dict[str, Path]:
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph(root: Path = ROOT, package: str = "tutor") -> Graph:
    mods = modules(root, package)

    def owner(name: str) -> str | None:  # the module a dotted name lives in
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {m: {} for m in mods}
    for mod, path in mods.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here[: len(here) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                         for a in node.names]
            for name in names:
                target = owner(name) if name.split(".")[0] == package else None
                if target is not None and target != mod:
                    graph[mod].setdefault(target, node.lineno)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module, and modules that
    import themselves (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph[v]:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def describe(graph: Graph, cycle: list[str]) -> str:
    """One cycle, each of its imports as `module:line -> module`."""
    members = set(cycle)
    return "\n".join(f"  {a}:{line} -> {b}" for a in cycle
                     for b, line in sorted(graph[a].items()) if b in members)


if __name__ == "__main__":
    g = import_graph()
    found = cycles(g)
    for c in found:
        print(f"cycle of {len(c)}: {', '.join(c)}\n{describe(g, c)}")
    sys.exit(1 if found else 0)
