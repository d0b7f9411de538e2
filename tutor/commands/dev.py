"""`tutor dev LESSON`: the app on one lesson file, reloaded whenever the file changes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", type=Path, metavar="LESSON", help=_("a lesson file"))


def run(args: argparse.Namespace) -> int:
    if not args.lesson.is_file():
        print(f"tutor dev: {args.lesson}: " + _("no such file (give the lesson's file, not its "
                                                "id)"), file=sys.stderr)
        return 2
    try:
        from tutor.ui.dev import run_dev
    except ImportError as exc:
        print("tutor dev: " + _("the app cannot start: {why}").format(why=exc), file=sys.stderr)
        return 1
    return run_dev(args.lesson)
