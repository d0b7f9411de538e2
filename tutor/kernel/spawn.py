"""Spawned lesson runs, kept warm (client side, no torch).

A `Pool` holds a few worker processes (tutor/kernel/worker.py) that have already
imported torch and are waiting; `take()` hands one out for one lesson run and
starts its replacement in the background, so a learner rarely waits for an
import.  In a batch (`tutor check`, the pytest plugin: `Spawner(reuse=True)`), a CPU
worker whose run ended normally says whether the run left it as its first run found
it (tutor/kernel/reuse.py): then it goes back into the pool for another run of the
same limits, and its replacement is started only when it retires (`REUSE_ENV=0`
turns this off: one process per run).  `Spawner` keeps one pool per kind of run:

* `cpu`: every lesson run in spawn mode (where forking is unsafe or impossible);
* `once` (a batch that reuses workers): CPU runs known beforehand to leave their
  worker changed (a lesson with `modules:`): a worker of their own, without the
  optimizers' warm-up, instead of retiring a reusable one;
* `cuda`: lesson runs that need CUDA, in every mode.  Their workers initialise
  CUDA before they are needed (a process that has initialised CUDA cannot fork),
  so a learner waits for CUDA's start-up once per kernel, not once per run.

`SpawnProvisioner` is spawn mode's provisioner (tutor/kernel/provisioner.py): it
serves CPU runs from the CPU pool.  The spawner reports to its host (the manager)
through the host's public callbacks (`worker_started`, `worker_failed`) and knows
it only as a `ProvisionerHost`: it does not import the manager.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.kernel import launch
from tutor.kernel.channel import Channel, ChannelClosed, ChannelTimeout
from tutor.kernel.cleanup import remove_tree
from tutor.kernel.errors import KernelDead, KernelError, describe_exit, kill_tree
from tutor.kernel.liveness import HANG_AFTER, process_state
from tutor.kernel.replies import BadReply, check_kernel_info, need_int
from tutor.kernel.run import Session
from tutor.kernel.words import N_, _

if TYPE_CHECKING:
    from collections.abc import Callable

    from tutor.kernel.errors import ExitInfo
    from tutor.kernel.provisioner import ProvisionerHost
    from tutor.kernel.wire import KernelInfo, RunLimits

CPU, CUDA = "cpu", "cuda"
ONCE = "once"  # (a reuse batch) a CPU run known to retire its worker: a cheaper worker of its own
POOL_SIZE = 2  # CPU workers kept ready in spawn mode
CUDA_POOL_SIZE = 1  # CUDA workers kept ready once a CUDA run was asked for
HISTORY = 256  # pids of recent workers remembered (for tests and diagnostics)
SIGNALS = os.name == "posix"  # a signal can interrupt or kill one process (and its group)
STOPPED = N_("was stopped (by SIGSTOP, or a debugger)")
REUSE_ENV = "TUTOR_SPAWN_REUSE"  # "0": a batch's workers serve one run each, too
VERDICT_WAIT = 10.0  # seconds a closing run waits for its worker's idle/retire verdict
STARTING_POLL = 0.2  # seconds between looks at a starting worker (stopped? still wanted?)


def reuse_allowed() -> bool:
    """Whether a batch's spawned workers may serve several runs (REUSE_ENV)."""
    return os.environ.get(REUSE_ENV, "1").strip() != "0"


