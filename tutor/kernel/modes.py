"""Which way lesson runs start: fork from a zygote, or spawn fresh processes.

* **fork**: one kernel process (the zygote) imports torch once and forks a run per
  lesson: milliseconds per run.  Only where forking is safe: Linux, and a zygote that
  is still single-threaded after importing torch.
* **spawn**: a small pool of processes that have already imported torch, one fresh
  process per run, refilled in the background.  Everywhere (macOS, Windows, a torch
  build that starts threads at import); a run costs a process start, paid ahead.

`TUTOR_KERNEL=fork|spawn` forces a mode (`auto`, or unset, chooses).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from tutor.kernel.words import _

MODE_ENV = "TUTOR_KERNEL"
FORK, SPAWN, AUTO = "fork", "spawn", "auto"

PLATFORMS = {"darwin": "macOS", "win32": "Windows", "cygwin": "Cygwin"}


class ModeError(ValueError):
    """An impossible or misspelt mode (the message says how to fix it)."""


@dataclass(frozen=True)
class Mode:
    name: str  # fork or spawn
    reason: str  # why, in a phrase a learner can read
    forced: bool = False  # asked for, by TUTOR_KERNEL or the caller

    def describe(self) -> str:
        if self.name == FORK:
            return _("fork mode ({why}): a zygote with torch loaded forks each lesson "
                     "run").format(why=self.reason)
        return _("spawn mode ({why}): a pool of processes with torch loaded, one per lesson "
                 "run").format(why=self.reason)


def platform_name(platform: str | None = None) -> str:
    platform = platform or sys.platform
    return PLATFORMS.get(platform, platform)


def choose(requested: str | None = None, *, platform: str | None = None,
           can_fork: bool | None = None) -> Mode:
    """The mode to start in.  `requested` (else TUTOR_KERNEL): fork, spawn or auto."""
    platform = platform or sys.platform
    can_fork = hasattr(os, "fork") if can_fork is None else can_fork
    source = _("the caller")
    if requested is None or requested == AUTO:
        env = os.environ.get(MODE_ENV, "").strip().lower()
        if env and env != AUTO:
            requested, source = env, f"{MODE_ENV}={env}"
    if requested not in (None, AUTO, FORK, SPAWN):
        raise ModeError(f"{source}: " + _("unknown kernel mode {mode}; use fork, spawn or "
                                          "auto").format(mode=repr(requested)))
    if requested == SPAWN:
        return Mode(SPAWN, _("forced by {source}").format(source=source), forced=True)
    if requested == FORK:
        if not can_fork:
            raise ModeError(f"{source}: " + _("{platform} has no fork(); use spawn or "
                                              "auto").format(platform=platform_name(platform)))
        return Mode(FORK, _("forced by {source}").format(source=source), forced=True)
    if not platform.startswith("linux"):
        why = (_("{platform} has no fork()") if not can_fork
               else _("{platform} cannot safely fork a process that imported torch"))
        return Mode(SPAWN, why.format(platform=platform_name(platform)))
    return Mode(FORK, "Linux")


def after_start(mode: Mode, threads: int | None) -> Mode | str:
    """What to do once the zygote has imported torch with `threads` threads.

    Returns the mode to go on in, or (forced fork mode only) a message: forking
    is unsafe and the learner asked for it.
    """
    if mode.name != FORK or not threads or threads <= 1:
        return mode
    why = _("the kernel process has {n} threads after importing torch, so forking it is "
            "unsafe").format(n=threads)
    if mode.forced:
        return why + _("; unset {name} (or set it to spawn) to use spawn mode").format(
            name=MODE_ENV)
    return Mode(SPAWN, why)
