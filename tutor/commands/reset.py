"""`tutor reset [LESSON]`: forget all progress, or one lesson's, after a y/N confirmation."""

from __future__ import annotations

import argparse
import sys

from tutor.i18n import _
from tutor.progress import ProgressStore
from tutor.progress.answers import count_answers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", nargs="?", metavar="LESSON",
                        help=_("a lesson id (default: every lesson)"))
    parser.add_argument("--yes", "-y", action="store_true", help=_("do not ask for confirmation"))


def run(args: argparse.Namespace) -> int:
    with ProgressStore() as store:
        if not store.saving:
            print(f"tutor reset: {store.notice}", file=sys.stderr)
            return 1
        if args.lesson:
            attempts = store.attempts(args.lesson)
            known = attempts or args.lesson in store.lessons()
            if not known:
                print("tutor reset: " + _("no progress stored for {id}").format(
                    id=repr(args.lesson)), file=sys.stderr)
                return 1
            what = _("the progress of {id} ({answers})").format(
                id=args.lesson, answers=count_answers(attempts).stored())
        else:
            what = _("ALL progress ({answers}, {n} lessons)").format(
                answers=count_answers(store.attempts()).stored(), n=len(store.lessons()))
        if not args.yes:
            try:
                reply = input(_("Forget {what} in {path}? [y/N] ").format(what=what,
                                                                         path=store.path))
            except EOFError:
                reply = ""
            if reply.strip().lower() not in ("y", "yes", "예", "네"):  # (as typed in Korean)
                print(_("nothing changed"))
                return 1
        if not store.reset(args.lesson):
            print(f"tutor reset: {store.notice}", file=sys.stderr)
            return 1
        print(_("forgot {what}").format(what=what))
    return 0
