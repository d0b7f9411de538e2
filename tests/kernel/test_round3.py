"""Issue 28's kernel classes: a tutor killed while the kernel imports torch, stopped or
killed pool workers, a fault charged to the lesson that caused it, what lesson code
breaks in its own process named as such, and lazy imports that do not count against
a step's timeout.  See docs/security.md (fault list) and docs/kernel.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_faults import alive, assert_healthy, assert_no_leftovers, wait_until

import tutor
from tutor.kernel import Kernel, SessionDied, StepTimeout

pytestmark = pytest.mark.kernel


# ------------------------------------------- a tutor killed during the torch import

SLOW_TORCH = """\
import os, time
open(os.path.join(os.environ["TUTOR_TEST_MARKS"], str(os.getpid())), "w").close()
time.sleep(600)  # an import of torch that takes long (7-14 s on a busy machine)
"""

TUTOR_PROCESS = """\
import sys, time
from tutor.kernel import Kernel
kernel = Kernel(mode=sys.argv[1])
kernel.start()
while True:
    pids = [kernel.proc.pid] if kernel.proc is not None else kernel.spawner.started()
    if pids:
        break
    time.sleep(0.02)
print(*pids, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_the_kernel_leaves_with_the_tutor_while_it_imports_torch(tmp_path: Path,
                                                                 mode: str) -> None:
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(SLOW_TORCH)
    marks = tmp_path / "marks"
    marks.mkdir()
    code = Path(tutor.__file__).resolve().parents[1]  # (the tutor under test)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(code)]),
           "TUTOR_TEST_MARKS": str(marks)}
    tutor_process = subprocess.Popen([sys.executable, "-c", TUTOR_PROCESS, mode],
                                     stdout=subprocess.PIPE, cwd=code, text=True, env=env)
    pids: list[int] = []
    try:
        pids = [int(p) for p in tutor_process.stdout.readline().split()]  # type: ignore[union-attr]
        assert pids
        wait_until(lambda: all((marks / str(p)).exists() for p in pids), 120,
                   "the kernel processes to be importing torch")
        tutor_process.kill()  # SIGKILL: no cleanup code of the tutor runs
        tutor_process.wait()
        # (the fake import takes 600 s: only the exit hooks can end them before that)
        wait_until(lambda: not any(alive(p) for p in pids), 30,
                   "the kernel processes to leave with the tutor, mid-import")
    finally:
        tutor_process.kill()
        for pid in pids:
            if alive(pid):
                os.kill(pid, 9)


# ----------------------------------------- spawn mode: stopped or killed pool workers


@pytest.mark.parametrize("sig", ["SIGSTOP", "SIGKILL"])
def test_stopped_or_killed_pool_workers_are_replaced(sig: str) -> None:
    """A lesson that stops (or kills) the idle and starting workers of the pool (its
    siblings): the next lesson gets a worker that answers, not a stopped one."""
    # (batch without reuse: no optimizer warm-up, a replacement started at each take)
    kernel = Kernel(mode="spawn", pool_size=2, batch=True, reuse=False)
    try:
        kernel.wait_ready()
        kernel.plan(cpu=3)  # (as `tutor check` says what will come: the pool fills)
        pool = kernel.spawner.pool("cpu")
        wait_until(lambda: len(pool.pids()) == 2, 120, "the pool to fill")
        with kernel.open_session() as s:  # (its replacement starts: one idle, one starting)
            wait_until(lambda: len(kernel.spawner.pids()) == 2, 30, "the replacement to start")
            victims = kernel.spawner.pids()
            s.run_step(f"import os, signal\nfor pid in {victims!r}:\n"
                       f"    os.kill(pid, signal.{sig})")
        with kernel.open_session(timeout=120) as s:
            reply = s.run_step("x = 6 * 7", prompts=[{"kind": "number", "expect": "x"}])
            assert reply["observations"][0]["value"] == 42
            assert s.pid not in victims
        wait_until(lambda: not any(alive(p) for p in victims), 30,
                   "the stopped workers to be killed")
        with kernel.open_session(timeout=120) as s:  # the pool goes on serving
            assert s.observe("1 + 1")["value"] == 2
    finally:
        kernel.shutdown()


