"""scripts/torch_matrix.py (docs/releasing.md): the course on several interpreters
through `tutor --python`, one row of passed/failed/skipped per torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "tests" / "data" / "faults"

pytestmark = pytest.mark.kernel


def _script():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("torch_matrix", ROOT / "scripts" /
                                                  "torch_matrix.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_matrix_prints_a_row_per_interpreter(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    # the version from the interpreter the matrix checks, not imported here: the
    # suite's processes never import torch (tests/kernel/test_kernel.py asserts it)
    version = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    matrix = _script()
    code = matrix.main(["--path", str(FAULTS / "per_prompt_requires.yaml"),
                        "--path", str(FAULTS / "broken_on_this_torch.yaml"),
                        sys.executable, str(tmp_path / "no-python")])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # a lesson fails (the broken one), and one interpreter is missing
    assert out[0].split() == list(matrix.COLUMNS)
    row = out[1].split()
    assert row[0] == version and row[2:6] == ["1", "1", "0", "0"]
    assert out[2].startswith(f"{tmp_path / 'no-python'}: cannot check: ")
    assert "failing: faults/broken-on-this-torch" in out[-1]
