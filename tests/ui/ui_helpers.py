"""Helpers for the app's tests (imported by name: tests/ui is on sys.path)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pilot_wait import wait_for as wait

from tutor.lesson import Catalog, load_catalog

UI_DATA = Path(__file__).resolve().parent.parent / "data" / "ui"


def ui_catalog(*dirs: str) -> Catalog:
    """The fixture lessons under tests/data/ui (default: the `lessons` pack)."""
    return load_catalog([UI_DATA / d for d in dirs or ("lessons",)], with_env=False,
                        with_bundled=False)


async def wait_for(pilot, predicate: Callable[[], object], timeout: float = 20.0,
                   what: str = "condition") -> None:
    """pilot_wait.wait_for, with the timeout before what is waited for."""
    await wait(pilot, predicate, what, timeout)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*text)


async def open_first_lesson(pilot, until: str = "asking"):
    """From the catalog, open the highlighted lesson and wait until its screen's mode
    is `until` ("asking": the first step has run; "failed": it could not)."""
    from tutor.ui.screens.catalog import CatalogScreen
    from tutor.ui.screens.lesson import LessonScreen

    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
    screen = app.screen
    await wait_for(pilot, lambda: screen.mode == until, timeout=30, what=f"mode {until}")
    return screen


def text_of(screen, selector: str) -> str:
    """What a Static shows, as plain text."""
    from textual.widgets import Static

    return str(screen.query_one(selector, Static).render())


def verdict_text(screen) -> str:
    from tutor.ui.widgets.verdict import VerdictPanel

    return screen.query_one(VerdictPanel).text


def in_view(widget, container) -> bool:
    """Is all of `widget` inside what `container` (a scrolling view) shows now?"""
    region, view = widget.region, container.scrollable_content_region
    return region.height > 0 and view.y <= region.y and region.bottom <= view.bottom


async def answer(pilot, text: str) -> None:
    """Type `text` into the text entry (emptied first) and press enter."""
    from textual.widgets import Input

    entry = pilot.app.screen.query_one("#text-entry", Input)
    entry.value = ""
    await pilot.press(*text, "enter")
    await pilot.pause()
