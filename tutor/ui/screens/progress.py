"""Your progress as pictures: accuracy over time, and answers and reviews per day (plots
drawn by `textual-plotext`), with calibration (how often "sure" and "a guess" were
right) and what is waiting for review.  Reached from the catalog (`p`, or its Progress
entry); the same figures in plain text: `tutor progress --history`.

What counts is a run's first answer to a question (`tutor.progress.answers`, the one
definition of "an answer" that `tutor progress` uses too; see docs/review.md); days are
the learner's local days.  The day axis is drawn from day numbers with the dates as
tick labels (plotext's own date axis spreads one day over a century).
"""

from __future__ import annotations

from datetime import date

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static
from textual_plotext import PlotextPlot

from tutor.i18n import N_, _, ngettext
from tutor.progress import Calibration, Day
from tutor.progress.answers import AnswerCount, count_answers
from tutor.ui.screens.base import TutorScreen
from tutor.ui.widgets.kernel_status import KernelStatus

TICKS = 5  # dates labelled on a day axis, at most


def day_axis(days: list[date]) -> tuple[tuple[float, float], list[float], list[str]]:
    """For a plot over `days` (oldest first, at least one): the x range, and where the
    date labels go (at most TICKS of the days, the first and the last among them).
    Days are numbered (`date.toordinal`), so gaps between days show as gaps; a single
    day sits in the middle of a three-day range."""
    xs = [d.toordinal() for d in days]
    low, high = xs[0] - 1, xs[-1] + 1
    if len(xs) <= TICKS:
        picked = list(range(len(xs)))
    else:
        picked = sorted({round(i * (len(xs) - 1) / (TICKS - 1)) for i in range(TICKS)})
    return (low, high), [float(xs[i]) for i in picked], [days[i].isoformat() for i in picked]


def summary_text(count: AnswerCount, days: int, mistakes: int, due: int,
                 scheduled: int) -> str:
    """The progress view's first line."""
    return (_("{answers} on {days}").format(
                answers=ngettext("{n} answer", "{n} answers", count.answers).format(
                    n=count.answers),
                days=ngettext("{n} day", "{n} days", days).format(n=days))
            + (_(", {rate} right").format(rate=f"{count.right / count.answers:.0%}")
               if count.answers else "")
            + " · " + ngettext("{n} mistake to redo", "{n} mistakes to redo",
                               mistakes).format(n=mistakes)
            + " · " + _("{n} due for review now").format(n=due)
            + " · " + ngettext("{n} question on the review schedule",
                               "{n} questions on the review schedule",
                               scheduled).format(n=scheduled))


def calibration_text(c: Calibration) -> str:
    """`sure and right: 12, sure and wrong: 7, …` with how often each was right."""
    if not c.total:
        return _("No predictions judged yet: answer a few questions (ctrl+g marks a guess).")
    return (_("sure and right: {sr}   sure and wrong: {sw}\n"
              "guessed and right: {gr}   guessed and wrong: {gw}\n").format(
                  sr=c.sure_right, sw=c.sure_wrong, gr=c.guess_right, gw=c.guess_wrong)
            + c.rates())


class ProgressScreen(TutorScreen[None]):
    """Plots of the learner's history; esc goes back."""

    BINDINGS = [
        Binding("escape,q", "back", N_("Back")),
        Binding("r", "review", N_("Review")),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal(classes="topbar"):
            yield Static("tutor · " + _("your progress"), classes="brand")
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
        count = count_answers(store.attempts())
        calibration = store.calibration()
        self.app.tell_store_news()
        summary = summary_text(count, len(days), len(store.mistakes()), store.due_count(),
                               len(store.cards()))
        what = (_("An answer is your first answer to a question in a sitting")
                + (_(": here {parts}").format(parts=count.parts()) if count.parts() else "")
                + ".")
        self.query_one("#progress-summary", Static).update(Content.assemble(
            (summary, "bold"), (f"\n{what}\n" + _("r: review now · esc: back"), "$text-muted")))
        self.query_one("#progress-calibration", Static).update(Content.assemble(
            (ngettext("How sure you were ({n} prediction: your answers less reveals; partly "
                      "right counts as wrong)",
                      "How sure you were ({n} predictions: your answers less reveals; partly "
                      "right counts as wrong)", count.predictions).format(
                          n=count.predictions) + "\n", "bold"),
            calibration_text(calibration)))
        self.draw(days)

    def draw(self, days: list[Day]) -> None:
        accuracy = self.query_one("#accuracy-plot", PlotextPlot)
        counts = self.query_one("#answers-plot", PlotextPlot)
        for widget in (accuracy, counts):
            widget.plt.clear_data()
            widget.plt.clear_figure()
        plt = accuracy.plt
        plt.title(_("Right first time, per day (%)"))
        plt.ylim(0, 100)
        if days:
            (low, high), ticks, labels = day_axis([d.day for d in days])
            xs = [d.day.toordinal() for d in days]
            rates = [100 * d.right / d.answers for d in days]
            plt.plot(xs, rates, marker="dot" if len(days) > 1 else "o")
            plt.xlim(low, high)
            plt.xticks(ticks, labels)
        else:
            plt.title(_("Right first time, per day (%): no answers yet"))
        plt = counts.plt
        # the legend is the title: plotext draws its own over the first bar, and a
        # colour's name would not match every theme's colours
        plt.title(_("Answers per day (left bar), of them reviews (right bar)"))
        if days:
            top = max(d.answers for d in days)
            step = max(1, -(-top // 5))  # whole numbers of answers on the axis
            plt.yticks(list(range(0, top + step, step)))
            plt.multiple_bar([d.day.isoformat() for d in days],
                             [[d.answers for d in days], [d.reviews for d in days]])
        else:
            plt.title(_("Answers and reviews per day: no answers yet"))
        accuracy.refresh()
        counts.refresh()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_review(self) -> None:
        self.app.action_review()
