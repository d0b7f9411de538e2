"""What lesson code breaks in its own process stays out of the kernel's way (stdlib only).

A lesson run is the lesson's own process, and the kernel's code (the session loop,
observations, the channel) runs in it between the lesson's steps.  A lesson can
replace `os.getpid`, `builtins.isinstance`, `signal.signal` or `json.dumps`, set a
trace function that raises, or close or overwrite the kernel's file descriptors;
before this module, the learner then read "exited with code 0", "code 70" or "could
not run: TypeError".  `Guard` keeps the kernel's own references, captured when the
run starts (before any lesson code):

* names: every callable of `builtins`, `os`, `signal`, `sys`, `json` and `time`.  While
  kernel code runs they are the originals; while lesson code runs they are what the
  lesson made them (a lesson that replaces `print` sees its own `print` in its next
  step, and in nothing of the kernel's).  Background threads of the lesson see the
  originals between steps.
* trace and profile functions (`sys.settrace`, `sys.setprofile`) set by lesson code
  last until that code returns: the kernel's code is never traced.
* file descriptors: the kernel's (its channel to the tutor, the capture file of fd 1
  and 2) are checked after the lesson's code; one closed or replaced is restored from
  a copy kept at a high number.  Where that copy is gone too (`os.closerange`), the
  run cannot reply: it exits with EXIT_CHANNEL_LOST, which the client names.

`changes()` says what the lesson replaced or closed, for messages.
"""

from __future__ import annotations

import builtins
import json
import os
import signal
import sys
import time
from typing import Any

from tutor.kernel.words import N_, english, said

EXIT_KERNEL_FAILED = 70  # the kernel's code failed in the run (it could not say why)
EXIT_CHANNEL_LOST = 72  # the lesson's code closed or replaced the kernel's descriptors
GUARDED = (builtins, os, signal, sys, json, time)

_MISSING = object()
settrace = sys.settrace  # (the kernel's own: the lesson's code may replace sys's)
setprofile = sys.setprofile
_fstat = os.fstat
_dup2 = os.dup2
_close = os.close
_callable = callable
_id = id


# what the lesson's code did to the kernel around it (tutor translates them: words.py)
REPLACED_NAME = N_("replaced {name}")
CLOSED_RESTORED = N_("closed fd {fd} ({what}; the kernel restored it)")
REPLACED_RESTORED = N_("replaced fd {fd} ({what}; the kernel restored it)")
CLOSED_LOST = N_("closed fd {fd} ({what}) and the kernel's copy of it")
REPLACED_LOST = N_("replaced fd {fd} ({what}) and the kernel's copy of it")
CHANNEL = N_("the kernel's channel to the tutor")
CAPTURE = N_("the kernel's capture of fd 1 and 2")


class ChannelLost(BaseException):
    """The run's channel to the tutor is gone, taken by the lesson's code."""


class _Kept:
    """One of the kernel's file descriptors, with a copy to restore it from."""

    def __init__(self, fd: int, what: str):
        self.fd = fd
        self.what = what
        self.ident = _identity(fd)
        self.spare = _spare(fd)
        self.lost = False

    def check(self) -> dict[str, Any] | None:
        """Restore the descriptor if the lesson closed or replaced it; what happened (as
        words: `english` gives the English)."""
        now = _identity(self.fd)
        if now is not None and now == self.ident:
            return None
        what = said(self.what)  # (a msgid: translated where it is shown)
        if self.spare is not None and _identity(self.spare) == self.ident:
            try:
                _dup2(self.spare, self.fd, inheritable=False)
                return said(CLOSED_RESTORED if now is None else REPLACED_RESTORED,
                            fd=self.fd, what=what)
            except OSError:
                pass
        self.lost = True
        return said(CLOSED_LOST if now is None else REPLACED_LOST, fd=self.fd, what=what)


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        st = _fstat(fd)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _spare(fd: int) -> int | None:
    """A copy of `fd` at a high number (out of the way of the lesson's own files)."""
    try:
        import fcntl
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        low = max(10, min(soft, 4096) - 64) if soft != resource.RLIM_INFINITY else 4000
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, low)
    except (ImportError, OSError, ValueError):
        pass
    try:
        return os.dup(fd)
    except OSError:
        return None


class Guard:
    """Switches a run's process between the kernel's view and the lesson's (see the
    module's doc).  `to_lesson()` just before lesson code, `to_kernel()` right after."""

    def __init__(self) -> None:
        self.originals: list[tuple[dict[str, Any], str, Any]] = []
        for module in GUARDED:
            space = vars(module)
            for name, value in list(space.items()):
                if _callable(value) and name != "_":
                    self.originals.append((space, name, value))
        self.lesson: list[tuple[dict[str, Any], str, Any]] = []  # what the lesson set
        self.kept: list[_Kept] = []
        # what the lesson's code did, in order: its English -> its words
        self.changed: dict[str, dict[str, Any]] = {}
        self.in_lesson = False
        if hasattr(os, "register_at_fork"):  # a child the lesson forks holds no copy
            os.register_at_fork(after_in_child=self.drop_spares)

    def drop_spares(self) -> None:
        """Close the copies: in a child forked by lesson code (a child that lives on
        must not keep the run's channel open after the run has gone), and when the run
        ends in a worker that may serve another."""
        for kept in self.kept:
            if kept.spare is not None:
                try:
                    _close(kept.spare)
                except OSError:
                    pass
                kept.spare = None

    def keep(self, fd: int, what: str) -> None:
        """Watch one of the kernel's file descriptors (see `_Kept`)."""
        self.kept.append(_Kept(fd, what))

    def to_kernel(self, *, fds: bool = True) -> None:
        """The originals back (the lesson's replacements kept for its next code), and
        with `fds` the kernel's descriptors checked (ChannelLost when the channel is
        gone).  Also between requests: a lesson's thread may have replaced something."""
        self.in_lesson = False
        names = {_id(m.__dict__): m.__name__ for m in GUARDED}
        for space, name, original in self.originals:
            now = space.get(name, _MISSING)
            if now is not original:
                self.lesson.append((space, name, now))
                space[name] = original
                words = said(REPLACED_NAME, name=f"{names[_id(space)]}.{name}")
                self.changed[english(words) or ""] = words
        if fds:
            self.check_fds()

    def to_lesson(self) -> None:
        """What the lesson's code set, back for its code."""
        for space, name, value in self.lesson:
            if value is _MISSING:
                space.pop(name, None)
            else:
                space[name] = value
        self.lesson = []
        self.in_lesson = True

    def check_fds(self) -> bool:
        """Restore what the lesson closed or replaced; whether anything was (now).
        Raises ChannelLost when the channel to the tutor cannot be restored."""
        found = False
        for kept in self.kept:
            words = kept.check()
            if words is not None:
                self.changed[english(words) or ""] = words
                found = True
        if any(k.lost for k in self.kept if k.what == CHANNEL):
            raise ChannelLost(self.describe())
        return found

    def fd_lost(self, fd: int) -> bool:
        return any(k.lost for k in self.kept if k.fd == fd)

    def describe(self) -> str:
        """What the lesson's code did to the kernel around it ("" if nothing)."""
        return ", ".join(self.changed)

    def describe_words(self) -> list[dict[str, Any]]:
        """The same, as words (one per thing it did), for tutor's process to translate."""
        return list(self.changed.values())
