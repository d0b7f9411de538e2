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
from tutor.i18n import N_, _, ngettext
from tutor.lesson import Catalog
from tutor.lesson.model import Lesson, Variant
from tutor.lesson.vary import describe, with_variant
from tutor.progress import Attempt, Mistake, ProgressStore, ReviewItem, first_answers
from tutor.progress.schedule import RATING_NAMES
from tutor.safetext import json_dumps, sanitize
from tutor.states import Outcome

GONE = N_("(this question is no longer in the lesson)")
ASK_AGAIN = N_("Ask them again: tutor play --review, or Review in the app (tutor, then r).")
MISSING = N_("(this lesson is not in the catalog: was it removed, or is its pack not on "
             "--path?)")
CONFIDENCE = {"sure": N_("sure"), "guess": N_("a guess")}
VERDICTS: dict[Outcome, str] = {"incorrect": N_("wrong"), "partial": N_("partly right"),
                                 "revealed": N_("revealed"), "correct": N_("right")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--due", action="store_true",
                        help=_("list the questions due for spaced review now"))
    parser.add_argument("--json", action="store_true", help=_("print the list as JSON"))
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
        text = _("revealed")
    else:
        text = _("{verdict}: you said {answer} ({confidence})").format(
            verdict=_(VERDICTS[a.verdict]), answer=one_line(a.answer),
            confidence=_(CONFIDENCE[a.confidence]))
    if a.hints:
        text += ", " + ngettext("{n} hint", "{n} hints", a.hints).format(n=a.hints)
    if a.variant:
        text += _("; ") + _("values: {values}").format(values=describe(a.variant))
    return text


def _where(lesson: str, step: int, prompt: int) -> str:
    return _("{lesson}, step {step}, question {question}").format(
        lesson=lesson, step=step + 1, question=prompt + 1)


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
        print(_("note: {text}").format(text=notice), file=sys.stderr)
    if problems:
        print(_("note: {text}").format(text=problems), file=sys.stderr)
    return 0


def _print_mistakes(records: list[dict], found: list[Mistake], due_count: int) -> None:
    if not records:
        print(_("No mistakes to redo: every question you answered wrong or revealed has been "
                "answered right since."))
    else:
        n = len(records)
        print(ngettext("{n} question to redo (answered wrong or revealed, not answered right "
                       "since):", "{n} questions to redo (answered wrong or revealed, not "
                       "answered right since):", n).format(n=n))
        for r, m in zip(records, found, strict=True):
            ask = one_line(r["ask"]) if r["ask"] else _(GONE) if r["title"] else _(MISSING)
            again = _("; ") + _("missed {n} times").format(n=m.times) if m.times > 1 else ""
            print(f"{_where(m.last.lesson, m.last.step, m.last.prompt)}: {ask} "
                  f"({said(m.last)}{again})")
    if due_count:
        print(ngettext("{n} question is due for review now: tutor review --due",
                       "{n} questions are due for review now: tutor review --due",
                       due_count).format(n=due_count))
    if records or due_count:
        print(_(ASK_AGAIN))


def _print_due(records: list[dict], due: list[ReviewItem], upcoming: ReviewItem | None,
               scheduled: int) -> None:
    if not records:
        if upcoming is None:
            print(_("Nothing is due for review: no question is on the review schedule yet "
                    "(questions answered wrong, revealed or guessed go on it)."))
        else:
            print(ngettext("Nothing is due for review now. Next: {when} ({where}); {n} question "
                           "on the schedule.",
                           "Nothing is due for review now. Next: {when} ({where}); {n} "
                           "questions on the schedule.", scheduled).format(
                               when=when(upcoming.due), n=scheduled,
                               where=_where(upcoming.lesson, upcoming.step, upcoming.prompt)))
        return
    n = len(records)
    print(ngettext("{n} question due for review:", "{n} questions due for review:", n).format(
        n=n))
    for r, item in zip(records, due, strict=True):
        ask = one_line(r["ask"]) if r["ask"] else _(GONE) if r["title"] else _(MISSING)
        last = r["last_answer"]
        how = ""
        if last is not None:
            how = _("; ") + _("last time {verdict}").format(verdict=_(VERDICTS[last["verdict"]]))
            if last["verdict"] != "revealed":
                how += f", {_(CONFIDENCE[last['confidence']])}"
        reviews = ngettext("reviewed {n} time", "reviewed {n} times", item.reviews).format(
            n=item.reviews) if item.reviews else _("not reviewed yet")
        print(f"{_where(item.lesson, item.step, item.prompt)}: {ask} "
              + _("(due since {when}; {reviews}{how})").format(
                  when=when(item.due), reviews=reviews, how=how))
    if upcoming is not None:
        print(_("Next after these: {when}.").format(when=when(upcoming.due)))
    print(_(ASK_AGAIN))
