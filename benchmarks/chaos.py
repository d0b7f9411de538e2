"""How long `tutor check -j N` takes on the chaos course of tests/kernel/test_chaos.py.

    .venv/bin/python benchmarks/chaos.py [--seed N] [--jobs 2] [--lessons 200]
                                         [--mode fork|spawn] [--runs 1]

The test asserts what happens to every lesson (good ones pass, bad ones are reported
with their cause, nothing is left running); how long it takes is a figure for this
script (it was < 60 s for 200 lessons with -j 2 on a quiet 2-core machine in fork
mode).  Every outcome is checked here too, so a figure is only printed for a run
that behaved.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "kernel"))
from _common import print_machine  # noqa: E402
from test_chaos import GOOD, LESSONS, run_chaos  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="default: random, printed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--lessons", type=int, default=LESSONS)
    parser.add_argument("--mode", choices=["fork", "spawn"], default="fork",
                        help="TUTOR_KERNEL for the check, and the kinds of lesson (default: fork)")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    print_machine()
    for _ in range(args.runs):
        seed = args.seed if args.seed is not None else random.randrange(10**6)
        with tempfile.TemporaryDirectory() as tmp:
            elapsed, chosen = run_chaos(Path(tmp), seed, jobs=args.jobs, lessons=args.lessons,
                                        mode=args.mode)
        good = sum(name in GOOD for name in chosen)
        print(f"seed {seed}: {len(chosen)} lessons ({good} good), -j {args.jobs}, "
              f"mode {args.mode}: {elapsed:.1f} s "
              f"({elapsed / len(chosen) * 1000:.0f} ms per lesson)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
