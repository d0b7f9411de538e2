"""The progress view as a learner reads it (learner report, issue 28): a day axis that
spans the days answered (not a century around one day), a bar plot whose legend covers
no bar, and one count of answers wherever a count is shown (the view's summary, its
calibration, `tutor progress`)."""

from __future__ import annotations

import argparse
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from textual_plotext import PlotextPlot
from ui_helpers import text_of, wait_for

from tutor.commands import progress as progress_command
from tutor.progress import Attempt, ProgressStore
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.progress import ProgressScreen, day_axis

pytestmark = pytest.mark.kernel
WHEN = datetime.now(timezone.utc) - timedelta(days=2)
DATE = re.compile(r"\b(\d{4})-\d\d-\d\d\b")


def one_day(home: Path) -> None:
    """One sitting on one day: 4 questions; question 1 wrong then right on a retry
    (a retry is not an answer), question 2 revealed, questions 3 and 4 right, 4 a guess."""
    with ProgressStore(home, clock=lambda: WHEN) as store:
        for a in (Attempt("ui/basics", 0, 0, "6", "incorrect", run="r1"),
                  Attempt("ui/basics", 0, 0, "12", "correct", run="r1"),
                  Attempt("ui/basics", 0, 1, "", "revealed", run="r1"),
                  Attempt("ui/basics", 1, 0, "yes", "correct", run="r1"),
                  Attempt("ui/basics", 1, 1, "floats", "correct", run="r1",
                          confidence="guess")):
            assert store.record(a, total_prompts=4, position=(a.step, a.prompt + 1))


async def open_progress(pilot):
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen), what="progress")
    await pilot.pause(0.3)
    return app.screen


def plot_lines(screen, selector: str) -> list[str]:
    return str(screen.query_one(selector, PlotextPlot).render()).splitlines()


async def test_one_day_of_answers_is_drawn_on_that_day(kernel, make_app, tutor_home) -> None:
    one_day(tutor_home)
    app = make_app(kernel)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_progress(pilot)
        day = WHEN.astimezone().strftime("%Y-%m-%d")
        for selector in ("#accuracy-plot", "#answers-plot"):
            drawn = "\n".join(plot_lines(screen, selector))
            assert set(DATE.findall(drawn)) == {day[:4]}, (selector, drawn)
            assert day in drawn


def test_the_day_axis_labels_days_answered_and_keeps_gaps() -> None:
    d = datetime(2026, 3, 1).date()
    (low, high), ticks, labels = day_axis([d])
    assert (low, high) == (d.toordinal() - 1, d.toordinal() + 1)
    assert ticks == [d.toordinal()] and labels == ["2026-03-01"]
    days = [d + timedelta(days=n) for n in (0, 1, 5, 6, 7, 9, 20)]
    (low, high), ticks, labels = day_axis(days)
    assert (low, high) == (days[0].toordinal() - 1, days[-1].toordinal() + 1)
    assert len(ticks) == 5 and labels[0] == "2026-03-01" and labels[-1] == "2026-03-21"
    assert ticks == sorted(ticks) and set(labels) <= {x.isoformat() for x in days}


async def test_the_bar_plot_legend_covers_no_bar(kernel, make_app, tutor_home) -> None:
    one_day(tutor_home)
    app = make_app(kernel)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_progress(pilot)
        lines = plot_lines(screen, "#answers-plot")
        top = next(i for i, line in enumerate(lines) if "┌" in line)
        bottom = next(i for i, line in enumerate(lines) if "└" in line)
        inside = [line.split("┤")[-1].split("│")[-2 if line.count("│") > 1 else -1]
                  for line in lines[top + 1:bottom]]
        assert not any(re.search(r"[a-z]", part) for part in inside), "\n".join(lines)
        assert "of them reviews" in lines[0]  # the legend is the title


async def test_every_count_of_answers_is_the_same(kernel, make_app, tutor_home,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """4 answers (first answers: the retry is not one), 3 predictions (the reveal is
    not one): the view's summary, its calibration and `tutor progress` agree."""
    one_day(tutor_home)
    app = make_app(kernel)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_progress(pilot)
        summary = text_of(screen, "#progress-summary")
        calibration = text_of(screen, "#progress-calibration")
    assert "4 answers on 1 day, 50% right" in summary
    assert "first answer to a question in a sitting" in summary
    assert "3 predictions and 1 reveal; 1 retry after a verdict not counted" in summary
    assert "How sure you were (3 predictions" in calibration
    figures = [int(n) for n in re.findall(r"(?:right|wrong): (\d+)", calibration)]
    assert sum(figures) == 3
    assert progress_command.run(argparse.Namespace(path=[], json=False, history=False)) == 0
    out = capsys.readouterr().out
    assert "; 4 answers, 2 right (50%)" in out
    assert "3 predictions and 1 reveal; 1 retry after a verdict not counted" in out
    row = next(line for line in out.splitlines() if " ui/basics " in line)
    assert "4 answers" in row  # per lesson, the same answers
