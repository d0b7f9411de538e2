"""Your progress as pictures: accuracy over time, and answers and reviews per day (plots
drawn by `textual-plotext`), with calibration (how often "sure" and "a guess" were
right) and what is waiting for review.  Reached from the catalog (`p`, or its Progress
entry); the same figures in plain text: `tutor progress --history`.

What counts is a run's first answer to a question (see docs/review.md); days are
the learner's local days.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static
from textual_plotext import PlotextPlot

from tutor.markup import plural
from tutor.progress import Calibration, Day
from tutor.ui.screens.base import TutorScreen
from tutor.ui.widgets.kernel_status import KernelStatus

DATE_FORM = "Y-m-d"  # plotext's spelling of %Y-%m-%d


def calibration_text(c: Calibration) -> str:
    """`sure and right: 12, sure and wrong: 7, …` with how often each was right."""
    if not c.total:
        return "No predictions judged yet: answer a few questions (ctrl+g marks a guess)."
    return (f"sure and right: {c.sure_right}   sure and wrong: {c.sure_wrong}\n"
            f"guessed and right: {c.guess_right}   guessed and wrong: {c.guess_wrong}\n"
            + c.rates())


class ProgressScreen(TutorScreen[None]):
    """Plots of the learner's history; esc goes back."""

    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("r", "review", "Review"),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static("tutor · your progress", classes="brand")
            yield KernelStatus(classes="kernel")
        with VerticalScroll(id="progress-body"):
            yield Static(id="progress-summary")
            yield PlotextPlot(id="accuracy-plot", classes="plot")
            yield PlotextPlot(id="answers-plot", classes="plot")
            yield Static(id="progress-calibration")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_progress()

    def on_screen_resume(self) -> None:
        self.refresh_progress()  # (back from a review)

    def refresh_progress(self) -> None:
        store = self.app.store
        days = store.history()
        calibration = store.calibration()
        mistakes = len(store.mistakes())
        due = store.due_count()
        scheduled = len(store.cards())
        answers = sum(d.answers for d in days)
        right = sum(d.right for d in days)
        summary = (f"{plural(answers, 'first answer')} on {plural(len(days), 'day')}"
                   + (f", {right / answers:.0%} right" if answers else "")
                   + f" · {plural(mistakes, 'mistake')} to redo · {due} due for review now"
                   f" · {plural(scheduled, 'question')} on the review schedule")
        self.query_one("#progress-summary", Static).update(Content.assemble(
            (summary, "bold"), ("\nr: review now · esc: back", "$text-muted")))
        self.query_one("#progress-calibration", Static).update(Content.assemble(
            ("How sure you were (first answers; partly right counts as wrong)\n", "bold"),
            calibration_text(calibration)))
        self.draw(days)

    def draw(self, days: list[Day]) -> None:
        accuracy = self.query_one("#accuracy-plot", PlotextPlot)
        counts = self.query_one("#answers-plot", PlotextPlot)
        for widget in (accuracy, counts):
            widget.plt.clear_data()
            widget.plt.clear_figure()
            widget.plt.date_form(DATE_FORM)
        dates = [d.day.strftime("%Y-%m-%d") for d in days]
        plt = accuracy.plt
        plt.title("Right first time, per day (%)")
        plt.ylim(0, 100)
        if days:
            rates = [100 * d.right / d.answers for d in days]
            plt.plot(dates, rates, marker="dot" if len(days) > 1 else "o")
        else:
            plt.title("Right first time, per day (%): no answers yet")
        plt = counts.plt
        plt.title("Answers and reviews per day")
        if days:
            top = max(d.answers for d in days)
            step = max(1, -(-top // 5))  # whole numbers of answers on the axis
            plt.yticks(list(range(0, top + step, step)))
            plt.multiple_bar(dates, [[d.answers for d in days], [d.reviews for d in days]],
                             labels=["answers", "of them reviews"])  # type: ignore[call-arg]
        else:
            plt.title("Answers and reviews per day: no answers yet")
        accuracy.refresh()
        counts.refresh()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_review(self) -> None:
        self.app.action_review()
