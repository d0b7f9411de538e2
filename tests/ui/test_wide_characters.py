"""Hangul in a layer drawn over other widgets stays whole (tutor/ui/wide.py): Textual's
compositor divided a toast's lines at the edges of the widgets beneath it and replaced
each double-width character on an edge by two spaces (Textual issue #6357; a Korean
toast over the catalog read `레   파일 1개를 불러올 수 없습니다`)."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from ui_helpers import wait_for

from tutor import i18n
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.wide import keep_wide_characters

pytestmark = pytest.mark.kernel

SAID = "레슨 파일 1개를 불러올 수 없습니다: 카탈로그 맨 끝에 이유와 함께 나와 있습니다."


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_korean_toast_over_the_catalog_keeps_every_syllable(kernel, make_app) -> None:
    i18n.set_language("ko")
    app = make_app(kernel)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        app.notify(SAID, title="카탈로그", timeout=60)
        await wait_for(pilot, lambda: app.screen.query("Toast"), what="the toast")
        await pilot.pause()
        shown = screen_text(app)
        # the toast lies over the list's edge and the detail pane's: every word is there
        words = [w for w in SAID.split() if w not in shown]
        assert words == [], shown
        # and the widgets beneath are drawn as before, around it
        assert "╰" in shown and app.screen.query_one("#catalog-brand", Static)


def test_the_fix_is_applied_once_and_only_to_the_checked_textual(monkeypatch) -> None:
    import textual
    from textual._compositor import Compositor

    assert keep_wide_characters() is True  # (the app applied it: Textual 8 here)
    patched = Compositor._render_chops
    assert keep_wide_characters() is True and Compositor._render_chops is patched
    monkeypatch.setattr(textual, "__version__", "9.0.0")
    monkeypatch.setattr("tutor.ui.wide._applied", False)
    assert keep_wide_characters() is False  # another version: left as it is
