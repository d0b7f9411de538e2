"""The kernel tests run twice: in fork mode (a zygote) and in spawn mode (a warm pool).

`kernel` and `own_kernel` are parametrized by mode; a test about a mechanism that
only one mode has says so with `kernel_helpers.fork_only(kernel, why)`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor.kernel import Kernel

MODES = ["fork", "spawn"]


def _started(mode: str) -> Iterator[Kernel]:
    k = Kernel(mode=mode)
    k.start()
    k.wait_ready()
    yield k
    k.shutdown()


@pytest.fixture(scope="session", params=MODES)
def kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """A started kernel per mode, shared by the session (tests must not kill it)."""
    yield from _started(request.param)


@pytest.fixture(params=MODES)
def own_kernel(request: pytest.FixtureRequest) -> Iterator[Kernel]:
    """A kernel of the test's own, for tests that kill or restart it."""
    yield from _started(request.param)
