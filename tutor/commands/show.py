"""`tutor show LESSON [--step N] graph EXPR | storage [EXPR] | tree EXPR`: draw what a
printout hides.

Runs the lesson live up to and including step N (numbered from 1, as everywhere
tutor shows steps; default: the last step), then asks the kernel about the lesson's
namespace and prints the picture in box-drawing text.  A step that raises does
not stop the run (lessons raise on purpose); a timeout or a crash does.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from tutor.commands.common import add_path_option, count, seconds
from tutor.engine import LessonRun, unmet_requirement
from tutor.i18n import N_, _
from tutor.kernel import Kernel, KernelError
from tutor.lesson import LessonError, find_lesson
from tutor.lesson.warmth import needs_optimizers
from tutor.pictures import KINDS, parse_show, render, usage
from tutor.safetext import json_dumps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", metavar="LESSON", help=_("a lesson id or a lesson file"))
    parser.add_argument("what", choices=KINDS, metavar="PICTURE",
                        help=_("graph EXPR (autograd graph of a tensor), storage [EXPR] (which "
                          "names share memory), tree EXPR (what a module registered)"))
    parser.add_argument("expr", nargs="*", metavar="EXPR",
                        help=_("a Python expression in the lesson's namespace (quote it if it "
                          "has spaces or shell characters)"))
    parser.add_argument("--step", type=count(1, 10_000, N_("step number")), default=None,
                        metavar="N",
                        help=_("run steps 1..N before drawing (default: all of them)"))
    add_path_option(parser)
    parser.add_argument("--width", type=count(1, 1000, N_("width")), default=None,
                        metavar="COLUMNS",
                        help=_("fit the picture to COLUMNS (default: the terminal's, else 80)"))
    parser.add_argument("--json", action="store_true",
                        help=_("print the kernel's plain data instead of the picture"))
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help=_("time allowed per step (default: the lesson's, else 10)"))


def _width(requested: int | None) -> int:
    if requested:
        return max(40, requested)
    if sys.stdout.isatty():
        return max(40, min(120, shutil.get_terminal_size((80, 24)).columns))
    return 80


def run(args: argparse.Namespace) -> int:
    try:
        spec = parse_show(" ".join([args.what, *args.expr]))
    except ValueError as exc:
        print("tutor show: " + _("{why} (pictures: {usage})").format(why=exc, usage=usage()),
              file=sys.stderr)
        return 2
    try:
        lesson = find_lesson(args.lesson, args.path)
    except LessonError as exc:
        print(exc, file=sys.stderr)
        return 2
    count = len(lesson.steps)
    upto = count - 1 if args.step is None else args.step - 1
    if not 0 <= upto < count:
        print("tutor show: " + _("{id} has steps 1 to {count}; there is no step {step}").format(
            id=lesson.id, count=count, step=args.step), file=sys.stderr)
        return 2
    kernel = Kernel(optimizers=needs_optimizers([lesson.file]))
    kernel.start()
    try:
        why = unmet_requirement(lesson, kernel.wait_ready())
        if why:
            print("tutor show: " + _("{id} cannot run here: it {why}").format(id=lesson.id,
                                                                             why=why),
                  file=sys.stderr)
            return 2
        with LessonRun(kernel, lesson, timeout=args.timeout) as lesson_run:
            for step in lesson.steps[: upto + 1]:
                outcome = lesson_run.run_step(step)
                if outcome.failure:
                    print(f"tutor show: {outcome.failure}", file=sys.stderr)
                    return 1
            assert lesson_run.session is not None
            data = lesson_run.session.inspect(spec.what, spec.expr)
    except KernelError as exc:
        print(f"tutor show: {exc}", file=sys.stderr)
        return 2
    finally:
        kernel.shutdown()
    if args.json:
        print(json_dumps(data, indent=2))
    else:
        sys.stdout.write(render(data, _width(args.width)).text())
    return 1 if data.get("type") == "exception" else 0
