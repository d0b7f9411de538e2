"""Kernel helpers for the app's workers (pure: no textual)."""

from __future__ import annotations

import threading
from typing import Any

from tutor.kernel import Kernel

_starting = threading.Lock()  # two workers must not both launch a new kernel process


def ensure_kernel(kernel: Kernel) -> dict[str, Any]:
    """Wait for the kernel, starting it again first if its process has died.

    `Kernel.wait_ready` only starts a *new* kernel; after a death the status is
    `restarting` with no process (`open_session` restarts it the same way).
    Blocking: call from a worker thread.
    """
    with _starting:
        if kernel.status in ("new", "restarting") and kernel.channel is None:
            kernel.start()
    return kernel.wait_ready()
