"""Helpers shared by the kernel tests (imported as `kernel_helpers`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.kernel import Kernel


def fork_only(kernel: Kernel, why: str) -> None:
    if kernel.mode != "fork":
        pytest.skip(f"fork mode only: {why}")


def live_processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) of every live (non-zombie) process (Linux)."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            raw = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        fields = raw[raw.rfind(b")") + 2:].split()
        if fields[0] != b"Z":
            out[int(name)] = (int(fields[1]), int(fields[3]))
    return out


def spawned_leftovers(kernel: Kernel) -> set[int]:
    """Spawn mode: live processes in the sessions of runs that have ended (each run's
    worker is a session leader; idle workers are not runs)."""
    ended = set(kernel.spawner.started()) - set(kernel.spawner.pids())
    return {pid for pid, (_, sid) in live_processes().items() if sid in ended}
