"""Fork mode's provisioner: a zygote that imports torch once and forks each run.

`ForkProvisioner` starts the zygote (tutor/kernel/zygote.py) with a control
socket, reads that socket on a thread of its own (`ready`, a run's `exit`, the
replies to `spawn`, `pong`), pings the zygote after a second of quiet and gives up
on one that is stopped, hung or talking nonsense (tutor/kernel/liveness.py).  A
run is asked for with `spawn`; its socket comes back as a passed file descriptor
and becomes a `Session`.  What happens to the zygote is told to the host (the
manager) through its public callbacks: `provisioner_ready`, `provisioner_failed`,
`provisioner_died`.  The host's lock is shared, so the host sees each change
whole.  Client side: no torch.
"""

from __future__ import annotations

import itertools
import os
import signal as signals
import socket
import subprocess
import threading
import time
from typing import TYPE_CHECKING, Any, cast

from tutor.kernel import launch
from tutor.kernel.channel import Channel, ChannelClosed, ChannelTimeout
from tutor.kernel.errors import ExitInfo, KernelError, kill_tree
from tutor.kernel.liveness import PING_EVERY, Liveness
from tutor.kernel.replies import BadReply, check_control
from tutor.kernel.run import Session

if TYPE_CHECKING:
    from tutor.kernel.provisioner import ProvisionerHost
    from tutor.kernel.wire import KernelInfo, RunLimits, SpawnReply, SpawnRequest

SPAWN_REPLY_WAIT = 30.0  # seconds a `spawn` request may wait for its reply


class ForkProvisioner:
    """The zygote: launched, read, pinged, asked for runs, let go (see the module)."""

    mode = "fork"

    def __init__(self, host: ProvisionerHost, lock: threading.RLock):
        self.host = host
        self.lock = lock  # the host's: every change of `channel` is made under it
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: Channel | None = None  # the current zygote's; None: none serves
        self.started_at = 0.0
        self.serving = False  # the current zygote said it is ready
        self._send_lock = threading.Lock()
        self._replies: dict[int, SpawnReply] = {}
        self._exits: dict[int, ExitInfo] = {}
        self._changed = threading.Condition()
        self._ids = itertools.count(1)

    # ------------------------------------------------------------- interface
    def launch(self) -> None:
        """Start a zygote (call with the host's lock held)."""
        self.serving = False
        ours, theirs = socket.socketpair()
        try:
            self.proc = subprocess.Popen(
                launch.command(self.host.python, "zygote", "--fd", str(theirs.fileno()),
                               "--parent", str(os.getpid()),
                               *([] if self.host.optimizers else ["--no-optimizers"])),
                pass_fds=[theirs.fileno()], env=launch.environment(),
                stdin=subprocess.DEVNULL, stdout=self.host.log, stderr=self.host.log,
                start_new_session=True,
            )
        except OSError as exc:
            ours.close()
            self.host.provisioner_failed(
                self, str(launch.not_runnable(self.host.python, exc)), fatal=False)
            return
        finally:
            theirs.close()
        self.channel = Channel(ours, with_fds=True)
        self.started_at = time.monotonic()
        threading.Thread(target=self._read_control, args=(self.channel, self.proc),
                         name="tutor-kernel-reader", daemon=True).start()

    def poll(self) -> int | None:
        """None while a zygote is launched (importing torch, or serving); else its exit
        code (0 when none was started, or it was let go and has not ended yet)."""
        if self.channel is not None:
            return None
        code = self.proc.poll() if self.proc is not None else None
        return code if code is not None else 0

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def kill(self) -> None:
        """Kill the zygote and what it started (its reader reports the death)."""
        if self.proc is not None:
            kill_tree(self.proc.pid)

    def cleanup(self) -> None:
        """Let the zygote go (`bye`) and wait a moment for it, then kill it."""
        proc = self.proc
        self.retire()
        if proc is not None and proc.poll() is None:
            try:  # a kernel still importing torch has no runs yet: no need to wait
                proc.wait(timeout=2 if self.serving else 0.05)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signals.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()

    def retire(self) -> None:
        """Stop using the current zygote: `bye`, and its channel closed (its end is
        ours: not a death).  Call with the host's lock held."""
        channel, self.channel = self.channel, None
        if channel is not None:
            try:
                channel.send({"op": "bye"})
            except ChannelClosed:
                pass
            channel.close()

    def new_run(self, seed: int, limits: RunLimits, timeout: float) -> Session | None:
        """A run forked by the zygote; None when the zygote went away before it started
        (no code of the lesson ran: the host may ask a fresh zygote)."""
        reply = self._fork_run(seed, limits)
        if reply is None:
            return None
        if not reply.get("ok") or reply.get("fd") is None:
            raise KernelError(reply.get("error") or "the kernel could not start a lesson run",
                              "not_started")
        sock = socket.socket(fileno=reply["fd"])
        return Session(self.host, int(reply["pid"]), Channel(sock))

    def exit_info(self, pid: int, timeout: float = 2.0) -> ExitInfo | None:
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits or self.channel is None,
                                   timeout=timeout)
            return self._exits.pop(pid, None)

    # --------------------------------------------------------------- inside
    def _fork_run(self, seed: int, limits: RunLimits) -> SpawnReply | None:
        """Ask the zygote for a run: its reply, or None when the zygote went away first."""
        req_id = next(self._ids)
        channel = self.channel
        if channel is None:
            return None
        request: SpawnRequest = {"id": req_id, "op": "spawn", "seed": seed, "limits": limits}
        try:
            self._send_control(channel, request)
        except ChannelClosed:
            return None
        with self._changed:
            self._changed.wait_for(lambda: req_id in self._replies or self.channel is not channel,
                                   timeout=SPAWN_REPLY_WAIT)
            return self._replies.pop(req_id, None)

    def _send_control(self, channel: Channel, message: Any) -> None:
        with self._send_lock:
            channel.send(message)

    def _ready(self, channel: Channel, info: KernelInfo) -> None:
        with self.lock:
            if self.channel is not channel:
                return  # (let go meanwhile)
            self.serving = True
            self.host.provisioner_ready(self, info)

    def _read_control(self, channel: Channel, proc: subprocess.Popen[bytes]) -> None:
        live = Liveness(proc.pid, lambda seq: self._send_control(channel, {"op": "ping",
                                                                            "seq": seq}))
        why = None  # set when we give up on a zygote that is alive
        while True:
            try:
                msg = channel.recv(PING_EVERY)
            except ChannelTimeout:
                why = live.check(self.serving and self.channel is channel)
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
                self._ready(channel, cast("KernelInfo", {
                    k: v for k, v in msg.items() if k != "event"}))
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
                    self._replies[msg["id"]] = cast("SpawnReply", msg)
                self._changed.notify_all()
        if why is not None:  # alive but useless: stopped, hung, or talking nonsense
            kill_tree(proc.pid)
        # the kernel process is gone
        code = proc.wait()
        with self.lock:
            if self.channel is channel:
                self.channel = None
                self.host.provisioner_died(self, code, why)
        with self._changed:
            self._changed.notify_all()
