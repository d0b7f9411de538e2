"""`tutor check [PATH...]`: run lessons against live torch; fail when an answer drifts."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from tutor.commands.common import (
    add_path_option,
    catalog_for,
    count,
    print_problems,
    print_warnings,
    seconds,
)
from tutor.engine import LessonCheck, PromptCheck, check_lesson, kernel_broke, spoken
from tutor.i18n import ENGLISH, N_, _, cell, ngettext, set_language
from tutor.i18n import width as cell_width
from tutor.kernel import Kernel, KernelError
from tutor.lesson.model import Lesson
from tutor.lesson.vary import describe
from tutor.lesson.warmth import needs_optimizers
from tutor.safetext import json_dumps

MAX_JOBS = 256
MAX_REPEAT = 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=_("lesson files, directories or lesson ids: only these run; other packs still count "
               "for duplicate ids (default: every lesson: bundled, --path, TUTOR_PATH, "
               "installed)"),
    )
    add_path_option(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help=_("print a JSON report on stdout (progress goes to stderr); its messages are "
               "in English whatever the language"),
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=count(1, MAX_JOBS, N_("number of jobs")),
        default=os.cpu_count() or 1,
        metavar="N",
        help=_("lessons run in parallel (default: number of CPUs)"),
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help=_("time allowed per step (default: the lesson's, else 10)"),
    )
    parser.add_argument(
        "--repeat",
        type=count(1, MAX_REPEAT, N_("number of runs")),
        default=1,
        metavar="N",
        help=_("run each lesson N times and flag prompts whose live value changes between "
               "runs"),
    )


def _kernel_died_under(check: LessonCheck) -> bool:
    # (a lesson charged with stopping the zygote is run again alone too: with -j N the
    # zygote it found stopped may have been stopped by the lesson running beside it)
    return check.status == "error" and kernel_broke(check.failure_kind)


class _Gate:
    """Lessons run side by side; a lesson re-run after a kernel death runs alone."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._running = 0
        self._alone = False

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._alone)
            self._running += 1
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._alone)
            self._alone = True
            self._cond.wait_for(lambda: self._running == 0)
        try:
            yield
        finally:
            with self._cond:
                self._alone = False
                self._cond.notify_all()


LABELS = {"passed": N_("ok"), "failed": N_("FAILED"), "skipped": N_("skipped"),
          "error": N_("ERROR")}


def _line(check: LessonCheck) -> str:
    n = len(check.prompts)
    text = f"{check.lesson} {'.' * max(2, 40 - len(check.lesson))} {_(LABELS[check.status])}"
    if check.status == "skipped":
        return f"{text} ({check.reason})"
    bad = sum(not p.passed for p in check.prompts)
    detail = _("{good}/{n} prompts").format(good=n - bad, n=n) if bad else \
        ngettext("{n} prompt", "{n} prompts", n).format(n=n)
    skipped = sum(p.verdict == "skipped" for p in check.prompts)
    if skipped:
        detail += _(", {n} skipped (their `requires:`)").format(n=skipped)
    if check.variants > 1:
        detail += _(" in {n} variants").format(n=check.variants)
    if check.skipped_variants:
        detail += ngettext("; {n} variant skipped: {which}", "; {n} variants skipped: {which}",
                           len(check.skipped_variants)).format(
            n=len(check.skipped_variants), which="; ".join(check.skipped_variants))
    return f"{text} (" + _("{detail}, {seconds} s").format(
        detail=detail, seconds=f"{check.seconds:.2f}") + ")"


