"""Shared helpers for the benchmark scripts (not tests: they print figures)."""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TUTOR = str(BIN / "tutor") if (BIN / "tutor").exists() else "tutor"


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:  # e.g. a GPU machine without textual
        return "-"


def machine() -> dict[str, str]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "?"
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        ram = f"{kb / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        load = Path("/proc/loadavg").read_text().split()[:3]
    except OSError:
        load = ["?"]
    return {
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "ram": ram,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "torch": _version("torch"),
        "textual": _version("textual"),
        "user": "root" if hasattr(os, "geteuid") and os.geteuid() == 0 else "non-root",
        "load average": " ".join(load),
    }


def print_machine() -> None:
    info = machine()
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items()))


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def latency_line(name: str, seconds: list[float], width: int = 13) -> str:
    """`name: n=..  p50 .. ms  p95 .. ms  max .. ms` for durations in seconds."""
    ms = [v * 1000 for v in seconds]
    return (f"  {name:>{width}}: n={len(ms):3d}  p50 {pct(ms, 50):8.1f} ms  "
            f"p95 {pct(ms, 95):8.1f} ms  max {max(ms):8.1f} ms")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def torch_import_seconds(runs: int = 3) -> float:
    """Wall time of `python -c "import torch"` (median of `runs`)."""
    import time

    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import torch"], check=True)
        times.append(time.perf_counter() - started)
    return median(times)


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES target"


def modes_parser(doc: str, runs: int, pause_help: str) -> argparse.ArgumentParser:
    """The options of the scripts that time each kernel mode: --runs, --pause, --modes."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--pause", type=float, default=3.0, help=pause_help)
    parser.add_argument("--modes", default="fork,spawn", help="comma-separated kernel modes")
    return parser


def each_mode(args: argparse.Namespace, measure: Callable[[str, argparse.Namespace], None]
              ) -> None:
    """Print the machine, then `measure` every mode named by --modes."""
    print_machine()
    for name in args.modes.split(","):
        if name:
            measure(name, args)
