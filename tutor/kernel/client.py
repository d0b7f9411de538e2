"""The tutor's side of the kernel: start it, open lesson runs, survive its faults.

`Kernel` owns the kernel process (the zygote) the way jupyter_client's manager
owns a kernel: start, status, restart with a limit, shutdown.  `Session` is one
lesson run in a fresh namespace, in its own forked process: run a step, evaluate
in a REPL, interrupt, kill.  Nothing here imports torch; the API is synchronous
and thread-safe (the TUI calls it from worker threads, `tutor check -j` from a
pool).
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

from tutor.kernel import launch, modes
from tutor.kernel.channel import Channel, ChannelClosed, ChannelGarbled, ChannelTimeout
from tutor.kernel.guard import EXIT_CHANNEL_LOST, EXIT_KERNEL_FAILED
from tutor.kernel.liveness import PING_EVERY, Liveness
from tutor.kernel.replies import BadReply, check_control, check_session_reply

STARTUP_TIMEOUT = 120.0
INTERRUPT_GRACE = 1.0
RESTART_LIMIT = 5
STABLE_AFTER = 10.0  # seconds of life after which a start counts as good
IMPORT_ALLOWANCE = 60.0  # seconds of module loading per request not counted as its time
SPAWN_TRIES = 3  # zygotes asked for one run, when one goes away before the run starts


KERNEL_DIED = "ended because the kernel died"  # (in SessionDied messages)


class KernelError(RuntimeError):
    """Something went wrong in the kernel; the message is for the learner."""


class KernelDead(KernelError):
    """The kernel process died, or kept dying and will not be restarted."""


class StepTimeout(KernelError):
    """Code ran longer than allowed and was stopped."""


class SessionDied(KernelError):
    """The lesson run's process ended unexpectedly (crash, os._exit, killed).

    `exit` is the process's ExitInfo when known (code, signal, and `reason` when the
    kernel itself stopped the run, e.g. for starting too many processes).
    """

    def __init__(self, message: str, exit: ExitInfo | None = None):
        super().__init__(message)
        self.exit = exit


def describe_exit(code: int | None, sig: int | None) -> str:
    if sig is not None:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        meaning = {
            "SIGSEGV": "a segmentation fault",
            "SIGABRT": "an abort",
            "SIGKILL": "it was killed: by a timeout, another process or lack of memory",
            "SIGXCPU": "it used more CPU time than a lesson run may",
            "SIGBUS": "a bus error",
            "SIGFPE": "a floating-point exception",
        }.get(name, "a signal")
        return f"crashed with {name} ({meaning})"
    if code is not None:
        return f"exited with code {code}"
    return "ended"


def kill_tree(pid: int) -> None:
    """SIGKILL the process group `pid` leads (and `pid` itself, if it left it)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@dataclass
class ExitInfo:
    code: int | None
    signal: int | None
    reason: str | None = None  # set when the kernel stopped the run itself
    at: float = 0.0  # time.monotonic() when the tutor learnt of it

    def __str__(self) -> str:
        if self.reason:
            return f"was stopped: {self.reason}"
        if self.code in RUN_EXITS:  # (codes a run's kernel code exits with: guard.py)
            return RUN_EXITS[self.code]
        return describe_exit(self.code, self.signal)


RUN_EXITS = {
    EXIT_CHANNEL_LOST: "lost its channel to the tutor: the lesson's code closed or replaced "
                       "the kernel's file descriptors (os.closerange, os.dup2 over them), so "
                       "it could not reply",
    EXIT_KERNEL_FAILED: f"exited with code {EXIT_KERNEL_FAILED}: the kernel's own code failed "
                        "in it (did the lesson's code replace or close something the kernel "
                        "uses?)",
}


