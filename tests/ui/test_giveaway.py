"""Nothing on screen gives an answer away before the learner commits: not the notation
examples under the entry, not the examples in the judge's word on an unreadable answer."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input, Static
from ui_helpers import wait_for

from tutor.lesson import load_catalog
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.widgets.answer import EXAMPLES, PLACEHOLDERS


def test_examples_are_no_bundled_lessons_answer() -> None:
    catalog = load_catalog([], with_env=False, with_bundled=True)
    assert catalog.lessons
    for lesson in catalog.lessons:
        for prompt in (p for step in lesson.steps for p in step.prompts):
            answer = str(prompt.answer or "").strip().casefold()
            for text in (EXAMPLES.get(prompt.kind, ""), PLACEHOLDERS.get(prompt.kind, "")):
                shown = {w.casefold() for w in re.split(r"[\s,]+|\be\.g\.", text) if w}
                assert answer not in shown, (lesson.id, prompt.kind, text)


async def open_giveaway(pilot) -> LessonScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                   and app.screen.mode == "asking", what="the question")
    return app.screen


async def invalid(pilot, screen: LessonScreen, text: str) -> str:
    screen.query_one("#text-entry", Input).value = ""
    await pilot.press(*text, "enter")
    await pilot.pause()
    assert screen.mode == "asking"
    return str(screen.query_one("#note-line", Static).render())


@pytest.mark.kernel
async def test_invalid_answers_and_examples_do_not_give_the_answer_away(kernel,
                                                                        make_app) -> None:
    app = make_app(kernel, "giveaway")
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_giveaway(pilot)
        # the judge's number examples include 0.6, the answer here: a plain message instead
        note = await invalid(pilot, screen, "abc")
        assert "did not count" in note and "0.6" not in note
        assert "3.5" in note  # the app's own examples are safe for this question
        assert screen.query_one("#preview", Static).display

        await pilot.press("ctrl+r", "n")  # the next question's answer is 3.5
        await wait_for(pilot, lambda: screen.mode == "asking", what="question 2")
        assert not screen.query_one("#preview", Static).display  # "e.g. 3.5, …" hidden
        note = await invalid(pilot, screen, "abc")
        assert "3.5" not in note and "did not count" in note
        await pilot.press("ctrl+r", "n")  # dtype: the judge would suggest "int64, long"
        await wait_for(pilot, lambda: screen.mode == "asking", what="question 3")
        note = await invalid(pilot, screen, "floaty")
        assert "int64" not in note and "long" not in note and "dtype" in note
        await pilot.press("ctrl+r", "n")

        await wait_for(pilot, lambda: screen.flow.step_index == 1 and screen.mode == "asking",
                       what="the exception question")
        note = await invalid(pilot, screen, "abc")
        assert "RuntimeError" not in note and "did not count" in note
        assert app.store.attempts() and all(a.verdict == "revealed"
                                            for a in app.store.attempts())