def _failures(checks: list[LessonCheck], out: TextIO) -> None:
    bad = [c for c in checks if c.status in ("failed", "error")]
    if not bad:
        return
    print("\n" + _("Failures:"), file=out)
    for check in bad:
        if check.status == "error" and check.reason:
            print(f"\n{check.file}:{check.line}: {check.lesson}: {check.reason}", file=out)
        for p, variants in _distinct_failures(check):
            message = p.message
            if len(variants) > 1:  # the same failure in several variants: printed once
                values = _("in every variant") if len(variants) == check.variants else \
                    _("in {n} variants").format(n=len(variants))
                message = f"{values} ({'; '.join(variants)}): {_bare(p)}"
            where = _("{lesson} step {step} prompt {prompt}: {ask}").format(
                lesson=p.lesson, step=p.step + 1, prompt=p.prompt + 1, ask=p.ask)
            print(f"\n{p.file}:{p.line}: {where}", file=out)
            answer = p.answer if p.answer is not None else _("(none)")
            width = max(map(cell_width, (_("answer:"), _("live:")))) + 1
            print("  " + cell(_("answer:"), width) + str(answer), file=out)
            if p.expected is not None:
                print("  " + cell(_("live:"), width) + spoken(str(p.expected), p.kind),
                      file=out)
            print(f"  {message}", file=out)


def _bare(p: PromptCheck) -> str:
    """A failure's message without the variant it names (`with x = 2: ...`)."""
    prefix = _("with {values}: ").format(values=describe(p.variant)) if p.variant else ""
    return p.message[len(prefix):] if prefix and p.message.startswith(prefix) else p.message


def _distinct_failures(check: LessonCheck) -> list[tuple[PromptCheck, list[str]]]:
    """The failing prompts, one per distinct failure (same prompt, answer, live value and
    message in several variants: once), each with the variants it failed in."""
    groups: dict[tuple[object, ...], tuple[PromptCheck, list[str]]] = {}
    for p in check.prompts:
        if p.passed:
            continue
        key = (p.step, p.prompt, p.answer, p.expected, _bare(p))
        groups.setdefault(key, (p, []))[1].append(describe(p.variant) if p.variant else "")
    return list(groups.values())


def _runs(lessons: list[Lesson], repeat: int) -> dict[str, int]:
    """The lesson runs a check asks of the kernel, at most, by kind (one per variant and
    repeat): CUDA runs, runs that load `modules:` (`once`) and the rest."""
    runs = {"cpu": 0, "once": 0, "cuda": 0}
    for lesson in lessons:
        kind = "cuda" if lesson.requires.cuda else "once" if lesson.modules else "cpu"
        runs[kind] += max(1, len((lesson.template or lesson).variants)) * repeat
    return runs


