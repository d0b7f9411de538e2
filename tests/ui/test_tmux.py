"""The real terminal: start `tutor` under tmux, answer questions, read the screen, quit.

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

    def wait_gone(self, text: str, timeout: float = 60.0) -> None:
        start = time.monotonic()
        while text in self.screen():
            if time.monotonic() - start > timeout:
                raise AssertionError(f"{text!r} never went; the screen:\n{self.screen()}")
            time.sleep(0.05)

    def alive(self) -> bool:
        return subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", "t"],
                              capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


def tutor_in_tmux(home: Path, width: int, height: int) -> Tmux:
    """`tutor` on the fixture lessons (and the bundled ones) in a fresh tmux session."""
    command = (f"env TUTOR_HOME={shlex.quote(str(home))} "
               f"TUTOR_PATH={shlex.quote(str(UI_LESSONS))} "
               f"{shlex.quote(sys.executable)} -m tutor")
    return Tmux(width, height, command)


def open_basics(tmux: Tmux) -> None:
    """From the catalog, through the command palette, to UI basics' first question."""
    tmux.wait("kernel: ready", timeout=120)
    tmux.keys("C-p")
    tmux.wait("Search")
    tmux.keys("UI basics")
    tmux.wait("Lesson: UI basics")
    tmux.keys("Enter")
    tmux.wait("Q1.")


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
def test_tutor_in_a_real_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    home = tmp_path / "home"
    tmux = tutor_in_tmux(home, *size)
    try:
        # Paints at all (the wait's timeout guards a hang); the speed target lives in
        # benchmarks/first_paint.py, not in a timed unit test that flakes under load.
        first_paint = tmux.wait("press c", timeout=20)
        print(f"first paint after {first_paint:.2f} s")
        open_basics(tmux)
        screen = tmux.screen()
        assert "x = torch.tensor([1., 2., 3.])" in screen
        assert "12" not in screen.split("Q1.")[1]  # no live value before the answer
        tmux.keys("1", "2", "Enter")
        tmux.wait("Correct")
        assert "12.0" in tmux.screen()
        tmux.keys("Escape")
        tmux.wait("◐ 1/4 UI basics")
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


def test_a_multi_step_lesson_end_to_end_at_80x24(tmp_path: Path) -> None:
    """What a learner sees at 80x24, question by question (capture-pane after each key)."""
    tmux = tutor_in_tmux(tmp_path / "home", 80, 24)
    try:
        open_basics(tmux)
        screen = tmux.screen()
        assert "x = torch.tensor([1., 2., 3.])" in screen and "Step 1 of 2" in screen
        assert "a number, or None" in screen and "(number)" not in screen
        tmux.keys("6", "Enter")  # wrong: the verdict and its explanation, no scrolling
        tmux.wait("Not quite")
        screen = tmux.screen()
        assert "you said  6" in screen and "Why: 2 + 4 + 6 = 12." in screen
        assert "That is the sum of x, not of y." in screen  # Markdown rendered
        assert "`" not in screen and "**" not in screen
        tmux.keys("r")
        tmux.wait_gone("Not quite")  # the question again, the old answer in the field
        time.sleep(0.2)
        tmux.keys("1", "2", "Enter")  # the old answer was selected: replaced
        tmux.wait("you said  12")
        tmux.keys("n")
        tmux.wait("Q2.")
        time.sleep(0.2)
        tmux.keys(*"a, b, c", "Enter")
        tmux.wait("Why: A list keeps its order.")
        screen = tmux.screen()
        assert "step one ran" in screen  # the step's output, once its questions are answered
        tmux.keys("n")
        tmux.wait("Q3.")
        # step 2's question about y: the code that made y (step 1) is still on screen
        for text in ("Step 1 (ran before)", "y = x * 2", "Step 2 of 2", "z = y.view(3)",
                     "yes (one memory) or no"):
            tmux.wait(text, timeout=10)
        time.sleep(0.5)
        tmux.keys("y")
        tmux.wait("Why: A view shares storage.")
        tmux.keys("n")
        tmux.wait("Q4.")
        time.sleep(0.5)  # number keys answer only once the question has settled (0.4 s)
        tmux.keys("1")
        tmux.wait("holds floats")
        tmux.keys("n")
        tmux.wait("Lesson done")
        screen = tmux.screen()
        assert "4 of 4 right" in screen and "Next: UI next lesson" in screen
        assert "Course: 1 of" in screen and "lessons done" in screen  # (and the bundled)
        tmux.keys("c")
        tmux.wait("✓ 4/4 UI basics")  # done, not perfect: Q1 was wrong first
        tmux.keys("q")
        deadline = time.monotonic() + 15
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not tmux.alive(), "tutor did not quit on q"
    finally:
        tmux.kill()