def _stop_self() -> None:  # (in the child, between fork and exec)
    import signal

    os.kill(os.getpid(), signal.SIGSTOP)


def test_a_child_stopped_before_its_exec_does_not_hang_popen() -> None:
    """Popen waits for the child's exec; a lesson that stops its siblings can catch a
    worker between fork and exec (issue: a CI run of the spawn chaos hung for 30 min)."""
    from tutor.kernel import popen

    result: list[object] = []

    def start() -> None:
        try:
            result.append(popen.popen(["true"], preexec_fn=_stop_self))
        except popen.StoppedBeforeExec as exc:
            result.append(exc)

    starter = threading.Thread(target=start, daemon=True)
    starter.start()
    starter.join(60)  # (a hang guard: it returns within about WATCH_EVERY)
    assert not starter.is_alive(), "Popen still waits for a child stopped before its exec"
    assert isinstance(result[0], popen.StoppedBeforeExec), result
    assert "stopped (SIGSTOP) before it could start its program" in str(result[0])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_a_pool_worker_stopped_before_its_exec_is_replaced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's start of a worker caught between fork and exec fails, is counted, and
    the next start serves the lesson (before: the pool thread hung in Popen, and every
    later lesson waited its 120 s for a worker)."""
    from tutor.kernel import launch

    real, calls = launch.popen, []

    def first_one_stopped(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        calls.append(args)
        if len(calls) == 2:  # the probe starts first; the second start is stopped
            kwargs["preexec_fn"] = _stop_self
        return real(args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(launch, "popen", first_one_stopped)
    # (batch without reuse: no optimizer warm-up, a replacement started at each take)
    kernel = Kernel(mode="spawn", pool_size=2, batch=True, reuse=False)
    try:
        kernel.wait_ready()
        for _ in range(3):  # the stopped one's replacement, and the pool goes on
            with kernel.open_session(timeout=120) as s:
                assert s.observe("6 * 7")["value"] == 42
        assert len(calls) >= 4
    finally:
        kernel.shutdown()


# ------------------------------------ a fault charged to the lesson that caused it

STOP_THE_ZYGOTE = "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nx = 3"


@pytest.mark.fork_only("a run's parent is the tutor itself, not a zygote")
def test_a_lesson_that_stops_the_zygote_is_the_one_charged(own_kernel: Kernel) -> None:
    old = own_kernel.info["pid"]
    s = own_kernel.open_session()
    with pytest.raises(SessionDied, match=r"the lesson's code stopped the kernel process "
                       rf"\(pid {old}, with SIGSTOP or the like\), so its run was ended") as died:
        s.run_step(STOP_THE_ZYGOTE)
    assert died.value.kind == "kernel_stopped"  # (the reply's `fault_kind`, checked)
    s.close()
    # the next run is innocent: it is not refused, it gets a fresh zygote
    with own_kernel.open_session() as fresh:
        assert fresh.observe("6 * 7")["value"] == 42
    assert own_kernel.info["pid"] != old and not alive(old)
    assert_no_leftovers(own_kernel)


LESSON = """\
id: {id}
title: {id}
topic: t
timeout: 10
steps:
  - code: |
{code}
    predict:
      - ask: What is x?
        expect: x
        kind: number
        answer: "3"
