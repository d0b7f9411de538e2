"""`tutor progress`: what the learner has done, per pack and lesson, in the terminal."""

from __future__ import annotations

import argparse
import json
import sys

from tutor.commands.common import add_path_option, catalog_for
from tutor.course import course_lessons
from tutor.markup import plain_inline
from tutor.progress import Calibration, Day, ProgressStore, first_answers, summarize
from tutor.progress.answers import count_answers

MARKS = {"new": " ", "tried": "~", "done": "✓", "perfect": "★"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_option(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--history", action="store_true",
                        help="also show answers, accuracy and reviews per day")


def run(args: argparse.Namespace) -> int:
    catalog = catalog_for([], args.path)
    with ProgressStore() as store:
        statuses = store.lessons()
        attempts = store.attempts()
        notice = store.notice
        where = store.path
        last = store.last()
        calibration = store.calibration()
        days = store.history()
        mistakes = len(store.mistakes())
        due = store.due_count()
        problems = store.problem_summary()
    count = count_answers(attempts)  # what "an answer" is, as the app counts it
    answers = first_answers(attempts)  # (a retry after a verdict is not an answer)
    rows = [summarize(x.id, statuses.get(x.id), answers) for x in catalog.lessons]
    known = {x.id for x in catalog.lessons}
    # progress for lessons no longer in the catalog is still the learner's: show it
    rows += [summarize(lid, statuses.get(lid), answers)
             for lid in sorted({a.lesson for a in attempts} | set(statuses)) if lid not in known]
    if args.json:
        print(json.dumps({"database": str(where), "last": last, "lessons": [
            {"id": r.lesson, "status": r.status, "attempts": r.attempts, "correct": r.correct,
             "partial": r.partial, "incorrect": r.incorrect, "revealed": r.revealed,
             "hints": r.hints, "seconds": round(r.seconds, 1), "accuracy": r.accuracy}
            for r in rows],
            "answers": count.answers, "right": count.right, "revealed": count.revealed,
            "retries": count.retries,
            "calibration": calibration.as_dict(), "mistakes": mistakes, "due": due,
            "history": [{"day": d.day.isoformat(), "answers": d.answers, "right": d.right,
                         "reviews": d.reviews} for d in days]}, indent=2))
    else:
        width = max((len(r.lesson) for r in rows), default=10)
        title_of = {x.id: plain_inline(x.title) for x in catalog.lessons}  # no Markdown marks
        current = None
        for r in rows:
            pack = catalog.pack_of.get(r.lesson)
            heading = pack.title if pack else "(lessons not found in the catalog)"
            if heading != current:
                current = heading
                print(f"\n{heading}")
            acc = f"{r.accuracy:4.0%}" if r.accuracy is not None else "   -"
            print(f"  {MARKS[r.status]} {r.lesson:<{width}}  {r.status:<7}  "
                  f"{r.attempts:3d} {'answer ' if r.attempts == 1 else 'answers'}  {acc} right  "
                  f"{r.hints:2d} {'hint ' if r.hints == 1 else 'hints'}  "
                  f"{title_of.get(r.lesson, '')}")
        course = {x.id for x in course_lessons(catalog)}  # as the app counts: no samples
        counted = [r for r in rows if r.lesson in course]
        done = sum(r.status in ("done", "perfect") for r in counted)
        print(f"\n{done} of {len(counted)} lessons of the course done "
              f"({sum(r.status == 'perfect' for r in counted)} perfect); {count.text()}"
              + (f"\n(an answer is your first answer to a question in a sitting: "
                 f"{count.parts()})" if count.parts() else ""))
        gpu = sum(x.requires.cuda for x in course_lessons(catalog))
        if gpu:  # (no kernel here to ask; the app leaves them out where it has no GPU)
            print(f"({gpu} of the course's lessons need a CUDA device: where your torch has "
                  "none, the app leaves them out of its count)")
        print(confidence_line(calibration))
        if mistakes or due:
            print(f"review: {mistakes} question{'' if mistakes == 1 else 's'} to redo "
                  f"(tutor review), {due} due for review now (tutor review --due)")
        if args.history:
            print_history(days)
        if last:
            print(f"last lesson: {last}")
        print(f"progress database: {where}")
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    if problems:
        print(f"note: {problems}", file=sys.stderr)
    return 0


def confidence_line(c: Calibration) -> str:
    """Calibration in words: `sure and wrong: 7, guessed and right: 4`, with how often
    each confidence was right."""
    if not c.total:
        return "confidence: no predictions marked yet"
    return (f"confidence: sure and right: {c.sure_right}, sure and wrong: {c.sure_wrong}, "
            f"guessed and right: {c.guess_right}, guessed and wrong: {c.guess_wrong} "
            f"({c.rates()})")


def print_history(days: list[Day]) -> None:
    """Per day (local time): first answers, how many right, how many were reviews."""
    print("\nday          answers  right  reviews")
    for d in days:
        acc = f"{d.accuracy:5.0%}" if d.accuracy is not None else "    -"
        print(f"{d.day.isoformat()}  {d.answers:7d}  {acc}  {d.reviews:7d}")
    if not days:
        print("(no answers yet)")
