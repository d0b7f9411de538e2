"""The manager's own logic against a fake provisioner: status events, readiness, the
restart policy, the fork->spawn decision.  No kernel process is started here; the
real provisioners' mechanics are the other tests' (test_kernel.py, test_faults.py...)."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from tutor.kernel import Kernel, KernelDead
from tutor.kernel.restarter import RestartPolicy

INFO = {"torch": "2.13.0", "python": "3.11.7", "cuda": False, "pid": 4100}


class FakeProvisioner:
    """Stands for the zygote: the test says when it is ready and when it dies."""

    mode = "fork"

    def __init__(self, host: Kernel):
        self.host = host
        self.started_at = 0.0
        self.launched = 0
        self.cleaned = 0
        self.running = False

    def launch(self) -> None:
        self.launched += 1
        self.running = True
        self.started_at = time.monotonic()

    def poll(self) -> int | None:
        return None if self.running else 0

    def signal(self, sig: int) -> None:
        pass

    def kill(self) -> None:
        self.running = False
        self.host.provisioner_died(self, -9, None)  # type: ignore[arg-type]

    def cleanup(self) -> None:
        self.cleaned += 1
        self.running = False

    def new_run(self, seed: int, limits: dict[str, Any], timeout: float) -> None:
        return None

    def exit_info(self, pid: int, timeout: float) -> None:
        return None

    def ready(self, threads: int = 1) -> None:
        self.host.provisioner_ready(self, {**INFO, "threads": threads})  # type: ignore[arg-type, typeddict-item]


def managed(restart_limit: int = 5) -> tuple[Kernel, FakeProvisioner, list[str]]:
    kernel = Kernel(python=sys.executable, mode="fork", restart_limit=restart_limit)
    fake = FakeProvisioner(kernel)
    kernel.fork = None  # (the real zygote's provisioner is never launched here)
    kernel.provisioner = fake  # type: ignore[assignment]
    events: list[str] = []
    kernel.subscribe(events.append)
    return kernel, fake, events


def test_status_changes_are_events_and_a_death_restarts_on_next_use() -> None:
    kernel, fake, events = managed()
    kernel.start()
    assert kernel.status == "starting" and fake.launched == 1
    fake.ready()
    assert kernel.wait_ready(1) == {"torch": "2.13.0", "python": "3.11.7", "cuda": False,
                                    "pid": 4100, "mode": "fork", "mode_reason": kernel.mode_reason}
    fake.kill()
    assert kernel.status == "restarting" and "crashed with SIGKILL" in kernel.failure
    kernel.start()  # (what wait_ready and open_session do when the kernel is next needed)
    assert fake.launched == 2
    fake.ready()
    kernel.shutdown()
    assert events == ["starting", "ready", "restarting", "ready", "closed"]
    assert fake.cleaned == 1


def test_a_waiter_starts_again_a_kernel_that_dies_while_it_starts() -> None:
    # issue 25 (K4): killed twice in a row, the zygote that was starting died while the
    # app's start worker waited for it; nothing started another, and the app said
    # `restarting…` until the wait timed out (two minutes)
    import threading

    kernel, fake, events = managed()
    kernel.start()
    fake.ready()
    kernel.wait_ready(1)
    fake.kill()  # (the first death: the kernel is started again when next needed)
    got: list[Any] = []
    waiter = threading.Thread(target=lambda: got.append(kernel.wait_ready(60)))
    waiter.start()
    until(lambda: fake.launched == 2)
    fake.kill()  # the new zygote dies before it is ready, while the waiter waits
    until(lambda: fake.launched == 3)  # the waiter launched another
    fake.ready()
    waiter.join(60)
    assert got and got[0]["pid"] == 4100 and kernel.status == "ready"
    assert events == ["starting", "ready", "restarting", "ready"]
    assert len(kernel.restarter.deaths) == 2  # (counted: a kernel that keeps dying is
    # still given up on, see below)


def until(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.01)


def test_an_unsubscribed_listener_hears_nothing_more() -> None:
    kernel, fake, events = managed()
    heard: list[str] = []
    stop = kernel.subscribe(heard.append)
    kernel.start()
    stop()
    fake.ready()
    assert heard == ["starting"] and events == ["starting", "ready"]


def test_a_kernel_that_keeps_dying_is_given_up_on_by_the_policy() -> None:
    kernel, fake, events = managed(restart_limit=2)
    for _ in range(3):
        kernel.start()
        fake.kill()
    assert kernel.status == "dead" and kernel.restarter.deaths and len(kernel.restarter.deaths) == 3
    with pytest.raises(KernelDead, match="SIGKILL") as dead:
        kernel.wait_ready(1)
    assert dead.value.kind == "kernel_dead"
    assert events[-1] == "dead"
    kernel.restart()  # (ctrl+k: the count starts again)
    assert kernel.status == "restarting" and kernel.restarter.deaths == []
    assert fake.launched == 4


def test_a_forced_fork_with_a_threaded_zygote_is_dead_and_says_why() -> None:
    kernel, fake, _ = managed()
    kernel.start()
    fake.ready(threads=3)  # forking a process with threads is unsafe, and fork was forced
    assert kernel.status == "dead"
    assert "has 3 threads after importing torch" in kernel.failure
    kernel.start()  # no restart mends it
    assert kernel.status == "dead" and fake.launched == 1


def test_the_restart_policy_counts_deaths_since_the_last_stable_start() -> None:
    heard: list[tuple[str, str]] = []
    policy = RestartPolicy(limit=1, stable_after=10.0)
    policy.add_callback(lambda why: heard.append(("restart", why)), "restart")
    policy.add_callback(lambda why: heard.append(("dead", why)), "dead")
    now = time.monotonic()
    assert policy.died(now, "one") == "restart"
    assert policy.died(now, "two") == "dead"
    assert policy.died(now - 60, "three") == "restart"  # it had lived long: counts again
    assert policy.died(now, "four", fatal=True) == "dead"
    assert heard == [("restart", "one"), ("dead", "two"), ("restart", "three"),
                     ("dead", "four")]
