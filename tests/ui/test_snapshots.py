"""Snapshots of the catalog, a question and a verdict at 80x24 (deterministic: the kernel
is ready, no cursor blink, no timing text).  Update with `pytest --snapshot-update`."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from ui_helpers import ui_catalog, wait_for

from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel
SIZE = (80, 24)


@pytest.fixture
def app(kernel, tutor_home) -> TutorApp:
    return TutorApp(catalog=ui_catalog(), kernel=kernel, store=ProgressStore(tutor_home))


async def ready_catalog(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")


async def at_question(pilot) -> None:
    await ready_catalog(pilot)
    await pilot.press("enter")
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                   and app.screen.mode == "asking", what="the question")
    for entry in app.screen.query(Input):
        entry.cursor_blink = False
    await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel idle")


def test_catalog(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=SIZE, run_before=ready_catalog)


def test_question(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=SIZE, run_before=at_question)


def test_verdict(snap_compare, app) -> None:
    async def wrong_answer(pilot) -> None:
        await at_question(pilot)
        await pilot.press("ctrl+t", "6", "enter")
        await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="verdict")
        await pilot.pause(0.3)  # the attempt is saved by a worker

    assert snap_compare(app, terminal_size=SIZE, run_before=wrong_answer)


def test_verdict_light_theme(snap_compare, app) -> None:
    async def partial_answer(pilot) -> None:
        pilot.app.theme = "textual-light"
        await at_question(pilot)
        await pilot.press("1", "2", "enter", "n", *"c, b, a", "enter")
        await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="verdict")
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=SIZE, run_before=partial_answer)
