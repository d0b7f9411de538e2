"""How lesson runs are started, behind one interface (client side, no torch).

jupyter_client's `KernelProvisionerBase` in small.  The manager (manager.py) owns
the kernel's status, its restart policy and its public API; *how* runs start is
a provisioner's:

* `ForkProvisioner` (fork.py): a zygote imports torch once and forks each run;
* `SpawnProvisioner` (spawn.py): a pool of workers that imported torch, one per
  run (spawn mode; the manager's `Spawner` also serves every CUDA run).

A provisioner is given its host (the manager, `ProvisionerHost`) when it is made,
and tells it what happens on the kernel side through the host's public callbacks
(`provisioner_ready`, `provisioner_died`, ...); it never reads or writes the
manager's state.  Neither side imports the other's module: both use these
protocols.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tutor.kernel.errors import ExitInfo
    from tutor.kernel.run import Session
    from tutor.kernel.wire import KernelInfo, RunLimits


class Provisioner(Protocol):
    """One way of starting lesson runs (the CPU runs of one mode)."""

    mode: str  # fork or spawn
    started_at: float  # time.monotonic() of the last launch (the restart policy's clock)

    def launch(self) -> None:
        """Start the kernel side (returns at once; the host hears when it is ready)."""
        ...

    def poll(self) -> int | None:
        """None while it is launched and can serve runs; else the exit code of its
        kernel process (a spawn pool that is closed or cannot start: 1)."""
        ...

    def signal(self, sig: int) -> None:
        """Send `sig` to its kernel processes (not to runs already handed out)."""
        ...

    def kill(self) -> None:
        """Kill its kernel processes now (the host hears of it as a death)."""
        ...

    def cleanup(self) -> None:
        """Stop: ask its processes to leave, kill those that do not, release all.
        No death is reported for what `cleanup` stops."""
        ...

    def new_run(self, seed: int, limits: RunLimits, timeout: float) -> Session | None:
        """A fresh lesson run; None when its kernel process went away before the run
        started (no lesson code ran: the host may wait for a fresh one and ask again);
        KernelError, with its kind, when no run can be started."""
        ...

    def exit_info(self, pid: int, timeout: float) -> ExitInfo | None:
        """How the run `pid` ended, where its kernel process reports it (fork)."""
        ...


class ProvisionerHost(Protocol):
    """What a provisioner asks of, and reports to, the manager that made it."""

    python: str  # the interpreter lessons run on
    startup_timeout: float
    optimizers: bool  # the zygote, and spawned workers, warm the optimizers up at start

    @property
    def restart_limit(self) -> int:
        """(spawn) How many worker starts may fail in a row."""
        ...

    @property
    def log(self) -> IO[bytes]:
        """Where kernel processes write stdout and stderr."""
        ...

    @property
    def failure(self) -> str:
        ...

    def log_tail(self, size: int = 2000) -> str:
        ...

    def exit_info(self, pid: int, timeout: float = 2.0) -> ExitInfo | None:
        """(What a `Session` asks: `run.RunHost`.)"""
        ...

    def provisioner_ready(self, provisioner: Provisioner, info: KernelInfo) -> None:
        """The kernel side imported torch and can serve runs (`info`: what it said)."""
        ...

    def provisioner_failed(self, provisioner: Provisioner, why: str, *, fatal: bool) -> None:
        """It could not start (`fatal`: no restart can mend it, e.g. no torch there)."""
        ...

    def provisioner_died(self, provisioner: Provisioner, code: int,
                         given_up: str | None) -> None:
        """Its kernel process ended with `code` (`given_up`: why it was killed: stopped,
        hung, talking nonsense)."""
        ...

    def worker_started(self, kind: str, hello: KernelInfo) -> None:
        """A spawned worker of `kind` (cpu, cuda) said hello."""
        ...

    def worker_failed(self, kind: str, error: Exception, *, fatal: bool) -> None:
        """A spawned worker of `kind` did not start (`fatal`: none will)."""
        ...
