"""A zygote started for lessons that make no optimizer leaves out the optimizers'
warm-up (`Kernel(optimizers=False)`): `tutor check`, `play` and the pytest plugin
decide it from the lessons they run (tutor/lesson/warmth.py).  The interactive warm-up
is tested in test_platform.py (`test_runs_start_with_the_optimizers_warm_...`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.kernel import Kernel

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.kernel

DYNAMO = "'torch._dynamo' in __import__('sys').modules"

# Each lesson asks whether torch._dynamo was imported before its run started (the
# name is spelled in pieces: the lesson itself must not read as one that needs it).
COLD = """\
id: t/cold
title: No optimizer here
topic: test
steps:
  - code: |
      import sys
      warm = ("torch._" + "dyn" + "amo") in sys.modules
    predict:
      - ask: Was it imported before this run?
        expect: warm
        kind: bool
        answer: "{answer}"
"""
WARM = COLD.replace("t/cold", "t/warm").replace(
    "in sys.modules\n", "in sys.modules\n      opt = torch.optim.SGD([torch.zeros(1)], lr=1)\n")


def test_a_zygote_without_the_warm_up_leaves_torch_dynamo_to_the_run_that_needs_it() -> None:
    kernel = Kernel(mode="fork", optimizers=False)
    try:
        info = kernel.wait_ready()
        with kernel.open_session() as s:
            assert s.observe(DYNAMO)["value"] is False
            s.run_step("w = torch.nn.Parameter(torch.ones(2))\n"
                       "opt = torch.optim.SGD([w], lr=0.5)\n(w * w).sum().backward()\nopt.step()")
            assert s.observe("w.tolist() == [0.0, 0.0]")["value"] is True  # the optimizer works
            assert s.observe(DYNAMO)["value"] is True  # imported by this run...
        with kernel.open_session() as s:
            assert s.observe(DYNAMO)["value"] is False  # ...and gone with it
        assert kernel.mode == "fork" and len(os.listdir(f"/proc/{info['pid']}/task")) == 1
    finally:
        kernel.shutdown()


def test_spawned_workers_without_the_warm_up_leave_torch_dynamo_to_the_run_that_needs_it(
        ) -> None:
    # a batch's reused workers warmed the optimizers up even where no lesson makes one:
    # the tests' own spawn kernels started 120 warm workers (cifast), `tutor check`'s too
    kernel = Kernel(mode="spawn", batch=True, optimizers=False)
    try:
        kernel.wait_ready()
        assert kernel.reuses_workers
        with kernel.open_session() as s:
            assert s.observe(DYNAMO)["value"] is False
    finally:
        kernel.shutdown()


def test_check_warms_the_optimizers_up_only_for_lessons_that_make_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tutor.cli import main

    (tmp_path / "cold.yaml").write_text(COLD.format(answer="no"))
    (tmp_path / "warm.yaml").write_text(WARM.format(answer="yes"))
    assert main(["check", "-j", "1", str(tmp_path / "cold.yaml")]) == 0, capsys.readouterr()
    # a directory holding a lesson that makes an optimizer: the zygote is warm for both
    (tmp_path / "cold.yaml").write_text(COLD.format(answer="yes"))
    assert main(["check", "-j", "1", str(tmp_path)]) == 0, capsys.readouterr()
    assert "lessons: 2 passed" in capsys.readouterr().out


def test_the_pytest_plugin_starts_its_kernel_without_the_warm_up_for_such_lessons(
        pytester: pytest.Pytester) -> None:
    (pytester.path / "cold.yaml").write_text(COLD.format(answer="no"))
    result = pytester.runpytest("-p", "no:textual-snapshot", "-p", "no:randomly", "-p",
                                "no:cacheprovider")
    result.assert_outcomes(passed=1)
