"""Time from starting `tutor` to the lesson titles on screen (tmux), against `import torch`.

    .venv/bin/python benchmarks/first_paint.py [--runs 5] [--lessons 500] [--marker TEXT]
                                               [--baseline DIR]

Each run starts `tutor` (no arguments: the app) in a new detached tmux session
of 120x40 with a fresh temporary TUTOR_HOME, then polls `tmux capture-pane`
every 5 ms until the marker text is on the screen.  The default marker is the title
of the first lesson of the course list, which shows only once the catalog is loaded
(the tagline, the old marker, shows before any lesson is read: `--marker tagline`).
Measured from just before `tmux new-session` to the first capture that shows it.

`--lessons N` (N above the bundled count) adds N - bundled generated lessons in a
TUTOR_PATH directory: copies of the bundled lesson files under new ids, so they are
as long as real ones.  Each size is timed twice: `cold`, with an empty cache
directory every run (every file read and validated), and `warm`, with the catalog
index written by a first run left in place (docs/performance.md, "Catalog index").

`--baseline DIR` (another checkout, e.g. `git worktree add /tmp/old main`) runs its
code (PYTHONPATH=DIR) and this one's, each warm and cold, one run each in turn for
`--runs` rounds with a torch import timed in each round: on a shared machine the
load changes within minutes, and only interleaved figures compare.

The same is done for a trivial command (`printf READY`) to measure what
tmux itself adds; "net" subtracts that median.  `python -c "import torch"` is
timed in the same run for comparison.  The UI process is also checked for torch:
its /proc/PID/maps must not map libtorch.

Targets: first paint <= 0.5 s (issue #6, the tagline); lesson titles on screen
<= 0.35x a torch import with 500 lessons in the catalog (issue #29).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, TUTOR, median, print_machine, torch_import_seconds, verdict  # noqa: E402

TAGLINE = "predict, then run"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, stdout=subprocess.PIPE,
                          text=True).stdout


def paint(command: str, marker: str, env: dict[str, str], timeout: float = 20.0,
          keep: bool = False) -> tuple[float, str, int]:
    """Seconds until `marker` shows in a new tmux pane running `command`."""
    name = f"tutor-bench-{os.getpid()}-{time.monotonic_ns()}"
    env_args = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    started = time.perf_counter()
    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", *env_args, command)
    try:
        pid = int(tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip())
        while True:
            screen = tmux("capture-pane", "-p", "-t", name)
            if marker in screen:
                return time.perf_counter() - started, name if keep else "", pid
            if time.perf_counter() - started > timeout:
                raise SystemExit(f"{marker!r} did not appear within {timeout} s; screen:\n"
                                 f"{screen}")
            time.sleep(0.005)
    finally:
        if not keep:
            subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)


def wait_gone(pid: int, timeout: float = 10.0) -> None:
    """Wait until `pid` and the kernel it started have exited (no CPU left in use)."""
    deadline = time.monotonic() + timeout
    marker = f"--parent\0{pid}\0".encode()
    while time.monotonic() < deadline:
        busy = os.path.exists(f"/proc/{pid}")
        for name in os.listdir("/proc") if not busy else ():
            try:
                if name.isdigit() and marker in Path(f"/proc/{name}/cmdline").read_bytes():
                    busy = True
                    break
            except OSError:
                continue
        if not busy:
            return
        time.sleep(0.02)


def maps_torch(pid: int) -> bool:
    try:
        return "libtorch" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def first_title() -> str:
    """The start of the first lesson title of the course list (plain text)."""
    from tutor.course import course_lessons
    from tutor.lesson import load_catalog
    from tutor.markup import plain_inline

    catalog = load_catalog([], with_env=False, with_bundled=True)
    return plain_inline(course_lessons(catalog)[0].title)[:24]


def generate(directory: Path, n: int) -> int:
    """`n` copies of the bundled lesson files, under new ids; how many were written."""
    sources = sorted(p for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml")
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        source = sources[i % len(sources)]
        text = re.sub(r"^id:[ \t]*(\S+)", rf"id: gen{i:04d}/\1", source.read_text(), count=1,
                      flags=re.MULTILINE)
        (directory / f"g{i:04d}-{source.name}").write_text(text)
    return n


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process `pid` has used so far (Linux: /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_runs(runs: int, marker: str, env: dict[str, str], warm: bool
              ) -> tuple[list[float], bool, list[float]]:
    """`runs` timings of `tutor` until `marker` shows, whether the UI mapped torch, and
    the UI process's CPU time when it showed (steadier than wall time on a busy machine;
    in clock ticks, 10 ms); `warm`: one untimed run first writes the catalog index and
    every run keeps it (else: an empty cache each run)."""
    times, cpus = [], []
    torch_in_ui = False
    cache = tempfile.mkdtemp(prefix="tutor-bench-cache-")
    try:
        for i in range(runs + (1 if warm else 0)):
            home = tempfile.mkdtemp(prefix="tutor-bench-home-")
            if not warm:
                shutil.rmtree(cache, ignore_errors=True)
                os.mkdir(cache)
            try:
                seconds, name, pid = paint(f"exec {TUTOR}", marker,
                                           dict(env, TUTOR_HOME=home, XDG_CACHE_HOME=cache),
                                           keep=True, timeout=60)
                cpu = cpu_seconds(pid)
                time.sleep(1.5 if i == 0 else 0.1)  # let the kernel start in the first run
                torch_in_ui |= maps_torch(pid)
                subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)
                if not (warm and i == 0):
                    times.append(seconds)
                    cpus.append(cpu)
                wait_gone(pid)  # the next run must not compete with this one's kernel
            finally:
                shutil.rmtree(home, ignore_errors=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return times, torch_in_ui, cpus


def interleaved(args: argparse.Namespace, marker: str, size: int, bundled: int) -> None:
    """`--baseline`: the other checkout and this one, warm and cold, one run each in turn
    (a baseline without a catalog index reads every file in both)."""
    with tempfile.TemporaryDirectory(prefix="tutor-bench-lessons-") as extra:
        added = generate(Path(extra), size - bundled) if size > bundled else 0
        here = str(ROOT)
        kinds = (("baseline warm", args.baseline, True), ("warm", here, True),
                 ("baseline cold", args.baseline, False), ("cold", here, False))
        times: dict[str, list[float]] = {name: [] for name, _, _ in kinds}
        cpus: dict[str, list[float]] = {name: [] for name, _, _ in kinds}
        torch = []
        for _ in range(args.runs):
            for name, path, warm in kinds:
                env = {"PYTHONPATH": path, "TERM": "xterm-256color",
                       "TUTOR_PATH": extra if added else ""}
                took, _maps, cpu = time_runs(1, marker, env, warm)
                times[name] += took
                cpus[name] += cpu
            torch.append(torch_import_seconds(1))
        torch_s = median(torch)
        for name, values in times.items():
            print(f"{bundled + added} lessons, {name}: median {median(values) * 1000:.0f} ms = "
                  f"{median(values) / torch_s:.2f}x a torch import (median {torch_s * 1000:.0f} "
                  f"ms), CPU {median(cpus[name]) * 1000:.0f} ms; runs "
                  f"{', '.join(f'{v:.2f}' for v in values)} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lessons", type=int, nargs="*", default=[0, 500],
                        help="catalog sizes (0: the bundled lessons only)")
    parser.add_argument("--baseline", default=None,
                        help="another checkout to compare with, interleaved")
    parser.add_argument("--marker", default=None,
                        help="text to wait for (default: the first lesson title; "
                        "'tagline': the catalog's tagline)")
    args = parser.parse_args()
    if not shutil.which("tmux"):
        raise SystemExit("tmux is needed for this benchmark")
    print_machine()
    marker = TAGLINE if args.marker == "tagline" else args.marker or first_title()
    print(f"waiting for: {marker!r}")
    overhead = median([paint("printf READY; sleep 30", "READY", {})[0] for _ in range(5)])
    print(f"tmux alone (printf READY): {overhead * 1000:.0f} ms")
    torch_s = torch_import_seconds()
    print(f'python -c "import torch": {torch_s * 1000:.0f} ms')
    bundled = sum(1 for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml")
    base = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "TERM": "xterm-256color"}
    if args.baseline:
        for size in args.lessons:
            interleaved(args, marker, size, bundled)
        return
    torch_in_ui = False
    for size in args.lessons:
        with tempfile.TemporaryDirectory(prefix="tutor-bench-lessons-") as extra:
            added = generate(Path(extra), size - bundled) if size > bundled else 0
            env = dict(base, TUTOR_PATH=extra if added else "")
            for warm in (False, True):
                times, maps, cpus = time_runs(args.runs, marker, env, warm)
                torch_in_ui |= maps
                first = median(times)
                print(f"{bundled + added} lessons, {'warm' if warm else 'cold'} index: median "
                      f"{first * 1000:.0f} ms over {len(times)} runs (min "
                      f"{min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; CPU "
                      f"{median(cpus) * 1000:.0f} ms); net of tmux "
                      f"{(first - overhead) * 1000:.0f} ms; {first / torch_s:.2f}x a torch "
                      "import" + (f"; <= 0.35x: {verdict(first <= 0.35 * torch_s)}"
                                  if bundled + added >= 500 and warm else ""))
    print(f"UI process maps libtorch: {'YES' if torch_in_ui else 'no'}")


if __name__ == "__main__":
    main()
