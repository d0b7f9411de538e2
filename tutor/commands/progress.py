"""`tutor progress`: what the learner has done, per pack and lesson, in the terminal."""

from __future__ import annotations

import argparse
import json
import sys

from tutor.commands.common import add_path_option, catalog_for
from tutor.course import course_lessons
from tutor.i18n import _, ngettext, pack_title, pad, status_word, width
from tutor.markup import plain_inline
from tutor.progress import Calibration, Day, LessonSummary, ProgressStore, first_answers, summarize
from tutor.progress.answers import count_answers

MARKS = {"new": " ", "tried": "~", "done": "✓", "perfect": "★"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_option(parser)
    parser.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    parser.add_argument("--history", action="store_true",
                        help=_("also show answers, accuracy and reviews per day"))


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
        title_of = {x.id: plain_inline(x.title) for x in catalog.lessons}  # no Markdown marks
        table = [[r.lesson, status_word(r.status), *counts(r)] for r in rows]
        widths = [max(map(width, column)) for column in zip(*table, strict=True)]
        current = None
        for r, line in zip(rows, table, strict=True):
            pack = catalog.pack_of.get(r.lesson)
            heading = (pack_title(pack.title, pack.lang) if pack
                       else _("(lessons not found in the catalog)"))
            if heading != current:
                current = heading
                print(f"\n{heading}")
            print(f"  {MARKS[r.status]} " + "  ".join(map(pad, line, widths))
                  + f"  {title_of.get(r.lesson, '')}")
        course = {x.id for x in course_lessons(catalog)}  # as the app counts: no samples
        counted = [r for r in rows if r.lesson in course]
        done = sum(r.status in ("done", "perfect") for r in counted)
        print("\n" + _("{done} of {total} lessons of the course done ({perfect} perfect); "
                       "{answers}").format(
                           done=done, total=len(counted),
                           perfect=sum(r.status == "perfect" for r in counted),
                           answers=count.text())
              + ("\n" + _("(an answer is your first answer to a question in a sitting: "
                          "{parts})").format(parts=count.parts()) if count.parts() else ""))
        gpu = sum(x.requires.cuda for x in course_lessons(catalog))
        if gpu:  # (no kernel here to ask; the app leaves them out where it has no GPU)
            print(_("({n} of the course's lessons need a CUDA device: where your torch has "
                    "none, the app leaves them out of its count)").format(n=gpu))
        print(confidence_line(calibration))
        if mistakes or due:
            print(ngettext("review: {n} question to redo (tutor review), {due} due for review "
                           "now (tutor review --due)",
                           "review: {n} questions to redo (tutor review), {due} due for review "
                           "now (tutor review --due)", mistakes).format(n=mistakes, due=due))
        if args.history:
            print_history(days)
        if last:
            print(_("last lesson: {id}").format(id=last))
        print(_("progress database: {path}").format(path=where))
    if notice:
        print(_("note: {text}").format(text=notice), file=sys.stderr)
    if problems:
        print(_("note: {text}").format(text=problems), file=sys.stderr)
    return 0


def counts(r: LessonSummary) -> list[str]:
    """A lesson's answers, accuracy and hints, each a phrase of its own (`3 answers`,
    `67% right`, `1 hint`), so that a language puts its words around the number."""
    accuracy = f"{r.accuracy:.0%}" if r.accuracy is not None else "-"
    return [ngettext("{n} answer", "{n} answers", r.attempts).format(n=r.attempts),
            _("{percent} right").format(percent=accuracy),
            ngettext("{n} hint", "{n} hints", r.hints).format(n=r.hints)]


def confidence_line(c: Calibration) -> str:
    """Calibration in words: `sure and wrong: 7, guessed and right: 4`, with how often
    each confidence was right."""
    if not c.total:
        return _("confidence: no predictions marked yet")
    return _("confidence: sure and right: {sr}, sure and wrong: {sw}, guessed and right: {gr}, "
             "guessed and wrong: {gw} ({rates})").format(
                 sr=c.sure_right, sw=c.sure_wrong, gr=c.guess_right, gw=c.guess_wrong,
                 rates=c.rates())


def print_history(days: list[Day]) -> None:
    """Per day (local time): first answers, how many right, how many were reviews."""
    print("\n" + _("day          answers  right  reviews"))
    for d in days:
        acc = f"{d.accuracy:5.0%}" if d.accuracy is not None else "    -"
        print(f"{d.day.isoformat()}  {d.answers:7d}  {acc}  {d.reviews:7d}")
    if not days:
        print(_("(no answers yet)"))
