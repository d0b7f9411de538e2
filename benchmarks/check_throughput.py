"""`tutor check` wall time: bundled lessons, and N generated trivial lessons, against one
fresh python process per lesson.

    .venv/bin/python benchmarks/check_throughput.py [--sizes 500 1000] [--jobs N]
                                                    [--mode fork|spawn] [--no-reuse]
                                                    [--no-bundled]

What is measured:

* `tutor check` as a subprocess, wall clock, start to exit: it includes starting
  the kernel (one `import torch`), loading the lessons, running every lesson in a
  fresh forked process and judging its reference answers.
* per lesson after the import: (wall - wall of checking 1 lesson) / (N - 1).
* the baseline: `python -c "import torch; <the lesson's code and check>"` for 10
  of the generated lessons, one process each, extrapolated to N.

`--mode` sets TUTOR_KERNEL for every `tutor check` (default: unset, tutor chooses).
In spawn mode a worker (a torch import) serves lesson runs one after the other while
each leaves it unchanged (tutor/kernel/reuse.py); `--no-reuse` sets
TUTOR_SPAWN_REUSE=0: a worker per lesson run.  The CPU time printed is that of `tutor
check` and every process it waited for.

Targets (issue #29): <= 10 ms per lesson after the import; spawn mode's check of the
course <= 5x fork mode's.  Earlier targets (issue #6, 2 cores): <= 30 ms per trivial
lesson after the single torch import, >= 10x faster than a process per lesson, 1000
lessons in <= 30 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, TUTOR, median, print_machine, verdict  # noqa: E402

LESSON = """\
id: gen/l{i:05d}
title: Generated lesson {i}
topic: tensors
level: 1
steps:
  - code: |
      x = torch.tensor([{i}.0, 2.0])
      y = x * 2
    predict:
      - ask: What is x.sum()?
        expect: x.sum().item()
        kind: number
        answer: "{total}.0"
      - ask: What is the shape of y?
        expect: y.shape
        kind: shape
        answer: "(2,)"
"""


def generate(directory: Path, n: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (directory / f"l{i:05d}.yaml").write_text(LESSON.format(i=i, total=i + 2))


CPU: dict[str, float] = {}
MODE = ""  # TUTOR_KERNEL for every check (--mode)
NO_REUSE = False  # TUTOR_SPAWN_REUSE=0 for every check (--no-reuse)


def check(path: Path | None, jobs: int | None) -> float:
    cmd = [TUTOR, "check"] + ([str(path)] if path else [])
    if jobs:
        cmd += ["-j", str(jobs)]
    env = dict(os.environ, TUTOR_PATH="")
    if MODE:
        env["TUTOR_KERNEL"] = MODE
    if NO_REUSE:
        env["TUTOR_SPAWN_REUSE"] = "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                          text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of tutor check and everything it waited for: the kernel and every run
    CPU[str(path)] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    if proc.returncode != 0:
        print(proc.stdout[-3000:])
        raise SystemExit(f"tutor check failed ({proc.returncode}): {last}")
    return wall


def process_per_lesson(n: int = 10) -> float:
    times = []
    for i in range(n):
        code = (f"import torch\nx = torch.tensor([{i}.0, 2.0])\ny = x * 2\n"
                f"assert x.sum().item() == {i + 2}.0 and tuple(y.shape) == (2,)")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--jobs", type=int, default=None, help="tutor check -j (default: its own)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--mode", choices=["fork", "spawn"], default=None,
                        help="TUTOR_KERNEL for every check (default: unset)")
    parser.add_argument("--no-reuse", action="store_true",
                        help="TUTOR_SPAWN_REUSE=0: spawn mode starts a worker per run")
    parser.add_argument("--no-bundled", action="store_true", help="skip the bundled course")
    args = parser.parse_args()
    global MODE, NO_REUSE
    MODE = args.mode or ""
    NO_REUSE = args.no_reuse
    print_machine()
    jobs = args.jobs or os.cpu_count()
    print(f"tutor check -j {jobs}; TUTOR_KERNEL={MODE or '(unset)'}"
          + ("; TUTOR_SPAWN_REUSE=0" if NO_REUSE else ""))

    if not args.no_bundled:
        bundled = median([check(None, args.jobs) for _ in range(args.repeat)])
        n_bundled = sum(1 for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml")
        print(f"bundled lessons ({n_bundled} files): {bundled:.2f} s wall, "
              f"{bundled / n_bundled * 1000:.0f} ms/lesson overall; "
              f"CPU (all processes) {CPU['None']:.1f} s")

    baseline = process_per_lesson()
    print(f"one python process per lesson (median of 10): {baseline * 1000:.0f} ms/lesson")

    with tempfile.TemporaryDirectory(prefix="tutor-bench-") as tmp:
        one = Path(tmp, "one")
        generate(one, 1)
        single = median([check(one, args.jobs) for _ in range(max(3, args.repeat))])
        single_cpu = CPU[str(one)]
        print(f"1 generated lesson: {single:.2f} s wall, {single_cpu:.2f} s CPU "
              "(start-up: kernel + torch import)")
        for n in args.sizes:
            d = Path(tmp, f"n{n}")
            generate(d, n)
            wall = median([check(d, args.jobs) for _ in range(args.repeat)])
            per = (wall - single) / (n - 1)
            cpu = (CPU[str(d)] - single_cpu) / (n - 1)
            speedup = baseline / per if per > 0 else float("inf")
            print(f"{n} generated lessons: {wall:.2f} s wall, {per * 1000:.1f} ms/lesson after "
                  f"the import, {n / wall:.0f} lessons/s overall; a process per lesson: "
                  f"{baseline * n:.0f} s (extrapolated) -> {speedup:.0f}x faster per lesson, "
                  f"{baseline * n / wall:.0f}x overall; CPU (all processes) "
                  f"{CPU[str(d)]:.1f} s, {cpu * 1000:.1f} ms/lesson after the import")
            print(f"  <= 10 ms/lesson (issue #29): {verdict(per <= 0.010)}; "
                  f"<= 30 ms/lesson: {verdict(per <= 0.030)}; >= 10x: {verdict(speedup >= 10)}"
                  + (f"; 1000 in <= 30 s: {verdict(wall <= 30)}" if n == 1000 else ""))


if __name__ == "__main__":
    main()
