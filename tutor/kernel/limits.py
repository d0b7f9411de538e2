"""Kernel side, any platform: the resource limits a lesson run lives under.

Each limit is applied where the platform has the mechanism and reported as held or
not (`set_limits` returns what holds), so that a platform without `resource`
(Windows) or without an enforced RLIMIT_AS (macOS) runs lessons with fewer
guarantees instead of not at all.  docs/security.md has the table.
"""

from __future__ import annotations

import os
import sys
from typing import Any

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

FILE_LIMIT = 64 << 20  # bytes a lesson may write to one file
ADDRESS_SPACE_HEADROOM = 8 << 30  # bytes of virtual memory a lesson may add
CPU_SECONDS = 30  # CPU seconds per request: a safety net beyond the wall timeout


def vm_size() -> int | None:
    """This process's virtual memory size in bytes (Linux), or None where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def _lower(which: int, value: int) -> bool:
    assert resource is not None
    try:
        _soft, hard = resource.getrlimit(which)
        new_hard = value if hard == resource.RLIM_INFINITY else min(hard, value)
        resource.setrlimit(which, (min(value, new_hard), new_hard))
    except (ValueError, OSError):
        return False
    return True


def set_limits(limits: dict[str, Any], *, nproc: int | None = None,
               address_space: bool = True) -> dict[str, bool]:
    """Lower this process's rlimits for a lesson run; returns which ones hold.

    `address_space=False` for a run that may initialise CUDA (which reserves huge
    address ranges: RLIMIT_AS makes its initialisation fail).  The address-space
    limit is the process's size now plus the allowance; where the size is unknown
    (no /proc) or the kernel ignores RLIMIT_AS (macOS), it is not set.
    """
    held = {"core": False, "file_size": False, "memory": False, "processes": False}
    if resource is None:
        return held
    held["core"] = _lower(resource.RLIMIT_CORE, 0)
    held["file_size"] = _lower(resource.RLIMIT_FSIZE, int(limits.get("file_bytes", FILE_LIMIT)))
    size = vm_size()
    if address_space and size is not None and sys.platform != "darwin":
        headroom = int(limits.get("memory_bytes", ADDRESS_SPACE_HEADROOM))
        held["memory"] = _lower(resource.RLIMIT_AS, size + headroom)
    if nproc is not None and hasattr(resource, "RLIMIT_NPROC"):
        held["processes"] = _lower(resource.RLIMIT_NPROC, nproc)  # not enforced for root
    return held


def cpu_limit_available() -> bool:
    return resource is not None and hasattr(resource, "RLIMIT_CPU")
