"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from tutor.lesson import Catalog, LessonError, load_catalog


def add_path_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--path",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="also load lessons from DIR (a lesson file, or a directory searched at any "
        "depth); repeatable. TUTOR_PATH (separated by ':') adds more.",
    )


def catalog_for(paths: list[Path], extra: list[Path] | None = None) -> Catalog:
    """Lessons from PATHs when given (else the bundled ones), plus --path and TUTOR_PATH."""
    return load_catalog([*paths, *(extra or [])], with_bundled=not paths)


def print_problems(errors: list[LessonError], file: TextIO | None = None) -> None:
    out = file or sys.stderr
    for error in errors:
        for problem in error.problems:
            print(problem, file=out)
