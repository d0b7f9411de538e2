"""What the learner's history says: mistakes to redo, calibration, accuracy over time.

Pure functions over the stored attempts (oldest first).  What counts is a run's
*first* answer to a prompt: a later try in the same run comes after the learner has
seen the live value, so it proves nothing (it is still stored, and counted in the
per-lesson figures of `tutor progress`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from tutor.i18n import _
from tutor.progress.records import Attempt
from tutor.states import JUDGED, MISSED


def first_answers(attempts: Iterable[Attempt]) -> list[Attempt]:
    """Each run's first answer to each prompt, in order (attempts without a run id,
    written by hand or by an old front end, all count)."""
    seen: set[tuple[str, int, int, str]] = set()
    out = []
    for a in attempts:
        key = (*a.key, a.run)
        if a.run and key in seen:
            continue
        seen.add(key)
        out.append(a)
    return out


@dataclass(frozen=True)
class Mistake:
    """A prompt whose latest first answer was wrong, partly right or revealed."""

    last: Attempt  # that answer
    times: int  # first answers to this prompt that were not right, in all

    @property
    def key(self) -> tuple[str, int, int]:
        return self.last.key


def mistakes(attempts: Iterable[Attempt]) -> list[Mistake]:
    """Prompts answered wrong (or partly right, or revealed) and not answered right
    since, oldest mistake first.  A right answer in a later run (a redo, a review,
    a replay of the lesson) takes a prompt off the list; trying again in the same run,
    after the live value was shown, does not."""
    latest: dict[tuple[str, int, int], tuple[int, Attempt]] = {}
    times: dict[tuple[str, int, int], int] = {}
    for n, a in enumerate(first_answers(attempts)):
        latest[a.key] = (n, a)
        if a.verdict in MISSED:
            times[a.key] = times.get(a.key, 0) + 1
    found = sorted((n, Mistake(a, times[k])) for k, (n, a) in latest.items()
                   if a.verdict in MISSED)
    return [m for _, m in found]


@dataclass(frozen=True)
class Calibration:
    """How well the learner's confidence matched their answers (first answers judged;
    partly right counts as wrong)."""

    sure_right: int = 0
    sure_wrong: int = 0
    guess_right: int = 0
    guess_wrong: int = 0

    @property
    def total(self) -> int:
        return self.sure_right + self.sure_wrong + self.guess_right + self.guess_wrong

    @property
    def sure_accuracy(self) -> float | None:
        """How often "sure" was right, or None before any sure answer."""
        n = self.sure_right + self.sure_wrong
        return self.sure_right / n if n else None

    @property
    def guess_accuracy(self) -> float | None:
        n = self.guess_right + self.guess_wrong
        return self.guess_right / n if n else None

    def rates(self) -> str:
        """`sure answers 63% right; guesses 57% right` (each once there is one)."""
        return "; ".join(label.format(rate=f"{rate:.0%}") for label, rate in
                         ((_("sure answers {rate} right"), self.sure_accuracy),
                          (_("guesses {rate} right"), self.guess_accuracy))
                         if rate is not None)

    def as_dict(self) -> dict[str, int]:
        return {"sure_right": self.sure_right, "sure_wrong": self.sure_wrong,
                "guess_right": self.guess_right, "guess_wrong": self.guess_wrong}


def calibration(attempts: Iterable[Attempt]) -> Calibration:
    count = {"sure_right": 0, "sure_wrong": 0, "guess_right": 0, "guess_wrong": 0}
    for a in first_answers(attempts):
        if a.verdict not in JUDGED:
            continue
        right = "right" if a.verdict == "correct" else "wrong"
        count[f"{a.confidence}_{right}"] += 1
    return Calibration(**count)


@dataclass(frozen=True)
class Day:
    """One day of practice: first answers, how many were right, how many were reviews."""

    day: date
    answers: int
    right: int
    reviews: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answers if self.answers else None


def history(attempts: Iterable[Attempt], tz: tzinfo | None = None) -> list[Day]:
    """Per day with any answer (in `tz`, default the local time zone), oldest first:
    the data behind a plot of accuracy and reviews over time."""
    days: dict[date, list[int]] = {}
    for a in first_answers(attempts):
        try:
            when = datetime.fromisoformat(a.at)
        except ValueError:
            continue
        day = when.astimezone(tz).date()
        row = days.setdefault(day, [0, 0, 0])
        row[0] += 1
        row[1] += a.verdict == "correct"
        row[2] += a.review
    return [Day(d, *row) for d, row in sorted(days.items())]
