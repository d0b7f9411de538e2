"""The fault matrix: lesson code that misbehaves, and the kernel that survives it.

Every test ends with a specific message for the learner, a healthy kernel for the
next run and no leftover processes.  Bounded for a 2-core CI machine: small CPU
and process allowances, nothing that really allocates gigabytes.  Tests that kill
the zygote use `own_kernel`; the rest share the session's `kernel`.
See docs/security.md for the full list and where each fault is tested.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from kernel_helpers import fork_only, live_processes, spawned_leftovers

from tutor.kernel import Kernel, KernelError, SessionDied, StepTimeout
from tutor.safetext import sanitize_output

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------- processes


def _table() -> dict[int, int]:
    """pid -> ppid for every live (non-zombie) process."""
    return {pid: ppid for pid, (ppid, _) in live_processes().items()}


def descendants(pid: int) -> set[int]:
    table = _table()
    kids: dict[int, list[int]] = {}
    for p, pp in table.items():
        kids.setdefault(pp, []).append(p)
    out: set[int] = set()
    todo = list(kids.get(pid, ()))
    while todo:
        p = todo.pop()
        out.add(p)
        todo += kids.get(p, ())
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return state[state.rfind(b")") + 2:][:1] != b"Z"


def wait_until(predicate, timeout: float = 5.0, what: str = "condition") -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def leftovers(kernel: Kernel) -> set[int]:
    if kernel.mode == "spawn":
        return spawned_leftovers(kernel)
    return descendants(kernel.info["pid"])


def assert_no_leftovers(kernel: Kernel, timeout: float = 5.0) -> None:
    """Every run that ended and all it started are gone (fork mode: the zygote has no
    processes under it; spawn mode: nothing is left in the ended runs' sessions)."""
    wait_until(lambda: not leftovers(kernel), timeout,
               f"the runs' processes to go (left: {sorted(leftovers(kernel))})")


def assert_healthy(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        assert s.observe("6 * 7") == {"type": "int", "value": 42}
    assert_no_leftovers(kernel)


# ------------------------------------------------------------------ CPU / time


def test_busy_loop_is_interrupted_at_the_wall_timeout(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout, match="longer than 0.5 s and was interrupted"):
            s.run_step("while True: pass", timeout=0.5)
        assert s.observe("'alive'")["value"] == "alive"  # the same run goes on
    assert_healthy(kernel)


def test_busy_loop_without_a_wall_timeout_hits_the_cpu_limit(kernel: Kernel) -> None:
    s = kernel.open_session(limits={"cpu_seconds": 1})
    with pytest.raises(SessionDied, match="SIGXCPU.*CPU time") as died:
        s.repl("while True: pass", timeout=None)  # no wall timeout: RLIMIT_CPU stops it
    assert died.value.exit is not None and died.value.exit.signal == signal.SIGXCPU
    s.close()
    assert_healthy(kernel)


def test_the_cpu_allowance_is_per_request_not_per_run(kernel: Kernel) -> None:
    soft = "__import__('resource').getrlimit(__import__('resource').RLIMIT_CPU)[0]"
    used = "sum(__import__('resource').getrusage(__import__('resource').RUSAGE_SELF)[:2])"
    with kernel.open_session(limits={"cpu_seconds": 2}) as s:
        first = s.observe(soft)["value"]
        # the allowance counts from the CPU time the run's process had used (a forked
        # run: ~0; a spawned worker: its torch import and warm-up, seconds)
        before = s.observe(used)["value"]
        assert before + 1 <= first <= before + 3
        reply = s.repl("import time\nt = time.process_time()\n"
                       "while time.process_time() - t < 1.2: pass\n'done'")
        assert reply["value"] == "'done'"
        assert s.observe(soft)["value"] >= first + 1  # re-armed: 2 s from now
    assert_healthy(kernel)


def test_a_long_sleep_is_interrupted(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout, match="interrupted"):
            s.run_step("import time\ntime.sleep(10**6)", timeout=0.5)
        assert s.alive
    assert_healthy(kernel)


@pytest.mark.parametrize("code", [
    "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass",
    # (a body of its own: CPython 3.11 leaves a bare `while True: pass` outside the try)
    "while True:\n    try:\n        while True:\n            n = 0\n"
    "    except BaseException:\n        pass",
    "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)",  # stops itself
], ids=["sig_ign", "except_baseexception", "sigstop"])
def test_code_that_will_not_stop_is_killed(kernel: Kernel, code: str) -> None:
    s = kernel.open_session()
    with pytest.raises(StepTimeout, match="ignored the interrupt, so its process was killed"):
        s.run_step(code, timeout=0.3)
    assert not s.alive
    with pytest.raises(SessionDied, match="already ended"):
        s.observe("1")
    s.close()
    assert_healthy(kernel)


# -------------------------------------------------------------- interrupting


def test_interrupt_from_another_thread_stops_a_repl_request(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        result: dict[str, object] = {}
        worker = threading.Thread(
            target=lambda: result.update(reply=s.repl("while True: pass", timeout=None)))
        worker.start()
        time.sleep(0.3)
        s.interrupt()
        worker.join(5)
        assert not worker.is_alive()
        error = result["reply"]["error"]  # type: ignore[index]
        assert error["name"] == "KeyboardInterrupt" and error["message"] == "interrupted"
        assert s.repl("1 + 1")["value"] == "2"  # the run survives its interrupt
    assert_healthy(kernel)


def test_an_ignored_interrupt_escalates_to_a_kill(kernel: Kernel) -> None:
    s = kernel.open_session()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            s.repl("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                   "while True: pass", timeout=None)
        except KernelError as exc:
            errors.append(exc)

    killers: list[threading.Thread] = []
    kill = s.kill

    def spy() -> None:
        killers.append(threading.current_thread())
        kill()

    s.kill = spy  # type: ignore[method-assign]
    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.3)
    s.interrupt(grace=3.0)  # returns at once: the UI thread never waits out the grace
    assert not killers  # (a blocking interrupt would have killed before returning)
    worker.join(30)
    assert killers and threading.current_thread() not in killers  # killed from a timer
    assert not worker.is_alive()
    assert isinstance(errors[0], SessionDied)
    assert "ignored the interrupt, so its process was killed" in str(errors[0])
    s.close()
    assert_healthy(kernel)


def test_an_interrupt_between_requests_is_harmless(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("x = 1")
        s.interrupt()
        time.sleep(0.1)
        assert s.observe("x")["value"] == 1


# ------------------------------------------------------------------- exits


# a death by a signal is told by `describe_exit`, which both modes share: spawn mode keeps
# an exit code and SIGKILL (a worker's exit status read by the spawner), fork mode all four
SAME_DEATH = pytest.mark.mode_agnostic("told by describe_exit, which both modes share")


@pytest.mark.parametrize(("code", "message"), [
    ("import os\nos._exit(1)", "exited with code 1"),
    pytest.param("import ctypes\nctypes.string_at(0)", "SIGSEGV .*segmentation fault",
                 marks=SAME_DEATH),
    pytest.param("import os\nos.abort()", "SIGABRT .*abort", marks=SAME_DEATH),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", "SIGKILL"),
])
def test_a_process_that_dies_is_reported(kernel: Kernel, code: str, message: str) -> None:
    s = kernel.open_session()
    with pytest.raises(SessionDied, match=message):
        s.run_step(code)
    s.close()
    assert_healthy(kernel)


@pytest.mark.mode_agnostic("exceptions are caught by code both modes share")
def test_sys_exit_and_keyboard_interrupt_are_ordinary_errors(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        error = s.run_step("import sys\nsys.exit(3)")["error"]
        assert error["name"] == "SystemExit" and error["message"] == "3"
        reply = s.run_step("raise KeyboardInterrupt('by the lesson')")
        assert reply["error"]["name"] == "KeyboardInterrupt"
        assert reply["error"]["message"] == "by the lesson"  # not "interrupted"
        assert not reply.get("interrupted")
        assert s.observe("'still here'")["value"] == "still here"
    assert_healthy(kernel)


# ------------------------------------------------------------------ memory


# how torch and Python fail under the address-space limit is the same in both modes:
# spawn mode keeps bytearray, to show that the limit holds on its (reused) workers
SAME_LIMIT = pytest.mark.mode_agnostic("the same limit, met the same way in both modes")


@pytest.mark.parametrize(("code", "name"), [
    pytest.param("torch.empty(50 * 2**30, dtype=torch.uint8)", "RuntimeError",
                 marks=SAME_LIMIT),
    pytest.param("torch.zeros(50 * 2**30, dtype=torch.uint8)", "RuntimeError",
                 marks=SAME_LIMIT),
    ("bytearray(50 * 2**30)", "MemoryError"),
    pytest.param("x = [0] * (50 * 2**30 // 8)", "MemoryError", marks=SAME_LIMIT),
])
def test_allocating_50_gb_fails_cleanly(kernel: Kernel, code: str, name: str) -> None:
    with kernel.open_session() as s:
        error = s.run_step(code, timeout=10)["error"]
        assert error["name"] == name
        assert s.observe("torch.ones(3).sum().item()")["value"] == 3.0
    assert_healthy(kernel)


# --------------------------------------------------------------- processes


def test_a_fork_bomb_is_stopped_and_cleaned_up(kernel: Kernel) -> None:
    if os.geteuid() == 0:
        fork_only(kernel, "for root, only the zygote's watchdog bounds processes")
    before = len(_table())
    s = kernel.open_session(limits={"processes": 64})
    code = textwrap.dedent("""\
        import os, time
        for i in range(400):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
    """)
    try:
        reply = s.run_step(code, timeout=20)
    except SessionDied as exc:  # the watchdog (root without NPROC) stopped it
        assert "started more than 64 processes and threads" in str(exc)
    else:  # RLIMIT_NPROC or the kernel's cgroup made fork fail
        assert reply["error"]["name"] in ("BlockingIOError", "OSError")
        assert "Resource temporarily unavailable" in reply["error"]["message"]
    s.close()
    assert_no_leftovers(kernel, timeout=10)
    # (other processes may come and go on the machine meanwhile: allow for them)
    wait_until(lambda: len(_table()) <= before + 50, 10, "the machine's process count to drop")
    assert_healthy(kernel)


def test_the_kernel_wide_cgroup_cap_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a pids cgroup is available, fork fails at its cap, even for root."""
    monkeypatch.setenv("TUTOR_KERNEL_TASKS", "60")
    kernel = Kernel(optimizers=False)
    try:
        kernel.wait_ready()
        if "cgroup" not in kernel.info["limits"]["processes"]:
            pytest.skip("no pids cgroup can be created here (not root, no delegation)")
        assert kernel.info["limits"]["kernel_tasks"] == 60
        with kernel.open_session(limits={"processes": 10_000}) as s:  # no watchdog
            reply = s.run_step(textwrap.dedent("""\
                import os, time
                made = 0
                for i in range(200):
                    if os.fork() == 0:
                        time.sleep(600)
                        os._exit(0)
                    made += 1
            """), prompts=[{"kind": "number", "expect": "made"}], timeout=20)
            assert reply["error"]["name"] == "BlockingIOError"
            assert reply["observations"][0]["value"] < 60
        assert_no_leftovers(kernel, timeout=10)
        assert_healthy(kernel)
    finally:
        kernel.shutdown()


def test_a_daemonised_grandchild_is_killed_when_the_run_ends(kernel: Kernel) -> None:
    s = kernel.open_session()
    reply = s.run_step(textwrap.dedent("""\
        import os, time
        r, w = os.pipe()
        if os.fork() == 0:                      # child: new session, then a grandchild
            os.setsid()
            if os.fork() == 0:
                os.write(w, str(os.getpid()).encode())
                time.sleep(600)
            os._exit(0)
        grandchild = int(os.read(r, 32))
        time.sleep(0.1)                         # the child has exited: an orphan now
    """), prompts=[{"kind": "number", "expect": "grandchild"}])
    pid = reply["observations"][0]["value"]
    assert alive(pid)
    assert pid in descendants(s.pid)  # adopted by the run (a subreaper), not by init
    s.close()
    wait_until(lambda: not alive(pid), 5, "the setsid grandchild to be killed")
    assert_no_leftovers(kernel)


def test_a_run_that_crashes_takes_its_descendants_with_it(kernel: Kernel) -> None:
    fork_only(kernel, "a crashed worker's setsid() children are adopted by init, not by a zygote")
    s = kernel.open_session()
    reply = s.run_step(textwrap.dedent("""\
        import os, time
        kids = []
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                os.setsid()
                time.sleep(600)
            kids.append(pid)
    """), prompts=[{"kind": "list", "expect": "kids"}])
    kids = [k["value"] for k in reply["observations"][0]["items"]]
    assert all(alive(k) for k in kids)
    with pytest.raises(SessionDied, match="SIGSEGV"):
        s.run_step("import ctypes\nctypes.string_at(0)")
    wait_until(lambda: not any(alive(k) for k in kids), 5, "the orphans to be killed")
    s.close()
    assert_no_leftovers(kernel)


def test_200_threads(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step(textwrap.dedent("""\
            import threading, time
            done, go = [], threading.Event()
            threads = [threading.Thread(target=lambda: (go.wait(20), done.append(1)))
                       for _ in range(200)]
            for t in threads: t.start()
            peak = threading.active_count()  # all 200 alive: none can finish before `go`
            go.set()
            for t in threads: t.join()
            # and some that are still running when the run ends
            for _ in range(50):
                threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
        """), prompts=[{"kind": "number", "expect": "len(done)"},
                       {"kind": "number", "expect": "peak"}], timeout=20)
        assert reply["error"] is None
        assert reply["observations"][0]["value"] == 200
        assert reply["observations"][1]["value"] > 200
    assert_healthy(kernel)


# ------------------------------------------------------------------ output


def test_printing_a_gigabyte_is_stopped_early(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("import sys\nfor _ in range(1024):\n    sys.stdout.write('x' * 2**20)",
                           timeout=30)
        assert reply["error"]["name"] == "OutputLimitExceeded"
        assert "printed more than 64 MB" in reply["error"]["message"]
        assert reply.get("interrupted")
        assert len(reply["stdout"]) < (1 << 20) + 200
        out = reply["stdout"]
        assert out.endswith("more characters)") and "output truncated" in out
    assert_healthy(kernel)


def test_writing_a_gigabyte_to_fd_1_is_capped(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("import os\nchunk = b'y' * 2**20\n"
                           "for _ in range(1024):\n    os.write(1, chunk)", timeout=30)
        error = reply["error"]
        assert error["name"] == "OSError" and "File too large" in error["message"]
        assert len(reply["stderr"]) <= (1 << 20) + 200
    assert_healthy(kernel)


@pytest.mark.mode_agnostic("output is captured by code both modes share")
def test_one_100_mb_line(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("print('z' * 100_000_000)", timeout=30)
        assert reply["error"]["name"] == "OutputLimitExceeded"
        assert reply["stdout"].startswith("z" * 1000)
        assert len(reply["stdout"]) < (1 << 20) + 200
    assert_healthy(kernel)


@pytest.mark.mode_agnostic("output is captured by code both modes share")
def test_terminal_escapes_come_back_and_can_be_sanitised(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step(
            r"print('\x1b[2J\x1b[H\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07hello\x1b[31m red\x1b[0m')"
            "\nimport os\nos.write(2, b'\\x1b[?1049h\\xff\\xfe raw bytes\\n')")
        assert "\x1b[2J" in reply["stdout"]  # verbatim, for lessons about output
        assert sanitize_output(reply["stdout"]) == "hello red\n"
        assert sanitize_output(reply["stderr"]) == "\ufffd\ufffd raw bytes\n"
    assert_healthy(kernel)


# ---------------------------------------------------------------- files, stdin


def test_writing_a_huge_file_fails_with_efbig(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("with open('big.bin', 'wb') as f:\n"
                           "    for _ in range(100):\n        f.write(b'x' * 2**20)\n",
                           prompts=[{"kind": "text", "expect": "os.getcwd()"}], timeout=20)
        error = reply["error"]
        assert error["name"] == "OSError" and "File too large" in error["message"]
        assert error["mro"][:2] == ["OSError", "Exception"]
    assert_healthy(kernel)


def test_the_run_works_in_a_private_directory_that_is_removed(kernel: Kernel) -> None:
    s = kernel.open_session()
    cwd = s.observe("__import__('os').getcwd()")["value"]
    s.run_step("open('notes.txt', 'w').write('hi')")
    assert Path(cwd, "notes.txt").exists() and Path(cwd) != Path.cwd()
    s.close()
    wait_until(lambda: not Path(cwd).exists(), 5, "the run's directory to be removed")


def test_input_gets_eof(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        # (a blocked read would end in StepTimeout, not in these replies)
        assert s.run_step("input('name? ')")["error"]["name"] == "EOFError"
        assert s.run_step("import sys\nsys.stdin.read()")["error"] is None


# ------------------------------------------------------------ global state


def test_global_torch_state_does_not_leak_into_the_next_run(kernel: Kernel) -> None:
    with kernel.open_session(seed=1) as s:
        s.run_step(textwrap.dedent("""\
            import sys, random
            torch.set_default_dtype(torch.float64)
            torch.set_grad_enabled(False)
            torch.set_num_threads(2)
            torch.set_printoptions(precision=1)
            torch.manual_seed(123)
            random.seed(123)
            torch.tensor = None
            torch.nn.functional.relu = lambda x: 'patched'
            sys.modules['json'] = None
        """))
        assert s.observe("torch.get_default_dtype()")["value"] == "float64"
    with kernel.open_session(seed=1) as s:
        checks = {
            "torch.get_default_dtype()": {"type": "dtype", "value": "float32"},
            "torch.is_grad_enabled()": {"type": "bool", "value": True},
            "torch.get_num_threads()": {"type": "int", "value": 1},
            "repr(torch.tensor([1/3]))": {"type": "str", "value": "tensor([0.3333])"},
            "type(torch.nn.functional.relu(torch.ones(1))).__name__":
                {"type": "str", "value": "Tensor"},
            "__import__('json').dumps([1])": {"type": "str", "value": "[1]"},
        }
        for expr, want in checks.items():
            assert s.observe(expr) == want, expr
        fresh = s.observe("torch.rand(2)")["values"]
    with kernel.open_session(seed=1) as s:
        assert s.observe("torch.rand(2)")["values"] == fresh  # seeded, not 123


# ----------------------------------------------------------------- results


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_an_enormous_tensor_is_observed_truncated(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        obs = s.observe("torch.zeros(10**8, dtype=torch.uint8)", timeout=60)
        assert obs["type"] == "tensor" and obs["shape"] == [10**8] and obs["truncated"]
        assert "values" not in obs and len(obs["repr"]) <= 2000
        value = s.repl("torch.arange(10**7)", timeout=60)["value"]
        assert value.startswith("tensor([") and "..." in value and len(value) < 1000
    assert_healthy(kernel)


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_huge_and_deep_containers_are_capped(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("deep = []\nfor _ in range(10_000):\n    deep = [deep]\n"
                   "wide = [[0] * 1000] * 1000\nlong = list(range(10**7))")
        deep = s.observe("deep")
        depth = 0
        while deep["items"]:
            deep, depth = deep["items"][0], depth + 1
        assert deep["truncated"] and depth <= 10
        wide = s.observe("wide", timeout=60)
        assert wide["truncated"]
        assert len(s.observe("long")["items"]) == 1000
        shown = s.repl("deep")["value"]
        assert shown.startswith("[[[[") and len(shown) < 1000
        assert len(s.repl("long")["value"]) < 5000
    assert_healthy(kernel)


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_odd_objects_are_observed_safely(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step(textwrap.dedent("""\
            class NotStr:
                def __repr__(self): return 42
            class Raises:
                def __repr__(self): raise RuntimeError('no')
            gen = (i for i in range(10**9))
            surrogate = 'bad \\udc80 text'
            values = [NotStr(), Raises(), gen, surrogate, float('inf'), 10**100, 1 + 2j]
        """))
        items = s.observe("values")["items"]
        assert "repr() raised TypeError" in items[0]["repr"]
        assert "repr() raised RuntimeError" in items[1]["repr"]
        assert items[2]["type"] == "object" and items[2]["class"] == "generator"
        assert items[3]["type"] == "str" and "text" in items[3]["value"]
        assert items[4]["value"] == "inf" and items[5]["type"] == "float"
        assert items[6] == {"type": "complex", "real": 1.0, "imag": 2.0}
    assert_healthy(kernel)


def test_a_repr_that_never_returns_hits_the_wall_timeout(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("class Loop:\n    def __repr__(self):\n        while True: pass\nx = Loop()")
        with pytest.raises(StepTimeout, match="interrupted"):
            s.observe("x", timeout=0.5)
        with pytest.raises(StepTimeout):
            s.run_step("y = 1", prompts=[{"kind": "text", "expect": "x"}], timeout=0.5)
        assert s.observe("1 + 1")["value"] == 2
    assert_healthy(kernel)


def test_garbage_on_the_channel_ends_the_run_not_the_tutor(kernel: Kernel) -> None:
    s = kernel.open_session()
    with pytest.raises(SessionDied, match="garbled message.*so it was stopped"):
        s.run_step(textwrap.dedent("""\
            import os, socket, stat, time
            for fd in map(int, os.listdir('/proc/self/fd')):
                try:
                    if stat.S_ISSOCK(os.fstat(fd).st_mode):
                        os.write(fd, b'[' * 100_000 + b'\\n')
                except OSError:
                    pass
            time.sleep(600)
        """), timeout=10)
    s.close()
    assert_healthy(kernel)


# --------------------------------------------------------- the kernel itself


@pytest.mark.fork_only("there is no zygote (a run's parent is the tutor itself)")
def test_a_lesson_that_kills_the_zygote(own_kernel: Kernel) -> None:
    old = own_kernel.info["pid"]
    s = own_kernel.open_session()
    with pytest.raises(SessionDied):
        s.run_step("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                   "import time\ntime.sleep(600)")
    s.close()
    wait_until(lambda: not alive(old), 5, "the old zygote to be gone")
    with own_kernel.open_session() as fresh:  # restarted on demand
        assert fresh.observe("40 + 2")["value"] == 42
    assert own_kernel.info["pid"] != old and own_kernel.status == "ready"
    assert_no_leftovers(own_kernel)


PARENT = """
import os, sys, time
from tutor.kernel import Kernel
k = Kernel(mode=sys.argv[1], optimizers=False)
k.wait_ready()
s = k.open_session()
reply = s.run_step('''
import os, time
if os.fork() == 0:
    os.setsid()
    time.sleep(600)
''')
while k.mode == "spawn" and len(k.spawner.pids()) < 2:  # the pool refilled
    time.sleep(0.05)
print(k.info["pid"] or os.getpid(), s.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_the_kernel_exits_when_the_tutor_dies(mode: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, mode], stdout=subprocess.PIPE,
                              cwd=ROOT, text=True)
    try:
        line = parent.stdout.readline()  # type: ignore[union-attr]
        root, session = map(int, line.split())
        tree = descendants(root) | ({root} if mode == "fork" else set())
        # fork: zygote, run, the run's child; spawn: two idle workers, run, its child
        assert session in tree and len(tree) >= (3 if mode == "fork" else 4)
        parent.kill()  # SIGKILL: no cleanup code of the tutor runs
        parent.wait()
        wait_until(lambda: not any(alive(p) for p in tree), 10,
                   "the kernel and its runs to exit after the tutor died")
    finally:
        parent.kill()


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_a_kernel_started_from_a_thread_outlives_the_thread(mode: str) -> None:
    kernel = Kernel(mode=mode, optimizers=False)
    started = threading.Thread(target=kernel.start)
    started.start()
    started.join()  # PDEATHSIG fires when that thread ends: the kernel must not care
    try:
        kernel.wait_ready()
        time.sleep(0.3)
        with kernel.open_session() as s:
            assert s.observe("1")["value"] == 1
        assert kernel.status == "ready"
    finally:
        kernel.shutdown()


def test_the_kernel_reports_its_limits(kernel: Kernel) -> None:
    limits = kernel.info["limits"]
    assert limits["descendants"] == "subreaper"
    assert limits["cpu"] == limits["memory"] == limits["file_size"] == "rlimit"
    if kernel.mode == "fork":
        assert "watchdog" in limits["processes"]
        if os.geteuid() != 0:
            assert "rlimit" in limits["processes"]
    else:  # no zygote: no watchdog, no cgroup; RLIMIT_NPROC where it counts (not root)
        assert limits["processes"] == (None if os.geteuid() == 0 else "rlimit")
        assert kernel.info["pid"] is None
