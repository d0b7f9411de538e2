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
