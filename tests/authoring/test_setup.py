"""Shared setup code per pack (`setup:` in pack.yaml), and clean lesson runs.

A pack's `setup:` runs before the first step of each of its lessons, in the
lesson's namespace; every lesson run starts in a private working directory with
the directory tutor was started in off the import path, so a lesson that imports
an author's local module fails in `check` as it would for a learner.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.authoring.record import record_file
from tutor.engine import check_lesson
from tutor.lesson import load_lesson

pytestmark = pytest.mark.usefixtures("no_env")

PACK = """\
title: Models
setup: |
  import torch.nn as nn


  class PowModel(nn.Module):
      def __init__(self):
          super().__init__()
          self.w = nn.Parameter(torch.tensor(2.0))

      def forward(self, x):
          return x ** self.w
"""

LESSON = """\
id: models/pow
title: Pow
topic: modules
steps:
  - code: |
      model = PowModel()
      y = model(torch.tensor(3.0))
    predict:
      - ask: Which parameters does the model have?
        kind: set
        expect: dict(model.named_parameters())
        hint: h
        explain: e
"""


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    root = tmp_path / "models"
    (root / "deeper").mkdir(parents=True)
    (root / "pack.yaml").write_text(PACK, encoding="utf-8")
    (root / "deeper" / "pow.yaml").write_text(LESSON, encoding="utf-8")
    return root


def test_a_lesson_carries_its_packs_setup(pack: Path):
    lesson = load_lesson(pack / "deeper" / "pow.yaml")  # found above the lesson's directory
    assert lesson.setup is not None and "class PowModel" in lesson.setup.code
    assert lesson.setup.file == pack / "pack.yaml" and lesson.setup.line == 3
    assert lesson.setup.file_line(4) == 6  # `class PowModel` in pack.yaml


@pytest.mark.kernel
def test_record_and_check_run_the_setup_first(kernel, pack: Path):
    path = pack / "deeper" / "pow.yaml"
    result = record_file(kernel, path)
    assert result.problems == [] and result.written
    assert "answer: \"['w']\"" in path.read_text(encoding="utf-8")
    assert check_lesson(kernel, load_lesson(path)).status == "passed"


@pytest.mark.kernel
def test_a_setup_that_raises_is_reported_at_its_line_in_pack_yaml(kernel, pack: Path):
    (pack / "pack.yaml").write_text(PACK + "\n  oops = undefined_name\n", encoding="utf-8")
    check = check_lesson(kernel, load_lesson(pack / "deeper" / "pow.yaml"))
    assert check.status == "error"
    assert check.reason.startswith(f"the pack's setup ({pack / 'pack.yaml'}:14) raised "
                                   "NameError: name 'undefined_name' is not defined")
    assert check.failure_kind == "setup"  # the pack's own code, not the kernel: no re-run


def test_a_setup_syntax_error_points_at_its_own_line(pack: Path):
    (pack / "pack.yaml").write_text(PACK.replace("return x ** self.w", "return x **"),
                                    encoding="utf-8")
    report = lint_paths([pack])
    [problem] = report.errors
    assert (problem.file.endswith("pack.yaml"), problem.line, problem.path) == (True, 12,
                                                                                "setup")
    assert problem.message.startswith("Python syntax error: invalid syntax (line 10 of the code)")
    # its lessons still load (the catalog goes on), but cannot run without their setup
    setup = load_lesson(pack / "deeper" / "pow.yaml").setup
    assert setup is not None and setup.problem is not None
    assert "pack.yaml:12:" in setup.problem and "its `setup:` cannot run" in setup.problem


@pytest.mark.kernel
def test_a_lesson_whose_pack_yaml_has_a_broken_setup_fails_to_run(kernel, pack: Path):
    (pack / "pack.yaml").write_text(PACK.replace("title: Models", "title: [Models"),
                                    encoding="utf-8")
    check = check_lesson(kernel, load_lesson(pack / "deeper" / "pow.yaml"))
    assert check.status == "error" and "YAML syntax error" in check.reason
    assert "its `setup:` cannot run" in check.reason
    # a broken manifest without `setup:` stops nothing
    (pack / "pack.yaml").write_text("title: [Models\n", encoding="utf-8")
    assert load_lesson(pack / "deeper" / "pow.yaml").setup is None


@pytest.mark.usefixtures("commands_share_kernel")
def test_pytest_runs_the_setup(pack: Path, capsys: pytest.CaptureFixture[str]):
    from tutor.cli import main

    assert main(["record", str(pack)]) == 0, capsys.readouterr()  # (the answers, first)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(pack)], capture_output=True, text=True, timeout=180,
                          cwd=pack.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout


def test_lesson_code_cannot_import_from_where_tutor_was_started(tmp_path: Path):
    """`from helpers import Net` must fail in `check` run from the pack, as it fails for
    a learner anywhere else; and the working directory is the run's own."""
    (tmp_path / "helpers.py").write_text("VALUE = 42\n")
    (tmp_path / "imports.yaml").write_text(
        "id: t/imports\ntitle: T\ntopic: t\nsteps:\n  - code: |\n"
        "      import os\n      where = os.getcwd()\n      from helpers import VALUE\n"
        "    predict:\n      - ask: v?\n        kind: number\n        expect: VALUE\n"
        "        answer: '42'\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_PATH", "PYTHONPATH")}
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "imports.yaml"],
                          capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ModuleNotFoundError: No module named 'helpers'" in proc.stdout


@pytest.mark.kernel
def test_a_run_starts_in_its_own_empty_directory(kernel, tmp_path: Path):
    path = tmp_path / "cwd.yaml"
    path.write_text(
        "id: t/cwd\ntitle: T\ntopic: t\nsteps:\n  - code: |\n      import os, sys\n"
        "    predict:\n      - ask: files?\n        kind: list\n"
        "        expect: \"[f for f in os.listdir('.') if not f.startswith('.')]\"\n"
        "        answer: '[]'\n      - ask: in the directory the tests run in?\n"
        f"        kind: bool\n        expect: \"os.getcwd() == {os.getcwd()!r}\"\n"
        "        answer: 'False'\n", encoding="utf-8")
    check = check_lesson(kernel, load_lesson(path))
    assert check.status == "passed", [p.message for p in check.prompts]


def test_play_shows_the_setup_before_the_first_step(pack: Path):
    path = pack / "deeper" / "pow.yaml"
    proc = subprocess.run([sys.executable, "-m", "tutor", "play", str(path)], input="quit\n",
                          capture_output=True, text=True, timeout=180)
    out = proc.stdout
    assert "-- setup, shared by the pack's lessons (runs before step 1) --" in out
    assert out.index("class PowModel(nn.Module):") < out.index("-- step 1 of 1 --")


@pytest.mark.kernel
async def test_the_app_shows_the_setup_above_the_code(kernel, pack: Path, tmp_path: Path):
    from tutor.progress import ProgressStore
    from tutor.ui.dev import DevApp
    from tutor.ui.screens.lesson import LessonScreen

    from .test_dev import wait_for

    app = DevApp(pack / "deeper" / "pow.yaml", kernel=kernel,
                 store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the step to run")
        setup = screen.query_one("#setup")
        assert setup.display and not setup.collapsed
        assert "class PowModel(nn.Module):" in str(screen.query_one("#setup-code").render())
