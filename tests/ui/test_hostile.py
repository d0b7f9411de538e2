"""The app against hostile lesson files (issue 12): broken files are listed as errors
while the rest loads, and in a real terminal (tmux) no escape sequence or bidi
override from a lesson reaches the screen — titles, the command palette, questions,
hints, feedback, explanations, output, errors."""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tmux import Tmux
from textual.widgets import OptionList, Static
from ui_helpers import wait_for

from tutor.lesson import load_catalog
from tutor.ui.screens.catalog import CatalogScreen

pytestmark = pytest.mark.kernel

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile" / "lesson.yaml"
BROKEN = "id: hostile/broken\ntitle: b\ntopic: b\nlevel: " + "1" * 5000 + "\nsteps: []\n"


@pytest.fixture
def hostile_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "hostile"
    directory.mkdir()
    shutil.copy(HOSTILE, directory / "app.yaml")
    (directory / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return directory


async def test_broken_files_are_listed_as_errors_and_the_rest_loads(kernel, make_app,
                                                                    hostile_dir: Path) -> None:
    catalog = load_catalog([hostile_dir], with_env=False, with_bundled=False)
    app = make_app(kernel, catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        listing = app.screen.query_one("#lessons", OptionList)
        texts = [str(listing.get_option_at_index(i).prompt)
                 for i in range(listing.option_count)]
        assert any("Hostile" in t for t in texts)
        assert "Could not load (1)" in texts
        broken = texts.index("Could not load (1)") + 1
        assert "broken.yaml" in texts[broken]
        listing.highlighted = broken
        await pilot.pause()
        detail = str(app.screen.query_one("#detail-intro", Static).render())
        assert "level: number too large (5,000 digits)" in detail
        await pilot.press("enter")  # a broken file is not a lesson to open
        await pilot.pause()
        assert isinstance(app.screen, CatalogScreen)


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_nothing_a_lesson_holds_reaches_a_real_terminal(tmp_path: Path,
                                                        hostile_dir: Path) -> None:
    home = tmp_path / "home"
    raw = tmp_path / "terminal.bin"
    command = (f"env TUTOR_HOME={shlex.quote(str(home))} "
               f"TUTOR_PATH={shlex.quote(str(hostile_dir))} "
               f"{shlex.quote(sys.executable)} -m tutor")
    tmux = Tmux(110, 34, "sh")  # a shell: the output is captured from before tutor starts
    try:
        tmux.run("pipe-pane", "-o", "-t", "t", f"cat >> {shlex.quote(str(raw))}")
        tmux.keys(command, "Enter")
        tmux.wait("press c", timeout=30)
        tmux.wait("kernel: ready", timeout=120)
        tmux.keys("C-p")
        tmux.wait("Search")
        tmux.keys("Hostile")
        tmux.wait("Lesson: Hostile")
        tmux.keys("Enter")
        tmux.wait("Q1.", timeout=60)
        tmux.keys("C-t")  # the hint
        tmux.wait("Hint")
        tmux.keys("4", "Enter")  # wrong: the feedback, the explanation, the output
        tmux.wait("Not quite", timeout=30)
        time.sleep(0.5)
        screen = tmux.screen()
        title = tmux.run("display-message", "-p", "-t", "t", "#{pane_title}")
    finally:
        tmux.kill()
    data = raw.read_bytes().decode("utf-8", "replace")
    assert "Hostile" in screen and "Intro" in screen  # the texts are shown, made safe
    assert "PWNED" not in title
    assert "\x1b]52;" not in data and "\x1b]0;PWNED" not in data and "PWNED" not in data
    assert "\u202e" not in data and "\x9b" not in data and "\x9d" not in data
