"""The learner sees a lesson's own modules (`modules:`) before step 1: `tutor play`
prints them, the app shows each in a fold above the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("no_env")

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "procs" / "allreduce.yaml"


def test_play_prints_the_modules_before_the_first_step() -> None:
    proc = subprocess.run([sys.executable, "-m", "tutor", "play", str(SAMPLE)], input="quit\n",
                          capture_output=True, text=True, timeout=180)
    out = proc.stdout
    assert "-- module ranks.py (the lesson's code imports it: `import ranks`) --" in out
    assert "-- module work.py" in out
    assert out.index("def run_ranks(fn, world=2, *args):") < out.index("-- step 1 of 1 --")
    assert out.index("def summed(rank, world):") < out.index("-- step 1 of 1 --")


@pytest.mark.kernel
async def test_the_app_shows_each_module_in_a_fold_above_the_code(kernel, tmp_path: Path):
    from tutor.progress import ProgressStore
    from tutor.ui.dev import DevApp
    from tutor.ui.screens.lesson import LessonScreen

    from .test_dev import wait_for

    app = DevApp(SAMPLE, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the step to run")
        fold = screen.query_one("#module-ranks")
        assert fold.display and not fold.collapsed
        assert "Module ranks.py" in str(fold.title)
        assert "def run_ranks" in str(screen.query_one("#module-ranks-code").render())
        assert "def summed" in str(screen.query_one("#module-work-code").render())