class SpawnedSession(Session):
    """A lesson run in a worker process of our own (not forked by a zygote)."""

    def __init__(self, kernel: ProvisionerHost, worker: Worker, workdir: str,
                 pool: Pool | None = None):
        super().__init__(kernel, worker.proc.pid, worker.channel, proc=worker.proc)
        self.worker = worker
        self.workdir = workdir  # the run's private directory, made by us, removed by us
        self.pool = pool  # a reuse pool the worker may go back to (None: it ends with the run)
        self.released = False  # the worker went back to the pool: it is not ours any more
        self.retired = ""  # why the worker did not go back (its own words), if it said
        worker.watch()

    def _exited_at(self) -> float:
        return self.worker.ended_at

    def _send_sigint(self) -> None:
        if self.released:
            return  # (the worker serves another run now)
        self.troubled = True
        if SIGNALS:
            super()._send_sigint()
        else:  # no signal for one process: the worker's lifeline interrupts its main thread
            self.worker.write_lifeline(b"i")

    def kill(self) -> None:
        if self.released:
            return
        self.troubled = True
        if SIGNALS:  # the run's process group, then the process
            super().kill()
        else:
            self.worker.proc.kill()
            self.worker.proc.wait()

    def close(self, wait: float | None = None) -> Any:
        if self.pool is not None and self.alive and not self.troubled and self._give_back():
            return None
        try:
            return super().close(wait)
        finally:
            self.worker.close_lifeline()
            self._remove_workdir()
            if self.pool is not None:
                self.pool.release(self.worker, back=False, why=self.retired)

    def _give_back(self) -> bool:
        """End the run and hand the worker back to its pool if it says it is as it was
        before its first run (tutor/kernel/reuse.py); False: it retires (it exits)."""
        assert self.pool is not None
        with self._lock:
            try:
                self.channel.send({"op": "bye"})
            except ChannelClosed:
                return False
            self.alive = False
            verdict = self._verdict()
        if verdict is not None:
            self.retired = verdict
            self.pool.release(self.worker, back=False, why=verdict)  # (before it exits)
            return False
        self.released = True
        self._remove_workdir()
        self.pool.release(self.worker, back=True)
        return True

    def _verdict(self) -> str | None:
        """None: the worker is idle again; else why it retires."""
        deadline = time.monotonic() + VERDICT_WAIT
        while True:
            try:
                message = self.channel.recv(max(0.0, deadline - time.monotonic()))
            except ChannelTimeout:
                return f"it did not say within {VERDICT_WAIT:g} s whether it could go on"
            except (ChannelClosed, ValueError):
                return "it ended"
            if message.get("event") == "idle":
                return None
            if message.get("event") == "retire":
                return str(message.get("why") or "it changed")[:2000]

    def _remove_workdir(self) -> None:
        """What the run left in its directory (all of it, if it crashed), removed in
        the background: a lesson may leave thousands of nested directories."""
        workdir, self.workdir = self.workdir, ""
        if workdir and os.path.lexists(workdir):
            threading.Thread(target=remove_tree, args=(workdir, 120.0),
                             name="tutor-run-cleaner", daemon=True).start()


