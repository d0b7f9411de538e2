"""Spaced review (FSRS, with a fake clock), mistakes, confidence and calibration, history."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from tutor.progress import (
    Attempt,
    ProgressStore,
    calibration,
    first_answers,
    history,
    mistakes,
    needs_review,
    rating,
)

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


class FakeClock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    def to(self, moment: datetime) -> None:
        self.now = moment


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock):
    with ProgressStore(tmp_path, clock=clock) as s:
        yield s


def answer(store: ProgressStore, verdict: str, *, run: str, step: int = 0, prompt: int = 0,
           confidence: str = "sure", hints: int = 0, lesson: str = "l/one",
           text: str = "0.6", variant: tuple = ()) -> None:
    assert store.record(Attempt(lesson, step, prompt, text, verdict, hints=hints, run=run,
                                confidence=confidence, variant=variant),
                        total_prompts=3, position=(step, prompt + 1))


def due_of(store: ProgressStore, key: tuple[str, int, int] = ("l/one", 0, 0)) -> datetime:
    (card,) = [c for c in store.cards() if c.key == key]
    return card.due


# ------------------------------------------------------------------ the rating table


@pytest.mark.parametrize(("verdict", "confidence", "hints", "expected"), [
    ("incorrect", "sure", 0, 1), ("incorrect", "guess", 0, 1), ("partial", "sure", 0, 1),
    ("revealed", "sure", 2, 1), ("correct", "guess", 0, 2), ("correct", "sure", 1, 2),
    ("correct", "guess", 3, 2), ("correct", "sure", 0, 3),
])
def test_rating_from_verdict_confidence_and_hints(verdict: str, confidence: str, hints: int,
                                                  expected: int) -> None:
    assert rating(verdict, confidence, hints) == expected
    assert needs_review(verdict, confidence, hints) is (expected != 3)


def test_confidence_must_be_sure_or_guess(store: ProgressStore) -> None:
    with pytest.raises(ValueError, match="confidence"):
        store.record(Attempt("l/one", 0, 0, "1", "correct", confidence="maybe"),
                     total_prompts=1, position=(0, 1))
    assert store.attempts() == []


# ------------------------------------------------------------------ scheduling


def test_a_sure_right_first_answer_is_never_scheduled(store: ProgressStore) -> None:
    answer(store, "correct", run="r1")
    assert store.cards() == [] and store.due_count() == 0
    assert store.attempts()[0].confidence == "sure"  # the default


def test_a_wrong_answer_comes_back_tomorrow(store: ProgressStore, clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1")
    assert due_of(store) == T0 + timedelta(days=1)
    assert store.due_count() == 0 and store.due() == []
    clock.advance(hours=23, minutes=59)
    assert store.due_count() == 0
    clock.advance(minutes=1)
    assert store.due_count() == 1
    (item,) = store.due()
    assert (item.key, item.reviews, item.lapses, item.rating) == (("l/one", 0, 0), 0, 0, 1)


@pytest.mark.parametrize("how", [{"verdict": "revealed"}, {"verdict": "partial"},
                                 {"verdict": "correct", "confidence": "guess"},
                                 {"verdict": "correct", "hints": 1}])
def test_revealed_partial_guessed_or_helped_answers_are_scheduled(store: ProgressStore,
                                                                  how: dict) -> None:
    answer(store, how.pop("verdict"), run="r1", **how)
    assert len(store.cards()) == 1


def test_due_dates_move_out_as_the_learner_answers_right(store: ProgressStore,
                                                         clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1")
    gaps = []
    for n in range(2, 6):
        due = due_of(store)
        clock.to(due)  # reviewed exactly when due
        answer(store, "correct", run=f"r{n}")
        gaps.append(due_of(store) - due)
    assert gaps == sorted(gaps) and gaps[-1] > gaps[0] >= timedelta(days=1)
    assert gaps[-1] >= timedelta(days=10)
    assert all(a.review for a in store.attempts()[1:]) and not store.attempts()[0].review


def test_a_right_guess_comes_back_sooner_than_a_sure_right(store: ProgressStore,
                                                           clock: FakeClock) -> None:
    sure, guess = ("l/one", 0, 0), ("l/one", 0, 1)
    answer(store, "incorrect", run="r1", prompt=0)
    answer(store, "incorrect", run="r1", prompt=1)
    for n in range(2, 5):
        clock.to(max(due_of(store, sure), due_of(store, guess)))
        answer(store, "correct", run=f"r{n}", prompt=0, confidence="sure")
        answer(store, "correct", run=f"r{n}", prompt=1, confidence="guess")
        assert due_of(store, guess) < due_of(store, sure)
    cards = {c.key: c for c in store.cards()}
    assert cards[guess].rating == 2 and cards[sure].rating == 3


def test_a_lapse_brings_a_learned_prompt_back_soon(store: ProgressStore,
                                                   clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1")
    for n in range(2, 5):
        clock.to(due_of(store))
        answer(store, "correct", run=f"r{n}")
    learned = due_of(store) - clock.now
    assert learned > timedelta(days=5)
    clock.to(due_of(store))
    answer(store, "incorrect", run="r5")
    assert due_of(store) - clock.now <= timedelta(days=2) < learned
    (card,) = store.cards()
    assert (card.reviews, card.lapses) == (4, 1)


def test_later_tries_in_the_same_run_do_not_move_the_card(store: ProgressStore,
                                                          clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1")
    before = store.cards()
    clock.advance(seconds=20)
    answer(store, "correct", run="r1")  # after the live value was shown
    assert store.cards() == before
    assert [a.review for a in store.attempts()] == [False, False]


def test_due_lists_longest_due_first_and_counts(store: ProgressStore, clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1", lesson="l/b")
    clock.advance(hours=2)
    answer(store, "revealed", run="r1", lesson="l/a")
    clock.advance(hours=23)
    assert store.due_count() == 1 and [c.lesson for c in store.due()] == ["l/b"]
    clock.advance(hours=2)
    assert store.due_count() == 2 and [c.lesson for c in store.due()] == ["l/b", "l/a"]
    assert [c.lesson for c in store.due(T0)] == []


def test_review_cards_survive_reopening_and_reset_forgets_them(tmp_path: Path,
                                                               clock: FakeClock) -> None:
    with ProgressStore(tmp_path, clock=clock) as s:
        answer(s, "incorrect", run="r1", lesson="l/a")
        answer(s, "incorrect", run="r1", lesson="l/b")
    clock.advance(days=2)
    with ProgressStore(tmp_path, clock=clock) as s:
        assert s.due_count() == 2
        assert s.reset("l/a") and [c.lesson for c in s.cards()] == ["l/b"]
        assert s.reset() and s.cards() == []


def test_attempt_times_come_from_the_clock(store: ProgressStore, clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1")
    assert store.attempts()[0].at == "2026-03-01T09:00:00+00:00"
    assert store.lesson("l/one").updated == "2026-03-01T09:00:00+00:00"


# ------------------------------------------------------------------ mistakes


def test_mistakes_list_wrong_and_revealed_until_answered_right_in_a_later_run(
        store: ProgressStore, clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1", prompt=0, text="1.2")
    answer(store, "correct", run="r1", prompt=0)  # a retry after seeing the value
    answer(store, "revealed", run="r1", prompt=1, text="")
    answer(store, "partial", run="r1", prompt=2, text="(2,)")
    answer(store, "correct", run="r1", step=1, prompt=0)
    got = store.mistakes()
    assert [(m.key, m.last.verdict, m.last.answer, m.times) for m in got] == [
        (("l/one", 0, 0), "incorrect", "1.2", 1), (("l/one", 0, 1), "revealed", "", 1),
        (("l/one", 0, 2), "partial", "(2,)", 1)]
    clock.advance(days=1)
    answer(store, "correct", run="r2", prompt=0, confidence="guess")  # right: off the list
    answer(store, "incorrect", run="r2", prompt=1, text="3")  # wrong again: stays
    got = store.mistakes()
    assert [(m.key, m.last.answer, m.times) for m in got] == [
        (("l/one", 0, 2), "(2,)", 1), (("l/one", 0, 1), "3", 2)]


def test_mistakes_keep_the_values_the_learner_saw(store: ProgressStore) -> None:
    answer(store, "incorrect", run="r1", variant=(("x", "3.0"), ("n", "2")))
    (m,) = store.mistakes()
    assert m.last.variant == (("x", "3.0"), ("n", "2"))


def test_first_answers_skip_later_tries_but_not_runless_attempts() -> None:
    rows = [Attempt("l", 0, 0, "a", "incorrect", run="r"), Attempt("l", 0, 0, "b", "correct",
                                                                   run="r"),
            Attempt("l", 0, 0, "c", "correct", run=""), Attempt("l", 0, 0, "d", "correct")]
    assert [a.answer for a in first_answers(rows)] == ["a", "c", "d"]
    assert [m.last.answer for m in mistakes(rows)] == []


# ------------------------------------------------------------------ calibration, history


def test_calibration_counts_first_judged_answers(store: ProgressStore) -> None:
    answer(store, "incorrect", run="r1", prompt=0)  # sure, wrong
    answer(store, "correct", run="r1", prompt=0)  # a retry: not counted
    answer(store, "partial", run="r1", prompt=1)  # sure, wrong (partly right is not right)
    answer(store, "correct", run="r1", prompt=2, confidence="guess")  # guessed, right
    answer(store, "revealed", run="r1", step=1)  # no prediction: not counted
    answer(store, "incorrect", run="r2", prompt=2, confidence="guess")  # guessed, wrong
    answer(store, "correct", run="r2", prompt=0)  # sure, right
    cal = store.calibration()
    assert cal.as_dict() == {"sure_right": 1, "sure_wrong": 2, "guess_right": 1,
                             "guess_wrong": 1}
    assert cal.total == 5 and cal.sure_accuracy == pytest.approx(1 / 3)
    assert cal.guess_accuracy == 0.5
    assert calibration([]).sure_accuracy is None


def test_history_per_day_with_reviews(store: ProgressStore, clock: FakeClock) -> None:
    answer(store, "incorrect", run="r1", prompt=0)
    answer(store, "correct", run="r1", prompt=1)
    clock.advance(days=1)
    answer(store, "correct", run="r2", prompt=0)  # a review of the missed prompt
    answer(store, "correct", run="r2", prompt=1)  # no card: not a review
    clock.advance(days=3)
    answer(store, "incorrect", run="r3", prompt=2)
    days = store.history(timezone.utc)
    assert [(d.day, d.answers, d.right, d.reviews) for d in days] == [
        (date(2026, 3, 1), 2, 1, 0), (date(2026, 3, 2), 2, 2, 1), (date(2026, 3, 5), 1, 0, 0)]
    assert days[0].accuracy == 0.5
    tokyo = timezone(timedelta(hours=9))
    clock.to(datetime(2026, 3, 9, 20, tzinfo=timezone.utc))  # already the 10th in Tokyo
    answer(store, "correct", run="r4", prompt=0)
    assert history(store.attempts(), tokyo)[-1].day == date(2026, 3, 10)