def run(args: argparse.Namespace) -> int:
    if args.json:  # a report for programs: its messages stay English (docs/translating.md)
        set_language(ENGLISH)
    started = time.monotonic()
    # (the whole catalog, or lesson ids, always has an optimizer lesson)
    optimizers = not args.paths or needs_optimizers(args.paths)
    kernel = Kernel(pool_size=min(max(2, args.jobs), 4), batch=True, optimizers=optimizers)
    kernel.start()  # torch loads while the lessons are read
    catalog = catalog_for(args.paths, args.path)
    progress = sys.stderr if args.json else sys.stdout
    if not catalog.lessons and not catalog.errors:  # nothing checked is not a pass
        where = ", ".join(map(str, [*args.paths, *args.path])) or _("the bundled lessons")
        print("tutor check: " + _("no lesson files found in {where} (a lesson file is a .yaml "
                                  "or .yml file with at least two of the top-level keys id, "
                                  "title, topic, steps; build/, dist/, hidden directories and "
                                  "virtual environments are not searched)").format(where=where),
              file=sys.stderr)
        kernel.shutdown()
        return 1
    try:
        info = kernel.wait_ready()
    except KernelError as exc:
        print("tutor check: " + _("the kernel could not start: {why}").format(why=exc),
              file=sys.stderr)
        kernel.shutdown()
        return 2
    print("tutor check: " + _("{n} lessons, torch {torch}, python {python}, {jobs} at a "
                              "time").format(n=len(catalog.lessons), torch=info.get("torch_full"),
                                             python=info.get("python"), jobs=max(1, args.jobs)),
          file=progress)
    print(_("kernel: {mode}; {cuda}").format(mode=kernel.describe_mode(),
                                             cuda=kernel.describe_cuda()), file=progress)
    if info.get("numpy_error"):  # (torch built against NumPy 1, NumPy 2 installed)
        print(f"numpy: {info['numpy_error']}: " + _("lessons that use NumPy are skipped (a "
                                                     "torch older than 2.3 needs numpy<2)"),
              file=progress)
    kernel.plan(**_runs(catalog.lessons, max(1, args.repeat)))
    if any(lesson.requires.cuda for lesson in catalog.lessons):
        kernel.prepare_cuda()  # CUDA starts in its worker while the other lessons run
    if any(lesson.modules for lesson in catalog.lessons):
        kernel.prepare_once()  # (spawn mode: their workers start while others run)
    print_problems(catalog.errors, file=progress)
    print_warnings(catalog, file=progress)

    gate = _Gate()
    jobs = max(1, args.jobs)

    def check_one(lesson):  # noqa: ANN001, ANN202
        if args.repeat > 1:
            from tutor.authoring.repeat import check_repeated

            return check_repeated(kernel, lesson, args.repeat, timeout=args.timeout)
        return check_lesson(kernel, lesson, timeout=args.timeout)

    def one(lesson):  # noqa: ANN001, ANN202
        with gate.shared():
            check = check_one(lesson)
        if _kernel_died_under(check):
            # the kernel died while this lesson ran (another lesson may have killed
            # it, or stopped it before this one started): run it again, alone, so that
            # each lesson's result is its own
            with gate.alone():
                check = check_one(lesson)
        return check

    checks: list[LessonCheck] = []
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for check in pool.map(one, catalog.lessons):
                checks.append(check)
                print(_line(check), file=progress, flush=True)
    finally:
        kernel.shutdown()
    elapsed = time.monotonic() - started
    counts = {
        s: sum(c.status == s for c in checks) for s in ("passed", "failed", "skipped", "error")
    }
    counts["error"] += len(catalog.errors)
    prompts = [p for c in checks for p in c.prompts]
    ok = counts["failed"] == 0 and counts["error"] == 0
    if args.json:
        records = [p.record() for p in prompts]
        records += [
            {
                "type": "lesson",
                "lesson": c.lesson,
                "file": c.file,
                "status": c.status,
                "reason": c.reason,
                "line": c.line,
            }
            for c in checks
            if c.status in ("skipped", "error")
        ]
        records += [
            {
                "type": "load_error",
                "file": p.file,
                "line": p.line,
                "col": p.col,
                "path": p.path,
                "message": p.message,
            }
            for p in catalog.problems
        ]
        report = {
            "ok": ok,
            "torch": info.get("torch_full"),
            "python": info.get("python"),
            "numpy": info.get("numpy"),
            "numpy_error": info.get("numpy_error"),
            "kernel": {"mode": kernel.mode, "reason": kernel.mode_reason,
                       # spawned workers: started, runs, runs on a reused worker, retired
                       "workers": {**kernel.worker_stats(), "reuse": kernel.reuses_workers}},
            "cuda": bool(info.get("cuda")),
            "seconds": round(elapsed, 3),
            "lessons": counts,
            "prompts": {
                "passed": sum(p.passed for p in prompts),
                "failed": sum(not p.passed for p in prompts),
            },
            "records": records,
        }
        print(json_dumps(report, indent=2))
    else:
        _failures(checks, sys.stdout)
        print("\n" + _("lessons: {passed} passed, {failed} failed, {skipped} skipped, "
                       "{errors} errors; prompts: {good} of {n} passed in {seconds} s").format(
            passed=counts["passed"], failed=counts["failed"], skipped=counts["skipped"],
            errors=counts["error"], good=sum(p.passed for p in prompts), n=len(prompts),
            seconds=f"{elapsed:.1f}"))
    return 0 if ok else 1
