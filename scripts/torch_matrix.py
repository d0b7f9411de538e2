#!/usr/bin/env python3
"""The course (or given lesson paths) on several torch versions: one `tutor check`
per interpreter, through `tutor --python`, and a table of what passed, failed and was
skipped on each.  Not part of CI (each interpreter needs its own environment with one
torch version); run it before a release (docs/releasing.md).

    python scripts/torch_matrix.py ~/venvs/torch21/bin/python ~/venvs/torch26/bin/python
    python scripts/torch_matrix.py --path my_pack PYTHON...    # a pack instead of the course
    python scripts/torch_matrix.py --json PYTHON...            # the rows as JSON

Exits 1 when a lesson fails or errors on any interpreter (or a check cannot run), 0
otherwise.  Uses the tutor importable here (run it from a checkout with the checkout's
environment active, or with PYTHONPATH set to it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

COLUMNS = ("torch", "numpy", "passed", "failed", "skipped", "errored", "prompts", "seconds")


def check(python: str, paths: list[str], timeout: float) -> dict[str, Any]:
    """One interpreter's row: `tutor --python PYTHON check PATHS --json`, summed up."""
    started = time.monotonic()
    command = [sys.executable, "-m", "tutor", "--python", python, "check", *paths, "--json"]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"python": python, "error": f"timed out after {timeout:.0f} s"}
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        why = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"python": python, "error": why}
    lessons, prompts = report["lessons"], report["prompts"]
    failing = sorted({r["lesson"] for r in report["records"]
                      if (r.get("type") == "prompt" and not r["passed"])
                      or (r.get("type") == "lesson" and r["status"] == "error")})
    skipped = sorted({f"{r['lesson']}: {r['reason']}" for r in report["records"]
                      if r.get("type") == "lesson" and r["status"] == "skipped"})
    return {
        "python": python,
        "torch": report.get("torch"),
        "numpy": report.get("numpy") or "-",
        "numpy_error": report.get("numpy_error"),
        "passed": lessons["passed"],
        "failed": lessons["failed"],
        "skipped": lessons["skipped"],
        "errored": lessons["error"],
        "prompts": f"{prompts['passed']}/{prompts['passed'] + prompts['failed']}",
        "seconds": round(time.monotonic() - started, 1),
        "failing": failing,
        "skips": skipped,
    }


def table(rows: list[dict[str, Any]]) -> str:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in COLUMNS}
    lines = ["  ".join(c.ljust(widths[c]) if c in ("torch", "numpy") else c.rjust(widths[c])
                       for c in COLUMNS)]
    notes = []
    for r in rows:
        if "error" in r:
            lines.append(f"{r['python']}: cannot check: {r['error']}")
            continue
        lines.append("  ".join(str(r[c]).ljust(widths[c]) if c in ("torch", "numpy")
                               else str(r[c]).rjust(widths[c]) for c in COLUMNS))
        if r["failing"]:
            notes.append(f"torch {r['torch']}: failing: {', '.join(r['failing'])}")
        if r["numpy_error"]:
            notes.append(f"torch {r['torch']}: NumPy does not work: {r['numpy_error']}")
    return "\n".join(lines + ([""] + notes if notes else []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pythons", nargs="+", metavar="PYTHON",
                        help="interpreters, each with its own torch")
    parser.add_argument("--path", action="append", default=[], dest="paths",
                        help="a lesson file or directory (repeatable; default: the bundled "
                        "course)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds allowed per interpreter (default 1800)")
    args = parser.parse_args(argv)
    rows = []
    for python in args.pythons:
        print(f"checking on {python} ...", file=sys.stderr)
        rows.append(check(python, args.paths, args.timeout))
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    bad = any("error" in r or r["failed"] or r["errored"] for r in rows)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
