"""Chaos: 200 lessons, good ones mixed with a random pick of every fault class, checked
with `tutor check -j 2`.  Every good lesson passes, every bad one is reported with its
cause, the output stays clean and nothing is left running.  (How long it takes is a
figure, not an assertion: `benchmarks/chaos.py` prints it.)

The same in spawn mode, with fewer lessons (each spawned run costs a torch import) of
the kinds spawn mode has, and lessons that stop or kill the pool's idle workers.

The pick changes on every run; a failure prints its seed: rerun it with
TUTOR_CHAOS_SEED=<seed>.  (`-m "not chaos"` leaves it out of a quick local run; CI
runs it.)
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_reliability import DEEP, write_on_channel

pytestmark = [pytest.mark.kernel, pytest.mark.chaos]

LESSONS = 200
SPAWN_LESSONS = 30
HANG_GUARD = 900  # seconds (both runs take 1-3 minutes on a busy 2-core machine)

TEMPLATE = """\
id: {id}
title: {title}
topic: chaos
level: {level}
timeout: {timeout}
steps:
  - code: |
{code}
    predict:
      - ask: What is x?
        expect: x
        kind: number
        answer: "3"
"""


@dataclass(frozen=True)
class Fault:
    code: str  # the step's code (x must be 3 for the lesson to pass)
    cause: str  # what the report must say (a regular expression); "" for a good lesson
    most: int = 1_000  # at most this many per run (the slow or kernel-killing ones)
    weight: int = 3
    file: str | None = None  # a broken file instead of a lesson: its whole text
    title: str = ""
    timeout: int = 10  # the lesson's step timeout (1 for the faults that run into it)


GOOD = "x = 1 + 2"
# lessons that misbehave but are legal: they must pass, and leave nothing behind
HOSTILE_GOOD = {
    "plain": Fault(GOOD, "", weight=30),
    "escapes-in-output": Fault("print('\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x1b]0;PWNED\\x07hi')\n"
                               "x = 3", ""),
    "escapes-in-title": Fault(GOOD, "", title='"\\e]0;PWNED\\a\\e[2J title \\u202e"'),
    "deep-directories": Fault(DEEP + "x = 3", "", most=3),
    "daemon": Fault(textwrap.dedent("""\
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        x = 3
    """), ""),
    "escaped-daemon": Fault(textwrap.dedent("""\
        import ctypes, os, time
        ctypes.CDLL(None).prctl(36, 0, 0, 0, 0)   # no longer a subreaper
        if os.fork() == 0:
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        x = 3
    """), ""),
    "big-output": Fault("print('y' * 5_000_000)\nx = 3", "", most=5),
    "threads": Fault(textwrap.dedent("""\
        import threading, time
        for _ in range(20):
            threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
        x = 3
    """), ""),
    # what lesson code breaks in its own process: the kernel keeps its own references
    "replaces-getpid": Fault("import os\nos.getpid = lambda: 1\nx = 3", ""),
    "replaces-isinstance": Fault("import builtins\nbuiltins.isinstance = lambda *a: False\n"
                                 "x = 3", ""),
    "replaces-signal": Fault("import signal\nsignal.signal = None\nx = 3", ""),
    "trace-raises": Fault("import sys\ndef trace(*a):\n    raise RuntimeError('traced')\n"
                          "sys.settrace(trace)\nx = 3", ""),
    "closes-the-channel-fd": Fault(textwrap.dedent("""\
        import os, stat
        for fd in range(3, 256):
            try:
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.close(fd)
            except OSError:
                pass
        x = 3
    """), ""),
    # a first use of torch that loads hundreds of modules (not counted as the step's time)
    "deterministic": Fault("torch.use_deterministic_algorithms(True)\nx = 3", "", most=5),
}
# spawn mode: a lesson's siblings are the pool's workers (idle: not in a lesson's
# directory).  A worker just lent to another lesson is outside one until its run's start
# reaches it: only siblings still outside one a moment later are idle.
SIBLINGS = textwrap.dedent("""\
    import os, signal, time
    def idle_siblings():
        found = set()
        for name in os.listdir('/proc'):
            try:
                pid = int(name)
                stat = open(f'/proc/{pid}/stat').read()
                cwd = os.readlink(f'/proc/{pid}/cwd')
            except (ValueError, OSError):
                continue
            if pid != os.getpid() and int(stat.rsplit(')', 1)[1].split()[1]) == os.getppid() \\
                    and 'tutor-lesson-' not in cwd:
                found.add(pid)
        return found
    first = idle_siblings()
    time.sleep(0.3)
    for pid in first & idle_siblings():
        os.kill(pid, signal.{sig})
    x = 3
