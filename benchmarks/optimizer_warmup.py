"""The first optimizer in a lesson run: what a learner waits for in lessons/17-optimizers.

    .venv/bin/python benchmarks/optimizer_warmup.py [--runs 5] [--modes fork,spawn]

Constructing the first `torch.optim.SGD`/`Adam` in a process imports `torch._dynamo`
(about 800 modules, sympy among them) the first time an optimizer method decorated
with `torch._disable_dynamo` is called.  Unless the kernel's warm-up has done that
already, every lesson run pays it again (a forked run starts from the zygote's
memory; a spawned worker from its own warm-up).  Per mode this prints:

    ready          Kernel() to `wait_ready()` (the warm-up is part of it);
    plain step     a run with one step that makes no optimizer (fork's cost per run);
    first SGD      a run whose step builds an SGD and an Adam, zero_grad and step
                   (p50, p95, max of `--runs`; target p50 <= 250 ms);
    modules        how many modules the run's step imported (0 once warmed up);
    threads        the kernel process's threads after the warm-up (fork mode: must
                   be 1, or forking it would be unsafe).

Spawn-mode runs are `--pause` seconds apart so that the pool has refilled.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import each_mode, latency_line, modes_parser, pct  # noqa: E402

from tutor.kernel import Kernel  # noqa: E402

PLAIN = "x = torch.tensor(5.0, requires_grad=True)\n(x ** 2).backward()"
OPTIM = """\
import sys
before = len(sys.modules)
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
adam = torch.optim.Adam([w], lr=0.1)
(w * w).sum().backward()
sgd.step(); adam.step(); sgd.zero_grad()
imported = len(sys.modules) - before
"""
TARGET_MS = 250.0


def timed(kernel: Kernel, code: str) -> tuple[float, int]:
    started = time.perf_counter()
    with kernel.open_session() as run:
        reply = run.run_step(code, timeout=120)
        if reply.get("error"):
            raise SystemExit(f"the step failed: {reply['error']}")
        imported = run.observe("imported")["value"] if "imported" in code else 0
    return time.perf_counter() - started, int(imported)


def threads(pid: int | None) -> str:
    if pid is None:
        return "- (no kernel process in spawn mode)"
    try:
        return str(len(list(Path(f"/proc/{pid}/task").iterdir())))
    except OSError:
        return "?"



def mode(name: str, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    kernel = Kernel(mode=name)
    try:
        info = kernel.wait_ready()
        print(f"{name}: {kernel.describe_mode()}")
        print(f"  {'ready':>11}: {(time.perf_counter() - started) * 1000:8.1f} ms")
        print(f"  {'threads':>11}: {threads(info.get('pid'))}")
        plain, optim, modules = [], [], []
        for _ in range(args.runs):
            if name == "spawn":
                time.sleep(args.pause)
            plain.append(timed(kernel, PLAIN)[0])
            if name == "spawn":
                time.sleep(args.pause)
            seconds, imported = timed(kernel, OPTIM)
            optim.append(seconds)
            modules.append(imported)
        print(latency_line("plain step", plain, 11))
        print(latency_line("first SGD", optim, 11))
        print(f"  {'modules':>11}: imported by the optimizer step: {sorted(set(modules))}")
        p50 = pct([v * 1000 for v in optim], 50)
        print(f"  target: first optimizer in a run p50 <= {TARGET_MS:.0f} ms: "
              f"{'meets' if p50 <= TARGET_MS else 'MISSES'}")
    finally:
        kernel.shutdown()


def main() -> None:
    parser = modes_parser(__doc__ or "", runs=5,
                          pause_help="spawn mode: seconds between runs (the pool refills)")
    each_mode(parser.parse_args(), mode)


if __name__ == "__main__":
    main()