class Kernel:
    """The kernel.  `status` is one of: new, starting, ready, restarting, dead, closed.

    `mode` is `fork` (a zygote forks each run) or `spawn` (a pool of fresh processes);
    `mode_reason` says why (see tutor/kernel/modes.py).  `python` is the interpreter
    lessons run on (default: TUTOR_PYTHON, else tutor's own).  `batch=True` (`tutor
    check`): spawned workers skip the optimizers' warm-up (see spawn.Spawner).
    """

    def __init__(self, python: str | None = None, *, mode: str | None = None,
                 restart_limit: int = RESTART_LIMIT, pool_size: int | None = None,
                 batch: bool = False):
        from tutor.kernel.spawn import POOL_SIZE, Spawner  # (spawn.py builds on this module)

        self.python = python or launch.default_python()
        self.restart_limit = restart_limit
        self.startup_timeout = STARTUP_TIMEOUT
        self.status = "new"
        self.info: dict[str, Any] = {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: Channel | None = None
        self.log = tempfile.TemporaryFile()
        self._lock = threading.RLock()
        self._send_lock = threading.Lock()
        self._ready = threading.Event()
        self._replies: dict[int, dict[str, Any]] = {}
        self._exits: dict[int, ExitInfo] = {}
        self._changed = threading.Condition()
        self._ids = itertools.count(1)
        self._deaths: list[float] = []
        self._started_at = 0.0
        self._failure = ""
        self._fatal = ""  # a failure no restart can mend (bad mode, interpreter without torch)
        self._proc_ready = False  # the current kernel process said it is ready
        self.spawner = Spawner(self, pool_size or POOL_SIZE, batch=batch)
        try:
            self._mode = modes.choose(mode)
        except modes.ModeError as exc:
            self._mode = modes.Mode(modes.SPAWN, "not chosen")
            self._fatal = str(exc)

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
            return f"CUDA: not available{why}; lessons that need it are skipped"
        count = int(info.get("cuda_devices") or 1)
        names = ", ".join(info.get("cuda_names") or ())
        fake = " (simulated)" if info.get("cuda_fake") else ""
        return (f"CUDA: {count} device{'s' if count != 1 else ''}{fake}"
                + (f" ({names})" if names else "") + "; its lessons run in their own processes")

    # --------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Launch the kernel process (returns at once; `wait_ready` waits)."""
        with self._lock:
            if self.status in ("starting", "ready", "closed") or (
                    self.status == "restarting" and self.channel is not None):
                return  # running, or already being launched
            if self._fatal:
                self._declare_dead(self._fatal)
                return
            self.status = "starting" if self.status == "new" else "restarting"
            self._ready.clear()
            self._proc_ready = False
            if self.mode == "spawn":  # no zygote: a pool of fresh processes
                self.spawner.start()
                return
            ours, theirs = socket.socketpair()
            try:
                self.proc = subprocess.Popen(
                    launch.command(self.python, "zygote", "--fd", str(theirs.fileno()),
                                   "--parent", str(os.getpid())),
                    pass_fds=[theirs.fileno()], env=self._env(), stdin=subprocess.DEVNULL,
                    stdout=self.log, stderr=self.log, start_new_session=True,
                )
            except OSError as exc:
                ours.close()
                self._declare_dead(str(launch.not_runnable(self.python, exc)))
                return
            finally:
                theirs.close()
            self.channel = Channel(ours, with_fds=True)
            self._started_at = time.monotonic()
            threading.Thread(target=self._read_control, args=(self.channel, self.proc),
                             name="tutor-kernel-reader", daemon=True).start()

    @property
    def failure(self) -> str:
        """Why the kernel process last died ("" if it never did), for the learner."""
        return self._failure

    @staticmethod
    def _env() -> dict[str, str]:
        return launch.environment()

    def log_tail(self, size: int = 2000) -> str:
        """The end of what kernel processes wrote to stdout/stderr."""
        self.log.seek(0, os.SEEK_END)
        end = self.log.tell()
        self.log.seek(max(0, end - size))
        tail = self.log.read().decode("utf-8", "replace").strip()
        self.log.seek(0, os.SEEK_END)
        return tail

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT) -> dict[str, Any]:
        if self.status in ("new", "restarting"):
            self.start()  # (a kernel that died is restarted when it is next needed)
        if not self._ready.wait(timeout):
            raise KernelDead(f"the kernel did not start within {timeout:.0f} s")
        if self.status == "dead":
            raise KernelDead(self._failure or "the kernel is dead")
        if self.status == "closed":
            raise KernelDead("the kernel was shut down")
        return self.info

    def _mark_ready(self, info: dict[str, Any]) -> None:
        self._proc_ready = True
        self.info = {**info, "mode": self.mode, "mode_reason": self.mode_reason}
        self.status = "ready"
        self._ready.set()

    def _declare_dead(self, why: str) -> None:
        self._failure = why
        self.status = "dead"
        self._ready.set()

    def _on_zygote_ready(self, channel: Channel, info: dict[str, Any]) -> None:
        """The zygote imported torch: go on forking, or switch to spawn mode."""
        outcome = modes.after_start(self._mode, info.pop("threads", None))
        if outcome is self._mode:
            self._mark_ready(info)
            return
        with self._lock:
            if self.channel is not channel:
                return
            self.channel = None  # its end is ours, not a death
            try:
                channel.send({"op": "bye"})
            except ChannelClosed:
                pass
            channel.close()
            if isinstance(outcome, str):
                self._fatal = outcome
                self._declare_dead(outcome)
                return
            self._mode = outcome
            self.spawner.start()

    def _worker_started(self, kind: str, hello: dict[str, Any]) -> None:
        """A spawned worker said hello (spawn.Spawner calls this)."""
        from tutor.kernel.spawn import CPU

        with self._lock:
            if kind == CPU and self.mode == "spawn" and not self._proc_ready \
                    and self.status in ("starting", "restarting"):
                info = dict(hello)
                info["pid"] = None  # no kernel process: every run is its own
                info.setdefault("cuda", self.info.get("cuda", False))
                self._mark_ready(info)
            elif kind != CPU:
                for key in ("cuda_names", "gpu_memory"):
                    if key in hello:
                        self.info[key] = hello[key]

    def _worker_failed(self, kind: str, error: Exception, *, fatal: bool) -> None:
        from tutor.kernel.spawn import CPU

        with self._lock:
            if kind == CPU and self.mode == "spawn" and fatal and not self._proc_ready:
                self._declare_dead(str(error))

    def _read_control(self, channel: Channel, proc: subprocess.Popen[bytes]) -> None:
        live = Liveness(proc.pid, lambda seq: self._send_control(channel, {"op": "ping",
                                                                            "seq": seq}))
        why = None  # set when we give up on a zygote that is alive
        while True:
            try:
                msg = channel.recv(PING_EVERY)
            except ChannelTimeout:
                why = live.check(self._proc_ready and self.channel is channel)
                if why is None:
                    continue
                break
            except (ChannelClosed, OSError):
                break
            live.heard()
            try:
                check_control(msg)
            except BadReply as exc:
                why = f"sent a malformed message ({exc})"
                break
            if msg.get("event") == "ready":
                self._on_zygote_ready(channel, {k: v for k, v in msg.items() if k != "event"})
                continue
            with self._changed:
                if msg.get("event") == "exit":
                    self._exits[msg["pid"]] = ExitInfo(msg.get("code"), msg.get("signal"),
                                                       msg.get("reason"), time.monotonic())
                    while len(self._exits) > 1000:  # nobody asked about the oldest
                        del self._exits[next(iter(self._exits))]
                elif "id" in msg:
                    if msg.get("ok"):
                        msg["fd"] = channel.fds.popleft() if channel.fds else None
                    self._replies[msg["id"]] = msg
                self._changed.notify_all()
        if why is not None:  # alive but useless: stopped, hung, or talking nonsense
            kill_tree(proc.pid)
        # the kernel process is gone
        code = proc.wait()
        with self._lock:
            if self.channel is channel:
                self._on_death(code, why)
        with self._changed:
            self._changed.notify_all()

    def _send_control(self, channel: Channel, message: dict[str, Any]) -> None:
        with self._send_lock:
            channel.send(message)

    def _on_death(self, code: int, given_up: str | None = None) -> None:
        """The kernel process ended (`given_up`: why we killed it ourselves)."""
        self.channel = None
        tail = self.log_tail()
        fatal = None if given_up is not None else launch.describe_failure(self.python, code, tail)
        if fatal:
            self._fatal = fatal
        if given_up is not None:
            self._failure = f"the kernel process {given_up}, so it was killed and restarted"
        else:
            why = describe_exit(code if code >= 0 else None, -code if code < 0 else None)
            self._failure = fatal or f"the kernel process {why}" + (f":\n{tail}" if tail else "")
        now = time.monotonic()
        if now - self._started_at > STABLE_AFTER:
            self._deaths.clear()
        self._deaths.append(now)
        if self.status == "closed":
            return
        if fatal or len(self._deaths) > self.restart_limit:
            self.status = "dead"
            self._ready.set()
        else:
            self.status = "restarting"
            self._ready.clear()

    def restart(self) -> None:
        """Stop the kernel (if running) and start a fresh one; resets the death count."""
        with self._lock:
            self._deaths.clear()
            self._stop()
            self.spawner.close()
            if self.status != "closed":
                self.status = "restarting"
            self.start()

    def _stop(self) -> None:
        proc, channel = self.proc, self.channel
        self.channel = None
        if channel is not None:
            try:
                channel.send({"op": "bye"})
            except ChannelClosed:
                pass
            channel.close()
        if proc is not None and proc.poll() is None:
            try:  # a kernel still importing torch has no runs yet: no need to wait
                proc.wait(timeout=2 if self._proc_ready else 0.05)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()

    def shutdown(self) -> None:
        with self._lock:
            self.status = "closed"
            self._stop()
            self._ready.set()
        self.spawner.close()

    def __enter__(self) -> Kernel:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # ---------------------------------------------------------------- sessions
    def open_session(self, *, seed: int = 0, limits: dict[str, Any] | None = None,
                     timeout: float = STARTUP_TIMEOUT, cuda: bool = False) -> Session:
        """A fresh lesson run: a new process with an empty namespace.

        `cuda=True`: a run that may initialise CUDA (a spawned worker that has done
        so already; see tutor/kernel/spawn.py); KernelError where there is no CUDA.
        """
        if self.status in ("restarting", "new") and self.channel is None and self.mode == "fork":
            self.start()
        if self.status == "dead":
            raise KernelDead(self._failure or "the kernel is dead")
        self.wait_ready(timeout)
        if cuda:
            if not self.info.get("cuda"):
                raise KernelError("this lesson needs a CUDA device, and this kernel has none")
            return self.spawner.session("cuda", seed, limits or {}, timeout)
        if self.mode == "spawn":
            return self.spawner.session("cpu", seed, limits or {}, timeout)
        for _ in range(SPAWN_TRIES):
            reply = self._fork_run(seed, limits or {})
            if reply is not None:
                break
            # The zygote died, or was given up on (stopped, hung), before this run
            # started: no code of this lesson ran, so it is not this lesson's fault
            # (an earlier one's code may have stopped the zygote): a fresh zygote.
            if self.status not in ("restarting", "new"):
                break
            self.wait_ready(timeout)
        else:
            reply = None
        if reply is None:
            raise KernelDead(self._failure or "the kernel did not answer")
        if not reply.get("ok") or reply.get("fd") is None:
            raise KernelError(reply.get("error") or "the kernel could not start a lesson run")
        sock = socket.socket(fileno=reply["fd"])
        return Session(self, int(reply["pid"]), Channel(sock))

    def _fork_run(self, seed: int, limits: dict[str, Any]) -> dict[str, Any] | None:
        """Ask the zygote for a run: its reply, or None when the zygote went away first."""
        req_id = next(self._ids)
        channel = self.channel
        if channel is None:
            return None
        try:
            self._send_control(channel, {"id": req_id, "op": "spawn", "seed": seed,
                                         "limits": limits})
        except ChannelClosed:
            return None
        with self._changed:
            self._changed.wait_for(
                lambda: req_id in self._replies or self.channel is not channel, timeout=30)
            return self._replies.pop(req_id, None)

    def prepare_cuda(self) -> None:
        """Start a CUDA worker now (it takes seconds), before a CUDA lesson asks for one."""
        if self.info.get("cuda"):
            self.spawner.prepare("cuda")

    def exit_info(self, pid: int, timeout: float = 2.0) -> ExitInfo | None:
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits or self.channel is None,
                                   timeout=timeout)
            return self._exits.pop(pid, None)


