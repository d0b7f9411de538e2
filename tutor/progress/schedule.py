"""Spaced review: when a prompt comes back, computed with FSRS (the `fsrs` package).

Each prompt a learner has missed, revealed, or got right only by guessing or with a
hint gets a review card; every later *first* answer to it in a run (a replay, a redo,
a scheduled review) is a review of that card.  What a first answer is worth to the
scheduler (the FSRS rating):

    verdict              confidence   hints   rating
    incorrect / partial  any          any     Again   (not known: back tomorrow)
    revealed             -            any     Again
    correct              guess        any     Hard    (right, but not yet learned)
    correct              sure         >= 1    Hard    (right with help)
    correct              sure         0       Good    (known)

`Easy` is never given: one right answer does not tell us that a fact is easy.  A
prompt answered right and sure without hints the first time never gets a card.
Tries after the first in the same run are not reviews: by then the learner has
seen the live value.

The scheduler has no same-day learning steps (the mistakes list is for "now"; the
schedule is for "later"), so the shortest interval is one day, and no fuzz, so a
schedule is reproducible.  Pure: stdlib and `fsrs` (imported on first use, so the
app paints without it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from typing import TYPE_CHECKING

from tutor.states import Outcome

if TYPE_CHECKING:  # pragma: no cover
    from fsrs import Rating, Scheduler

CONFIDENCES = ("sure", "guess")
AGAIN, HARD, GOOD = 1, 2, 3  # fsrs.Rating values (Again, Hard, Good)
RATING_NAMES = {AGAIN: "again", HARD: "hard", GOOD: "good"}


def rating(verdict: Outcome, confidence: str = "sure", hints: int = 0) -> int:
    """The FSRS rating (1 Again, 2 Hard, 3 Good) of a first answer; see the module doc."""
    if confidence not in CONFIDENCES:
        raise ValueError(f"confidence must be one of {CONFIDENCES}, not {confidence!r}")
    if verdict != "correct":
        return AGAIN
    if confidence == "guess" or hints > 0:
        return HARD
    return GOOD


def needs_review(verdict: Outcome, confidence: str = "sure", hints: int = 0) -> bool:
    """Does this first answer put the prompt on the review schedule?"""
    return rating(verdict, confidence, hints) != GOOD


@cache
def scheduler() -> Scheduler:
    from fsrs import Scheduler

    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def utc(moment: datetime) -> datetime:
    """`moment` as an aware UTC datetime (naive values are taken as UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def stamp(moment: datetime) -> str:
    """The one text form of a moment in the database: ISO 8601, UTC, to the second.
    (One form, so that SQL can compare stamps as text.)"""
    return utc(moment).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class CardState:
    """A prompt's review card after a review: what the database keeps."""

    card: str  # the fsrs Card, as its own JSON
    due: datetime
    stability: float
    difficulty: float


def review(card_json: str | None, grade: int, when: datetime) -> CardState:
    """Review a card (a new one if `card_json` is None) with `grade` at `when`."""
    from fsrs import Card, Rating

    moment = utc(when)
    card = Card.from_json(card_json) if card_json else Card(card_id=1, due=moment)
    if card.last_review is not None and moment < card.last_review:
        moment = card.last_review  # a clock set back: never review before the last review
    rated: Rating = Rating(grade)
    card, _log = scheduler().review_card(card, rated, review_datetime=moment)
    return CardState(card.to_json(), utc(card.due), float(card.stability or 0.0),
                     float(card.difficulty or 0.0))


@dataclass(frozen=True)
class ReviewItem:
    """A prompt on the review schedule."""

    lesson: str
    step: int  # 0-based, like every index the store keeps
    prompt: int
    due: datetime
    reviews: int  # reviews since the card was made (the answer that made it is not one)
    lapses: int  # reviews rated Again
    rating: int  # the last rating: 1 again, 2 hard, 3 good
    last: datetime  # when it was last answered

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.lesson, self.step, self.prompt)
