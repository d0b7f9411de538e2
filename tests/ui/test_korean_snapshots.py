"""Snapshots of the app in Korean at 80x24 (issue 25): the catalog (a translated pack
with its count of translated lessons, an untranslated one), a question of the Korean
sample lesson samples/memory, and a verdict with its feedback and explanation.  Hangul
takes two cells: these show that nothing is cut or overlaps at 80 columns.  Update with
`pytest --snapshot-update`, and look at the SVGs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_snapshots import ready_catalog, settle
from textual.widgets import OptionList
from ui_helpers import UI_DATA, wait_for

from tutor import i18n
from tutor.lesson import load_catalog
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel
SAMPLES = Path(__file__).resolve().parents[2] / "lessons" / "samples"


@pytest.fixture
def app(kernel, tutor_home, monkeypatch: pytest.MonkeyPatch) -> TutorApp:
    monkeypatch.setitem(kernel.info, "torch", "X.Y.Z")
    i18n.set_language("ko")  # (the conftest's `english` speaks English again after)
    catalog = load_catalog([UI_DATA / "lessons", SAMPLES], with_env=False,
                           with_bundled=False)
    assert catalog.get("samples/memory").lang == "ko"
    return TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(tutor_home))


async def memory_highlighted(pilot) -> None:
    await ready_catalog(pilot)
    listing = pilot.app.screen.query_one("#lessons", OptionList)
    listing.highlighted = listing.get_option_index("samples/memory")
    await settle(pilot)


async def memory_question(pilot) -> None:
    await memory_highlighted(pilot)
    await pilot.press("enter")
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                   and app.screen.mode == "asking", what="the question")
    await settle(pilot)


async def memory_verdict(pilot) -> None:
    await memory_question(pilot)
    await pilot.press("y")  # they do not share: a clone; the feedback for "yes" shows
    await wait_for(pilot, lambda: pilot.app.screen.mode == "judged", what="verdict")
    await settle(pilot)


def test_korean_catalog_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=memory_highlighted)


def test_korean_question_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=memory_question)


def test_korean_verdict_80x24(snap_compare, app) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=memory_verdict)


async def test_every_key_in_the_footer_is_in_korean(app) -> None:
    """The keys of the answer box (a widget, not a screen: ctrl+g) and Textual's own
    palette key were shown in English."""
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_question(pilot)
        shown = {b.description for _node, b, _on, _tip in app.screen.active_bindings.values()
                 if b.show}
        assert {"추측", "힌트", "정답", "카탈로그"} <= shown, shown
        assert "Guess" not in shown
        palette = app.screen.active_bindings[app.COMMAND_PALETTE_BINDING].binding
        assert palette.description == "팔레트"  # (the footer shows it on the right)


async def test_the_command_palette_speaks_korean(app) -> None:
    """Textual's own palette words (placeholder, system commands) were English."""
    from textual.command import CommandInput, CommandPalette

    async with app.run_test(size=(80, 24)) as pilot:
        await ready_catalog(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"테마", "종료", "키", "스크린샷"} <= titles, titles
        assert not {"Theme", "Quit", "Keys", "Screenshot"} & titles
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="palette")
        assert app.screen.query_one(CommandInput).placeholder == "명령 검색…"


async def test_the_catalog_says_per_pack_how_many_lessons_are_in_korean(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_highlighted(pilot)
        listing = app.screen.query_one("#lessons", OptionList)
        headings = [str(listing.get_option_at_index(i).prompt)
                    for i in range(listing.option_count)
                    if (listing.get_option_at_index(i).id or "").startswith("pack:")]
        assert headings == ["번역 0/2 · UI fixtures (영어)",  # no pack.ko.yaml: marked
                            "번역 3/3 · 샘플  · 코스에 포함되지 않음"], headings
        detail = str(app.screen.query_one("#detail-head").render())
        assert "팩: 샘플 (코스에 포함되지 않음)" in " ".join(detail.split()), detail
        listing.highlighted = listing.get_option_index("ui/basics")
        await pilot.pause()
        detail = " ".join(str(app.screen.query_one("#detail-head").render()).split())
        assert "팩: UI fixtures (영어)" in detail and "(영어: 아직 번역되지 않음)" in detail


async def test_the_title_bar_cuts_a_long_title_not_the_question_count(app) -> None:
    """At 80x24 the title bar beside the kernel status has about 42 cells: a lesson title
    in Korean (two cells a syllable), or one marked as not translated, pushed the
    question count out of it ("7문제 중 …")."""
    async with app.run_test(size=(80, 24)) as pilot:
        await ready_catalog(pilot)
        listing = app.screen.query_one("#lessons", OptionList)
        listing.highlighted = listing.get_option_index("ui/basics")  # shown in English
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="the question")
        await pilot.pause(0.2)
        bar = app.screen.query_one("#lesson-title")
        shown = bar.render()
        assert shown.plain.endswith("  ·  문제 1/4"), shown.plain
        assert shown.cell_length <= bar.content_size.width, (shown.plain,
                                                             bar.content_size.width)
        assert shown.plain.startswith("UI basics (영어")  # cut, with an ellipsis
        assert "…" in shown.plain
