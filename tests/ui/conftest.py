"""Fixtures for the app's tests: fixture lessons, an app factory, and waiting helpers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ui_helpers import ui_catalog

from tutor.kernel import Kernel
from tutor.lesson import Catalog
from tutor.progress import ProgressStore


@pytest.fixture
def make_app(tutor_home: Path) -> Callable[..., object]:
    """Build a TutorApp on the fixture lessons with an isolated progress store."""
    from tutor.ui.app import TutorApp

    def make(kernel: Kernel, *dirs: str, catalog: Catalog | None = None) -> TutorApp:
        return TutorApp(catalog=catalog or ui_catalog(*dirs), kernel=kernel,
                        store=ProgressStore(tutor_home))

    return make


@pytest.fixture(autouse=True)
def answer_keys_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests press y/n the moment a question shows; a person is given a short settle
    time (see test_a_double_n_does_not_answer_no, which restores it)."""
    from tutor.ui.widgets.answer import AnswerBox

    monkeypatch.setattr(AnswerBox, "SETTLE", 0.0)


@pytest.fixture(autouse=True)
def keys_settle_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's Pilot, after each key it presses, waits until the app has been idle for
    a window of 20 ms (under 1 ms of the process's CPU in it), twice: about 120 ms a
    key here, half of tests/ui's time.  A window of 5 ms at the same ratio (under 5% of
    it busy) says the same thing sooner: the key has been handled and nothing runs."""
    from textual import _wait

    monkeypatch.setattr(_wait, "SLEEP_GRANULARITY", 1 / 200)
    monkeypatch.setattr(_wait, "SLEEP_IDLE", 1 / 200 / 20)
