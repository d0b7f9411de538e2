"""`tutor review [--due] [--json]`: the questions to redo, in plain text (for pipes and
screen readers): one line per question, with its lesson, step, question number and text.

Without `--due`: the mistakes, prompts answered wrong (or partly right) or revealed
and not answered right since.  With `--due`: the prompts the spaced-review schedule
brings back now.  Steps and questions are numbered from 1, as everywhere tutor shows
them.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from tutor.commands.common import add_path_option, catalog_for
from tutor.lesson import Catalog
from tutor.lesson.model import Lesson, Variant
from tutor.lesson.vary import describe, with_variant
from tutor.progress import Attempt, Mistake, ProgressStore, ReviewItem, first_answers
from tutor.progress.schedule import RATING_NAMES
from tutor.safetext import json_dumps, sanitize
from tutor.states import Outcome

GONE = "(this question is no longer in the lesson)"
ASK_AGAIN = "Ask them again: tutor play --review, or Review in the app (tutor, then r)."
MISSING = "(this lesson is not in the catalog: was it removed, or is its pack not on --path?)"
CONFIDENCE = {"sure": "sure", "guess": "a guess"}
VERDICTS: dict[Outcome, str] = {"incorrect": "wrong", "partial": "partly right",
                                "revealed": "revealed", "correct": "right"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--due", action="store_true",
                        help="list the questions due for spaced review now")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    add_path_option(parser)


def question(catalog: Catalog, lesson_id: str, step: int, prompt: int,
             variant: Variant = ()) -> tuple[Lesson | None, str | None]:
    """The lesson and the question's text as the learner saw it (with the values they
    were given, when the lesson still has them), or (lesson or None, None) if gone."""
    lesson = next((x for x in catalog.lessons if x.id == lesson_id), None)
    if lesson is None:
        return None, None
    if variant and variant in (lesson.template or lesson).variants:
        lesson = with_variant(lesson, variant)
    if step >= len(lesson.steps) or prompt >= len(lesson.steps[step].prompts):
        return lesson, None
    return lesson, lesson.steps[step].prompts[prompt].ask


def one_line(text: str) -> str:
    return sanitize(" ".join(text.split()))


def when(moment: datetime | str) -> str:
    """A moment in the learner's local time, to the minute."""
    if isinstance(moment, str):
        try:
            parsed = datetime.fromisoformat(moment)
        except ValueError:
            return moment
    else:
        parsed = moment
    return parsed.astimezone().strftime("%Y-%m-%d %H:%M")


def said(a: Attempt) -> str:
    """How the answer went: `wrong: you said 0.2 (sure)`, `revealed after 1 hint`."""
    if a.verdict == "revealed":
        text = "revealed"
    else:
        text = f"{VERDICTS[a.verdict]}: you said {one_line(a.answer)} ({CONFIDENCE[a.confidence]})"
    if a.hints:
        text += f", {a.hints} hint{'s' if a.hints > 1 else ''}"
    if a.variant:
        text += f"; values: {describe(a.variant)}"
    return text


def _where(lesson: str, step: int, prompt: int) -> str:
    return f"{lesson}, step {step + 1}, question {prompt + 1}"


def _mistake_record(catalog: Catalog, m: Mistake) -> dict:
    a = m.last
    lesson, ask = question(catalog, a.lesson, a.step, a.prompt, a.variant)
    return {"lesson": a.lesson, "step": a.step + 1, "question": a.prompt + 1,
            "title": lesson.title if lesson else None, "ask": ask, "found": ask is not None,
            "verdict": a.verdict, "answer": a.answer, "confidence": a.confidence,
            "hints": a.hints, "variant": dict(a.variant), "at": a.at, "times": m.times}


def _due_record(catalog: Catalog, item: ReviewItem, last: Attempt | None) -> dict:
    lesson, ask = question(catalog, item.lesson, item.step, item.prompt,
                           last.variant if last else ())
    return {"lesson": item.lesson, "step": item.step + 1, "question": item.prompt + 1,
            "title": lesson.title if lesson else None, "ask": ask, "found": ask is not None,
            "due": item.due.isoformat(), "reviews": item.reviews, "lapses": item.lapses,
            "last_rating": RATING_NAMES.get(item.rating, str(item.rating)),
            "last": item.last.isoformat(),
            "last_answer": None if last is None else {
                "verdict": last.verdict, "answer": last.answer, "confidence": last.confidence,
                "variant": dict(last.variant)}}


