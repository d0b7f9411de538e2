"""Lesson-run latency in fork mode, in spawn mode, and for CUDA runs.

    .venv/bin/python benchmarks/kernel_modes.py [--runs 10] [--pause 3] [--cuda | --fake-cuda]
                                                [--python PATH]

For each mode (`fork`, `spawn`):

    ready         Kernel() to `wait_ready()`: the torch import (fork: the zygote's;
                  spawn: the first pool worker's);
    re-run        a learner re-running a lesson: open a lesson run, one step with a
                  prompt, close; `--pause` seconds apart, so that spawn mode's pool
                  has refilled (p50, p95, max of `--runs`);
    back to back  the same with no pause: spawn mode then waits for its pool's
                  replacement workers (a torch import each), fork mode does not;
    batch, b2b    the same in a batch kernel (`Kernel(batch=True)`, as `tutor check`
                  uses): in spawn mode a worker that a run left unchanged serves the
                  next run (tutor/kernel/reuse.py), so nothing waits for an import.

`--cuda` (a GPU) or `--fake-cuda` (TUTOR_KERNEL_FAKE_CUDA=1: the same path, no CUDA
call) adds CUDA runs, `Kernel.open_session(cuda=True)`: the first one (a worker that
imports torch and initialises CUDA while the learner waits), then re-runs `--pause`
seconds apart (a prepared worker each time; target p50 <= 250 ms on a GPU), with a
step that allocates on the GPU and synchronizes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import each_mode, latency_line, modes_parser, pct  # noqa: E402

from tutor.kernel import Kernel  # noqa: E402

STEP = "x = torch.tensor(5.0, requires_grad=True)\n(x ** 2).backward()"
CUDA_STEP = ("x = torch.ones(1000, device='cuda', requires_grad=True)\n"
             "(x * x).sum().backward()\ntorch.cuda.synchronize()")
PROMPTS = [{"kind": "number", "expect": "x.grad.sum()"}]


def one_run(kernel: Kernel, *, cuda: bool = False, fake: bool = False) -> float:
    started = time.perf_counter()
    with kernel.open_session(cuda=cuda) as run:
        reply = run.run_step(CUDA_STEP if cuda and not fake else STEP, prompts=PROMPTS,
                             timeout=60)
        if reply.get("error"):
            raise SystemExit(f"the step failed: {reply['error']}")
    return time.perf_counter() - started



def mode(name: str, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    kernel = Kernel(python=args.python, mode=name)
    try:
        kernel.wait_ready()
        print(f"{name}: {kernel.describe_mode()}")
        print(f"  {'ready':>13}: {(time.perf_counter() - started) * 1000:8.1f} ms")
        one_run(kernel)  # discarded
        paused = []
        for _ in range(args.runs):
            time.sleep(args.pause)
            paused.append(one_run(kernel))
        print(latency_line("re-run", paused))
        print(latency_line("back to back", [one_run(kernel) for _ in range(args.runs)]))
    finally:
        kernel.shutdown()
    batch = Kernel(python=args.python, mode=name, batch=True)
    try:
        batch.wait_ready()
        one_run(batch)  # discarded
        print(latency_line("batch, b2b", [one_run(batch) for _ in range(args.runs)]))
        if name == "spawn":
            print(f"  {'':>13}  workers: {batch.worker_stats()}")
    finally:
        batch.shutdown()


def cuda(args: argparse.Namespace) -> None:
    if args.fake_cuda:
        os.environ["TUTOR_KERNEL_FAKE_CUDA"] = "1"
    kernel = Kernel(python=args.python)
    try:
        kernel.wait_ready()
        print(f"cuda: {kernel.describe_mode()}; {kernel.describe_cuda()}")
        if not kernel.info.get("cuda"):
            print("  no CUDA device: nothing to measure")
            return
        first = one_run(kernel, cuda=True, fake=args.fake_cuda)
        print(f"  {'first run':>13}: {first * 1000:8.1f} ms (includes CUDA start-up)")
        again = []
        for _ in range(args.runs):
            time.sleep(args.pause)
            again.append(one_run(kernel, cuda=True, fake=args.fake_cuda))
        print(latency_line("re-run", again))
        verdict = "meets" if pct([a * 1000 for a in again], 50) <= 250 else "MISSES"
        print(f"  target: a CUDA re-run <= 250 ms (p50): {verdict}"
              + (" (simulated CUDA: the figure is the spawn path only)" if args.fake_cuda else ""))
        print(f"  {kernel.info.get('gpu_memory', '')}")
    finally:
        kernel.shutdown()


def main() -> None:
    parser = modes_parser(__doc__ or "", runs=10,
                          pause_help="seconds between re-runs (a learner reading the lesson)")
    parser.add_argument("--python", default=None, help="the kernel's interpreter")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--cuda", action="store_true", help="also measure CUDA runs (a GPU)")
    group.add_argument("--fake-cuda", action="store_true", help="the CUDA path, simulated")
    args = parser.parse_args()
    each_mode(args, mode)
    if args.cuda or args.fake_cuda:
        cuda(args)


if __name__ == "__main__":
    main()
