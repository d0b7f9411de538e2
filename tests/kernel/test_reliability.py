"""Issue 12's fault classes, in the kernel: forged replies, leftovers that would hurt the
zygote, a stopped zygote, huge live values, fork() in lesson code, escaping the task
count, and messages that name the real cause.  See docs/security.md.
"""

from __future__ import annotations

import os
import signal
import textwrap
import time
from pathlib import Path

import pytest
from kernel_helpers import fork_only
from test_faults import alive, assert_healthy, assert_no_leftovers, descendants, wait_until

from tutor.kernel import Kernel, SessionDied, StepTimeout, caps
from tutor.kernel.cleanup import remove_tree
from tutor.kernel.liveness import Liveness

pytestmark = pytest.mark.kernel


def write_on_channel(payload: str) -> str:
    """Lesson code that writes `payload` (an expression) on its channel, then waits."""
    return textwrap.dedent(f"""\
        import os, stat, time
        for fd in map(int, os.listdir('/proc/self/fd')):
            try:
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.write(fd, {payload})
            except OSError:
                pass
        time.sleep(600)
    """)


# ------------------------------------------------------------ forged replies


# (a reply is checked by the client's code, the same in both modes: one forged reply in
# spawn mode shows that a spawned run is stopped for it like a forked one)
CLIENT_SIDE = pytest.mark.mode_agnostic("replies are checked by client code both modes share")


@pytest.mark.parametrize(("forged", "why"), [
    pytest.param(b'{"id": 1, "ok": true, "stdout": 7, "observations": 5}\n',
                 "stdout should be a string, not a number", id="wrong-types"),
    pytest.param(b'{"id": 1, "ok": true, "stdout": "", "stderr": "", "error": null, '
                 b'"observations": [{"type": "tensor", "values": "lots"}]}\n',
                 "observations[0].dtype", id="bad-observation", marks=CLIENT_SIDE),
    pytest.param(b'{"id": 7, "ok": true}\n',
                 "a message with id 7 arrived while request 1 was waiting", id="wrong-id",
                 marks=CLIENT_SIDE),
    pytest.param(b'{"id": "1", "ok": true}\n', "a message with id 1 arrived", id="string-id",
                 marks=CLIENT_SIDE),
])
def test_a_forged_reply_ends_the_run_with_a_clear_message(kernel: Kernel, forged: bytes,
                                                          why: str) -> None:
    s = kernel.open_session()
    with pytest.raises(SessionDied) as died:
        s.run_step(write_on_channel(repr(forged)), prompts=[{"kind": "number", "expect": "1"}])
    assert "the lesson's process sent a malformed reply" in str(died.value)
    assert why in str(died.value) and "so it was stopped" in str(died.value)
    s.close()
    assert_healthy(kernel)


def test_a_forged_reply_is_that_lesson_s_failure_in_check(kernel: Kernel) -> None:
    from tutor.engine import check_lesson
    from tutor.lesson.model import Lesson, Pos, Prompt, Step

    prompt = Prompt(0, "x?", "number", "x", "3", Pos(1, 1))
    code = write_on_channel(repr(b'{"id": 1, "ok": true, "stdout": 7, "observations": 5}\n'))
    lesson = Lesson("forged", "forged", "t", Path("forged.yaml"),
                    (Step(0, code, (prompt,), Pos(1, 1)),), timeout=10)
    check = check_lesson(kernel, lesson)
    assert check.status == "error"
    assert "malformed reply (stdout should be a string, not a number)" in check.reason


# ------------------------------------------------------------------- sizes


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_a_huge_live_value_is_cut_to_size_before_it_is_sent(kernel: Kernel) -> None:
    from tutor.engine import StepOutcome, judge_prompt, shown_live
    from tutor.lesson.model import Pos, Prompt, Step

    with kernel.open_session() as s:
        reply = s.run_step("x = ['a' * 30_000 for _ in range(1000)]\n"
                           "t = [torch.zeros(10_000) for _ in range(50)]",
                           prompts=[{"kind": "list", "expect": "x"},
                                    {"kind": "list", "expect": "t"}])
    strings, tensors = reply["observations"]
    assert strings["truncated"]
    assert sum(len(i["value"]) for i in strings["items"]) <= caps.MAX_TEXT
    assert sum(len(i.get("values", ())) for i in tensors["items"]) <= caps.MAX_TOTAL_ELEMENTS
    assert any(i.get("truncated") for i in tensors["items"])
    # and what a learner (or a `check` report) is shown of it is small
    prompt = Prompt(0, "x?", "list", "x", "['a']", Pos(1, 1))
    outcome = StepOutcome(Step(0, "", (prompt,), Pos(1, 1)), observations=[strings])
    verdict = judge_prompt(outcome, prompt, "['a']")
    assert len(verdict.expected) < 2_200 and "more characters" in verdict.expected
    assert len(verdict.message) < 2_200
    assert len(shown_live(strings, "list")) < 2_200


