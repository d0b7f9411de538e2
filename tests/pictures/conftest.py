"""Golden pictures: `UPDATE_GOLDEN=1 pytest tests/pictures` rewrites them from the live output."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tutor.kernel import Kernel, Session

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture
def golden() -> Callable[[str, str], None]:
    def check(name: str, text: str) -> None:
        path = GOLDEN / f"{name}.txt"
        if os.environ.get("UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1"
        assert text == path.read_text(encoding="utf-8"), f"picture differs from {path.name}"

    return check


@pytest.fixture
def session(kernel: Kernel) -> Iterator[Session]:
    """A lesson session of the shared kernel, for one test."""
    with kernel.open_session() as s:
        yield s
