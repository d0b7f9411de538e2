"""`tutor dev`: the app on one lesson file, reloaded on change, load errors in place."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tutor.progress import ProgressStore

pytestmark = pytest.mark.kernel

LESSON = """\
id: dev/preview
title: {title}
topic: t
steps:
  - code: x = 2
    predict:
      - ask: x?
        kind: number
        expect: x
        answer: "2"
  - code: y = x * 3
    predict:
      - ask: y?
        kind: number
        expect: y
        answer: "6"
"""


async def wait_for(pilot, predicate, what: str, timeout: float = 20.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.05)


def save(path: Path, text: str) -> None:
    """Save like an editor (a new file moved into place), the mtime moved forward so a
    coarse clock cannot hide a quick edit."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    later = time.time_ns() + 2_000_000_000
    os.utime(tmp, ns=(later, later))
    tmp.replace(path)


async def test_dev_reloads_on_change_and_shows_load_errors_in_place(kernel, tmp_path: Path):
    from textual.widgets import Static

    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "preview.yaml"
    path.write_text(LESSON.format(title="First"), encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert app.screen.lesson.title == "First"
        await wait_for(pilot, lambda: app.screen.mode == "asking", "the step to run")

        save(path, LESSON.format(title="Second"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Second", "the reload")

        save(path, LESSON.format(title="Third").replace("kind: number\n        expect: y",
                                                        "kind: numbr\n        expect: y"))
        await wait_for(pilot, lambda: isinstance(app.screen, LoadErrorScreen), "the error")
        problems = str(app.screen.query_one("#load-problems", Static).render())
        assert "preview.yaml:14:15: steps[1].predict[0].kind: unknown value 'numbr'" in problems
        assert "did you mean 'number'?" in problems

        save(path, LESSON.format(title="Fixed"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Fixed", "the fixed lesson")
        await wait_for(pilot, lambda: app.screen.mode == "asking", "the step to run again")
        assert app.reloads == 3
        assert len(app.screen_stack) == 3  # default, catalog, the preview: no pile-up


def test_dev_needs_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    from tutor.cli import main

    assert main(["dev", str(tmp_path / "missing.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


async def test_dev_starts_on_a_broken_file_and_recovers(kernel, tmp_path: Path):
    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "preview.yaml"
    path.write_text("id: dev/preview\ntitle: [unclosed\n", encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LoadErrorScreen), "the error")
        save(path, LESSON.format(title="Now it loads"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert app.screen.lesson.title == "Now it loads"
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the preview's step to run")