# ---------------------------------------------------------------- leftovers

DEEP = textwrap.dedent("""\
    import os
    fd = os.open('.', os.O_RDONLY)
    for i in range(3000):
        os.mkdir('d', dir_fd=fd)
        fd2 = os.open('d', os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = fd2
        if i % 1000 == 0:
            os.mkdir('locked', 0o000, dir_fd=fd)    # (chmod 000: still ours to remove)
    for i in range(500):
        open(f'f{i}', 'w').close()
    os.chmod('.', 0)
""")


@pytest.mark.parametrize("end", ["close", "crash"])
def test_deep_directories_left_by_a_run_do_not_hurt_the_zygote(kernel: Kernel,
                                                               end: str) -> None:
    zygote = kernel.info["pid"]
    s = kernel.open_session()
    cwd = s.observe("__import__('os').getcwd()")["value"]
    assert s.run_step(DEEP, timeout=60)["error"] is None
    if end == "crash":  # the run cannot clean up after itself: the zygote's cleaner does
        with pytest.raises(SessionDied):
            s.run_step("import os\nos.kill(os.getpid(), 9)")
    s.close()
    with kernel.open_session() as other:  # the zygote serves runs meanwhile
        assert other.observe("1 + 1")["value"] == 2
    wait_until(lambda: not os.path.exists(cwd), 60, "the run's directory to be removed")
    assert kernel.info["pid"] == zygote and kernel.status == "ready"
    # (the file system may take its time to free what was removed: up to a minute here)
    assert_no_leftovers(kernel, timeout=60)
    assert_healthy(kernel)


