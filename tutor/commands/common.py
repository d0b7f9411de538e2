"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from tutor.i18n import _
from tutor.lesson import Catalog, LessonError, load_catalog
from tutor.lesson.catalog import select

MIN_TIMEOUT, MAX_TIMEOUT = 0.1, 3600.0  # seconds per step a --timeout may give


def seconds(text: str) -> float:
    """argparse type of `--timeout`: a finite number of seconds in [0.1, 3600].  `inf`,
    `nan`, `1e308`, 0 and negatives are refused here, with what to give instead, rather
    than failing later (an OverflowError) or never timing out."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and MIN_TIMEOUT <= value <= MAX_TIMEOUT):
        raise argparse.ArgumentTypeError(
            _("{text} is not a usable number of seconds: give one from {low} to {high}, "
              "e.g. 30").format(text=repr(text), low=f"{MIN_TIMEOUT:g}",
                                high=f"{MAX_TIMEOUT:g}"))
    return value


def count(low: int, high: int, what: str) -> Callable[[str], int]:
    """argparse type of a whole-number option (`-j`, `--repeat`, `--step`, `--width`):
    an integer from `low` to `high`, else an error that says so.  `what` is marked with
    `N_` by the caller and translated here."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("{text} is not a usable {what}: give a whole number from {low} to "
                  "{high}").format(text=repr(text), what=_(what), low=low, high=high))
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def add_path_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--path",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help=_("also load lessons from DIR (a lesson file, or a directory searched at any "
               "depth); repeatable. TUTOR_PATH (separated by ':') adds more."),
    )


def catalog_for(paths: list[Path], extra: list[Path] | None = None) -> Catalog:
    """The lessons under PATHs only, when given (every other pack still counts for
    duplicate ids); else every lesson: bundled, --path, TUTOR_PATH and installed.
    A PATH that is no file but a lesson's id (`tutor check memory/assign`) stands for
    that lesson's file."""
    extra = extra or []
    if not paths:
        return load_catalog(extra, with_bundled=True)
    if all(path.exists() for path in paths):
        return select(paths, extra)
    known = load_catalog(extra, with_bundled=True)  # read once: ids, then duplicates
    files = []
    for path in paths:
        lesson = None if path.exists() else known.get(path.as_posix())
        files.append(lesson.file if lesson is not None else path)
    return select(files, extra, known=known)


def print_warnings(catalog: Catalog, file: TextIO | None = None) -> None:
    for warning in catalog.warnings:
        print(warning, file=file or sys.stderr)


def print_problems(errors: list[LessonError], file: TextIO | None = None) -> None:
    out = file or sys.stderr
    for error in errors:
        for problem in error.problems:
            print(problem, file=out)
