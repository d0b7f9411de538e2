"""Nothing on screen gives an answer away before the learner commits: not the line
under the entry (its notation examples are picked per question, never the answer),
not the examples in the judge's word on an unreadable answer."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static
from ui_helpers import text_of, wait_for

from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.lesson import LessonScreen


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
        label = text_of(screen, "#entry-label")
        assert "e.g." in label and "0.6" not in label

        await pilot.press("ctrl+r", "n")  # the next question's answer is 3.5
        await wait_for(pilot, lambda: screen.mode == "asking", what="question 2")
        label = text_of(screen, "#entry-label")
        assert label.startswith("a number, or None · e.g.") and "3.5" not in label
        note = await invalid(pilot, screen, "abc")
        assert "3.5" not in note and "did not count" in note
        await pilot.press("ctrl+r", "n")  # dtype: the judge would suggest "int64, long"
        await wait_for(pilot, lambda: screen.mode == "asking", what="question 3")
        note = await invalid(pilot, screen, "floaty")
        assert "int64" not in note and "long" not in note and "dtype" in note
        assert "int64" not in text_of(screen, "#entry-label")
        await pilot.press("ctrl+r", "n")

        await wait_for(pilot, lambda: screen.flow.step_index == 1 and screen.mode == "asking",
                       what="the exception question")
        note = await invalid(pilot, screen, "abc")
        assert "RuntimeError" not in note and "did not count" in note
        label = text_of(screen, "#entry-label")
        assert label.startswith("the exception's name, or: no error") and "Runtime" not in label
        assert app.store.attempts() and all(a.verdict == "revealed"
                                            for a in app.store.attempts())