def test_remove_tree_needs_no_recursion_and_never_raises(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    root = tmp_path / "run"
    root.mkdir()
    fd = os.open(root, os.O_RDONLY)
    for i in range(3000):
        os.mkdir("d", dir_fd=fd)
        fd2 = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = fd2
        if i == 2000:
            os.symlink(outside, "link", dir_fd=fd)  # removed, never followed
    os.close(fd)
    (root / "locked").mkdir()
    (root / "locked" / "x").write_text("x")
    (root / "locked").chmod(0)
    assert remove_tree(str(root))
    assert not root.exists() and (outside / "keep").exists()
    assert remove_tree(str(tmp_path / "missing"))
    (tmp_path / "file").write_text("x")
    assert remove_tree(str(tmp_path / "file")) and not (tmp_path / "file").exists()
    many = tmp_path / "many"
    many.mkdir()
    for i in range(2000):
        (many / f"{i}").mkdir()
    assert not remove_tree(str(many), seconds=0)  # out of time: stops, does not raise


# --------------------------------------------------------- a stopped zygote


@pytest.mark.fork_only("there is no zygote (a run's parent is the tutor itself)")
def test_a_stopped_zygote_is_found_killed_and_restarted(own_kernel: Kernel) -> None:
    old = own_kernel.info["pid"]
    s = own_kernel.open_session()
    s.run_step("x = 1")
    os.kill(old, signal.SIGSTOP)  # (from outside: a lesson's code that does it is named,
    # test_round3.py::test_a_lesson_that_stops_the_zygote_is_the_one_charged)
    wait_until(lambda: own_kernel.status != "ready", 30, "the stopped zygote to be noticed")
    assert "stopped (by SIGSTOP" in own_kernel.failure
    assert "killed and restarted" in own_kernel.failure
    wait_until(lambda: not alive(old), 5, "the stopped zygote to be killed")
    with pytest.raises(SessionDied, match="kernel died: the kernel process was stopped"):
        s.observe("1")
    s.close()
    with own_kernel.open_session() as fresh:
        assert fresh.observe("6 * 7")["value"] == 42
    assert own_kernel.info["pid"] != old and own_kernel.status == "ready"
    assert_no_leftovers(own_kernel)


def test_a_zygote_that_stops_answering_pings_is_given_up() -> None:
    pings: list[int] = []
    live = Liveness(os.getpid(), pings.append)  # a process that is running, not stopped
    live.last_heard -= 2
    assert live.check(serving=True) is None and pings == [1]  # quiet: pinged
    assert live.check(serving=True) is None  # still within HANG_AFTER
    live.pinged_at = time.monotonic() - 6
    assert "stopped answering" in (live.check(serving=True) or "")
    live.heard()  # an answer resets it
    assert live.check(serving=True) is None
    assert Liveness(os.getpid(), pings.append).check(serving=False) is None


def test_a_stopped_process_is_reported_at_once() -> None:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        os.kill(child.pid, signal.SIGSTOP)
        wait_until(lambda: Path(f"/proc/{child.pid}/stat").read_text().split(") ")[1][0] == "T",
                   5, "the child to stop")
        why = Liveness(child.pid, lambda seq: None).check(serving=False)
        assert why is not None and "SIGSTOP" in why
    finally:
        child.kill()
        child.wait()


# ----------------------------------------------------------------- fork()


def test_a_step_that_forks_and_returns_in_both_processes(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("import os\nchild = os.fork()\nx = 3",
                           prompts=[{"kind": "number", "expect": "x"}])
        error = reply["error"]
        assert error["name"] == "ForkedChildError"
        assert "called os.fork()" in error["message"] and "os._exit()" in error["message"]
        assert reply["observations"] == [{"type": "int", "value": 3}]
        child = s.observe("child")["value"]
        wait_until(lambda: not alive(child), 5, "the forked child to be gone")
        # the run alone answers: every later request gets its own, right reply
        for n in range(20):
            assert s.observe(f"{n} * 2")["value"] == n * 2
        # a fork that bypasses os.fork (no at-fork hooks) never replies either
        s.run_step("import ctypes\nctypes.CDLL(None).fork()\ny = 4")
        for n in range(20):
            assert s.observe(f"y + {n}")["value"] == 4 + n
    assert_healthy(kernel)


def test_forked_children_that_end_properly_are_not_reported(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step(textwrap.dedent("""\
            import os, multiprocessing
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)                  # the lesson can still wait for its child
            ctx = multiprocessing.get_context('fork')
            p = ctx.Process(target=print, args=('hi',))
            p.start(); p.join()
            code = p.exitcode
        """), prompts=[{"kind": "number", "expect": "code"}], timeout=20)
        assert reply["error"] is None, reply["error"]
        assert reply["observations"][0]["value"] == 0
    assert_healthy(kernel)


def test_a_run_that_clears_its_subreaper_flag_cannot_escape_the_task_count(
        kernel: Kernel) -> None:
    fork_only(kernel, "the zygote's sweep kills what escapes a run; spawn mode has no zygote")
    zygote = kernel.info["pid"]
    s = kernel.open_session(limits={"processes": 32})
    reply = s.run_step(textwrap.dedent("""\
        import ctypes, os, time
        ctypes.CDLL(None).prctl(36, 0, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER off
        r, w = os.pipe()
        if os.fork() == 0:
            if os.fork() == 0:                     # orphaned at once: adopted above the run
                os.write(w, str(os.getpid()).encode() + b' ')
                time.sleep(0.5)
                for _ in range(100):
                    if os.fork() == 0:
                        time.sleep(600)
                        os._exit(0)
                    os.write(w, b'x')
                time.sleep(600)
            os._exit(0)
        time.sleep(2)
        data = os.read(r, 100_000)
        escaped, made = int(data.split()[0]), data.count(b'x')
    """), prompts=[{"kind": "number", "expect": "escaped"},
                   {"kind": "number", "expect": "made"}], timeout=20)
    escaped, made = (o["value"] for o in reply["observations"])
    assert not alive(escaped) and made == 0  # killed on sight, before it could fork
    assert escaped not in descendants(zygote)
    s.close()
    assert_healthy(kernel)


# ------------------------------------------------------- the real cause


def test_a_swallowed_reply_is_not_blamed_on_an_ignored_interrupt(kernel: Kernel) -> None:
    s = kernel.open_session()
    with pytest.raises(StepTimeout) as timeout:
        s.run_step("import tutor.kernel.channel as c\nc.Channel.send = lambda *a, **k: None",
                   timeout=0.5)
    assert "the code finished, but its result never arrived" in str(timeout.value)
    assert "ignored the interrupt" not in str(timeout.value)
    s.close()
    s = kernel.open_session()  # a step that really ignores the interrupt is still that
    with pytest.raises(StepTimeout, match="ignored the interrupt"):
        s.run_step("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                   "while True: pass", timeout=0.3)
    s.close()
    assert_healthy(kernel)


def test_cpu_burnt_between_steps_is_named_as_such(kernel: Kernel) -> None:
    s = kernel.open_session(limits={"cpu_seconds": 1})
    s.run_step("import threading\n"
               "threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True)"
               ".start()")
    wait_until(lambda: not alive(s.pid), 30, "the run to use up its CPU allowance")
    time.sleep(0.5)  # (the learner is still thinking when the run dies)
    with pytest.raises(SessionDied) as died:
        s.run_step("x = 1")
    assert "between steps" in str(died.value) and "background thread" in str(died.value)
    assert died.value.exit is not None and died.value.exit.signal == signal.SIGXCPU
    s.close()
    assert_healthy(kernel)
