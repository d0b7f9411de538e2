"""Is the zygote still answering?  A stopped or hung kernel is found within seconds.

A lesson can `os.kill(os.getppid(), signal.SIGSTOP)`: the zygote does not die, it
just never answers again, and every later lesson would wait for it.  The client's
reader thread asks `Liveness.check` whenever the control channel has been quiet
for `PING_EVERY` seconds: a zygote whose process is stopped (state T or t in
/proc) is reported at once; otherwise it is pinged, and one that has not answered
a ping for `HANG_AFTER` seconds is reported as hung.  The client then kills it and
the kernel restarts, saying why.  Pure: no torch.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tutor.kernel.words import _

PING_EVERY = 1.0  # seconds of quiet on the control channel before a ping
HANG_AFTER = 5.0  # seconds a ping may go unanswered (the zygote answers in microseconds)


def process_state(pid: int) -> str | None:
    """The one-letter state of `pid` from /proc (R, S, D, T, t, Z, ...), None if unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    rest = raw[raw.rfind(b")") + 2:]
    return rest[:1].decode("ascii", "replace") or None


STOP_SIGNALS = (19, 20, 21, 22)  # SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU (Linux numbers)


# in the message of a run whose code stopped the zygote (session.py; the reply's
# `fault_kind` is "kernel_stopped", and `tutor check -j N` runs such a lesson again
# alone by that kind, since a lesson beside it may have done the stopping)
ZYGOTE_STOPPED = "stopped the kernel process"


def being_stopped(pid: int) -> bool:
    """`pid` is stopped (state T or t), or a stop signal is pending for it (it will be
    as soon as it runs).  False where /proc cannot tell (not Linux)."""
    if process_state(pid) in ("T", "t"):
        return True
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    for line in lines:
        if line.startswith((b"ShdPnd:", b"SigPnd:")):
            try:
                mask = int(line.split()[1], 16)
            except (IndexError, ValueError):
                continue
            if any(mask >> (sig - 1) & 1 for sig in STOP_SIGNALS):
                return True
    return False


class Liveness:
    """Watches one zygote; `send_ping(seq)` writes a ping on its control channel."""

    def __init__(self, pid: int, send_ping: Callable[[int], None]):
        self.pid = pid
        self.send_ping = send_ping
        self.last_heard = time.monotonic()
        self.pinged_at: float | None = None
        self.seq = 0

    def heard(self) -> None:
        """A message arrived: the zygote is alive."""
        self.last_heard = time.monotonic()
        self.pinged_at = None

    def check(self, serving: bool) -> str | None:
        """Why the zygote must be given up on, or None.  `serving`: it said it is ready
        (before that it is importing torch and does not answer pings)."""
        if process_state(self.pid) in ("T", "t"):
            return _("was stopped (by SIGSTOP, or a debugger) and could not answer")
        if not serving:
            return None
        now = time.monotonic()
        if self.pinged_at is None:
            if now - self.last_heard >= PING_EVERY:
                self.seq += 1
                self.pinged_at = now
                try:
                    self.send_ping(self.seq)
                except (OSError, EOFError):
                    pass  # (a closed channel is noticed by the reader)
            return None
        if now - self.pinged_at > HANG_AFTER:
            return _("stopped answering (no reply for {n} s: hung)").format(n=f"{HANG_AFTER:g}")
        return None
