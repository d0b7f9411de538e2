"""`subprocess.Popen` that a child stopped before its exec cannot hang (client side).

`Popen` forks, and the parent then waits until the child has called exec (it reads
the child's exec status from a pipe).  A lesson can SIGSTOP its sibling processes,
and in spawn mode the tutor's own children are a run's siblings: a child caught
between fork and exec never execs, and `Popen` (with the pool thread that called it)
would wait for ever, so every later lesson would wait for a worker that never comes.

`popen` watches while `Popen` is under way: a child of this process that is stopped
and still runs this process's own program (it has not exec'd yet) is killed, `Popen`
returns, and `StoppedBeforeExec` says what happened; the caller replaces the process.
Where /proc cannot tell (not Linux) it is a plain `Popen`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Any

WATCH_EVERY = 0.25  # seconds: a Popen normally returns in milliseconds
WATCHED = sys.platform.startswith("linux")
_killed: set[int] = set()  # children killed before their exec (any thread's Popen)
_killed_lock = threading.Lock()


class StoppedBeforeExec(Exception):
    """The child was stopped (SIGSTOP, by a lesson) before its exec, so it was killed."""


def popen(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """`subprocess.Popen(args, **kwargs)`; raises StoppedBeforeExec (the child killed and
    reaped) when the child was stopped before it could exec."""
    if not WATCHED:
        return subprocess.Popen(args, **kwargs)
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(done,), name="tutor-popen-watch",
                               daemon=True)
    watcher.start()
    try:
        proc = subprocess.Popen(args, **kwargs)
    finally:
        done.set()
    with _killed_lock:
        killed = proc.pid in _killed
        _killed.discard(proc.pid)
    if killed:
        proc.wait()
        raise StoppedBeforeExec(f"process {proc.pid} was stopped (SIGSTOP) before it could "
                                "start its program, so it was killed")
    return proc


def _watch(done: threading.Event) -> None:
    me = os.getpid()
    own = _cmdline(me)
    while not done.wait(WATCH_EVERY):
        for pid in stopped_unexeced_children(me, own):
            with _killed_lock:
                _killed.add(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def stopped_unexeced_children(parent: int, own: bytes | None) -> list[int]:
    """Children of `parent` that are stopped and still run `parent`'s command line."""
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        pid = int(name)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            state, ppid = stat[stat.rfind(b")") + 2:].split()[:2]  # one read: state and parent
            parent_of = int(ppid)
        except (OSError, ValueError):
            continue
        if parent_of == parent and state in (b"T", b"t") and _cmdline(pid) == own:
            found.append(pid)
    return found


def _cmdline(pid: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return None
