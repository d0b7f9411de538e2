"""`tutor progress`: what the learner has done, per pack and lesson, in the terminal."""

from __future__ import annotations

import argparse
import json
import sys

from tutor.commands.common import add_path_option, catalog_for
from tutor.course import course_lessons
from tutor.markup import plain_inline
from tutor.progress import ProgressStore, summarize

MARKS = {"new": " ", "tried": "~", "done": "✓", "perfect": "★"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_option(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    catalog = catalog_for([], args.path)
    with ProgressStore() as store:
        statuses = store.lessons()
        attempts = store.attempts()
        notice = store.notice
        where = store.path
        last = store.last()
    rows = [summarize(x.id, statuses.get(x.id), attempts) for x in catalog.lessons]
    known = {x.id for x in catalog.lessons}
    # progress for lessons no longer in the catalog is still the learner's: show it
    rows += [summarize(lid, statuses.get(lid), attempts)
             for lid in sorted({a.lesson for a in attempts} | set(statuses)) if lid not in known]
    if args.json:
        print(json.dumps({"database": str(where), "last": last, "lessons": [
            {"id": r.lesson, "status": r.status, "attempts": r.attempts, "correct": r.correct,
             "partial": r.partial, "incorrect": r.incorrect, "revealed": r.revealed,
             "hints": r.hints, "seconds": round(r.seconds, 1), "accuracy": r.accuracy}
            for r in rows]}, indent=2))
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
        total = sum(r.attempts for r in rows)
        right = sum(r.correct for r in rows)
        print(f"\n{done} of {len(counted)} lessons of the course done "
              f"({sum(r.status == 'perfect' for r in counted)} perfect); "
              f"{total} answer{'' if total == 1 else 's'}, {right} right"
              + (f" ({right / total:.0%})" if total else ""))
        if last:
            print(f"last lesson: {last}")
        print(f"progress database: {where}")
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    return 0
