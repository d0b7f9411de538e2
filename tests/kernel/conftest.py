"""The kernel tests run twice: in fork mode (a zygote) and in spawn mode (a warm pool).

`kernel` and `own_kernel` are parametrized by mode; a test about a mechanism that
only one mode has says so with `kernel_helpers.fork_only(kernel, why)`, or, with
`own_kernel`, `@pytest.mark.fork_only(why)` (its spawn case then starts no kernel).

A test (or one case of it) whose behaviour lives in code both modes share (what the
run's process does with a step once it has one: observing values, capping them,
quoting tracebacks; what the client makes of a reply) is marked
`@pytest.mark.mode_agnostic("why")`: it runs in fork mode only (its spawn-mode case is
deselected: each costs a spawned worker, a torch import).  Whatever depends on how a
run's process starts, is limited, interrupted, killed or cleaned up runs in both.

In spawn mode these kernels are batch kernels (`Kernel(batch=True)`, as `tutor check`
and the pytest plugin use): a worker that a run left unchanged serves the next run
(tutor/kernel/reuse.py; test_reuse.py tests the rule), so most tests' runs do not pay
a torch import.  The interactive kernel (a fresh worker per run, the optimizers warmed
up) is tested by its own kernels (test_platform.py, test_reuse.py).
The shared spawn-mode kernel and `own_kernel`'s zygotes (tests that kill or restart
them) leave the optimizers' warm-up out (`Kernel(optimizers=False)`); the warm batch
is test_reuse.py's and test_platform.py's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor.kernel import Kernel

MODES = ["fork", "spawn"]


def _started(mode: str, *, optimizers: bool = True) -> Iterator[Kernel]:
    k = Kernel(mode=mode, batch=True, optimizers=optimizers)
    k.start()
    k.wait_ready()
    yield k
    k.shutdown()


@pytest.fixture(scope="session", params=MODES)
def kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """A started kernel per mode, shared by the session (tests must not kill it).  In
    spawn mode its workers leave the optimizers' warm-up out, as `tutor check`'s do for
    lessons that make no optimizer: most tests here retire the worker they ran on (a
    fault, a kill, a limit), and each warm-up cost another 1.2 s of CPU."""
    yield from _started(request.param, optimizers=request.param == "fork")


@pytest.fixture(params=MODES)
def own_kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """A kernel of the test's own, for tests that kill or restart it (its zygote, and
    every zygote it restarts, without the optimizers' warm-up: see test_warm_up_choice.py).
    A test marked `fork_only(why)` is skipped in spawn mode before a kernel is started."""
    fork = request.node.get_closest_marker("fork_only")
    if fork is not None and request.param != "fork":
        pytest.skip(f"fork mode only: {fork.args[0]}")
    yield from _started(request.param, optimizers=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Spawn-mode cases of `mode_agnostic` tests are deselected (see above)."""
    keep, drop = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        mode = params.params.get("kernel", params.params.get("own_kernel")) if params else None
        agnostic = item.get_closest_marker("mode_agnostic")
        if agnostic is not None and not agnostic.args:
            raise pytest.UsageError(f"{item.nodeid}: mode_agnostic needs a reason")
        (drop if agnostic is not None and mode == "spawn" else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