"""


def test_check_j1_charges_the_lesson_that_stopped_the_zygote(tmp_path: Path) -> None:
    """`tutor check -j 1`: the lesson that stops the zygote errors, naming it; the
    healthy lessons after it pass (they used to error with "the kernel process was
    stopped", and were not run again)."""
    order = ["a/stops", "b/good", "c/good"]
    for n, lesson_id in enumerate(order):
        code = STOP_THE_ZYGOTE if lesson_id.endswith("stops") else "x = 1 + 2"
        body = "\n".join("      " + line for line in code.splitlines())
        (tmp_path / f"{n}.yaml").write_text(LESSON.format(id=lesson_id, code=body))
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    env["TUTOR_KERNEL"] = "fork"
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "-j", "1", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, env=env)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    lines = {line.split()[0]: line for line in out.splitlines() if " ...." in line}
    assert " ERROR " in lines["a/stops"], out
    assert "a/stops: step 1 crashed: the lesson's code stopped the kernel process" in out
    assert " ok (1 prompt," in lines["b/good"] and " ok (1 prompt," in lines["c/good"], out
    assert "lessons: 2 passed, 0 failed, 0 skipped, 1 errors" in out, out


# ------------------------------------------- first imports are not a step's own time

SLOW_MODULE = "import time\ntime.sleep(3)  # a first import that takes long\n"


def test_loading_a_module_does_not_count_against_the_step_s_timeout(kernel: Kernel,
                                                                    tmp_path: Path) -> None:
    (tmp_path / "slow_module_for_tutor.py").write_text(SLOW_MODULE)
    with kernel.open_session() as s:
        reply = s.run_step(f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
                           "import slow_module_for_tutor\nx = 3",
                           prompts=[{"kind": "number", "expect": "x"}], timeout=1)
        assert reply["error"] is None and reply["observations"][0]["value"] == 3
        # the step's own work still counts
        with pytest.raises(StepTimeout, match="longer than 0.5 s"):
            s.run_step("while True: pass", timeout=0.5)


def test_an_import_that_never_ends_still_times_out(kernel: Kernel, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.kernel import run

    monkeypatch.setattr(run, "IMPORT_ALLOWANCE", 1.0)
    (tmp_path / "endless_module_for_tutor.py").write_text("while True:\n    pass\n")
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout,
                           match=r"longer than 0.5 s \(not counting 1(\.0)? s of loading"):
            s.run_step(f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
                       "import endless_module_for_tutor", timeout=0.5)


def test_deterministic_algorithms_in_a_spawned_batch_run() -> None:
    """`torch.use_deterministic_algorithms(True)` loads torch._inductor and torch._dynamo
    (some 800 modules) on first use: a spawned worker of a batch (`tutor check`) that
    serves one run (TUTOR_SPAWN_REUSE=0; a reused one warms them up) has not (fork
    mode's zygote has), and the loading used to count against the step."""
    kernel = Kernel(mode="spawn", batch=True, reuse=False)
    try:
        kernel.wait_ready()
        with kernel.open_session() as s:
            reply = s.run_step("before = len(__import__('sys').modules)\n"
                               "torch.use_deterministic_algorithms(True)\n"
                               "x = torch.are_deterministic_algorithms_enabled()\n"
                               "loaded = len(__import__('sys').modules) - before",
                               prompts=[{"kind": "bool", "expect": "x"},
                                        {"kind": "number", "expect": "loaded"}], timeout=0.5)
            assert reply["error"] is None, reply["error"]
            assert reply["observations"][0]["value"] is True
            assert reply["observations"][1]["value"] > 100  # (it did load them here)
    finally:
        kernel.shutdown()


# ---------------------------- what lesson code breaks in its own process, named

EACH_SOCKET = ("import os, stat\nfor fd in range(3, 256):\n    try:\n"
               "        if stat.S_ISSOCK(os.fstat(fd).st_mode):\n            {}\n"
               "    except OSError:\n        pass\n")
