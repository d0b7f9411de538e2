"""A batch plans its runs (`Kernel.plan`; `tutor check` counts its lessons' runs): in
spawn mode, where each worker costs a torch import, workers are started for the runs
that will come and no more, those still importing torch beyond the plan stop, and a
run beyond the plan is served all the same.  (A learner's kernel has no plan: its pool
keeps two workers ahead.)"""

from __future__ import annotations

import os
import time

import pytest

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
        ready = kernel.spawner.pids()
        assert len(ready) == 1
        alive = [pid for pid in kernel.spawner.started() if os.path.exists(f"/proc/{pid}")]
        assert alive == ready
        with kernel.open_session() as s:
            assert s.observe("6 * 7")["value"] == 42
    finally:
        kernel.shutdown()
