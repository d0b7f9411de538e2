"""`tutor check -j 2` over lessons that misbehave: it finishes, in order, and every
lesson's result is its own (even when one of them kills the kernel)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.kernel import Kernel

pytestmark = pytest.mark.kernel

LESSON = """\
id: {id}
title: {id}
topic: faults
level: 1
timeout: {timeout}
steps:
  - code: |
{code}
    predict:
      - ask: What is x?
        expect: x
        kind: number
        answer: "3"
"""

GOOD = "x = 1 + 2"
BAD = {
    "bad/segfault": ("import ctypes\nctypes.string_at(0)", "SIGSEGV"),
    "bad/exit": ("import os\nos._exit(1)", "exited with code 1"),
    "bad/loop": ("while True:\n    pass", "timed out"),
    "bad/flood": ("while True:\n    print('x' * 1000)", "printed more than 64 MB"),
    "bad/zygote": ("import os, signal, time\nos.kill(os.getppid(), signal.SIGKILL)\n"
                   "time.sleep(5)",
                   "because the kernel died: the kernel process crashed with SIGKILL"),
}


def write(directory: Path, n: int, lesson_id: str, code: str) -> None:
    body = "\n".join("      " + line for line in code.splitlines())
    (directory / f"{n:02d}.yaml").write_text(
        LESSON.format(id=lesson_id, code=body, timeout=1))


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_check_survives_every_fault_and_keeps_results_isolated(tmp_path: Path,
                                                                mode: str) -> None:
    # (spawn mode has no zygote: a lesson killing its parent would kill `tutor check`)
    bads = {k: v for k, v in BAD.items() if mode == "fork" or k != "bad/zygote"}
    order = []
    n = 0
    for bad, (code, _) in bads.items():
        for good in range(2):
            order.append(f"good/{bad[4:]}-{good}")
            write(tmp_path, n, order[-1], GOOD)
            n += 1
        order.append(bad)
        write(tmp_path, n, bad, code)
        n += 1
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    env["TUTOR_KERNEL"] = mode
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "-j", "2", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, env=env)  # (a hang guard)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    lines = [line for line in out.splitlines() if line.startswith(("good/", "bad/"))
             and " ...." in line]
    assert [line.split()[0] for line in lines] == order  # in catalog order
    for line in lines:
        if line.startswith("good/"):
            assert " ok (1 prompt," in line, out  # not hurt by its neighbours
        else:
            assert " ERROR " in line, out
    for bad, (_, reason) in bads.items():
        detail = [line for line in out.splitlines() if f": {bad}: " in line]
        assert detail and reason in detail[0], (bad, out)
    assert (f"lessons: {len(order) - len(bads)} passed, 0 failed, 0 skipped, "
            f"{len(bads)} errors") in out


def test_a_lesson_charged_with_stopping_the_zygote_runs_again_alone() -> None:
    """With -j 2 the zygote a run finds stopped may have been stopped by the lesson beside
    it (chaos seed 828943 charged forks-twice with it): such a lesson is re-run alone, where
    only its own code runs, so that the charge sticks only to the lesson that did it."""
    from tutor.commands.check import _kernel_died_under
    from tutor.engine import LessonCheck

    charged = LessonCheck("x/y", "y.yaml", "error", "step 1 crashed: (any words)",
                          failure_kind="kernel_stopped")
    assert _kernel_died_under(charged)
    assert not _kernel_died_under(LessonCheck("x/y", "y.yaml", "failed", "Q1: expected 3"))
    # the kind decides, not the words: a crash of the lesson's own process that quotes
    # the kernel's messages is still the lesson's own failure
    assert not _kernel_died_under(LessonCheck(
        "x/y", "y.yaml", "error", "kernel: ended because the kernel died; stopped the "
        "kernel process", failure_kind="crashed"))


@pytest.mark.fork_only("there is no zygote to kill (a run's parent is the tutor)")
def test_a_lesson_the_kernel_died_under_is_found_by_its_kind_not_its_words(
        own_kernel: Kernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tutor check -j N` re-runs, alone, a lesson that the kernel died under: the kernel
    client says so with a typed value (SessionDied.kind, through StepOutcome and
    LessonCheck.failure_kind), so rewording the message cannot silently stop it."""
    from tutor.commands.check import _kernel_died_under
    from tutor.engine import check_lesson
    from tutor.kernel import run
    from tutor.lesson import load_lesson

    monkeypatch.setattr(run, "KERNEL_DIED", "met its end with the kernel")  # new words
    write(tmp_path, 0, "bad/zygote", BAD["bad/zygote"][0])
    check = check_lesson(own_kernel, load_lesson(tmp_path / "00.yaml"))
    assert check.status == "error" and "met its end with the kernel" in check.reason
    assert check.failure_kind == "kernel_died"
    assert _kernel_died_under(check)
