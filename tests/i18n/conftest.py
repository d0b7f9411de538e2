"""What the translation tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor import i18n


@pytest.fixture
def korean() -> Iterator[None]:
    """tutor speaks Korean for the test (English again after it)."""
    i18n.set_language("ko")
    try:
        yield
    finally:
        i18n.set_language(i18n.ENGLISH)
