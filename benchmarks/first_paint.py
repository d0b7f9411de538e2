"""Time to first paint of `tutor` in a real terminal (tmux), against `import torch`.

    .venv/bin/python benchmarks/first_paint.py [--runs 5] [--marker TEXT]

Each run starts `tutor` (no arguments: the app) in a new detached tmux session
of 120x40 with a fresh temporary TUTOR_HOME, then polls `tmux capture-pane`
every 5 ms until the marker text (default: the catalog's tagline) is on the
screen.  Measured from just before `tmux new-session` to the first capture that
shows it.  The same is done for a trivial command (`printf READY`) to measure what
tmux itself adds; "net" subtracts that median.  `python -c "import torch"` is
timed in the same run for comparison.  The UI process is also checked for torch:
its /proc/PID/maps must not map libtorch.

Target (issue #6): first paint <= 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TUTOR, median, print_machine, torch_import_seconds, verdict  # noqa: E402

MARKER = "predict, then run"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--marker", default=MARKER)
    args = parser.parse_args()
    if not shutil.which("tmux"):
        raise SystemExit("tmux is needed for this benchmark")
    print_machine()
    overhead = median([paint("printf READY; sleep 30", "READY", {})[0] for _ in range(5)])
    times = []
    torch_in_ui = False
    for i in range(args.runs):
        home = tempfile.mkdtemp(prefix="tutor-bench-home-")
        try:
            env = {"TUTOR_HOME": home, "TUTOR_PATH": "", "TERM": "xterm-256color"}
            seconds, name, pid = paint(f"exec {TUTOR}", args.marker, env, keep=True)
            time.sleep(1.5 if i == 0 else 0.1)  # let the kernel start in the first run
            torch_in_ui |= maps_torch(pid)
            subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)
            times.append(seconds)
            wait_gone(pid)  # the next run must not compete with this one's kernel
        finally:
            shutil.rmtree(home, ignore_errors=True)
    torch_s = torch_import_seconds()
    first, net = median(times), median(times) - overhead
    print(f"tmux alone (printf READY): {overhead * 1000:.0f} ms")
    print(f"tutor first paint: median {first * 1000:.0f} ms over {len(times)} runs "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}); "
          f"net of tmux {net * 1000:.0f} ms")
    print(f'python -c "import torch": {torch_s * 1000:.0f} ms '
          f"({torch_s / first:.1f}x the first paint)")
    print(f"UI process maps libtorch: {'YES' if torch_in_ui else 'no'}")
    print(f"first paint <= 0.5 s: {verdict(first <= 0.5)}")


if __name__ == "__main__":
    main()
