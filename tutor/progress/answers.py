"""What "an answer" is, wherever a count of them is shown (the app's progress view,
`tutor progress`): a run's **first** answer to a question, judged (right, partly
right, wrong) or revealed.  A later try in the same run comes after the live value
was on screen: it is stored, and counted here as a retry, never as an answer.
Predictions are the answers that were not reveals: calibration counts those, so its
four figures add up to `predictions`.

Pure, over the stored attempts (oldest first); a separate query so that every front
end counts the same way (see docs/review.md, "What counts").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tutor.i18n import _, ngettext
from tutor.progress.records import Attempt
from tutor.progress.review import first_answers


@dataclass(frozen=True)
class AnswerCount:
    answers: int = 0  # first answers: right + partly right + wrong + revealed
    right: int = 0
    revealed: int = 0
    retries: int = 0  # later tries in the same run (stored; not answers)

    @property
    def predictions(self) -> int:
        """Answers that were predictions (not reveals): what calibration counts."""
        return self.answers - self.revealed

    def text(self) -> str:
        """`31 answers, 26 right (84%)`."""
        said = ngettext("{n} answer", "{n} answers", self.answers).format(n=self.answers)
        if not self.answers:
            return said
        return said + ", " + _("{right} right ({rate})").format(
            right=self.right, rate=f"{self.right / self.answers:.0%}")

    def stored(self) -> str:
        """`3 answers` or `3 answers and 1 retry`: every stored row, said as what it is."""
        said = ngettext("{n} answer", "{n} answers", self.answers).format(n=self.answers)
        if self.retries:
            said = _("{answers} and {retries}").format(answers=said, retries=ngettext(
                "{n} retry", "{n} retries", self.retries).format(n=self.retries))
        return said

    def parts(self) -> str:
        """`30 predictions and 1 reveal; 1 retry not counted` (what an answer count is made
        of), or "" when there is nothing to say."""
        if not self.answers and not self.retries:
            return ""
        said = _("{predictions} and {reveals}").format(
            predictions=ngettext("{n} prediction", "{n} predictions",
                                 self.predictions).format(n=self.predictions),
            reveals=ngettext("{n} reveal", "{n} reveals", self.revealed).format(n=self.revealed))
        if self.retries:
            said += "; " + ngettext("{n} retry after a verdict not counted",
                                    "{n} retries after a verdict not counted",
                                    self.retries).format(n=self.retries)
        return said


def count_answers(attempts: Iterable[Attempt]) -> AnswerCount:
    everything = list(attempts)
    first = first_answers(everything)
    return AnswerCount(answers=len(first),
                       right=sum(a.verdict == "correct" for a in first),
                       revealed=sum(a.verdict == "revealed" for a in first),
                       retries=len(everything) - len(first))
