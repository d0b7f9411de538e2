"""The type checker runs on tutor/ with the project's settings (pyproject's
[tool.mypy]) and reports nothing: annotations are checked, not decoration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_reports_no_errors_on_tutor() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == ""


def test_a_misspelt_outcome_or_state_is_a_type_error(tmp_path: Path) -> None:
    # outcomes and states are Literal types (tutor/states.py) and strict_equality is on:
    # comparing one with a word it can never be is reported, where a `str` was not
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from tutor.engine import LessonCheck\n"
        "from tutor.flow import Answer\n"
        "from tutor.progress import Attempt, LessonProgress\n"
        "def f(a: Attempt, b: Answer, c: LessonCheck, d: LessonProgress) -> list[bool]:\n"
        "    return [a.verdict == 'corect', b.status == 'wrong', c.status == 'pased',\n"
        "            d.status == 'finished', a.verdict == 'revealed']\n")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary",
                           "--config-file", str(ROOT / "pyproject.toml"), str(probe)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 4, proc.stdout + proc.stderr
    assert all("Non-overlapping equality check" in e for e in errors), errors
    for word in ("'corect'", "'wrong'", "'pased'", "'finished'"):
        assert any(word in e for e in errors), (word, errors)