def run(args: argparse.Namespace) -> int:
    catalog = catalog_for([], args.path)
    with ProgressStore() as store:
        attempts = store.attempts()
        found_mistakes = store.mistakes() if not args.due else []
        due = store.due() if args.due else []
        cards = store.cards()
        due_count = store.due_count()
        notice = store.notice
        problems = store.problem_summary()
    if args.due:
        last = {}
        for a in first_answers(attempts):  # the answer the schedule last saw, and its values
            last[a.key] = a
        records = [_due_record(catalog, item, last.get(item.key)) for item in due]
        later = [c for c in cards if c not in due]
        upcoming = later[0] if later else None
        if args.json:
            print(json_dumps({"due": records, "next": None if upcoming is None else {
                "lesson": upcoming.lesson, "step": upcoming.step + 1,
                "question": upcoming.prompt + 1, "due": upcoming.due.isoformat()},
                "scheduled": len(cards)}, indent=2))
        else:
            _print_due(records, due, upcoming, len(cards))
    else:
        records = [_mistake_record(catalog, m) for m in found_mistakes]
        if args.json:
            print(json_dumps({"mistakes": records, "due": due_count}, indent=2))
        else:
            _print_mistakes(records, found_mistakes, due_count)
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    if problems:
        print(f"note: {problems}", file=sys.stderr)
    return 0


def _print_mistakes(records: list[dict], found: list[Mistake], due_count: int) -> None:
    if not records:
        print("No mistakes to redo: every question you answered wrong or revealed has been "
              "answered right since.")
    else:
        n = len(records)
        print(f"{n} question{'s' if n != 1 else ''} to redo (answered wrong or revealed, not "
              "answered right since):")
        for r, m in zip(records, found, strict=True):
            ask = one_line(r["ask"]) if r["ask"] else GONE if r["title"] else MISSING
            again = f"; missed {m.times} times" if m.times > 1 else ""
            print(f"{_where(m.last.lesson, m.last.step, m.last.prompt)}: {ask} "
                  f"({said(m.last)}{again})")
    if due_count:
        print(f"{due_count} question{'s are' if due_count != 1 else ' is'} due for review now: "
              "tutor review --due")
    if records or due_count:
        print(ASK_AGAIN)


def _print_due(records: list[dict], due: list[ReviewItem], upcoming: ReviewItem | None,
               scheduled: int) -> None:
    if not records:
        if upcoming is None:
            print("Nothing is due for review: no question is on the review schedule yet "
                  "(questions answered wrong, revealed or guessed go on it).")
        else:
            print(f"Nothing is due for review now. Next: {when(upcoming.due)} "
                  f"({_where(upcoming.lesson, upcoming.step, upcoming.prompt)}); "
                  f"{scheduled} question{'s' if scheduled != 1 else ''} on the schedule.")
        return
    n = len(records)
    print(f"{n} question{'s' if n != 1 else ''} due for review:")
    for r, item in zip(records, due, strict=True):
        ask = one_line(r["ask"]) if r["ask"] else GONE if r["title"] else MISSING
        last = r["last_answer"]
        how = ""
        if last is not None:
            how = f"; last time {VERDICTS[last['verdict']]}"
            if last["verdict"] != "revealed":
                how += f", {CONFIDENCE[last['confidence']]}"
        reviews = f"reviewed {item.reviews} time{'s' if item.reviews != 1 else ''}" \
            if item.reviews else "not reviewed yet"
        print(f"{_where(item.lesson, item.step, item.prompt)}: {ask} "
              f"(due since {when(item.due)}; {reviews}{how})")
    if upcoming is not None:
        print(f"Next after these: {when(upcoming.due)}.")
    print(ASK_AGAIN)
