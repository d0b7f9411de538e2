"""A batch plans its runs (`Kernel.plan`; `tutor check` counts its lessons' runs): in
spawn mode, where each worker costs a torch import, workers are started for the runs
that will come and no more, those still importing torch beyond the plan stop, and a
run beyond the plan is served all the same.  (A learner's kernel has no plan: its pool
keeps two workers ahead.)"""

from __future__ import annotations

import os
import sys
import time

import pytest
from test_faults import alive, wait_until

from tutor.kernel import Kernel

pytestmark = pytest.mark.kernel


def _settled(kernel: Kernel) -> None:
    """Until no worker of `kernel` is starting (a hang guard, not a budget)."""
    deadline = time.monotonic() + 60
    while any(pool.starting for pool in kernel.spawner.pools.values()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_batch_starts_the_workers_its_runs_need_and_serves_one_beyond_them() -> None:
    kernel = Kernel(mode="spawn", batch=True, reuse=False, optimizers=False)
    try:
        kernel.wait_ready()  # (its first worker, which says what torch and CUDA are here)
        _settled(kernel)
        assert kernel.worker_stats()["workers"] == 1  # until the batch says what will come
        kernel.plan(cpu=1)
        with kernel.open_session() as s:
            assert s.observe("6 * 7")["value"] == 42
        _settled(kernel)
        assert kernel.worker_stats()["workers"] == 1  # none ahead for a run that will not come
        with kernel.open_session() as s:  # a run the plan did not count
            assert s.observe("6 * 7")["value"] == 42
        assert kernel.worker_stats() == {"workers": 2, "runs": 2, "reused": 0, "retired": 0}
    finally:
        kernel.shutdown()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_workers_still_importing_torch_beyond_the_plan_stop() -> None:
    kernel = Kernel(mode="spawn", batch=True, reuse=False, pool_size=3, optimizers=False)
    try:
        kernel.wait_ready()
        _settled(kernel)
        kernel.plan(cpu=3)  # two more start ...
        assert kernel.spawner.pool("cpu").starting == 2
        kernel.plan(cpu=1)  # ... and stop: the one ready is enough
        _settled(kernel)
        assert kernel.worker_stats()["workers"] == 3
        # (the two stopped ones are killed and reaped just after they stop counting)
        wait_until(lambda: len(kernel.spawner.pids()) == 1 and [
            pid for pid in kernel.spawner.started() if alive(pid)] == kernel.spawner.pids(),
                   30, "the workers beyond the plan to be gone")
        with kernel.open_session() as s:
            assert s.observe("6 * 7")["value"] == 42
    finally:
        kernel.shutdown()


def _stop_self() -> None:  # (in the child, between fork and exec)
    import signal

    os.kill(os.getpid(), signal.SIGSTOP)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_a_batch_whose_first_worker_fails_to_start_starts_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch starts one worker until it plans: if that one fails (here: stopped
    before its exec), another starts, and the kernel becomes ready."""
    import subprocess

    from tutor.kernel import launch

    real, calls = launch.popen, []

    def first_one_stopped(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        calls.append(args)
        if len(calls) == 1:
            kwargs["preexec_fn"] = _stop_self
        return real(args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(launch, "popen", first_one_stopped)
    kernel = Kernel(mode="spawn", batch=True, reuse=False, optimizers=False)
    try:
        kernel.wait_ready(60)
        with kernel.open_session() as s:
            assert s.observe("6 * 7")["value"] == 42
        assert len(calls) >= 2  # (the stopped one, then the one that served)
    finally:
        kernel.shutdown()
