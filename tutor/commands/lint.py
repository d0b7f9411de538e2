"""`tutor lint [PATH...] [--strict]`: check lesson files without running them (no torch)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.authoring.lint import lint_paths
from tutor.commands.common import add_path_option
from tutor.i18n import ENGLISH, _, ngettext, set_language
from tutor.lesson.catalog import bundled_dir
from tutor.safetext import json_dumps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help=_("lesson files or directories (default: the bundled lessons)"))
    add_path_option(parser)
    parser.add_argument("--strict", action="store_true",
                        help=_("treat warnings as errors (exit 1 on any)"))
    parser.add_argument("--json", action="store_true",
                        help=_("print the problems as JSON (their messages in English)"))


def run(args: argparse.Namespace) -> int:
    if args.json:  # for programs: messages stay English whatever the language
        set_language(ENGLISH)
    paths = list(args.paths) or [bundled_dir()]
    report = lint_paths(paths, others=args.path)
    if args.strict:
        report = report.strict()
    if args.json:
        print(json_dumps([{"file": p.file, "line": p.line, "col": p.col, "path": p.path,
                           "message": p.message, "severity": p.severity}
                          for p in report.problems], indent=2))
    else:
        for problem in report.problems:
            print(problem)
        errors, warnings = len(report.errors), len(report.warnings)
        print("tutor lint: " + _("{files}, {errors}, {warnings}").format(
            files=ngettext("{n} file", "{n} files", report.files).format(n=report.files),
            errors=ngettext("{n} error", "{n} errors", errors).format(n=errors),
            warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)),
            file=sys.stderr)
    return 1 if report.errors else 0