class Session:
    """One lesson run: a process with a fresh namespace, spoken to over a channel."""

    def __init__(self, kernel: Kernel, pid: int, channel: Channel,
                 proc: subprocess.Popen[bytes] | None = None):
        self.kernel = kernel
        self.pid = pid
        self.channel = channel
        self.proc = proc
        self.alive = True
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._inflight: int | None = None  # id of the request being served
        self._killed_why: str | None = None  # set when we killed the process ourselves
        self._sent_at = 0.0  # when the current (or last) request was sent
        self._done: Any = None  # id of the request whose code the run said had finished
        self._loading_since: float | None = None  # the run is loading a module since then
        self._allowance = IMPORT_ALLOWANCE  # seconds of loading the request may still take
        self._imported = 0.0  # seconds of loading not counted against the request's timeout
        self.exit: ExitInfo | None = None

    def request(self, op: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its reply, enforcing `timeout` (seconds)."""
        with self._lock:
            if not self.alive:
                raise SessionDied("this lesson run has already ended")
            req_id = next(self._ids)
            self._inflight = req_id
            request = {"id": req_id, "op": op, **fields}
            self._done = None
            self._loading_since = None
            self._allowance = IMPORT_ALLOWANCE
            self._imported = 0.0
            try:
                self._sent_at = time.monotonic()
                self.channel.send(request)
                reply = self._await(request, timeout)
            except (ChannelClosed, BadReply) as exc:
                raise self._failed(exc) from None
            finally:
                self._inflight = None
            if reply.get("fault"):  # the lesson's code hurt the kernel around it
                self._killed_why = str(reply["fault"])
                self.kill()
                self.alive = False
                raise SessionDied(self._killed_why, self.exit)
            if not reply.get("ok"):
                raise KernelError(reply.get("error") or "the kernel reported an error")
            return reply

    def _failed(self, exc: ChannelClosed | BadReply) -> SessionDied:
        """The run's channel closed, or it sent something that is not a reply: stop it."""
        if isinstance(exc, BadReply):
            self._killed_why = (f"the lesson's process sent a malformed reply ({exc}), "
                                "so it was stopped")
            self.kill()
        elif isinstance(exc, ChannelGarbled):  # alive, but wrote nonsense
            self._killed_why = f"the lesson's process {exc}, so it was stopped"
            self.kill()
        why = self._death()
        return SessionDied(self._killed_why or f"the lesson's process {why}", self.exit)

    def _await(self, request: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        try:
            return self._recv(request, timeout)
        except ChannelTimeout:
            pass
        left = self._children_note()  # (before the interrupt: what was still running)
        self._send_sigint()
        try:
            self._recv(request, INTERRUPT_GRACE)
        except ChannelTimeout:
            self.kill()
            self.alive = False
            if self._done == request["id"]:
                raise StepTimeout(
                    f"the code finished, but its result never arrived within {timeout:g} s "
                    "(did the lesson's code change how the kernel replies, e.g. its socket "
                    "or `sys.modules`?), so its process was stopped") from None
            raise StepTimeout(f"the code ran longer than {timeout:g} s{self._plus()} and "
                              f"ignored the interrupt, so its process was killed{left}") from None
        raise StepTimeout(f"the code ran longer than {timeout:g} s{self._plus()} and was "
                          f"interrupted{left}")

    def _children_note(self) -> str:
        """For a timeout's message: the processes the run had started that were still
        running ("" when none, or where they cannot be seen: no /proc)."""
        from tutor.kernel.procs import lesson_children

        try:
            live = lesson_children(self.pid)
        except (OSError, ValueError):
            live = None
        if not live:
            return ""
        n = len(live)
        return (f"; {n} process{'es' if n != 1 else ''} it started {'were' if n != 1 else 'was'} "
                "still running (a worker or rank that never finished, or a join() or a "
                "queue's get() waiting for ever?)")

    def _plus(self) -> str:
        """The module loading not counted in a timeout, for its message."""
        if self._loading_since is not None:
            return (f" (not counting {IMPORT_ALLOWANCE:g} s of loading modules, the most a "
                    "request may take: it was still loading one)")
        if self._imported >= 0.05:
            return f" (not counting {self._imported:.1f} s of loading modules)"
        return ""

    def _recv(self, request: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """The reply to `request`, checked against its schema (BadReply if it is not one).

        The clock stops while the run says it is loading a module (session.ImportClock),
        up to IMPORT_ALLOWANCE seconds per request: a first import is not the step's
        own work.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if deadline is None:
                left = None
            elif self._loading_since is not None:  # the loading may take what is allowed
                left = max(0.0, deadline + self._allowance - now)
            else:
                left = max(0.0, deadline - now)
            message = self.channel.recv(left)
            if message.get("event") == "done":  # the code finished; its reply comes next
                self._done = message.get("id")
                continue
            if message.get("event") == "import":
                if message.get("id") != request["id"]:
                    continue  # (not this request's: nothing to count)
                now = time.monotonic()
                if message.get("loading") is True and self._loading_since is None:
                    self._loading_since = now
                elif message.get("loading") is False and self._loading_since is not None:
                    credit = min(now - self._loading_since, self._allowance)
                    self._allowance -= credit
                    self._imported += credit
                    if deadline is not None:
                        deadline += credit
                    self._loading_since = None
                continue
            if message.get("id") != request["id"]:
                raise BadReply(f"a message with id {str(message.get('id'))[:20]} arrived while "
                               f"request {request['id']} was waiting")
            return check_session_reply(message, request)

    def _exited_at(self) -> float:
        """When this run's own process was seen to end (0.0: not known)."""
        return 0.0

    def _death(self) -> str:
        self.alive = False
        info: ExitInfo | None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                return "stopped answering"
            info = ExitInfo(code if code >= 0 else None, -code if code < 0 else None,
                            at=self._exited_at())
        else:
            info = self.kernel.exit_info(self.pid)
        self.exit = info
        if info is None:
            failure = self.kernel._failure.split(":\n")[0]
            return f"{KERNEL_DIED}" + (f": {failure}" if failure else "")
        if info.signal == signal.SIGXCPU and 0 < info.at < self._sent_at:
            return ("was stopped between steps: it used more CPU time than a lesson run may "
                    "while none of its code was running (a background thread or process "
                    "kept working after a step ended)")
        return str(info)

    # ------------------------------------------------------------------ ops
    def run_step(self, code: str, *, step: int = 0, prompts: list[dict[str, Any]] | None = None,
                 timeout: float | None = 10.0) -> dict[str, Any]:
        return self.request("run", timeout, code=code, step=step, prompts=prompts or [])

    def repl(self, code: str, timeout: float | None = None) -> dict[str, Any]:
        return self.request("repl", timeout, code=code)

    def observe(self, expr: str, timeout: float | None = 10.0) -> dict[str, Any]:
        return self.request("observe", timeout, expr=expr)["observation"]

    def inspect(self, what: str, expr: str | None = None,
                timeout: float | None = 10.0) -> dict[str, Any]:
        """Plain data for a picture (`what`: graph, storage or tree; see tutor.pictures).

        An expression that fails gives an `exception` observation instead.
        """
        return self.request("inspect", timeout, what=what, expr=expr)["picture"]

    def interrupt(self, grace: float | None = INTERRUPT_GRACE) -> None:
        """Stop running code: KeyboardInterrupt, then a kill if it is ignored.

        Safe to call from any thread, and it does not block: a SIGINT now and, when
        the request that was running is still running `grace` seconds later, a kill
        of the run's processes (the request then raises SessionDied saying so).
        `grace=None` only sends the SIGINT.
        """
        inflight = self._inflight
        self._send_sigint()
        if inflight is None or grace is None or not self.alive:
            return

        def escalate() -> None:
            if self._inflight == inflight and self.alive:
                self._killed_why = ("the code ignored the interrupt, so its process "
                                    "was killed")
                self.kill()

        timer = threading.Timer(grace, escalate)
        timer.daemon = True
        timer.start()

    def _send_sigint(self) -> None:
        try:
            os.kill(self.pid, signal.SIGINT)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        kill_tree(self.pid)
        if self.proc is not None:
            self.proc.wait()

    def close(self, wait: float | None = None) -> ExitInfo | None:
        """End the run.  Its process and everything it started are then killed.

        Returns at once unless `wait` is given: then it waits up to `wait` seconds for
        the kernel to report the run's exit (and returns it).
        """
        if self.alive:
            try:
                self.channel.send({"op": "bye"})
            except ChannelClosed:
                pass
            self.alive = False
        self.channel.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
            code = self.proc.returncode
            self.exit = ExitInfo(code if code >= 0 else None, -code if code < 0 else None)
        elif wait and self.exit is None:
            self.exit = self.kernel.exit_info(self.pid, timeout=wait)
        return self.exit

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
