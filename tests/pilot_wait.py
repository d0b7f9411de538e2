"""Waiting in an app test driven by Textual's Pilot: one helper for tests/ui,
tests/authoring and tests/pictures (tests/ is on sys.path: its conftest is there)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


async def wait_for(pilot: Any, predicate: Callable[[], object], what: str = "condition",
                   timeout: float = 20.0) -> None:
    """Let the app run until `predicate()` is true (workers run in threads) and the
    screen on top has mounted: a test that ends while a new screen is still composing
    tears it down half-built."""
    deadline = time.monotonic() + timeout
    while not (predicate() and pilot.app.screen.is_mounted):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)
    await pilot.pause()
