"""Spawn mode in a batch: a worker serves another run only when it is found as it was.

`tutor check` and the pytest plugin (batch kernels) let a spawned CPU worker take the
next run when the last one left it unchanged (tutor/kernel/reuse.py); otherwise it
retires and a fresh one replaces it.  A learner's kernel never reuses one.  One
batch kernel with a pool of one serves the module, so "the next run" is
deterministic: the worker that comes back is the next one handed out.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor.kernel import Kernel, SessionDied, spawn

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def batch() -> Iterator[Kernel]:
    kernel = Kernel(mode="spawn", batch=True, pool_size=1)
    kernel.start()
    kernel.wait_ready()
    assert kernel.reuses_workers
    yield kernel
    kernel.shutdown()


def _run(kernel: Kernel, code: str, expr: str, *, seed: int = 0,
         modules: dict[str, str] | None = None) -> tuple[int, object]:
    """(the run's pid, `expr` observed after `code`) in a run of its own."""
    with kernel.open_session(seed=seed) as s:
        if modules:
            s.request("modules", 10, modules=modules)
        reply = s.run_step(code)
        assert reply["error"] is None, reply["error"]
        seen = s.observe(expr)
        return s.pid, seen.get("value", seen.get("values", seen))


def test_a_run_that_leaves_the_worker_unchanged_is_followed_on_the_same_worker(
        batch: Kernel) -> None:
    first, _ = _run(batch, "x = torch.ones(3) * 2\nprint(x)", "1")
    before = batch.worker_stats()
    second, warm = _run(batch, "import sys", "'torch._dynamo' in sys.modules")
    assert second == first
    assert batch.worker_stats()["reused"] == before["reused"] + 1
    assert warm is True  # (a reused worker warms the optimizers: once for many runs)


CHANGES = {  # what a run does -> an expression that is True in a fresh worker
    "default dtype": ("torch.set_default_dtype(torch.float64)",
                      "torch.get_default_dtype() == torch.float32"),
    "grad mode": ("torch.set_grad_enabled(False)", "torch.is_grad_enabled()"),
    "deterministic algorithms": ("torch.use_deterministic_algorithms(True, warn_only=True)",
                                 "not torch.are_deterministic_algorithms_enabled()"),
    "an environment variable": ("import os\nos.environ['TUTOR_REUSE_PROBE'] = '1'",
                                "'TUTOR_REUSE_PROBE' not in __import__('os').environ"),
    "sys.path": ("import sys\nsys.path.append('/nowhere/tutor-reuse')",
                 "'/nowhere/tutor-reuse' not in __import__('sys').path"),
    "a patched torch function": ("torch.add = torch.sub",
                                 "torch.add(torch.ones(1), torch.ones(1)).item() == 2"),
    "a process started": ("import subprocess\nsubprocess.run(['true'], check=True)", "True"),
    "compiled code (torch.compile)": (
        "f = torch.compile(lambda x: x * 2, backend='eager')\nf(torch.ones(2))",
        "not any(__import__('torch._dynamo.utils', fromlist=['counters']).counters.values())"),
}


MODULES = {"reuse_probe": "VALUE = 1\n"}
CHANGES["modules:"] = ("import reuse_probe", "__import__('importlib.util').util.find_spec("
                       "'reuse_probe') is None")


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_run_that_changes_the_worker_retires_it(batch: Kernel, change: str) -> None:
    """The next run observes a fresh worker's state: its worker was retired (a new pid),
    not restored."""
    code, fresh = CHANGES[change]
    before = batch.worker_stats()["retired"]
    dirty, _ = _run(batch, code, "1", modules=MODULES if change == "modules:" else None)
    after, clean = _run(batch, "pass", fresh)
    assert clean is True, f"after a run that changed {change}, the next run saw it"
    assert after != dirty
    assert batch.worker_stats()["retired"] == before + 1


DRAWS = ("[torch.randn(3).tolist(), torch.rand(1).item(), __import__('random').random(), "
         "__import__('numpy').random.rand()]")


def _draws(kernel: Kernel, seed: int) -> tuple[int, object]:
    with kernel.open_session(seed=seed) as s:
        s.run_step(f"draws = {DRAWS}")
        seen = s.observe("draws")
        return s.pid, repr(seen)


def test_seeded_draws_on_a_reused_worker_equal_a_fresh_workers(batch: Kernel) -> None:
    fresh = Kernel(mode="spawn", batch=True, reuse=False, pool_size=1)
    try:
        want = {seed: _draws(fresh, seed)[1] for seed in (0, 7)}
        assert fresh.worker_stats()["reused"] == 0
    finally:
        fresh.shutdown()
    pid, _ = _run(batch, "torch.randn(5); import random; random.random()", "1")
    got = {}
    for seed in (7, 0, 7):  # (each after runs that drew numbers on the same worker)
        again, got[seed] = _draws(batch, seed)
        assert again == pid
    assert got == want


def test_a_cpu_time_limit_holds_per_run_on_a_reused_worker(batch: Kernel) -> None:
    """RLIMIT_CPU counts the process's life: each run (each request) gets its own
    allowance, so runs that together used more than one allowance pass, and a busy
    loop in the third run is still stopped by it (not by the wall timeout)."""
    limits = {"cpu_seconds": 2}
    burn = ("import time\nt = time.process_time()\n"
            "while time.process_time() - t < 1.2:\n    pass")
    pids = []
    for _ in range(2):
        with batch.open_session(limits=limits) as s:
            assert s.run_step(burn, timeout=30)["error"] is None
            pids.append(s.pid)
    with batch.open_session(limits=limits) as s:
        pids.append(s.pid)
        with pytest.raises(SessionDied, match="CPU"):
            s.run_step("while True:\n    pass", timeout=60)
    assert pids[0] == pids[1] == pids[2]


def test_a_learners_kernel_never_reuses_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app and `tutor play` (not a batch): one fresh process per run, whatever the
    run did; and TUTOR_SPAWN_REUSE=0 turns reuse off for a batch too."""
    monkeypatch.setenv(spawn.REUSE_ENV, "0")
    assert not Kernel(mode="spawn", batch=True).reuses_workers
    monkeypatch.delenv(spawn.REUSE_ENV)
    assert Kernel(mode="spawn", batch=True).reuses_workers
    kernel = Kernel(mode="spawn", pool_size=1)
    assert not kernel.reuses_workers
    try:
        pids = [_run(kernel, "x = 1", "x")[0] for _ in range(2)]
        assert pids[0] != pids[1]
        assert kernel.worker_stats()["reused"] == 0
    finally:
        kernel.shutdown()


def test_a_run_known_to_change_its_worker_gets_one_of_its_own(batch: Kernel) -> None:
    """`open_session(once=True)` (the engine's, for a lesson with `modules:`): a worker
    started for that run alone, without the optimizers' warm-up, instead of retiring
    a reusable one."""
    reusable, _ = _run(batch, "pass", "1")
    before = batch.worker_stats()
    with batch.open_session(once=True) as s:
        s.request("modules", 10, modules=MODULES)
        assert s.run_step("import reuse_probe")["error"] is None
        assert s.observe("'torch._dynamo' in __import__('sys').modules")["value"] is False
        assert s.pid != reusable
    after = batch.worker_stats()
    assert after["retired"] == before["retired"]
    assert _run(batch, "pass", "1")[0] == reusable
