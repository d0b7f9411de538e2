"""`tutor lint [PATH...] [--strict]`: check lesson files without running them (no torch)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.authoring.lint import lint_paths
from tutor.commands.common import add_path_option
from tutor.lesson.catalog import bundled_dir
from tutor.safetext import json_dumps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="lesson files or directories (default: the bundled lessons)")
    add_path_option(parser)
    parser.add_argument("--strict", action="store_true",
                        help="treat warnings as errors (exit 1 on any)")
    parser.add_argument("--json", action="store_true", help="print the problems as JSON")


def run(args: argparse.Namespace) -> int:
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
        print(f"tutor lint: {report.files} file{'s' * (report.files != 1)}, "
              f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
              file=sys.stderr)
    return 1 if report.errors else 0
