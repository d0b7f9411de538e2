"""The kernel: lesson code runs in a separate process and comes back as observations."""

from __future__ import annotations

import os
import sys

import pytest

from tutor.kernel import Kernel, KernelDead, SessionDied, StepTimeout

pytestmark = pytest.mark.kernel


def test_kernel_reports_its_torch(kernel: Kernel) -> None:
    info = kernel.wait_ready()
    assert info["torch"].count(".") >= 1 and info["pid"] != os.getpid()
    assert info["cuda"] in (True, False)
    assert "torch" not in sys.modules  # the caller never imports torch


def test_a_step_runs_in_its_own_process_and_returns_observations(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step(
            "import os\npid = os.getpid()\nx = torch.tensor(5.0, requires_grad=True)\n"
            "z = torch.log(x ** 3)\nz.backward()\nprint('hello')",
            prompts=[{"kind": "number", "expect": "x.grad"},
                     {"kind": "text", "expect": "z.grad_fn"},
                     {"kind": "number", "expect": "pid"},
                     {"kind": "stdout", "expect": None},
                     {"kind": "exception", "expect": None}])
    grad, grad_fn, pid, out, exc = reply["observations"]
    assert grad["type"] == "tensor" and abs(grad["values"] - 0.6) < 1e-6
    assert grad["shape"] == [] and grad["dtype"] == "float32" and grad["is_leaf"] is True
    assert grad_fn == {"type": "grad_fn", "name": "LogBackward0"}
    assert pid["value"] not in (os.getpid(), kernel.info["pid"])
    assert out == {"type": "str", "value": "hello\n"} and reply["stdout"] == "hello\n"
    assert exc == {"type": "none"}


def test_each_session_gets_a_fresh_namespace_and_fresh_global_state(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("torch.set_default_dtype(torch.float64)\nsecret = 1")
        assert s.observe("torch.tensor(1.0).dtype") == {"type": "dtype", "value": "float64"}
    with kernel.open_session() as s:
        assert s.observe("torch.tensor(1.0).dtype") == {"type": "dtype", "value": "float32"}
        assert s.observe("secret")["name"] == "NameError"


def test_sessions_are_seeded(kernel: Kernel) -> None:
    values = []
    for _ in range(2):
        with kernel.open_session(seed=7) as s:
            values.append(s.observe("torch.rand(3)")["values"])
    assert values[0] == values[1]


def test_seed_zero_runs_match_an_explicit_manual_seed(kernel: Kernel) -> None:
    draw = "[torch.rand(3).tolist(), random.random(), numpy.random.rand()]"
    setup = "import random, numpy\n"
    with kernel.open_session(seed=0) as s:
        s.run_step(setup)
        implicit = s.observe(draw)
    with kernel.open_session(seed=5) as s:
        s.run_step(setup + "torch.manual_seed(0)\nrandom.seed(0)\nnumpy.random.seed(0)")
        explicit = s.observe(draw)
    assert implicit == explicit


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_exceptions_come_back_as_observations(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("a = torch.ones(2, requires_grad=True)\na[0] = 3",
                           prompts=[{"kind": "exception", "expect": None},
                                    {"kind": "number", "expect": "a.grad.item()"}])
    error = reply["error"]
    assert error["name"] == "RuntimeError" and "leaf Variable" in error["message"]
    assert "Exception" in error["mro"] and "<lesson step 1>" in error["traceback"]
    assert reply["observations"][0]["name"] == "RuntimeError"
    assert reply["observations"][1]["name"] == "AttributeError"  # None.item()


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_storage_identity_without_addresses(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step(
            "A = torch.tensor([1., 2.], requires_grad=True)\nB = A.detach()\nC = A.clone()",
            prompts=[{"kind": "same_storage", "expect": ["A", "B"]},
                     {"kind": "same_storage", "expect": ["A", "C"]},
                     {"kind": "tensor", "expect": "A"}, {"kind": "tensor", "expect": "B"},
                     {"kind": "tensor", "expect": "C"}])
    same, other, a, b, c = reply["observations"]
    assert same == {"type": "bool", "value": True} and other == {"type": "bool", "value": False}
    assert a["storage"] == b["storage"] != c["storage"]
    assert c["grad_fn"] == "CloneBackward0" and b["requires_grad"] is False


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_containers_modules_and_odd_values(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        keys = s.observe("torch.nn.Linear(2, 2).state_dict().keys()")
        assert keys == {"type": "list", "items": [{"type": "str", "value": "weight"},
                                                  {"type": "str", "value": "bias"}]}
        assert s.observe("torch.nn.ReLU()")["class"] == "ReLU"
        assert s.observe("float('nan')") == {"type": "float", "value": "nan"}
        assert s.observe("torch.Size([2, 3])") == {"type": "size", "value": [2, 3]}
        assert s.observe("{'a': 1}")["items"] == [[{"type": "str", "value": "a"},
                                                   {"type": "int", "value": 1}]]
        big = s.observe("torch.zeros(100_000)")
        assert big["truncated"] and "values" not in big and big["shape"] == [100_000]
        weird = s.run_step("class W:\n    def __repr__(self):\n        raise ValueError\nw = W()",
                           prompts=[{"kind": "text", "expect": "w"}])["observations"][0]
        assert weird["type"] == "object" and "repr() raised ValueError" in weird["repr"]


@pytest.mark.mode_agnostic("the REPL is served by code both modes share")
def test_repl_shows_the_last_expression(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.run_step("x = torch.tensor([1., 2.])")
        reply = s.repl("y = x * 2\nprint('hi')\ny")
        assert reply["value"] == "tensor([2., 4.])" and reply["stdout"] == "hi\n"
        bad = s.repl("1 / 0")
        assert bad["error"]["name"] == "ZeroDivisionError"
        assert "ZeroDivisionError" in bad["error"]["traceback"]
        syntax = s.repl("def (")
        assert syntax["error"]["name"] == "SyntaxError"


def test_a_timeout_interrupts_and_the_session_survives(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout, match="interrupted") as timeout:
            s.run_step("while True: pass", timeout=0.5)
        assert timeout.value.kind == "timeout"  # (the kind is a value: tutor/kernel/wire.py)
        assert s.alive and s.observe("1 + 1") == {"type": "int", "value": 2}


def test_code_that_ignores_interrupts_is_killed(kernel: Kernel) -> None:
    s = kernel.open_session()
    with pytest.raises(StepTimeout, match="killed"):
        s.run_step("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass",
                   timeout=0.5)
    assert not s.alive
    with pytest.raises(SessionDied):
        s.observe("1")
    s.close()


@pytest.mark.parametrize(
    ("code", "reason"),
    [pytest.param("import os; os._exit(3)", "exited with code 3", marks=pytest.mark.mode_agnostic(
        "test_faults.py's test_a_process_that_dies_is_reported has an exit code in spawn mode")),
     pytest.param("import os; os.abort()", "SIGABRT", marks=pytest.mark.mode_agnostic(
         "told by describe_exit, which both modes share (SIGSEGV stays: the kind in spawn mode)")),
     ("import ctypes; ctypes.string_at(0)", "SIGSEGV")],
)
def test_a_dying_lesson_process_is_reported(kernel: Kernel, code: str, reason: str) -> None:
    s = kernel.open_session()
    with pytest.raises(SessionDied, match=reason) as died:
        s.run_step(code)
    assert died.value.kind == "crashed"  # its own process: not the kernel under it
    s.close()
    with kernel.open_session() as fresh:  # the next lesson gets a healthy kernel
        assert fresh.observe("2 * 3")["value"] == 6


def test_sys_exit_stdin_and_output_floods_do_not_kill_the_session(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        assert s.run_step("import sys; sys.exit(3)")["error"]["name"] == "SystemExit"
        assert s.run_step("input()")["error"]["name"] == "EOFError"
        flood = s.run_step("while True: print('x' * 1000)", timeout=30)
        assert flood["error"]["name"] == "OutputLimitExceeded"
        assert len(flood["stdout"]) < 2 << 20 and "output truncated" in flood["stdout"]
        assert s.observe("'still alive'")["value"] == "still alive"


@pytest.mark.fork_only("there is no kernel process to die (a run's parent is the tutor)")
def test_the_kernel_restarts_after_it_dies(own_kernel: Kernel) -> None:
    old = own_kernel.info["pid"]
    with own_kernel.open_session() as s:
        with pytest.raises(SessionDied) as died:
            s.run_step("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                       "import time; time.sleep(5)")
    assert died.value.kind == "kernel_died"  # a value to branch on, whatever the words
    with own_kernel.open_session() as s:
        assert s.observe("40 + 2")["value"] == 42
    assert own_kernel.info["pid"] != old


def test_a_kernel_that_keeps_dying_is_declared_dead() -> None:
    k = Kernel(python=sys.executable, mode="fork", restart_limit=0)
    k.start()
    k.wait_ready()
    try:
        with k.open_session() as s, pytest.raises(SessionDied):
            s.run_step("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
                       "import time; time.sleep(5)")
        with pytest.raises(KernelDead, match="SIGKILL") as dead:
            k.open_session()
        assert dead.value.kind == "kernel_dead"
        assert k.status == "dead"
    finally:
        k.shutdown()


def test_tracebacks_quote_lesson_code_and_hide_the_kernels_frames(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        step = s.run_step("a = torch.ones(2, requires_grad=True)\na[0] = 3")["error"]
        assert 'File "<lesson step 1>", line 2' in step["traceback"]
        assert "    a[0] = 3" in step["traceback"]
        repl = s.repl("y = 1 / 0")["error"]["traceback"]
        assert "    y = 1 / 0" in repl and "tutor" not in repl
        flood = s.run_step("while True: print('x' * 10_000)", timeout=60)["error"]
        assert "session.py" not in flood["traceback"]  # the output cap's own frame
        assert flood["traceback"].rstrip().endswith("the code printed more than 64 MB")


@pytest.mark.mode_agnostic("values are observed by code both modes share")
def test_an_exception_prompt_with_expect_observes_what_evaluating_it_raised(
        kernel: Kernel) -> None:
    with kernel.open_session() as s:
        reply = s.run_step("x = torch.ones(3)",
                           prompts=[{"kind": "exception", "expect": "x + torch.ones(2)"},
                                    {"kind": "exception", "expect": "x + torch.tensor(2.0)"},
                                    {"kind": "number", "expect": "x.sum()"}])
    raised, fine, number = reply["observations"]
    assert raised["type"] == "exception" and raised["name"] == "RuntimeError"
    assert fine == {"type": "none"}  # no error, whatever the value was
    assert number["values"] == 3.0