def test_review_and_a_guess_in_a_real_terminal(tmp_path: Path) -> None:
    """A mistake from yesterday: `r` on the catalog asks it again (its step's code and the
    earlier code on screen), ctrl+g marks the prediction as a guess, the verdict says so."""
    from datetime import datetime, timedelta, timezone

    from tutor.progress import Attempt

    home = tmp_path / "home"
    with ProgressStore(home, clock=lambda: datetime.now(timezone.utc) - timedelta(days=2)) as s:
        s.record(Attempt("ui/basics", 1, 1, "integers", "incorrect", run="r1"),
                 total_prompts=4, position=(1, 2))
    tmux = tutor_in_tmux(home, 80, 24)
    try:
        tmux.wait("Review  1 waiting: 1 due, 0 to redo", timeout=30)
        tmux.wait("kernel: ready", timeout=120)
        tmux.keys("r")
        tmux.wait("Review 1 of 1")
        tmux.wait("What is z made of?")
        for text in ("Step 1 (ran before)", "y = x * 2", "z = y.view(3)"):
            tmux.wait(text, timeout=10)
        tmux.wait("(ctrl+g: a guess)")
        tmux.keys("C-g")
        tmux.wait("(ctrl+g: sure)")
        time.sleep(0.5)  # number keys answer only once the question has settled (0.4 s)
        tmux.keys("1")
        tmux.wait("you said  floats  (a guess)")
        tmux.keys("n")  # the last question: how the review went (no dialog between questions)
        tmux.wait("Review done: 1 of 1 question right")
        tmux.keys("Enter")
        tmux.wait("Review  nothing waiting")
    finally:
        tmux.kill()
    with ProgressStore(home) as store:
        last = store.attempts()[-1]
        assert (last.answer, last.verdict, last.confidence, last.review) == (
            "floats", "correct", "guess", True)


def test_the_progress_view_of_one_day_in_a_real_terminal(tmp_path: Path) -> None:
    """One day of answers at 80x24: the day axis names that day only (it ran from 1963
    to 2090), and the answer count is the one `tutor progress` gives."""
    from datetime import datetime, timedelta, timezone

    from tutor.progress import Attempt

    home = tmp_path / "home"
    day = datetime.now(timezone.utc) - timedelta(days=1)
    with ProgressStore(home, clock=lambda: day) as s:
        for a in (Attempt("ui/basics", 0, 0, "6", "incorrect", run="r1"),
                  Attempt("ui/basics", 0, 0, "12", "correct", run="r1"),  # a retry
                  Attempt("ui/basics", 0, 1, "", "revealed", run="r1")):
            s.record(a, total_prompts=4, position=(a.step, a.prompt + 1))
    tmux = tutor_in_tmux(home, 80, 24)
    try:
        tmux.wait("Review", timeout=30)
        tmux.keys("p")
        tmux.wait("Right first time, per day")
        screen = tmux.screen()
        assert "2 answers on 1 day, 0% right" in screen, screen
        assert day.astimezone().strftime("%Y-%m-%d") in screen, screen
        assert not {"1963", "2090"} & set(screen.split()), screen
        tmux.keys("Escape")
        tmux.wait("Course:")
    finally:
        tmux.kill()
