"""The app in Korean (issue 25): every screen through the translation layer, the
language switch (command palette) remembered in ui.json, and answers judged as in
English.  run_test + Pilot on the fixture lessons."""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList, Static
from ui_helpers import wait_for

from tutor import i18n
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel


def rendered(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def footer_words(screen) -> set[str]:
    return {b.description for _key, b in screen._bindings if b.show}


async def test_the_app_in_korean_from_catalog_to_the_end_of_a_lesson(kernel, make_app) -> None:
    i18n.set_language("ko")
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        screen = app.screen
        assert "PyTorch 내부: 예측 후 실행" in rendered(screen, "#catalog-brand")
        listing = screen.query_one("#lessons", OptionList)
        assert str(listing.get_option_at_index(0).prompt) == " ↻ 복습  대기 중인 문제 없음"
        assert "시작: UI basics" in rendered(screen, "#continue-line")
        assert {"이어서 하기", "처음부터", "복습", "진행 상황", "종료"} <= footer_words(screen)
        await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")
        assert "커널: 준비됨" in str(screen.query_one(".kernel", Static).render())
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        app.screen.query_one("#lessons", OptionList).highlighted = 3
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        lesson = app.screen
        await wait_for(pilot, lambda: lesson.mode == "asking", what="step")
        assert "1/2단계" in str(lesson.query_one("#step-label", Static).render())
        assert {"힌트", "정답", "카탈로그"} <= footer_words(lesson)
        await pilot.press(*"6", "enter")  # wrong: the judge says so in Korean
        assert lesson.flow.state.outcome == "incorrect"
        said = lesson.verdict.text
        assert "✗ 오답 — 입력한 답은 6, 실제 값은 12.0입니다." in said, said
        assert "내 답" in said and "이유: 2 + 4 + 6 = 12." in said
        await pilot.press("n")
        await wait_for(pilot, lambda: lesson.mode == "asking", what="Q2")
        await pilot.press(*"a, b, c", "enter")
        assert lesson.flow.state.outcome == "correct"
        assert "✓ 정답 — 3개 항목 모두, 순서까지 맞습니다." in lesson.verdict.text
        for key in ("n",):
            await pilot.press(key)
        await wait_for(pilot, lambda: lesson.mode == "asking" and lesson.flow.step_index == 1,
                       what="step 2")
        await pilot.press("y")  # 예: they share memory
        assert lesson.flow.state.outcome == "correct"
        assert "메모리를 공유합니다" in lesson.verdict.text
        await pilot.press("n")
        await wait_for(pilot, lambda: lesson.mode == "asking", what="Q4")
        await pilot.press("ctrl+r", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        done = rendered(app.screen, "#done-text")
        assert "레슨 완료: UI basics" in done and "4문제 중 2문제 정답" in done, done


async def test_the_language_switch_applies_now_and_is_remembered(kernel, make_app,
                                                                 tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        screen = app.screen
        assert "predict, then run" in rendered(screen, "#catalog-brand")
        commands = [c.title for c in app.get_system_commands(screen)]
        assert "Language: 한국어" in commands
        next(c for c in app.get_system_commands(screen) if c.title == "Language: 한국어"
             ).callback()
        await pilot.pause()
        assert i18n.language() == "ko"
        assert "PyTorch 내부: 예측 후 실행" in rendered(screen, "#catalog-brand")  # at once
        assert "이어서 하기" in footer_words(screen) and "도움말" in {
            b.description for _k, b in app._bindings}
        # remembered beside the progress database, where `tutor` reads it at start
        assert json.loads((tutor_home / "ui.json").read_text())["lang"] == "ko"
        assert i18n.saved_language(tutor_home) == "ko"
        assert "언어 (Language): English" in [c.title for c in app.get_system_commands(screen)]
        app.set_language("en")
        await pilot.pause()
        assert "predict, then run" in rendered(screen, "#catalog-brand")
        assert "Continue" in footer_words(screen)
    assert i18n.saved_language(tutor_home) == "en"


async def test_the_switch_reloads_the_lessons_in_their_translations(kernel, tutor_home) -> None:
    from tutor.progress import ProgressStore
    from tutor.ui.app import TutorApp

    app = TutorApp(kernel=kernel, store=ProgressStore(tutor_home))  # its own catalog
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.catalog is not None, what="lessons", timeout=60)
        assert app.catalog.get("samples/memory").title == "Who owns this memory?"
        app.set_language("ko")
        await wait_for(pilot, lambda: app.catalog.get("samples/memory").lang == "ko",
                       what="lessons again", timeout=60)
        assert app.catalog.get("samples/memory").title == "이 메모리는 누구의 것인가?"


async def test_the_switch_redraws_the_kernel_line_and_the_palette_key(kernel, make_app) -> None:
    """The kernel's line changes with the kernel only, and ctrl+p is Textual's binding (no
    class of the app declares it): both said the old language after a switch, until the
    kernel's state changed ('● 커널: 준비됨' in the English app; '^p 팔레트')."""
    app = make_app(kernel)

    def palette() -> str:
        return next(b.description for _k, b in app._bindings if b.key == "ctrl+p")

    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")
        screen = app.screen
        assert "kernel: ready" in rendered(screen, ".kernel") and palette() == "palette"
        korean, english = ("ko", "커널: 준비됨", "팔레트"), ("en", "kernel: ready", "palette")
        for lang, ready, word in (korean, english, korean):
            app.set_language(lang)
            await pilot.pause()
            assert ready in rendered(screen, ".kernel"), (lang, rendered(screen, ".kernel"))
            assert palette() == word, (lang, palette())


def test_textual_s_own_screenshot_notices_are_said_in_korean() -> None:
    # K4 (issue 25): the palette's Screenshot command notified in English
    from tutor.ui.text import textual_notice

    i18n.set_language("ko")
    try:
        saved = textual_notice("Saved screenshot to [$text-success]'/tmp/a.svg'", "Screenshot")
        assert saved == ("스크린샷을 저장했습니다: [$text-success]'/tmp/a.svg'", "스크린샷")
        assert textual_notice("Failed to save screenshot", "Screenshot") == (
            "스크린샷을 저장하지 못했습니다", "스크린샷")
        assert textual_notice("Saved screenshot", "Kernel") == ("Saved screenshot", "Kernel")
    finally:
        i18n.set_language("en")