""")
SPAWN_GOOD = {
    "stops-idle-workers": Fault(SIBLINGS.replace("{sig}", "SIGSTOP"), "", most=3),
    "kills-idle-workers": Fault(SIBLINGS.replace("{sig}", "SIGKILL"), "", most=3),
}
BAD = {
    "segfault": Fault("import ctypes\nctypes.string_at(0)", "SIGSEGV"),
    "exit": Fault("import os\nos._exit(1)", "exited with code 1"),
    "loop": Fault("while True:\n    pass", "timed out", most=6, timeout=1),
    "ignores-sigint": Fault("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "while True:\n    pass", "ignored the interrupt", most=4,
                            timeout=1),
    "flood": Fault("while True:\n    print('x' * 10000)", "printed more than 64 MB", most=2),
    "raises": Fault("raise ValueError('\\x1b]52;c;ZXZpbA==\\x07boom')", "ValueError: boom"),
    "memory": Fault("x = bytearray(50 * 2**30)", "MemoryError"),
    "input": Fault("input()", "EOFError"),
    "garbage": Fault(write_on_channel("b'[' * 100_000 + b'\\n'"), "garbled message"),
    "bad-types": Fault(write_on_channel(
        repr(b'{"id": 1, "ok": true, "stdout": 7, "observations": 5}\n')),
                       "malformed reply"),
    "bad-observation": Fault(write_on_channel(repr(
        b'{"id": 1, "ok": true, "stdout": "", "stderr": "", "error": null, '
        b'"observations": [{"type": "tensor", "values": "lots"}]}\n')), "malformed reply"),
    "forks-twice": Fault("import os\nos.fork()\nx = 3", r"called os\.fork\(\)"),
    "swallowed-reply": Fault("import tutor.kernel.channel as c\n"
                             "c.Channel.send = lambda *a, **k: None\nx = 3",
                             "never arrived", most=4, timeout=1),
    "fork-bomb": Fault(textwrap.dedent("""\
        import os, time
        for _ in range(700):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
    """), "more than 512 processes|Resource temporarily unavailable|timed out", most=1,
        weight=1, timeout=1),
    # the kernel-killing ones: one of them per run (each costs two kernel restarts)
    "stops-the-zygote": Fault("import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n"
                              "import time\ntime.sleep(5)", "SIGSTOP", most=1, weight=1),
    "kills-the-zygote": Fault("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                              "import time\ntime.sleep(5)", "kernel died", most=1, weight=1),
    "stops-zygote-returns": Fault("import os, signal\n"
                                          "os.kill(os.getppid(), signal.SIGSTOP)\nx = 3",
                                          "stopped the kernel process", most=1, weight=1),
    "closes-every-fd": Fault("import os\nos.closerange(3, 65536)\nx = 3",
                             "lost its channel to the tutor: the lesson's code closed"),
}
BROKEN = {
    "huge-level": Fault("", "number too large", file=TEMPLATE.replace(
        "level: {level}", "level: " + "1" * 5000)),
    "huge-seed": Fault("", "number too large", file=TEMPLATE.replace(
        "level: {level}", "seed: -" + "9" * 5000)),
    "syntax": Fault("", "YAML syntax error", file="id: x\nsteps: [\n"),
    "alias": Fault("", "anchors and aliases", file="id: &a x\ntitle: *a\n"),
    "wrong-type": Fault("", "expected a list", file=TEMPLATE.split("steps:")[0] + "steps: 5\n"),
    "fifo": Fault("", "not a regular file", file="<fifo>", most=2),
}
KERNEL_KILLERS = ("stops-the-zygote", "kills-the-zygote", "stops-zygote-returns")
# spawn mode: no zygote (a run's parent is the tutor itself), and the slow or
# process-heavy kinds left to fork mode's run (each spawned run costs a torch import)
NOT_IN_SPAWN = (*KERNEL_KILLERS, "fork-bomb", "flood", "deep-directories", "daemon",
                "escaped-daemon", "big-output", "fifo")
ALL = {**HOSTILE_GOOD, **SPAWN_GOOD, **BAD, **BROKEN}
GOOD = {**HOSTILE_GOOD, **SPAWN_GOOD}


def kinds_for(mode: str) -> dict[str, Fault]:
    if mode == "spawn":
        return {k: f for k, f in ALL.items() if k not in NOT_IN_SPAWN}
    return {**HOSTILE_GOOD, **BAD, **BROKEN}


def pick(rng: random.Random, lessons: int = LESSONS, mode: str = "fork") -> list[str]:
    kinds = kinds_for(mode)
    chosen: list[str] = []
    counts: dict[str, int] = {}
    killer = rng.choice(KERNEL_KILLERS)
    while len(chosen) < lessons:
        name = rng.choices(list(kinds), weights=[f.weight for f in kinds.values()])[0]
        if name in KERNEL_KILLERS and name != killer:
            continue
        if counts.get(name, 0) >= kinds[name].most:
            continue
        counts[name] = counts.get(name, 0) + 1
        chosen.append(name)
    for name in kinds:  # every kind at least once, in random places
        if name not in counts and (name not in KERNEL_KILLERS or name == killer):
            chosen[rng.randrange(len(chosen))] = name
    return chosen


def write(directory: Path, n: int, name: str) -> str:
    fault = ALL[name]
    lesson_id = f"chaos/{n:03d}-{name}"
    path = directory / f"{n:03d}-{name}.yaml"
    if fault.file == "<fifo>":
        os.mkfifo(path)
    elif fault.file is not None:
        path.write_text(fault.file.format(id=lesson_id, title=lesson_id, level=1, code="",
                                          timeout=1))
    else:
        body = "\n".join("      " + line for line in fault.code.splitlines())
        path.write_text(TEMPLATE.format(id=lesson_id, title=fault.title or lesson_id, level=1,
                                        code=body, timeout=fault.timeout))
    return lesson_id


def leftovers(tutor_pid: int) -> list[str]:
    """Processes of the kernel that `tutor check` (pid `tutor_pid`) started: zygote, runs,
    and whatever the lessons forked (all carry the zygote's command line)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != b"Z" and b"tutor.kernel.zygote" in cmdline and \
                str(tutor_pid).encode() in cmdline:
            found.append(f"{name}: {b' '.join(cmdline).decode(errors='replace')}")
    return found


def run_chaos(directory: Path, seed: int, *, jobs: int = 2, lessons: int = LESSONS,
              mode: str = "fork") -> tuple[float, list[str]]:
    """`tutor check -j JOBS` of a chaos course made with `seed` (the kinds of `mode`),
    in kernel mode `mode`, every outcome checked; returns the seconds it took and the
    kinds of lesson it held."""
    rng = random.Random(seed)
    chosen = pick(rng, lessons, mode)
    ids = [write(directory, n, name) for n, name in enumerate(chosen)]
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    env["TUTOR_KERNEL"] = mode
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "tutor", "check", "-j", str(jobs),
                             str(directory)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    print(f"chaos seed {seed} ({mode} mode): rerun with TUTOR_CHAOS_SEED={seed}", flush=True)
    try:  # (a hang guard, not a budget: it must end well inside CI's 30 minutes)
        raw, _ = proc.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired as exc:
        proc.kill()
        raw = (exc.output or b"") + proc.communicate()[0]
        pytest.fail(f"tutor check still ran after {HANG_GUARD} s (seed {seed}: rerun with "
                    f"TUTOR_CHAOS_SEED={seed})\n{raw.decode('utf-8', 'replace')[-6000:]}")
    finally:
        proc.kill()
    elapsed = time.monotonic() - started
    out = raw.decode("utf-8")
    where = f"(seed {seed}: rerun with TUTOR_CHAOS_SEED={seed})\n{out[-6000:]}"
    assert proc.returncode == 1, where
    # nothing that could drive a terminal, whatever the lessons printed or raised
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out), where
    assert "PWNED" not in out or "\x1b" not in out, where
    lines = {line.split()[0]: line for line in out.splitlines()
             if line.startswith("chaos/") and " ...." in line}
    for lesson_id, name in zip(ids, chosen, strict=True):
        if name in GOOD:
            assert " ok (1 prompt," in lines.get(lesson_id, ""), (lesson_id, where)
        elif name in BAD:
            status = lines.get(lesson_id, "")
            assert " ERROR " in status or " FAILED " in status, (lesson_id, where)
            detail = "\n".join(line for line in out.splitlines() if f": {lesson_id}" in line
                               and not line.startswith("chaos/"))
            detail += "\n".join(out.split(f": {lesson_id} step 1 prompt 1:")[1:2])[:2000]
            assert re.search(BAD[name].cause, detail), (lesson_id, BAD[name].cause, where)
        else:
            file = f"{Path(lesson_id).name}.yaml"
            detail = [line for line in out.splitlines() if f"{file}:" in line]
            assert detail and re.search(BROKEN[name].cause, detail[0]), (lesson_id, where)
    good = sum(name in GOOD for name in chosen)
    summary = re.search(r"lessons: (\d+) passed, (\d+) failed, 0 skipped, (\d+) errors", out)
    assert summary, where
    passed, failed, errors = map(int, summary.groups())
    assert passed == good and failed + errors == len(chosen) - good, where
    deadline = time.monotonic() + 30  # (a hang guard)
    while leftovers(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not leftovers(proc.pid), (leftovers(proc.pid), where)
    return elapsed, chosen


def test_chaos_check_j2(tmp_path: Path) -> None:
    seed = int(os.environ.get("TUTOR_CHAOS_SEED") or random.randrange(10**6))
    elapsed, chosen = run_chaos(tmp_path, seed)
    good = sum(name in GOOD for name in chosen)
    print(f"chaos seed {seed}: {len(chosen)} lessons ({good} good) in {elapsed:.1f} s")


def test_chaos_check_j2_spawn_mode(tmp_path: Path) -> None:
    """Fewer lessons (each spawned run costs a torch import), every kind spawn mode has,
    and lessons that stop or kill the pool's idle workers: the next ones still pass."""
    seed = int(os.environ.get("TUTOR_CHAOS_SEED") or random.randrange(10**6))
    elapsed, chosen = run_chaos(tmp_path, seed, lessons=SPAWN_LESSONS, mode="spawn")
    good = sum(name in GOOD for name in chosen)
    print(f"chaos seed {seed}, spawn mode: {len(chosen)} lessons ({good} good) "
          f"in {elapsed:.1f} s")
