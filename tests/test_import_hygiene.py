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

def kernel_graph() -> dict[str, set[str]]:
    """tutor.kernel's modules -> the tutor modules each imports (every import statement,
    in functions and under `if TYPE_CHECKING` too: tests/import_cycles.py)."""
    from import_cycles import import_graph

    return {module: set(imports) for module, imports in import_graph().items()
            if module.split(".")[:2] == ["tutor", "kernel"]}


def test_the_kernel_package_has_no_import_cycle() -> None:
    # (client.py and spawn.py used to import each other, lazily: the manager now builds
    # on the provisioners, which know it only through tutor/kernel/provisioner.py)
    from import_cycles import cycles

    graph = kernel_graph()
    inner = {module: {imported for imported in imports  # (the package's own __init__ aside)
                      if imported in graph and imported != "tutor.kernel"}
             for module, imports in graph.items()}
    assert cycles(inner) == []
    assert {"tutor.kernel.manager", "tutor.kernel.fork", "tutor.kernel.spawn"} <= set(graph)


def test_the_kernel_package_imports_nothing_else_of_tutor() -> None:
    # it is copied alone onto another interpreter for `--python` (kernel/launch.py)
    outside = {(module, imported) for module, imports in kernel_graph().items()
               for imported in imports
               if imported != "tutor" and not imported.startswith("tutor.kernel")}
    assert outside == set()


def test_the_cycle_finder_finds_cycles() -> None:
    from import_cycles import cycles

    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}, "e": {"e": 1}}
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
