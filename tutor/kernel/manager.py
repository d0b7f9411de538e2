"""The tutor's side of the kernel: start it, open lesson runs, survive its faults.

`Kernel` (`KernelManager`) manages the kernel the way jupyter_client's manager
does: its status, start, restart, shutdown, its description (`info`, the mode),
and lesson runs (`open_session`).  How runs start is a provisioner's
(tutor/kernel/provisioner.py): `ForkProvisioner` (fork.py: a zygote) or
`SpawnProvisioner` (spawn.py: a pool of workers), picked by the mode
(tutor/kernel/modes.py); a zygote that turns out multi-threaded after importing
torch is let go and the manager swaps in the spawn provisioner, once.  CUDA runs
are spawned in every mode (`spawner`).  When the kernel process dies, the
`RestartPolicy` (restarter.py) decides whether it is started again.

Status changes are events: `subscribe(callback)` instead of polling `status`.
Nothing here imports torch; the API is synchronous and thread-safe (the TUI calls
it from worker threads, `tutor check -j` from a pool).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Literal

from tutor.kernel import launch, modes
from tutor.kernel.errors import ExitInfo, KernelDead, KernelError, describe_exit
from tutor.kernel.fork import ForkProvisioner
from tutor.kernel.restarter import RESTART_LIMIT, RestartPolicy
from tutor.kernel.spawn import CPU, CUDA, ONCE, POOL_SIZE, Spawner, SpawnProvisioner
from tutor.kernel.words import _, ngettext

if TYPE_CHECKING:
    import subprocess

    from tutor.kernel.channel import Channel
    from tutor.kernel.provisioner import Provisioner
    from tutor.kernel.run import Session
    from tutor.kernel.wire import KernelInfo, RunLimits

STARTUP_TIMEOUT = 120.0
SPAWN_TRIES = 3  # zygotes asked for one run, when one goes away before the run starts
WAIT_STEP = 0.2  # seconds: how often a waiter looks whether the process it waits for died

Status = Literal["new", "starting", "ready", "restarting", "dead", "closed"]
StatusListener = Callable[[Status], object]  # (what it returns is ignored)


class KernelManager:
    """The kernel.  `status` is one of: new, starting, ready, restarting, dead, closed.

    `mode` is `fork` (a zygote forks each run) or `spawn` (a pool of fresh processes);
    `mode_reason` says why (see tutor/kernel/modes.py).  `python` is the interpreter
    lessons run on (default: TUTOR_PYTHON, else tutor's own).  `batch=True` (`tutor
    check`): spawned workers skip the optimizers' warm-up (see spawn.Spawner), and
    a spawn-mode CPU worker serves further runs while each leaves it unchanged
    (`reuse`; None: in a batch unless TUTOR_SPAWN_REUSE=0; see tutor/kernel/reuse.py).
    `optimizers=False`: no lesson this kernel runs makes an optimizer (its caller read
    them: tutor/lesson/warmth.py), so the zygote and spawned workers leave out the
    optimizers' warm-up
    (`torch._dynamo`'s import, as long as torch's); a run that makes one anyway pays
    it itself.  The default warms them for a learner who has not chosen yet.
    """

    def __init__(self, python: str | None = None, *, mode: str | None = None,
                 restart_limit: int = RESTART_LIMIT, pool_size: int | None = None,
                 batch: bool = False, reuse: bool | None = None, optimizers: bool = True):
        self.python = python or launch.default_python()
        self.optimizers = optimizers
        self.restarter = RestartPolicy(restart_limit)
        self.restarter.add_callback(self._restarting, "restart")
        self.restarter.add_callback(self._dead, "dead")
        self.startup_timeout = STARTUP_TIMEOUT
        self._status: Status = "new"
        self._listeners: list[StatusListener] = []
        self.info: KernelInfo = {}
        self._log = tempfile.TemporaryFile()
        self._lock = threading.RLock()
        self._ready = threading.Event()
        self._failure = ""
        self._fatal = ""  # a failure no restart can mend (bad mode, interpreter without torch)
        self._proc_ready = False  # the current kernel process said it is ready
        self.spawner = Spawner(self, pool_size or POOL_SIZE, batch=batch, reuse=reuse)
        try:
            self._mode = modes.choose(mode)
        except modes.ModeError as exc:
            self._mode = modes.Mode(modes.SPAWN, _("not chosen"))
            self._fatal = str(exc)
        # the zygote, in fork mode (kept after a switch to spawn mode: `proc`)
        self.fork = ForkProvisioner(self, self._lock) if self.mode == modes.FORK else None
        self.provisioner: Provisioner = self.fork or SpawnProvisioner(self.spawner)

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> Status:
        return self._status

    @status.setter
    def status(self, value: Status) -> None:
        changed = value != self._status
        self._status = value
        if changed:
            for listener in list(self._listeners):
                listener(value)

    def subscribe(self, listener: StatusListener) -> Callable[[], None]:
        """Call `listener(status)` at every change of status, from then on; returns a
        function that unsubscribes.  It is called on the kernel's own threads (with its
        lock held): it must return at once and not call the kernel (post a message)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners \
            else None

    @property
    def restart_limit(self) -> int:
        return self.restarter.limit

    @property
    def log(self) -> IO[bytes]:
        return self._log

    @property
    def proc(self) -> subprocess.Popen[bytes] | None:
        """The zygote's process (fork mode; None in spawn mode, where every run is its
        own process)."""
        return self.fork.proc if self.fork is not None else None

    @property
    def channel(self) -> Channel | None:
        """The current zygote's control channel (None: no zygote serves or starts)."""
        return self.fork.channel if self.fork is not None else None

    @property
    def mode(self) -> str:
        """`fork` or `spawn` (it may change from fork to spawn once, at the first start)."""
        return self._mode.name

    @property
    def mode_reason(self) -> str:
        return self._mode.reason

    def describe_mode(self) -> str:
        """One line for a learner: the mode, why, and what it means."""
        return self._mode.describe()

    def describe_cuda(self) -> str:
        """Whether lessons can use CUDA here, for a learner (after `wait_ready`)."""
        info = self.info
        if not info.get("cuda"):
            why = f" ({info['cuda_error']})" if info.get("cuda_error") else ""
            return _("CUDA: not available{why}; lessons that need it are skipped").format(
                why=why)
        count = int(info.get("cuda_devices") or 1)
        names = ", ".join(info.get("cuda_names") or ())
        devices = ngettext("{n} device", "{n} devices", count).format(n=count) + (
            _(" (simulated)") if info.get("cuda_fake") else "") + (
            f" ({names})" if names else "")
        return _("CUDA: {devices}; its lessons run in their own processes").format(
            devices=devices)

    @property
    def failure(self) -> str:
        """Why the kernel process last died ("" if it never did), for the learner."""
        return self._failure

    def log_tail(self, size: int = 2000) -> str:
        """The end of what kernel processes wrote to stdout/stderr."""
        self._log.seek(0, os.SEEK_END)
        end = self._log.tell()
        self._log.seek(max(0, end - size))
        tail = self._log.read().decode("utf-8", "replace").strip()
        self._log.seek(0, os.SEEK_END)
        return tail

    # --------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Launch the kernel process (returns at once; `wait_ready` waits)."""
        with self._lock:
            if self.status in ("starting", "ready", "closed") or (
                    self.status == "restarting" and self.mode == modes.FORK
                    and self.provisioner.poll() is None):
                return  # running, or already being launched
            if self._fatal:
                self._declare_dead(self._fatal)
                return
            self.status = "starting" if self.status == "new" else "restarting"
            self._ready.clear()
            self._proc_ready = False
            self.provisioner.launch()

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT) -> KernelInfo:
        """The kernel's info once it is ready (starting it if it died: a kernel that
        died is restarted when it is next needed).  A kernel process that dies while
        this waits, before it was ready, is started again here (as the restart policy
        allows: it counts those deaths too), so that no waiter waits for a process
        that is gone (the app said `restarting…` for two minutes: issue 25's K4)."""
        if self.status in ("new", "restarting"):
            self.start()
        deadline = time.monotonic() + timeout
        while not self._ready.wait(max(0.0, min(WAIT_STEP, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                raise KernelDead(_("the kernel did not start within {seconds} s").format(
                    seconds=f"{timeout:.0f}"))
            if self.status == "restarting" and self.mode == modes.FORK \
                    and self.provisioner.poll() is not None:
                self.start()
        if self.status == "dead":
            raise KernelDead(self._failure or _("the kernel is dead"))
        if self.status == "closed":
            raise KernelDead(_("the kernel was shut down"))
        return self.info

    def restart(self) -> None:
        """Stop the kernel (if running) and start a fresh one; resets the death count."""
        with self._lock:
            self.restarter.reset()
            self._stop()
            self.spawner.close()
            if self.status != "closed":
                self.status = "restarting"
            self.start()

    def shutdown(self) -> None:
        with self._lock:
            self.status = "closed"
            self._stop()
            self._ready.set()
        self.spawner.close()

    def _stop(self) -> None:
        if self.fork is not None:
            self.fork.cleanup()  # (also after a switch: the zygote let go may still be there)
        if self.provisioner is not self.fork:
            self.provisioner.cleanup()

    def __enter__(self) -> KernelManager:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def _mark_ready(self, info: KernelInfo) -> None:
        self._proc_ready = True
        self.info = {**info, "mode": self.mode, "mode_reason": self.mode_reason}
        self.status = "ready"
        self._ready.set()

    def _declare_dead(self, why: str) -> None:
        self._failure = why
        self.status = "dead"
        self._ready.set()

    def _restarting(self, why: str) -> None:  # (RestartPolicy's "restart" callback)
        self.status = "restarting"
        self._ready.clear()

    def _dead(self, why: str) -> None:  # (RestartPolicy's "dead" callback)
        self.status = "dead"
        self._ready.set()

    # ------------------------------------------- what the provisioners report
    def provisioner_ready(self, provisioner: Provisioner, info: KernelInfo) -> None:
        """The zygote imported torch: go on forking, or switch to spawn mode."""
        with self._lock:
            if provisioner is not self.provisioner:
                return
            outcome = modes.after_start(self._mode, info.pop("threads", None))
            if outcome is self._mode:
                self._mark_ready(info)
                return
            if self.fork is not None:
                self.fork.retire()
            if isinstance(outcome, str):
                self._fatal = outcome
                self._declare_dead(outcome)
                return
            self._mode = outcome
            self.provisioner = SpawnProvisioner(self.spawner)
            self.provisioner.launch()

    def provisioner_failed(self, provisioner: Provisioner, why: str, *, fatal: bool) -> None:
        with self._lock:
            if fatal:
                self._fatal = why
            self._declare_dead(why)

    def provisioner_died(self, provisioner: Provisioner, code: int,
                         given_up: str | None) -> None:
        """The kernel process ended (`given_up`: why we killed it ourselves)."""
        with self._lock:
            tail = self.log_tail()
            fatal = None if given_up is not None else launch.describe_failure(self.python,
                                                                              code, tail)
            if fatal:
                self._fatal = fatal
            if given_up is not None:
                self._failure = _("the kernel process {why}, so it was killed and "
                                  "restarted").format(why=given_up)
            else:
                why = describe_exit(code if code >= 0 else None, -code if code < 0 else None)
                self._failure = fatal or _("the kernel process {why}").format(why=why) + (
                    f":\n{tail}" if tail else "")
            if self.status == "closed":
                return
            self.restarter.died(provisioner.started_at, self._failure, fatal=bool(fatal))

    def worker_started(self, kind: str, hello: KernelInfo) -> None:
        """A spawned worker said hello (the spawner calls this)."""
        with self._lock:
            if kind == CPU and self.mode == modes.SPAWN and not self._proc_ready \
                    and self.status in ("starting", "restarting"):
                info: KernelInfo = {**hello}
                info["pid"] = None  # no kernel process: every run is its own
                info.setdefault("cuda", self.info.get("cuda", False))
                self._mark_ready(info)
            elif kind != CPU:
                if "cuda_names" in hello:
                    self.info["cuda_names"] = hello["cuda_names"]
                if "gpu_memory" in hello:
                    self.info["gpu_memory"] = hello["gpu_memory"]

    def worker_failed(self, kind: str, error: Exception, *, fatal: bool) -> None:
        with self._lock:
            if kind == CPU and self.mode == modes.SPAWN and fatal and not self._proc_ready:
                self._declare_dead(str(error))

    # ---------------------------------------------------------------- sessions
    def open_session(self, *, seed: int = 0, limits: RunLimits | None = None,
                     timeout: float = STARTUP_TIMEOUT, cuda: bool = False,
                     once: bool = False) -> Session:
        """A fresh lesson run: a new process with an empty namespace.

        `cuda=True`: a run that may initialise CUDA (a spawned worker that has done
        so already; see tutor/kernel/spawn.py); KernelError where there is no CUDA.
        `once=True`: the run will leave its process changed (a lesson's `modules:`);
        where workers are reused, it gets a worker of its own instead of retiring one.
        """
        if self.status in ("restarting", "new") and self.mode == modes.FORK \
                and self.provisioner.poll() is not None:
            self.start()
        if self.status == "dead":
            raise KernelDead(self._failure or _("the kernel is dead"))
        self.wait_ready(timeout)
        if cuda:
            if not self.info.get("cuda"):
                raise KernelError(_("this lesson needs a CUDA device, and this kernel has "
                                    "none"), "not_started")
            return self.spawner.session(CUDA, seed, limits or {}, timeout)
        if once and self.reuses_workers:
            return self.spawner.session(ONCE, seed, limits or {}, timeout)
        for _try in range(SPAWN_TRIES):
            run = self.provisioner.new_run(seed, limits or {}, timeout)
            if run is not None:
                return run
            # The zygote died, or was given up on (stopped, hung), before this run
            # started: no code of this lesson ran, so it is not this lesson's fault
            # (an earlier one's code may have stopped the zygote): a fresh zygote.
            if self.status not in ("restarting", "new"):
                break
            self.wait_ready(timeout)
        raise KernelDead(self._failure or _("the kernel did not answer"))

    def worker_stats(self) -> dict[str, int]:
        """Spawned workers: started, runs served, runs on a reused worker, retired."""
        return self.spawner.stats()

    @property
    def reuses_workers(self) -> bool:
        """Whether lesson runs may share a spawned worker: spawn mode, in a batch (see
        `reuse`; fork mode forks every CPU run, and CUDA workers serve one run each)."""
        return self.spawner.reuse and self.mode == modes.SPAWN

    def plan(self, *, cpu: int, once: int = 0, cuda: int = 0) -> None:
        """(A batch, once ready) at most this many runs of each kind are still to come
        (`once`: opened with `once=True`): spawned workers are not started ahead for runs
        that will not come, and those still starting beyond them stop (`tutor check` of
        one lesson in spawn mode imports torch once or twice, not five times).  A run
        beyond the plan is still served.  Fork mode forks its CPU runs: there only the
        CUDA runs are planned."""
        if self.mode == modes.SPAWN:
            if self.reuses_workers:
                self.spawner.plan(ONCE, once)
            else:
                cpu += once
            self.spawner.plan(CPU, cpu)
        if self.info.get("cuda"):
            self.spawner.plan(CUDA, cuda)

    def prepare_once(self) -> None:
        """Where workers are reused: start the workers of runs opened with `once=True`
        now (`tutor check`, when a lesson has `modules:`), so that those runs do not
        wait for a torch import."""
        if self.reuses_workers:
            self.spawner.prepare(ONCE)

    def prepare_cuda(self) -> None:
        """Start a CUDA worker now (it takes seconds), before a CUDA lesson asks for one."""
        if self.info.get("cuda"):
            self.spawner.prepare(CUDA)

    def exit_info(self, pid: int, timeout: float = 2.0) -> ExitInfo | None:
        """How the forked run `pid` ended, as the zygote reported it (None: unknown)."""
        return self.fork.exit_info(pid, timeout) if self.fork is not None else None


Kernel = KernelManager  # (the name every caller uses)
