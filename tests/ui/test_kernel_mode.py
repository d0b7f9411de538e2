"""The app says how lessons run: the kernel status names the mode, and spawn mode
(slower to start a run) is explained once, with its reason."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Static
from ui_helpers import open_first_lesson, wait_for

from tutor.kernel import Kernel
from tutor.ui.screens.catalog import CatalogScreen

pytestmark = pytest.mark.kernel


async def test_spawn_mode_is_named_and_explained_once(make_app) -> None:
    kernel = Kernel(mode="spawn")
    try:
        app = make_app(kernel)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
            await wait_for(pilot, lambda: app.kernel_state == "ready", timeout=120,
                           what="kernel ready")
            status = app.screen.query_one(".kernel", Static)
            assert re.search(r"kernel: ready · torch \d+\.\d+\S* · spawn", str(status.render()))
            assert "forced by the caller" in str(status.tooltip)
            told = [n.message for n in app._notifications if n.title == "Kernel"]
            assert len(told) == 1 and "spawn mode (forced by the caller)" in told[0]
            await open_first_lesson(pilot)  # a lesson runs in a spawned process
            await pilot.pause(0.5)
            assert len([n for n in app._notifications if n.title == "Kernel"]) <= 1
    finally:
        kernel.shutdown()


async def test_fork_mode_is_named_without_a_notice(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")
        assert re.search(r"kernel: ready · torch \S+ · fork",
                         str(app.screen.query_one(".kernel", Static).render()))
        assert not [n for n in app._notifications if n.title == "Kernel"]