EACH_FILE = EACH_SOCKET.replace("S_ISSOCK", "S_ISREG")
BREAKS = {
    "os.getpid": "import os\nos.getpid = lambda: 1",
    "builtins.isinstance": "import builtins\nbuiltins.isinstance = lambda *a: False",
    "builtins.isinstance raises": "import builtins\n"
                                  "def nope(*a):\n    raise TypeError('nope')\n"
                                  "builtins.isinstance = nope",
    "signal.signal": "import signal\nsignal.signal = None",
    "sys.settrace": "import sys\nsys.settrace = None",
    "a trace function that raises": "import sys\n"
                                    "def trace(*a):\n    raise RuntimeError('traced')\n"
                                    "sys.settrace(trace)",
    "json.dumps": "import json\njson.dumps = None",
    "close the channel": EACH_SOCKET.format("os.close(fd)"),
    "dup2 over the channel": "import os\ndevnull = os.open(os.devnull, os.O_RDWR)\n"
                             + EACH_SOCKET.format("os.dup2(devnull, fd)"),
    "close the capture file": EACH_FILE.format("os.close(fd)"),
    "close the pipes": EACH_SOCKET.replace("S_ISSOCK", "S_ISFIFO").format("os.close(fd)"),
}


# what is broken before the step's result is sent: Python-level names the kernel's run
# loop (shared by both modes) keeps its own references to.  Descriptors, signals and
# the process's identity differ between a forked run and a spawned worker: both modes.
SHARED_CODE = {"builtins.isinstance", "builtins.isinstance raises", "sys.settrace",
               "a trace function that raises", "json.dumps"}


@pytest.mark.parametrize("what", [
    pytest.param(what, marks=[pytest.mark.mode_agnostic("the run loop both modes share")]
                 if what in SHARED_CODE else []) for what in BREAKS])
def test_what_lesson_code_breaks_in_its_process_does_not_break_the_kernel(
        kernel: Kernel, what: str) -> None:
    """The kernel keeps its own references: the step's result arrives, the run goes on
    (these used to end in "exited with code 0", "code 70" or "could not run: TypeError")."""
    with kernel.open_session() as s:
        reply = s.run_step(BREAKS[what] + "\nx = 3", prompts=[{"kind": "number", "expect": "x"}])
        assert reply["error"] is None, reply["error"]
        assert reply["observations"] == [{"type": "int", "value": 3}]
        assert s.observe("[x, 4]")["items"][1] == {"type": "int", "value": 4}
        assert s.repl("print('still here'); x + 1")["value"] == "4"
    assert_healthy(kernel)


def test_a_lesson_that_keeps_its_replacements_sees_them(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("import builtins, os\nbuiltins.isinstance = lambda *a: 'mine'\n"
                   "os.getpid = lambda: -1")
        reply = s.run_step("a = isinstance(1, int)\nb = os.getpid()",
                           prompts=[{"kind": "str", "expect": "a"},
                                    {"kind": "number", "expect": "b"}])
        assert [o["value"] for o in reply["observations"]] == ["mine", -1]


def test_closing_every_descriptor_is_named(kernel: Kernel) -> None:
    s = kernel.open_session()
    with pytest.raises(SessionDied, match="the lesson's process lost its channel to the "
                       "tutor: the lesson's code closed or replaced the kernel's file "
                       "descriptors"):
        s.run_step("import os\nos.closerange(3, 65536)\nx = 3")
    s.close()
    assert_healthy(kernel)


def test_an_idle_worker_that_is_stopped_hung_or_gone_is_unfit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's look at a worker before it hands it out (unit: a process that never
    answers stands in for a hung worker, which a lesson cannot make without stopping)."""
    import signal
    import socket

    from tutor.kernel import spawn
    from tutor.kernel.channel import Channel

    monkeypatch.setattr(spawn, "HANG_AFTER", 0.2)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            stdin=subprocess.PIPE)
    ours, theirs = socket.socketpair()
    worker = spawn.Worker(proc, Channel(ours), {})
    try:
        assert "hung" in (worker.unfit() or "")
        answering = threading.Thread(target=lambda: theirs.sendall(b'{"event": "pong"}\n'))
        answering.start()
        answering.join()
        assert worker.unfit() is None
        os.kill(proc.pid, signal.SIGSTOP)
        wait_until(lambda: worker.unfit() == spawn.STOPPED, 10, "the stop to be seen")
        worker.discard()
        assert worker.unfit() == "had ended"
    finally:
        proc.kill()
        theirs.close()
