"""`tutor dev LESSON`: the app on one lesson file, reloaded whenever the file changes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", type=Path, metavar="LESSON", help="a lesson file")


def run(args: argparse.Namespace) -> int:
    if not args.lesson.is_file():
        print(f"tutor dev: {args.lesson}: no such file (give the lesson's file, not its id)",
              file=sys.stderr)
        return 2
    try:
        from tutor.ui.dev import run_dev
    except ImportError as exc:
        print(f"tutor dev: the app cannot start: {exc}", file=sys.stderr)
        return 1
    return run_dev(args.lesson)
