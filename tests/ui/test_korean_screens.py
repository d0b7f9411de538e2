"""The app in Korean at 80x24, beyond the catalog and a question (issue 25): the brand
line fits, Textual's own words (the palette's "No matches found", the keys the key panel
lists for Textual's widgets) and `tutor dev`'s screen speak Korean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from editor_save import save
from test_korean_snapshots import app, memory_question  # noqa: F401 (the fixture)
from test_snapshots import ready_catalog
from textual.widgets import Static
from ui_helpers import wait_for

from tutor import i18n
from tutor.progress import ProgressStore

SAMPLES = Path(__file__).resolve().parents[2] / "lessons" / "samples"

pytestmark = pytest.mark.kernel
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def english_keys(screen) -> set[str]:
    """The descriptions of the keys a screen lists (footer and key panel) with no Hangul."""
    return {b.description for _n, b, _on, _tip in screen.active_bindings.values()
            if b.description and not HANGUL.search(b.description)}


async def test_brand_palette_and_textual_keys_in_korean_at_80x24(app) -> None:  # noqa: F811
    """The brand was cut at 80 columns ("…예측하고, 실…"); the palette said "No matches
    found"; the key panel listed Textual's widgets' keys (Up, Select, Focus Next...) in
    English."""
    from textual.command import CommandList, CommandPalette

    async with app.run_test(size=(80, 24)) as pilot:
        await ready_catalog(pilot)
        brand = app.screen.query_one("#catalog-brand", Static)
        shown = brand.render()
        assert shown.plain == "tutor · PyTorch 내부: 예측 후 실행"
        assert shown.cell_length <= brand.content_size.width, brand.content_size
        assert english_keys(app.screen) == set()  # OptionList's up/down/enter, tab...
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="palette")
        await pilot.press(*"zzqqx")
        found = app.screen.query_one(CommandList)
        await wait_for(pilot, lambda: found.option_count == 1
                       and found.get_option_at_index(0).id == "--no-matches", what="no match")
        assert "일치하는 항목 없음" in str(found.get_option_at_index(0).prompt.renderable)
        assert english_keys(app.screen) == set()
        await pilot.press("escape")
        await memory_question(pilot)  # the answer box: Input's and the buttons' keys
        assert english_keys(app.screen) == set()


LESSON = """\
id: dev/ko
title: Preview
topic: t
steps:
  - code: x = 2
    predict:
      - ask: x?
        kind: number
        expect: x
        answer: "2"
        hint: h
        explain: e
"""


async def test_tutor_dev_speaks_korean(kernel, tmp_path: Path) -> None:
    """`tutor dev`'s own lines (a file that does not load, what a reload did) were English."""
    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    i18n.set_language("ko")  # (the conftest's `english` speaks English again after)
    path = tmp_path / "preview.yaml"
    path.write_text("id: dev/ko\ntitle: [unclosed\n", encoding="utf-8")
    dev = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with dev.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(dev.screen, LoadErrorScreen), what="error")
        head = str(dev.screen.query_one(".label", Static).render())
        assert "불러올 수 없습니다. 고쳐서 저장하면 미리보기를 다시 불러옵니다" in head, head
        save(path, LESSON)
        await wait_for(pilot, lambda: isinstance(dev.screen, LessonScreen), what="lesson")
        notice = str(dev.screen.query_one("#reload-notice", Static).render())
        assert "preview.yaml을(를) 다시 불러옴 (1번째): 1단계를 새 세션에서 다시 실행했고, " \
               "1단계 1번 문제부터 이어 갑니다" in notice, notice



def memory_app(kernel, tutor_home):
    """The app on the samples, and samples/memory opened (with full validation)."""
    from tutor.lesson import load_catalog
    from tutor.ui.app import TutorApp

    catalog = load_catalog([SAMPLES], with_env=False, with_bundled=False)
    tutor = TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(tutor_home))
    lesson = catalog.opened("samples/memory")
    assert lesson is not None
    return tutor, lesson


async def open_memory_at(pilot, tutor, lesson, kernel, start: tuple[int, int]) -> None:
    """samples/memory's lesson screen at `start` (step, question), asking."""
    from tutor.ui.screens.lesson import LessonScreen

    await ready_catalog(pilot)
    await tutor.push_screen(LessonScreen(lesson, kernel, start=start))
    await wait_for(pilot, lambda: isinstance(tutor.screen, LessonScreen)
                   and tutor.screen.mode == "asking", what=f"the question at {start}")

@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_lesson_footer_fits_80_columns(kernel, tutor_home, lang: str) -> None:
    """On a question of a later step (the most keys: guess, catalog, hint, reveal,
    earlier code, help, palette) the footer scrolled sideways at 80 columns, cutting its
    last keys: by 23 cells in Korean ("추측으로 표시", "앞 단계 코드", "정답 보기"),
    by 21 in English ("Mark as guess", "Earlier code", and ctrl+s "Submit", which the
    printed-output box's own line already names)."""
    from textual.widgets import Footer


    i18n.set_language(lang)  # (the conftest's `english` speaks English again after)
    tutor, lesson = memory_app(kernel, tutor_home)
    async with tutor.run_test(size=(80, 24)) as pilot:
        await open_memory_at(pilot, tutor, lesson, kernel, (1, 0))
        await pilot.pause()
        shown = [b.key for _n, b, on, _t in tutor.screen.active_bindings.values()
                 if b.show and on]
        assert "f2" in shown and "ctrl+r" in shown, shown
        footer = tutor.screen.query_one(Footer)
        await wait_for(pilot, lambda: footer.virtual_size.width > 0, what="the footer")
        assert footer.max_scroll_x == 0, (footer.virtual_size, shown)


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_verdict_footer_fits_80_columns(kernel, tutor_home, lang: str) -> None:
    """After a wrong answer to a later step's last question the footer has its most keys
    (catalog, retry, next, REPL, picture, earlier code, help, palette): at 80 columns it
    scrolled sideways, cutting 'f1 도움말' to 'f1' in Korean and 'f1 Help' to 'f1 He'."""
    from textual.widgets import Footer


    i18n.set_language(lang)
    tutor, lesson = memory_app(kernel, tutor_home)
    async with tutor.run_test(size=(80, 24)) as pilot:
        await open_memory_at(pilot, tutor, lesson, kernel, (1, 1))
        await pilot.press(*"[0.]", "enter")
        await wait_for(pilot, lambda: tutor.screen.mode == "judged", what="the verdict")
        await pilot.pause()
        screen = tutor.screen
        shown = [b.key for _n, b, on, _t in screen.active_bindings.values() if b.show and on]
        assert {"r", "ctrl+o", "p", "f1"} <= set(shown), shown
        assert "f2" not in shown  # left to the help: it still folds the earlier code
        footer = screen.query_one(Footer)
        await wait_for(pilot, lambda: footer.virtual_size.width > 0, what="the footer")
        assert footer.max_scroll_x == 0, (footer.virtual_size, shown)
        earlier = screen.query_one("#earlier")
        folded = earlier.collapsed
        await pilot.press("f2")
        assert earlier.collapsed is not folded
