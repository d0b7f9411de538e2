"""`tutor record PATH... [--check] [--force] [--fix]`: write every `answer:` from the
live value (missing ones; wrong ones only with `--fix`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tutor.authoring.record import RecordResult, record_file
from tutor.commands.common import count, seconds
from tutor.i18n import N_, _
from tutor.kernel import Kernel, KernelError
from tutor.lesson.files import lesson_files, not_a_lesson
from tutor.lesson.warmth import needs_optimizers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help=_("lesson files or directories"))
    parser.add_argument("--check", action="store_true",
                        help=_("only report answers that differ from the live value (drift) or "
                          "are missing; write nothing; exit 1 if any"))
    parser.add_argument("--force", action="store_true",
                        help=_("rewrite every answer in the canonical notation, even those "
                          "already judged correct"))
    parser.add_argument("--fix", action="store_true",
                        help=_("also replace answers that are judged wrong (without it they "
                          "are reported as problems: the mistake may be in the code)"))
    parser.add_argument("-j", "--jobs", type=count(1, 256, N_("number of jobs")),
                        default=os.cpu_count() or 1, metavar="N",
                        help=_("lessons run in parallel (default: number of CPUs)"))
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help=_("time allowed per step (default: the lesson's, else 10)"))


def _show(text: str | None) -> str:
    return "" if text is None else json.dumps(text, ensure_ascii=False) if "\n" in text else text


def _report(result: RecordResult, check: bool) -> None:
    if result.skipped:
        print(f"{result.file}: " + _("skipped: {why}").format(why=result.skipped))
    for p in result.problems:
        print(p)
    for ch in result.changes:
        where = f"{result.file}:{ch.line}:{ch.col}: {ch.path}:"
        if check:
            if ch.old is None:
                print(f"{where} " + _("missing: the live value is {new} (`tutor record {file}` "
                                      "writes it)").format(new=_show(ch.new), file=result.file))
            else:
                print(f"{where} " + _("drift: {old} is not judged correct; the live value is "
                                      "{new} (`tutor record {file}` writes it)").format(
                    old=_show(ch.old), new=_show(ch.new), file=result.file))
        elif result.written:
            was = _("was missing") if ch.old is None else (
                _("was {old}, judged wrong") if ch.failing else _("was {old}")).format(
                old=_show(ch.old))
            print(f"{where} {_show(ch.new)}  ({was})")


def run(args: argparse.Namespace) -> int:
    files: list[Path] = []
    for root in args.paths:
        if not root.exists():
            print(f"{root}: " + _("no such file or directory"), file=sys.stderr)
            return 2
        why = not_a_lesson(root) if root.is_file() else None
        if why:
            print(f"{root}: {why}", file=sys.stderr)
            return 2
        files += lesson_files(root)
    kernel = Kernel(batch=True, optimizers=needs_optimizers(files))
    kernel.start()
    try:
        kernel.wait_ready()
    except KernelError as exc:
        print("tutor record: " + _("the kernel could not start: {why}").format(why=exc),
              file=sys.stderr)
        kernel.shutdown()
        return 2

    def one(path: Path) -> RecordResult:
        return record_file(kernel, path, check=args.check, force=args.force, fix=args.fix,
                           timeout=args.timeout)

    results = []
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for result in pool.map(one, files):
                results.append(result)
                _report(result, args.check)
    finally:
        kernel.shutdown()
    changes = sum(len(r.changes) for r in results)
    problems = sum(len(r.problems) for r in results)
    prompts = sum(r.prompts for r in results)
    if args.check:
        print("tutor record --check: " + _("{files} files, {prompts} prompts, {changes} to "
                                           "record, {problems} problems").format(
            files=len(results), prompts=prompts, changes=changes, problems=problems),
            file=sys.stderr)
        return 1 if changes or problems else 0
    written = sum(r.written for r in results)
    print("tutor record: " + _("{changes} answers written in {written} of {files} files, "
                               "{problems} problems").format(
        changes=changes, written=written, files=len(results), problems=problems),
        file=sys.stderr)
    return 1 if problems else 0
