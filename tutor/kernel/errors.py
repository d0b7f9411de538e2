"""The kernel's errors and exit reports, shared by the manager, both provisioners
and the client's lesson runs (client side, no torch).

Every error's message is written for the learner; its `kind` (a `FailureKind`,
tutor/kernel/wire.py) says what happened as a value, for code to branch on.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.kernel.guard import EXIT_CHANNEL_LOST, EXIT_KERNEL_FAILED
from tutor.kernel.words import N_, _

if TYPE_CHECKING:
    from tutor.kernel.wire import FailureKind


class KernelError(RuntimeError):
    """Something went wrong in the kernel; the message is for the learner.

    `kind` says what, as a value (tutor/kernel/wire.py, `FailureKind`): callers
    branch on it, never on the message's words.
    """

    kind: FailureKind = "kernel_error"

    def __init__(self, message: str = "", kind: FailureKind | None = None):
        super().__init__(message)
        if kind is not None:
            self.kind = kind


class KernelDead(KernelError):
    """The kernel process died, or kept dying and will not be restarted."""

    kind: FailureKind = "kernel_dead"


class StepTimeout(KernelError):
    """Code ran longer than allowed and was stopped."""

    kind: FailureKind = "timeout"


class SessionDied(KernelError):
    """The lesson run's process ended unexpectedly (crash, os._exit, killed).

    `exit` is the process's ExitInfo when known (code, signal, and `reason` when the
    kernel itself stopped the run, e.g. for starting too many processes).  `kind`:
    `crashed` (the run's own process), `kernel_died` (the kernel died under it) or
    `kernel_stopped` (its code stopped the kernel process).
    """

    kind: FailureKind = "crashed"

    def __init__(self, message: str, exit: ExitInfo | None = None,
                 kind: FailureKind | None = None):
        super().__init__(message, kind)
        self.exit = exit


def describe_exit(code: int | None, sig: int | None) -> str:
    if sig is not None:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        meaning = _(SIGNALS.get(name, N_("a signal")))
        return _("crashed with {signal} ({meaning})").format(signal=name, meaning=meaning)
    if code is not None:
        return _("exited with code {code}").format(code=code)
    return _("ended")


SIGNALS = {
    "SIGSEGV": N_("a segmentation fault"),
    "SIGABRT": N_("an abort"),
    "SIGKILL": N_("it was killed: by a timeout, another process or lack of memory"),
    "SIGXCPU": N_("it used more CPU time than a lesson run may"),
    "SIGBUS": N_("a bus error"),
    "SIGFPE": N_("a floating-point exception"),
}


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
            return _("was stopped: {why}").format(why=self.reason)
        if self.code in RUN_EXITS:  # (codes a run's kernel code exits with: guard.py)
            return _(RUN_EXITS[self.code]).format(code=self.code)
        return describe_exit(self.code, self.signal)


RUN_EXITS = {
    EXIT_CHANNEL_LOST: N_("lost its channel to the tutor: the lesson's code closed or replaced "
                          "the kernel's file descriptors (os.closerange, os.dup2 over them), "
                          "so it could not reply"),
    EXIT_KERNEL_FAILED: N_("exited with code {code}: the kernel's own code failed in it (did the "
                           "lesson's code replace or close something the kernel uses?)"),
}
