"""One lesson run, as the tutor sees it (client side, no torch).

A `Session` is a lesson run in a fresh namespace, in its own process (forked by
the zygote, or a spawned worker): run a step, evaluate in a REPL, observe, draw a
picture, interrupt, kill.  It speaks to that process over its own channel and
checks every reply (tutor/kernel/replies.py) before returning it as its type
(tutor/kernel/wire.py).  What it needs of the kernel that started it is `RunHost`:
how a forked run ended (the zygote reports it) and why the kernel last died.
`Session` is the client's half; tutor/kernel/session.py is the kernel's.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import threading
import time
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, overload

from tutor.kernel.channel import Channel, ChannelClosed, ChannelGarbled, ChannelTimeout
from tutor.kernel.errors import ExitInfo, KernelError, SessionDied, StepTimeout, kill_tree
from tutor.kernel.replies import BadReply, check_session_reply
from tutor.kernel.words import N_, _, ngettext, translated

if TYPE_CHECKING:
    from tutor.kernel.wire import (
        FailureKind,
        InspectReply,
        ModulesReply,
        Observation,
        ObserveReply,
        Picture,
        PromptWire,
        ReplReply,
        RunReply,
        SessionReply,
    )

INTERRUPT_GRACE = 1.0
IMPORT_ALLOWANCE = 60.0  # seconds of module loading per request not counted as its time
KERNEL_DIED = N_("ended because the kernel died")  # (words of a SessionDied of kind kernel_died)


class RunHost(Protocol):
    """What a lesson run asks of the kernel that started it (the manager)."""

    @property
    def failure(self) -> str:
        """Why the kernel process last died ("" if it never did)."""
        ...

    def exit_info(self, pid: int, timeout: float = 2.0) -> ExitInfo | None:
        """How the forked run `pid` ended, as its zygote reported it (None: unknown)."""
        ...


class Session:
    """One lesson run: a process with a fresh namespace, spoken to over a channel."""

    def __init__(self, kernel: RunHost, pid: int, channel: Channel,
                 proc: subprocess.Popen[bytes] | None = None):
        self.kernel = kernel  # what it asks how a forked run ended, and why a kernel died
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
        # something went wrong in this run (an error, a timeout, an interrupt, a kill):
        # its process must not serve another run (spawn.SpawnedSession)
        self.troubled = False

    @overload
    def request(self, op: Literal["run"], timeout: float | None = None,
                **fields: Any) -> RunReply: ...
    @overload
    def request(self, op: Literal["repl"], timeout: float | None = None,
                **fields: Any) -> ReplReply: ...
    @overload
    def request(self, op: Literal["observe"], timeout: float | None = None,
                **fields: Any) -> ObserveReply: ...
    @overload
    def request(self, op: Literal["inspect"], timeout: float | None = None,
                **fields: Any) -> InspectReply: ...
    @overload
    def request(self, op: Literal["modules"], timeout: float | None = None,
                **fields: Any) -> ModulesReply: ...
    @overload
    def request(self, op: str, timeout: float | None = None,
                **fields: Any) -> SessionReply: ...

    def request(self, op: str, timeout: float | None = None, **fields: Any) -> SessionReply:
        """Send one request and wait for its reply, enforcing `timeout` (seconds)."""
        with self._lock:
            if not self.alive:
                raise SessionDied(_("this lesson run has already ended"))
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
                self.troubled = True
                raise self._failed(exc) from None
            except BaseException:
                self.troubled = True
                raise
            finally:
                self._inflight = None
            if reply.get("fault"):  # the lesson's code hurt the kernel around it
                self._killed_why = translated(str(reply["fault"]), reply.get("fault_words"))
                self.kill()
                self.alive = False
                raise SessionDied(self._killed_why, self.exit,
                                  reply.get("fault_kind") or "crashed")
            if not reply.get("ok"):
                self.troubled = True
                error = cast("dict[str, Any]", reply).get("error")
                raise KernelError(translated(error, reply.get("words"))
                                  if isinstance(error, str) and error
                                  else _("the kernel reported an error"))
            return reply

    def _failed(self, exc: ChannelClosed | BadReply) -> SessionDied:
        """The run's channel closed, or it sent something that is not a reply: stop it."""
        if isinstance(exc, BadReply):
            self._killed_why = _("the lesson's process sent a malformed reply ({why}), so it "
                                 "was stopped").format(why=exc)
            self.kill()
        elif isinstance(exc, ChannelGarbled):  # alive, but wrote nonsense
            self._killed_why = _("the lesson's process {why}, so it was stopped").format(why=exc)
            self.kill()
        why, kind = self._death()
        return SessionDied(self._killed_why or _("the lesson's process {why}").format(why=why),
                           self.exit,
                           "crashed" if self._killed_why else kind)

    def _await(self, request: dict[str, Any], timeout: float | None) -> SessionReply:
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
                raise StepTimeout(_(
                    "the code finished, but its result never arrived within {seconds} s "
                    "(did the lesson's code change how the kernel replies, e.g. its socket "
                    "or `sys.modules`?), so its process was stopped").format(
                        seconds=f"{timeout:g}")) from None
            raise StepTimeout(_("the code ran longer than {seconds} s{loading} and ignored the "
                                "interrupt, so its process was killed{left}").format(
                seconds=f"{timeout:g}", loading=self._plus(), left=left)) from None
        raise StepTimeout(_("the code ran longer than {seconds} s{loading} and was "
                            "interrupted{left}").format(seconds=f"{timeout:g}",
                                                        loading=self._plus(), left=left))

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
        return ngettext("; {n} process it started was still running (a worker or rank that "
                        "never finished, or a join() or a queue's get() waiting for ever?)",
                        "; {n} processes it started were still running (a worker or rank that "
                        "never finished, or a join() or a queue's get() waiting for ever?)",
                        n).format(n=n)

    def _plus(self) -> str:
        """The module loading not counted in a timeout, for its message."""
        if self._loading_since is not None:
            return _(" (not counting {seconds} s of loading modules, the most a request may "
                     "take: it was still loading one)").format(seconds=f"{IMPORT_ALLOWANCE:g}")
        if self._imported >= 0.05:
            return _(" (not counting {seconds} s of loading modules)").format(
                seconds=f"{self._imported:.1f}")
        return ""

    def _recv(self, request: dict[str, Any], timeout: float | None) -> SessionReply:
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

    def _death(self) -> tuple[str, FailureKind]:
        """How the run's process ended, for the learner, and what kind of failure."""
        self.alive = False
        info: ExitInfo | None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                return _("stopped answering"), "crashed"
            info = ExitInfo(code if code >= 0 else None, -code if code < 0 else None,
                            at=self._exited_at())
        else:
            info = self.kernel.exit_info(self.pid)
        self.exit = info
        if info is None:
            failure = self.kernel.failure.split(":\n")[0]
            return _(KERNEL_DIED) + (f": {failure}" if failure else ""), "kernel_died"
        if info.signal == signal.SIGXCPU and 0 < info.at < self._sent_at:
            return _("was stopped between steps: it used more CPU time than a lesson run may "
                     "while none of its code was running (a background thread or process "
                     "kept working after a step ended)"), "crashed"
        return str(info), "crashed"

    # ------------------------------------------------------------------ ops
    def run_step(self, code: str, *, step: int = 0, prompts: list[PromptWire] | None = None,
                 timeout: float | None = 10.0) -> RunReply:
        return self.request("run", timeout, code=code, step=step, prompts=prompts or [])

    def repl(self, code: str, timeout: float | None = None) -> ReplReply:
        return self.request("repl", timeout, code=code)

    def observe(self, expr: str, timeout: float | None = 10.0) -> Observation:
        return self.request("observe", timeout, expr=expr)["observation"]

    def inspect(self, what: str, expr: str | None = None,
                timeout: float | None = 10.0) -> Picture:
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
                self._killed_why = _("the code ignored the interrupt, so its process was "
                                     "killed")
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
