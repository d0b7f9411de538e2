"""Degraded cases from issue 12, through the commands: nothing found is a failure, no
command reads a FIFO or a device without bound, and a lesson that cannot run to its
end makes `play` fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel

LESSON = """\
id: degraded/{name}
title: {name}
topic: faults
{extra}steps:
  - code: |
      x = 3
    predict:
      - ask: What is x?
        expect: x
        kind: number
        answer: "3"
  - code: |
{code}
"""


def lesson(directory: Path, name: str, code: str = "y = 1", extra: str = "") -> Path:
    body = "\n".join("      " + line for line in code.splitlines())
    path = directory / f"{name}.yaml"
    path.write_text(LESSON.format(name=name, code=body, extra=extra))
    return path


def tutor(*args: str, stdin: str = "", cwd: Path | None = None,
          command: tuple[str, ...] = ("-m", "tutor")) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    return subprocess.run([sys.executable, *command, *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=240, cwd=cwd)


def test_check_fails_when_no_lesson_is_found(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a lesson")
    proc = tutor("check", str(tmp_path))
    assert proc.returncode == 1
    assert f"no lesson files found in {tmp_path}" in proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_fifos_and_devices_are_refused_not_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "lesson.yaml"
    if kind == "fifo":
        os.mkfifo(path)
        why = "not a regular file (it is a FIFO)"
    else:
        path.symlink_to("/dev/zero")
        why = "not a regular file (it is a character device)"
    check = tutor("check", str(path))
    assert check.returncode == 1 and why in check.stdout + check.stderr
    check_dir = tutor("check", str(tmp_path))
    assert check_dir.returncode == 1 and why in check_dir.stdout + check_dir.stderr
    lint = tutor("lint", str(path))
    assert lint.returncode == 1 and why in lint.stdout + lint.stderr
    play = tutor("play", str(path))
    assert play.returncode == 2 and why in play.stderr
    check_dev = tutor("check", "/dev/zero")
    assert check_dev.returncode == 1 and "character device" in check_dev.stdout


def test_pytest_skips_fifos_and_reports_broken_files_as_failed_items(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.yaml")
    lesson(tmp_path, "huge", extra="level: " + "1" * 5000 + "\n")
    lesson(tmp_path, "fine")
    proc = tutor("-p", "no:cacheprovider", "-p", "no:randomly", "-q", "-rf", str(tmp_path),
                 command=("-m", "pytest"), cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "huge.yaml::load" in out and "number too large (5,000 digits)" in out
    assert "1 failed" in out and "1 passed" in out, out  # (fine.yaml still runs)


def test_play_fails_when_the_lesson_cannot_run_to_its_end(tmp_path: Path) -> None:
    path = lesson(tmp_path, "crash", code="import ctypes\nctypes.string_at(0)")
    proc = tutor("play", str(path), stdin="3\n")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "crashed with SIGSEGV" in proc.stdout
    fine = tutor("play", str(lesson(tmp_path, "fine")), stdin="3\n")
    assert fine.returncode == 0 and "correct" in fine.stdout
