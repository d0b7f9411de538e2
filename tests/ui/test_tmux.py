"""The real terminal: start `tutor` under tmux, answer one question, quit.

Skipped only when tmux is not installed.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tutor.progress import ProgressStore

pytestmark = [pytest.mark.tmux, pytest.mark.kernel,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

UI_LESSONS = Path(__file__).resolve().parent.parent / "data" / "ui" / "lessons"


class Tmux:
    def __init__(self, width: int, height: int, command: str) -> None:
        self.socket = f"tutor-test-{uuid.uuid4().hex[:8]}"
        self.run("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)
        self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip()

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                             text=True, timeout=30)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def wait(self, text: str, timeout: float = 60.0) -> float:
        start = time.monotonic()
        while text not in self.screen():
            if time.monotonic() - start > timeout:
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")
            time.sleep(0.05)
        return time.monotonic() - start

    def alive(self) -> bool:
        return subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", "t"],
                              capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
def test_tutor_in_a_real_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    home = tmp_path / "home"
    command = (f"env TUTOR_HOME={shlex.quote(str(home))} "
               f"TUTOR_PATH={shlex.quote(str(UI_LESSONS))} "
               f"{shlex.quote(sys.executable)} -m tutor")
    tmux = Tmux(*size, command)
    try:
        first_paint = tmux.wait("press c", timeout=20)
        print(f"first paint after {first_paint:.2f} s")
        assert first_paint < 5
        tmux.wait("kernel: ready", timeout=120)
        tmux.keys("C-p")
        tmux.wait("Search")
        tmux.keys("UI basics")
        tmux.wait("Lesson: UI basics")
        tmux.keys("Enter")
        tmux.wait("Q1.")
        screen = tmux.screen()
        assert "x = torch.tensor([1., 2., 3.])" in screen
        assert "12" not in screen.split("Q1.")[1]  # no live value before the answer
        tmux.keys("1", "2", "Enter")
        tmux.wait("Correct")
        assert "12.0" in tmux.screen()
        tmux.keys("Escape")
        tmux.wait("◐ UI basics")
        tmux.keys("q")
        deadline = time.monotonic() + 15
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not tmux.alive(), "tutor did not quit on q"
    finally:
        tmux.kill()
    with ProgressStore(home) as store:
        [attempt] = store.attempts()
        assert (attempt.lesson, attempt.answer, attempt.verdict) == ("ui/basics", "12", "correct")
