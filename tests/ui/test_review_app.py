"""Confidence, the Review entry and the progress view, as a learner meets them in the
app: ctrl+g (or a trailing ?) marks a guess, the catalog's Review entry asks each
question again after its lesson's earlier steps ran silently, and the Progress entry
plots the history."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static
from textual_plotext import PlotextPlot
from ui_helpers import answer, open_first_lesson, text_of, verdict_text, wait_for

from tutor.progress import Attempt, ProgressStore
from tutor.ui.screens.catalog import PROGRESS, REVIEW, CatalogScreen
from tutor.ui.screens.done import LessonDone, ReviewDone
from tutor.ui.screens.lesson import LessonScreen
from tutor.ui.screens.progress import ProgressScreen

pytestmark = pytest.mark.kernel
LONG_AGO = datetime.now(timezone.utc) - timedelta(days=3)


def entry(screen, option: str) -> str:
    listing = screen.query_one("#lessons", OptionList)
    return str(listing.get_option_at_index(listing.get_option_index(option)).prompt)


def missed(home: Path) -> None:
    """Two mistakes three days ago (so both are due now): step 1 question 1 (wrong, with
    a hint) and step 2 question 2 (wrong and a guess); the others right."""
    with ProgressStore(home, clock=lambda: LONG_AGO) as store:
        for a in (Attempt("ui/basics", 0, 0, "6", "incorrect", hints=1, run="r1"),
                  Attempt("ui/basics", 0, 1, "a, b, c", "correct", run="r1"),
                  Attempt("ui/basics", 1, 0, "yes", "correct", run="r1"),
                  Attempt("ui/basics", 1, 1, "integers", "incorrect", run="r1",
                          confidence="guess")):
            assert store.record(a, total_prompts=4, position=(a.step, a.prompt + 1))


async def test_ctrl_g_and_a_trailing_question_mark_mark_a_guess(kernel, make_app,
                                                                tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot)
        assert "your prediction: sure (ctrl+g: a guess, or end with ?)" in \
            text_of(screen, "#entry-label")
        await pilot.press("ctrl+g")
        assert "your prediction: a guess (ctrl+g: sure)" in text_of(screen, "#entry-label")
        await answer(pilot, "6")
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        assert "you said  6  (a guess)" in verdict_text(screen)
        await pilot.press("r")  # retry: sure again unless marked
        assert "your prediction: sure" in text_of(screen, "#entry-label")
        await answer(pilot, "12 ?")
        await wait_for(pilot, lambda: screen.flow.state.outcome == "correct", what="right")
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking" and screen.flow.prompt_index == 1,
                       what="question 2")
        await answer(pilot, "a, b, c")
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        assert "(a guess)" not in verdict_text(screen)
        await pilot.pause(0.3)
    with ProgressStore(tutor_home) as store:
        assert [(a.answer, a.verdict, a.confidence) for a in store.attempts()] == [
            ("6", "incorrect", "guess"), ("12", "correct", "guess"),
            ("a, b, c", "correct", "sure")]
        assert store.calibration().guess_wrong == 1  # the retry is not a first answer


async def test_the_review_entry_asks_each_question_again(kernel, make_app, tutor_home) -> None:
    missed(tutor_home)
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        catalog = app.screen
        assert entry(catalog, REVIEW) == \
            " ↻ Review  2 waiting: 2 due, 0 to redo"
        listing = catalog.query_one("#lessons", OptionList)
        listing.highlighted = listing.get_option_index(REVIEW)
        await pilot.pause()
        assert "tutor play --review" in text_of(catalog, "#detail-intro")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="the first question")
        screen = app.screen
        # the question keeps its number in its lesson (every review question was "Q1.")
        assert "Review 1 of 2 · UI basics  ·  question 1 of 4" in text_of(screen, "#lesson-title")
        assert screen.flow.position == (0, 0) and text_of(screen, "#ask").startswith("Q1. ")
        await answer(pilot, "12")
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        await pilot.press("n")
        # straight on to the next question: no dialog between two questions of a review
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone) or (
            isinstance(app.screen, LessonScreen) and app.screen is not screen),
            what="the next question (or a dialog)")
        assert not isinstance(app.screen, LessonDone)
        # step 2's question 2: step 1 ran silently first (its code is the earlier code)
        await wait_for(pilot, lambda: app.screen.mode == "asking", what="the second question")
        screen = app.screen
        assert "Review 2 of 2 · UI basics  ·  question 4 of 4" in text_of(screen, "#lesson-title")
        assert screen.flow.position == (1, 1)
        assert text_of(screen, "#ask").startswith("Q4. What is")
        assert "y = x * 2" in text_of(screen, "#earlier-code")
        await pilot.press("ctrl+g", "1")  # floats, a guess
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        assert "Correct" in verdict_text(screen)
        await pilot.press("n")  # the last one: how the review went, once
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewDone), what="the end")
        assert "Review done: 2 of 2 questions right" in text_of(app.screen, "#done-text")
        await pilot.press("enter")  # back to the catalog
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.pause(0.3)
        assert entry(app.screen, REVIEW) == " ↻ Review  nothing waiting"
        await pilot.press("r")
        await pilot.pause(0.2)
        assert isinstance(app.screen, CatalogScreen)  # nothing to review: it says so
    with ProgressStore(tutor_home) as store:
        again = store.attempts()[4:]
        assert [(a.step, a.prompt, a.verdict, a.confidence, a.review) for a in again] == [
            (0, 0, "correct", "sure", True), (1, 1, "correct", "guess", True)]
        assert again[0].run != again[1].run and store.mistakes() == []
        kept = store.lesson("ui/basics")  # the lesson's place stays where it was
        assert (kept.step, kept.prompt, kept.run) == (1, 2, "r1")
        cards = {c.key: c for c in store.cards()}
        # right and sure: back in days; right but a guess: back sooner
        assert cards[("ui/basics", 1, 1)].due < cards[("ui/basics", 0, 0)].due


async def test_the_progress_view_plots_the_history(kernel, make_app, tutor_home) -> None:
    missed(tutor_home)
    app = make_app(kernel)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        assert "your answers over time" in entry(app.screen, PROGRESS)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen), what="progress")
        screen = app.screen
        await pilot.pause(0.3)
        summary = text_of(screen, "#progress-summary")
        assert "4 answers on 1 day, 50% right" in summary
        assert "2 mistakes to redo · 2 due for review now" in summary
        calibration = text_of(screen, "#progress-calibration")
        assert "sure and right: 2   sure and wrong: 1" in calibration
        assert "guessed and right: 0   guessed and wrong: 1" in calibration
        plot = screen.query_one("#accuracy-plot", PlotextPlot)
        drawn = str(plot.render())
        day = LONG_AGO.astimezone().strftime("%Y-%m-%d")
        assert "Right first time, per day (%)" in drawn and day in drawn
        bars = str(screen.query_one("#answers-plot", PlotextPlot).render())
        assert "Answers per day" in bars and day in bars
        await pilot.press("escape")
        assert isinstance(app.screen, CatalogScreen)


async def test_the_progress_view_before_any_answer(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        listing = app.screen.query_one("#lessons", OptionList)
        listing.highlighted = listing.get_option_index(PROGRESS)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen), what="progress")
        await pilot.pause(0.3)
        assert "0 answers on 0 days" in text_of(app.screen, "#progress-summary")
        assert "no answers yet" in str(app.screen.query_one("#accuracy-plot",
                                                            PlotextPlot).render())
        assert "No predictions judged yet" in text_of(app.screen, "#progress-calibration")
        assert isinstance(app.screen.query_one("#progress-summary"), Static)
