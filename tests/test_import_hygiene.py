"""The boundary: torch lives only in the kernel process, textual only in tutor.ui."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LESSONS = Path(__file__).resolve().parent.parent / "lessons"

PROBE = """
import json, sys
{body}
heavy = sorted(m for m in ("torch", "textual", "numpy") if m in sys.modules)
print("MODULES=" + json.dumps(heavy))
"""


def loaded_after(body: str, stdin: str = "") -> list[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(body=body)], input=stdin,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("MODULES="))
    return json.loads(line.removeprefix("MODULES="))


def test_importing_the_core_loads_neither_torch_nor_textual() -> None:
    body = ("import tutor, tutor.cli, tutor.engine, tutor.lesson, tutor.judge, tutor.kernel\n"
            "import tutor.commands.check, tutor.commands.play, tutor.commands.listing\n"
            "import tutor.pytest_plugin")
    assert loaded_after(body) == []


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [(["list"], ""),
     (["check", str(LESSONS / "samples" / "accumulate.yaml")], ""),
     (["play", "samples/accumulate"], "0.6\n")],
)
def test_headless_commands_keep_torch_and_textual_out_of_the_process(
        argv: list[str], stdin: str, tmp_path: Path) -> None:
    body = ("import contextlib, io\nfrom tutor.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    main({argv!r})")
    assert loaded_after(body, stdin) == []


def test_the_import_contracts_hold() -> None:
    # pyproject's [tool.importlinter]: only tutor.ui imports textual, and only the
    # kernel process's modules import torch (checked statically, imports in functions too)
    root = Path(__file__).resolve().parent.parent
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint)], cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 broken." in proc.stdout and "Contracts: " in proc.stdout


def test_the_code_passes_ruff() -> None:
    root = Path(__file__).resolve().parent.parent
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(ruff), "check", "tutor", "tests", "benchmarks"], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---------------------------------------------- the kernel package: no cycles, alone

KERNEL = Path(__file__).resolve().parent.parent / "tutor" / "kernel"


def tutor_imports(path: Path) -> set[str]:
    """The tutor modules `path` imports (every import statement, in functions and under
    `if TYPE_CHECKING` too), as dotted names; `from tutor.kernel import x` counts as
    tutor.kernel.x where x is a module of the package."""
    import ast

    package = "tutor.kernel"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "tutor")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            if base.split(".")[0] != "tutor":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if (KERNEL / f"{alias.name}.py").exists() and base == package
                          else base)
    return found


def kernel_graph() -> dict[str, set[str]]:
    """tutor.kernel's modules -> the tutor modules each imports."""
    return {f"tutor.kernel.{p.stem}" if p.stem != "__init__" else "tutor.kernel":
            tutor_imports(p) for p in sorted(KERNEL.glob("*.py"))}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle among the graph's own nodes (one per strongly connected set)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm (the graph has ~30 nodes)
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in graph or nxt == "tutor.kernel":  # (the package's own __init__)
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_kernel_package_has_no_import_cycle() -> None:
    # (client.py and spawn.py used to import each other, lazily: the manager now builds
    # on the provisioners, which know it only through tutor/kernel/provisioner.py)
    graph = kernel_graph()
    assert cycles(graph) == []
    assert {"tutor.kernel.manager", "tutor.kernel.fork", "tutor.kernel.spawn"} <= set(graph)


def test_the_kernel_package_imports_nothing_else_of_tutor() -> None:
    # it is copied alone onto another interpreter for `--python` (kernel/launch.py)
    outside = {(module, imported) for module, imports in kernel_graph().items()
               for imported in imports
               if imported != "tutor" and not imported.startswith("tutor.kernel")}
    assert outside == set()


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e"]]


def test_no_file_outside_the_kernel_imports_a_file_that_imports_it_back() -> None:
    # every import counts, in a function or under TYPE_CHECKING too (tests/import_cycles.py);
    # cycles inside tutor/kernel have their own test
    from import_cycles import cycles, describe, import_graph

    graph = import_graph()
    found = [c for c in cycles(graph) if not all(m.startswith("tutor.kernel") for m in c)]
    assert found == [], "import cycles:\n" + "\n".join(describe(graph, c) for c in found)


def test_the_cycle_finder_sees_imports_in_functions_and_relative_ones(tmp_path: Path) -> None:
    from import_cycles import cycles, describe, import_graph

    pkg = tmp_path / "tutor"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from tutor.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from tutor.sub.d import X\n")
    (pkg / "sub" / "d.py").write_text("import tutor.sub.c\nX = 1\n")
    (pkg / "e.py").write_text("import tutor.a\n")  # imports into a cycle, is in none
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["tutor.a", "tutor.sub.b"], ["tutor.sub.c", "tutor.sub.d"]]
    assert describe(graph, ["tutor.a", "tutor.sub.b"]) == (
        "  tutor.a:1 -> tutor.sub.b\n  tutor.sub.b:2 -> tutor.a")
