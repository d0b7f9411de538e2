"""Snapshots of what a learner meets, at 80x24 and at 120x40: the catalog, a question,
a verdict with its explanation, the second step with the first one's code above it,
and the end of a lesson.  Deterministic: the kernel is ready, no cursor blink, no
timing text.  Update with `pytest --snapshot-update`, and look at the SVGs."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea
from ui_helpers import ui_catalog, wait_for

from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel
SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture
def app(kernel, tutor_home, monkeypatch: pytest.MonkeyPatch) -> TutorApp:
    # the kernel status names the torch the lessons run on: one name for every torch
    monkeypatch.setitem(kernel.info, "torch", "X.Y.Z")
    return TutorApp(catalog=ui_catalog(), kernel=kernel, store=ProgressStore(tutor_home))


async def ready_catalog(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")


async def settle(pilot) -> None:
    """No blinking cursors, the kernel idle, the last write saved, scrolling done."""
    app = pilot.app
    for entry in app.screen.query(Input):
        entry.cursor_blink = False
    for area in app.screen.query(TextArea):
        area.cursor_blink = False
    await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel idle")
    await pilot.pause(0.3)


async def at_question(pilot) -> None:
    await ready_catalog(pilot)
    await pilot.press("enter")
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                   and app.screen.mode == "asking", what="the question")
    await settle(pilot)


async def wrong_answer(pilot) -> None:
    await at_question(pilot)
    await pilot.press("ctrl+t", "6", "enter")
    await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="verdict")
    await settle(pilot)


async def second_step(pilot) -> None:
    await at_question(pilot)
    screen = pilot.app.screen
    await pilot.press("1", "2", "enter", "n", *"a, b, c", "enter", "n")
    await wait_for(pilot, lambda: screen.mode == "asking" and screen.flow.step_index == 1,
                   what="step 2")
    await settle(pilot)


async def lesson_done(pilot) -> None:
    await second_step(pilot)
    await pilot.press("y")
    await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="Q3")
    await pilot.press("n", "2")
    await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="Q4")
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LessonDone), what="the end")
    await settle(pilot)


@SIZES
def test_catalog(snap_compare, app, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=ready_catalog)


@SIZES
def test_question(snap_compare, app, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=at_question)


@SIZES
def test_verdict(snap_compare, app, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=wrong_answer)


@SIZES
def test_second_step_with_the_first_steps_code(snap_compare, app, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=second_step)


@SIZES
def test_lesson_done(snap_compare, app, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=lesson_done)


def test_verdict_light_theme(snap_compare, app) -> None:
    async def partial_answer(pilot) -> None:
        pilot.app.theme = "textual-light"
        await at_question(pilot)
        await pilot.press("1", "2", "enter", "n", *"c, b, a", "enter")
        await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="verdict")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=partial_answer)