@dataclass
class Worker:
    proc: subprocess.Popen[bytes]
    channel: Channel
    hello: KernelInfo
    runs: int = 0  # runs it was given
    limits: RunLimits | None = None  # those of its first run (a reused worker keeps them)
    lent: bool = False  # handed out by a reuse pool, not back yet
    ended_at: float = 0.0  # when its process was seen to end
    _watched: bool = False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def watch(self, pool: Pool | None = None) -> None:
        """Note when the process ends (once per worker), as a zygote would: a run that
        dies between steps, e.g. of CPU burnt by a background thread, is then named as
        such; a lent worker that dies is released from its pool."""
        if self._watched:
            return
        self._watched = True

        def wait() -> None:
            self.proc.wait()
            self.ended_at = time.monotonic()
            if pool is not None:
                pool.release(self, back=False)

        threading.Thread(target=wait, name="tutor-run-watch", daemon=True).start()

    def unfit(self) -> str | None:
        """Why this idle worker must not be handed out (None: it answers).  A lesson can
        stop or kill the pool's workers (they are its siblings): a stopped one is seen
        in /proc at once, a hung one does not answer a ping within HANG_AFTER."""
        if not self.alive():
            return "had ended"
        if process_state(self.proc.pid) in ("T", "t"):
            return STOPPED
        try:
            self.channel.send({"op": "ping", "seq": 1})
            pong = self.channel.recv(HANG_AFTER)
        except ChannelTimeout:
            return f"stopped answering (no reply for {HANG_AFTER:g} s: hung)"
        except ChannelClosed:
            return "had ended"
        if pong.get("event") != "pong":
            return "answered a ping with something else"
        return None

    def write_lifeline(self, data: bytes) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
        except (OSError, ValueError):
            pass

    def close_lifeline(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass

    def discard(self) -> None:
        """An idle worker that will not be used: it has run nothing, so just end it."""
        self.channel.close()
        self.close_lifeline()
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()


class _Unwanted(Exception):
    """A worker still importing torch that its pool no longer needs (`Pool.plan`)."""


class _Stopped(Exception):
    """A worker was stopped (SIGSTOP) before it said hello."""


class StartFailed(KernelError):
    def __init__(self, message: str, fatal: bool = False):
        super().__init__(message, "not_started")
        self.fatal = fatal  # the interpreter cannot run the kernel at all: do not retry


class Pool:
    """Workers of one kind, started ahead; `take` one, a replacement starts."""

    def __init__(self, spawner: Spawner, kind: str, size: int, *, reuse: bool = False):
        self.spawner = spawner
        self.kind = kind
        self.size = max(1, size)
        self.reuse = reuse  # a worker goes back after a run that left it unchanged
        self.ready: deque[Worker] = deque()
        self.starting = 0
        self.lent = 0  # (reuse) workers serving a run, counted as part of the pool
        self.spare = 0  # (reuse) one more kept starting or ready once a worker has retired
        self.failures = 0  # starts that failed in a row
        self.failure = ""
        self.fatal = ""
        self.closed = False
        self.planned: int | None = None  # (a batch) runs still to come, at most; None: no plan
        self.waiting = 0  # runs waiting for a worker
        self.cond = threading.Condition()

    def plan(self, runs: int) -> None:
        """At most `runs` more runs will be asked of this pool (a batch knows its lessons):
        no worker is started ahead for a run that will not come, and workers still
        importing torch beyond that number stop (`wanted`).  A run beyond the plan is
        still served, by a worker started when it asks."""
        with self.cond:
            self.planned = max(0, runs)

    def _needed(self) -> int | None:
        """(cond held) How many workers ready or starting the plan can use: the runs
        still to come, or the runs waiting where they are more (None: no plan)."""
        return None if self.planned is None else max(self.planned, self.waiting)

    def fill(self, *, probe: bool = False, most: int | None = None) -> None:
        """Start workers until `size` (or `most`) are ready or starting, no more than the
        plan needs."""
        with self.cond:
            if self.closed or self.fatal:
                return
            missing = self.size + self.spare - len(self.ready) - self.starting - self.lent
            for cap in (self._needed(), most):
                if cap is not None:
                    missing = min(missing, cap - len(self.ready) - self.starting)
            self.starting += max(0, missing)
        for i in range(max(0, missing)):
            threading.Thread(target=self._start_one, args=(probe and i == 0,),
                             name=f"tutor-{self.kind}-worker-start", daemon=True).start()

    def wanted(self) -> bool:
        """(A worker still starting asks) whether the runs planned still need it; if not,
        it is no longer counted as starting, and must stop."""
        with self.cond:
            needed = self._needed()
            if not self.closed and (needed is None or len(self.ready) + self.starting <= needed):
                return True
            self.starting -= 1
            return False

    def _start_one(self, probe: bool) -> None:
        worker = None
        hello: KernelInfo = {}
        error: StartFailed | None = None
        try:
            worker = self.spawner.start_worker(self.kind, probe=probe,
                                               wanted=None if probe else self.wanted)
        except _Unwanted:
            return  # (`wanted` counted it out)
        except StartFailed as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - reported to whoever waits for a worker
            error = StartFailed(_("the lesson's process did not start: {error}").format(
                error=exc))
        with self.cond:
            self.starting -= 1
            if worker is not None and self.closed:
                pass  # discarded below
            elif worker is not None:
                self.ready.append(worker)
                self.failures = 0
                hello, worker = worker.hello, None
            elif error is not None:
                self.failures += 1
                self.failure = str(error)
                if error.fatal:
                    self.fatal = str(error)
            self.cond.notify_all()
        if worker is not None:
            worker.discard()
        if error is not None:
            self.spawner.started_badly(self, error)
            with self.cond:  # none left to become ready (a batch starts one at first)
                again = not (self.ready or self.starting or self.closed or self.fatal) \
                    and self.failures <= self.spawner.kernel.restart_limit
            if again:
                self.fill(probe=probe, most=1)
        elif not self.closed:
            self.spawner.started_well(self, hello)

    def take(self, timeout: float, limits: RunLimits | None = None) -> Worker:
        """An idle worker that answers (a stopped, hung or dead one is replaced); a
        reused one only for a run of the limits it was first given (its hard limits
        were lowered for those)."""
        deadline = time.monotonic() + timeout
        while True:
            worker = self._take(max(0.0, deadline - time.monotonic()))
            if worker.runs and worker.limits != limits:
                why = "a run with other limits was asked for"
            else:
                why = worker.unfit() or ""
                if not why:
                    if not worker.runs:
                        worker.limits = limits
                    worker.runs += 1
                    return worker
            with self.cond:
                if self.planned is not None:  # (the run is still to come)
                    self.planned += 1
            self.release(worker, back=False, why=why)
            worker.discard()  # (a lesson stopped or killed it)
            self.fill()  # (its replacement)

    def release(self, worker: Worker, *, back: bool, why: str = "") -> None:
        """(reuse) A worker handed out is back (`back`: its run left it unchanged, it
        serves again) or gone (it retires, or died): a replacement starts."""
        with self.cond:
            if not worker.lent:
                return
            worker.lent = False
            self.lent -= 1
            if back and not self.closed and worker.alive():
                self.ready.appendleft(worker)
                self.cond.notify_all()
                return
            self.spawner.retired(worker, why)
            # workers retire now and then (a lesson that starts processes, sets an
            # environment variable, ...): one spare keeps the next run from waiting
            # for a torch import, at the cost of at most one worker never used
            self.spare = 1
            self.cond.notify_all()
        if back:  # (the pool was closed meanwhile)
            worker.discard()
        self.fill()

    def _take(self, timeout: float) -> Worker:
        with self.cond:
            self.waiting += 1  # (a run beyond the plan gets a worker too)
            try:
                worker = self._wait_for_one(time.monotonic() + timeout, timeout)
            finally:
                self.waiting -= 1
        self.fill()  # its replacement starts now
        return worker

    def _wait_for_one(self, deadline: float, timeout: float) -> Worker:
        """(cond held) A ready worker, once there is one."""
        while True:
            while self.ready:
                worker = self.ready.popleft()
                if worker.alive():
                    break
                worker.discard()
            else:
                worker = None
            if worker is not None:
                if self.reuse:
                    worker.lent = True
                    self.lent += 1
                if self.planned is not None:
                    self.planned -= 1  # (below 0: runs beyond the plan)
                return worker
            if self.closed:
                raise KernelDead(_("the kernel was shut down"))
            if self.fatal:
                raise KernelDead(self.fatal)
            if self.failures > self.spawner.kernel.restart_limit:
                raise KernelDead(_("lesson processes keep failing to start: {why}").format(
                    why=self.failure))
            if self.starting == 0:
                self.cond.release()
                try:
                    self.fill()
                finally:
                    self.cond.acquire()
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise KernelError(_("no lesson process was ready within {n} s").format(
                    n=f"{timeout:.0f}") + (f" ({self.failure})" if self.failure else ""),
                                  "not_started")
            self.cond.wait(remaining)

    def pids(self) -> list[int]:
        with self.cond:
            return [w.proc.pid for w in self.ready]

    def close(self) -> None:
        with self.cond:
            self.closed = True
            idle, self.ready = list(self.ready), deque()
            self.cond.notify_all()
        for worker in idle:
            worker.discard()


class Spawner:
    """The kernel's spawned workers: a CPU pool (spawn mode) and a CUDA pool."""

    def __init__(self, kernel: ProvisionerHost, pool_size: int = POOL_SIZE, *,
                 batch: bool = False, reuse: bool | None = None):
        self.kernel = kernel
        self.pool_size = pool_size
        # A worker warms the optimizers up (seconds of `torch._dynamo` import) while a
        # learner reads; in a batch (`tutor check`) every lesson would pay that for the
        # few that make an optimizer, so there those few pay it themselves, unless the
        # workers are reused (then it is paid once per worker, and an optimizer lesson
        # does not retire its worker by importing `torch._dynamo`).
        self.batch = batch
        # A batch's CPU workers serve several runs while each leaves them unchanged
        # (None: in a batch, unless REUSE_ENV=0).  Never for a learner's runs, whose
        # code is whatever they type.
        self.reuse = (batch and reuse_allowed()) if reuse is None else reuse
        self.pools: dict[str, Pool] = {}
        self.history: deque[int] = deque(maxlen=HISTORY)
        self.starting: set[int] = set()  # pids of workers not yet ready
        self.counts = {"workers": 0, "runs": 0, "reused": 0, "retired": 0}
        self.retirements: deque[str] = deque(maxlen=HISTORY)  # why workers retired, lately
        self._lock = threading.Lock()

    def pool(self, kind: str) -> Pool:
        with self._lock:
            pool = self.pools.get(kind)
            if pool is None or pool.closed:
                size = CUDA_POOL_SIZE if kind == CUDA else self.pool_size
                pool = self.pools[kind] = Pool(self, kind, size,
                                               reuse=self.reuse and kind == CPU)
            return pool

    def start(self) -> None:
        """Spawn mode: fill the CPU pool; the first worker also asks about CUDA.  A
        batch starts that one only: the rest start once it says how many runs will come
        (`plan`), or at its first run."""
        self.pool(CPU).fill(probe=True, most=1 if self.batch else None)

    def prepare(self, kind: str) -> None:
        self.pool(kind).fill()

    def plan(self, kind: str, runs: int) -> None:
        """(A batch) at most `runs` more runs of `kind` will be asked for (`Pool.plan`)."""
        pool = self.pool(kind)
        pool.plan(runs)
        if kind == CPU:
            pool.fill()

    def start_worker(self, kind: str, *, probe: bool = False,
                     wanted: Callable[[], bool] | None = None) -> Worker:
        """A new worker of `kind`, once it has said hello; `wanted` is asked while it
        starts: False stops it (_Unwanted)."""
        # no warm-up where no lesson of the kernel makes an optimizer (its caller read
        # them: `Kernel(optimizers=False)`), nor for a batch's one-run workers
        cold = not self.kernel.optimizers or (self.batch and not (self.reuse and kind == CPU))
        args = ((["--cuda"] if kind == CUDA else []) + (["--probe"] if probe else [])
                + (["--no-optimizers"] if cold else [])
                + (["--reuse"] if self.reuse and kind == CPU else []))
        timeout = self.kernel.startup_timeout
        try:
            proc, channel = launch.start_worker(self.kernel.python, args,
                                                log=self.kernel.log, timeout=timeout)
        except launch.LaunchError as exc:
            fatal = exc.missing or launch.describe_failure(self.kernel.python, exc.code,
                                                           self.kernel.log_tail())
            raise StartFailed(fatal if isinstance(fatal, str) else str(exc),
                              fatal=bool(fatal)) from None
        with self._lock:
            self.history.append(proc.pid)
            self.starting.add(proc.pid)
            self.counts["workers"] += 1
        try:
            hello = self._hello(proc, channel, timeout, wanted)
        except _Unwanted:
            channel.close()
            proc.kill()
            proc.wait()
            raise
        except _Stopped:
            channel.close()
            proc.kill()
            proc.wait()
            raise StartFailed(_("a lesson process {stopped} while it started, so it was "
                                "killed and replaced").format(stopped=_(STOPPED))) from None
        except (ChannelClosed, ChannelTimeout):
            channel.close()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            code = proc.returncode
            fatal = launch.describe_failure(self.kernel.python, code, self.kernel.log_tail())
            if fatal:
                raise StartFailed(fatal, fatal=True) from None
            raise StartFailed(_("the lesson's process did not start ({why})").format(
                why=self._exit(code)) + self._tail()) from None
        finally:
            with self._lock:
                self.starting.discard(proc.pid)
        try:
            if hello.get("event") != "hello":
                raise BadReply(f"it said {str(hello.get('event'))[:40]!r}, not hello")
            info = check_kernel_info({k: v for k, v in hello.items() if k != "event"})
            need_int(hello.get("pid"), "pid")
        except BadReply as exc:
            channel.close()
            proc.kill()
            proc.wait()
            raise StartFailed(_("the lesson's process did not start properly: {error}").format(
                error=exc)) from None
        return Worker(proc, channel, info)

    @staticmethod
    def _hello(proc: subprocess.Popen[bytes], channel: Channel, timeout: float,
               wanted: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The worker's first message, looking every STARTING_POLL s whether it was
        stopped (a lesson can stop its sibling workers while they import torch) and
        whether it is still `wanted`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return channel.recv(min(STARTING_POLL,
                                        max(0.0, deadline - time.monotonic())))
            except ChannelTimeout:
                if wanted is not None and not wanted():
                    raise _Unwanted() from None
                if process_state(proc.pid) in ("T", "t"):
                    raise _Stopped() from None
                if time.monotonic() >= deadline:
                    raise

    def _exit(self, code: int | None) -> str:
        if code is None:
            return _("it did not answer")
        return describe_exit(code if code >= 0 else None, -code if code < 0 else None)

    def _tail(self) -> str:
        tail = self.kernel.log_tail()
        return f":\n{tail}" if tail else ""

    def started_well(self, pool: Pool, hello: KernelInfo) -> None:
        self.kernel.worker_started(pool.kind, hello)

    def started_badly(self, pool: Pool, error: StartFailed) -> None:
        self.kernel.worker_failed(pool.kind, error, fatal=bool(pool.fatal) or (
            pool.failures > self.kernel.restart_limit))

    def session(self, kind: str, seed: int, limits: RunLimits,
                timeout: float) -> SpawnedSession:
        pool = self.pool(kind)
        worker = pool.take(timeout, limits)
        with self._lock:
            self.counts["runs"] += 1
            self.counts["reused"] += worker.runs > 1
        workdir = tempfile.mkdtemp(prefix="tutor-lesson-")
        try:
            worker.channel.send({"op": "start", "seed": seed, "limits": limits,
                                 "workdir": workdir})
        except ChannelClosed:
            pool.release(worker, back=False, why="it ended before its run started")
            worker.discard()
            remove_tree(workdir, 1.0)
            raise KernelError(_("the lesson's process ended before its run started"),
                              "not_started") from None
        if pool.reuse:
            worker.watch(pool)
        return SpawnedSession(self.kernel, worker, workdir, pool if pool.reuse else None)

    def retired(self, worker: Worker, why: str) -> None:
        """(A reuse pool's) `worker` will serve no more runs."""
        with self._lock:
            self.counts["retired"] += 1
            self.retirements.append(why or "its run failed or ended it")

    def stats(self) -> dict[str, int]:
        """Workers started, runs served, runs served by a worker that had served one
        before (`reused`), workers retired after a run (reuse pools)."""
        with self._lock:
            return dict(self.counts)

    def started(self) -> list[int]:
        """Pids of the workers started lately (the last HISTORY), oldest first."""
        with self._lock:
            return list(self.history)

    def pids(self) -> list[int]:
        """Workers not given a run yet: starting or idle (every other process we
        started has served a run, or failed to start)."""
        with self._lock:
            pools, starting = list(self.pools.values()), list(self.starting)
        return [pid for pool in pools for pid in pool.pids()] + starting

    def close(self) -> None:
        with self._lock:
            pools, self.pools = list(self.pools.values()), {}
        for pool in pools:
            pool.close()


class SpawnProvisioner:
    """Spawn mode's provisioner: every CPU run is a warm worker of the spawner's CPU
    pool (tutor/kernel/provisioner.py).  The pool tells the host (the manager) when
    its first worker is ready, or that none will start (`worker_started`,
    `worker_failed`); there is no kernel process to die."""

    mode = "spawn"

    def __init__(self, spawner: Spawner):
        self.spawner = spawner
        self.started_at = 0.0

    def launch(self) -> None:
        self.started_at = time.monotonic()
        self.spawner.start()

    def poll(self) -> int | None:
        """None while the CPU pool is open and can start workers; else 1."""
        with self.spawner._lock:
            pool = self.spawner.pools.get(CPU)
        return None if pool is not None and not pool.closed and not pool.fatal else 1

    def signal(self, sig: int) -> None:
        """Signal the idle and starting workers (runs handed out are their own)."""
        for pid in self.spawner.pids():
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def kill(self) -> None:
        for pid in self.spawner.pids():
            kill_tree(pid)

    def cleanup(self) -> None:
        """Close the CPU pool: its idle workers are ended (runs handed out go on)."""
        with self.spawner._lock:
            pool = self.spawner.pools.pop(CPU, None)
        if pool is not None:
            pool.close()

    def new_run(self, seed: int, limits: RunLimits, timeout: float) -> Session | None:
        return self.spawner.session(CPU, seed, limits, timeout)

    def exit_info(self, pid: int, timeout: float) -> ExitInfo | None:
        return None  # (a worker is the tutor's own child: its Session waits for it)
