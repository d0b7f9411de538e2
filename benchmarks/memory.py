"""Peak memory of the UI process and of the kernel (zygote + one lesson run).

    .venv/bin/python benchmarks/memory.py

UI: `tutor` (the app) is started in tmux with a fresh TUTOR_HOME, left until the
catalog is painted and the kernel is ready (3 s), then the first lesson is
opened (Enter) and its first step run; then the UI's VmHWM (peak RSS) and
current RSS/PSS are read from /proc.  Kernel: a Kernel started by this script;
the zygote's RSS/PSS/private memory after warm-up, and a lesson run's after a
typical step (small tensors, autograd, a Linear module), read from
/proc/PID/smaps_rollup while the run is alive.  PSS splits shared pages between
the processes that share them; "private" is what the process alone costs
(Private_Clean + Private_Dirty): the real cost of one more run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TUTOR, print_machine  # noqa: E402
from first_paint import MARKER, paint  # noqa: E402

from tutor.kernel import Kernel  # noqa: E402


def mem(pid: int) -> dict[str, int]:
    """kB figures of a process (VmHWM, VmRSS from status; Pss, private from smaps_rollup)."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
            out[key] = int(rest.split()[0])
    private = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        if key == "Pss":
            out["Pss"] = int(rest.split()[0])
        elif key in ("Private_Clean", "Private_Dirty"):
            private += int(rest.split()[0])
    out["Private"] = private
    return out


def fmt(figures: dict[str, int]) -> str:
    return ", ".join(f"{k} {v / 1024:.0f} MB" for k, v in figures.items())


STEP = """
x = torch.randn(64, 64, requires_grad=True)
layer = torch.nn.Linear(64, 32)
y = layer(x).relu().sum()
y.backward()
z = x.detach().clone()[::2]
"""


def main() -> None:
    print_machine()
    if shutil.which("tmux"):
        home = tempfile.mkdtemp(prefix="tutor-bench-home-")
        try:
            env = {"TUTOR_HOME": home, "TUTOR_PATH": "", "TERM": "xterm-256color"}
            _, name, pid = paint(f"exec {TUTOR}", MARKER, env, keep=True)
            time.sleep(3)
            subprocess.run(["tmux", "send-keys", "-t", name, "Enter"], check=True)
            time.sleep(2)
            ui = mem(pid)
            subprocess.run(["tmux", "kill-session", "-t", name], stderr=subprocess.DEVNULL)
            print(f"UI process (tutor app, after opening a lesson): {fmt(ui)}")
        finally:
            time.sleep(0.3)
            shutil.rmtree(home, ignore_errors=True)
    else:
        print("UI process: skipped (no tmux)")
    kernel = Kernel()
    try:
        kernel.wait_ready()
        zygote = kernel.info["pid"]
        print(f"zygote (torch imported, warmed up): {fmt(mem(zygote))}")
        with kernel.open_session() as s:
            s.run_step(STEP, prompts=[{"kind": "tensor", "expect": "z"}])
            print(f"one lesson run after a typical step: {fmt(mem(s.pid))}")
            print(f"zygote meanwhile: {fmt(mem(zygote))}")
        runs = [kernel.open_session() for _ in range(4)]
        for r in runs:
            r.run_step(STEP)
        private = sum(mem(r.pid)["Private"] for r in runs) / len(runs)
        pss = sum(mem(r.pid)["Pss"] for r in runs) + mem(zygote)["Pss"]
        print(f"4 runs alive at once: {private / 1024:.1f} MB private each; zygote + 4 runs "
              f"PSS {pss / 1024:.0f} MB in all")
        for r in runs:
            r.close()
    finally:
        kernel.shutdown()


if __name__ == "__main__":
    main()
