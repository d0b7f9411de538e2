"""A kernel process leaves when the tutor does, from its first line (stdlib only).

`guard(role)` runs in BOOT (tutor/kernel/launch.py) *before* `import torch`, which
takes seconds (7-14 s on a busy machine): a tutor killed meanwhile must not leave a
kernel process importing torch behind it.

* The zygote (Linux): `PR_SET_PDEATHSIG` SIGTERM, with a handler that leaves only
  when the tutor process itself has gone (the signal also fires when the tutor
  *thread* that started it ends).  Where prctl is missing, a thread polls the parent
  pid instead, until `stop_watching()` (the zygote must be single-threaded before it
  forks); the zygote then relies on its control socket and its loop's parent check.
* A worker (every platform): its stdin is the tutor's lifeline; end of file means
  the tutor has gone (the worker kills what it started and exits), a byte `i` is an
  interrupt (Windows: no signal for one process).  The watcher starts here, before
  the import, and lives as long as the worker.  A lesson that closes or replaces the
  lifeline's descriptor does not end the run: the watcher polls the parent instead.

The tutor's pid reaches the process in TUTOR_KERNEL_PARENT (tutor/kernel/launch.py).
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

PARENT_ENV = "TUTOR_KERNEL_PARENT"
POLL = 0.25  # seconds between looks at the parent, where it is polled
PR_SET_PDEATHSIG = 1

_watch_stop = threading.Event()
_watcher: threading.Thread | None = None


def parent_pid() -> int:
    """The tutor's pid (TUTOR_KERNEL_PARENT; else our parent now)."""
    try:
        return int(os.environ.get(PARENT_ENV) or os.getppid())
    except ValueError:
        return os.getppid()


def orphaned(parent: int) -> bool:
    """Whether the tutor process `parent` has gone: we were re-parented (POSIX), or it
    has exited (Windows, where a parent pid does not change)."""
    if os.name == "posix":
        return os.getppid() != parent
    return _windows_exited(parent)


_HANDLE: Any = None


def _windows_exited(pid: int) -> bool:
    global _HANDLE
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        if _HANDLE is None:  # (held open: the pid cannot be reused meanwhile)
            _HANDLE = kernel32.OpenProcess(0x00100000, False, pid)  # SYNCHRONIZE
            if not _HANDLE:
                return True
        return bool(kernel32.WaitForSingleObject(_HANDLE, 0) == 0)  # WAIT_OBJECT_0
    except (AttributeError, OSError, ImportError):
        return False


def _set_pdeathsig(sig: int) -> bool:
    """PR_SET_PDEATHSIG where it exists (Linux); whether it was set."""
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0)
    except (OSError, AttributeError, TypeError):
        return False


def _poll_parent(parent: int, stop: threading.Event) -> None:
    while not stop.wait(POLL):
        if orphaned(parent):
            os._exit(0)


def watch_parent(parent: int) -> threading.Thread:
    """A thread that ends the process when `parent` has gone (until `stop_watching`)."""
    global _watcher
    _watch_stop.clear()
    _watcher = threading.Thread(target=_poll_parent, args=(parent, _watch_stop),
                                name="tutor-parent-watch", daemon=True)
    _watcher.start()
    return _watcher


def stop_watching() -> None:
    """End the parent-polling thread, if one runs (the zygote, before it forks)."""
    global _watcher
    _watch_stop.set()
    if _watcher is not None:
        _watcher.join()
        _watcher = None


def _leave_if_orphaned(parent: int) -> Any:
    def handler(*_: Any) -> None:
        if orphaned(parent):
            os._exit(0)  # (still importing torch: nothing to clean up)

    return handler


def guard_zygote(parent: int) -> None:
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _leave_if_orphaned(parent))
    if not (hasattr(signal, "SIGTERM") and _set_pdeathsig(signal.SIGTERM)):
        watch_parent(parent)
    if orphaned(parent):  # the tutor died before the signal was armed
        os._exit(0)


# ------------------------------------------------------------------ workers

_lifeline: dict[str, Any] = {}  # fd, its identity, what to do at the end


def _identity(fd: int) -> tuple[int, int] | None:
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _tutor_gone() -> None:
    on_exit = _lifeline.get("on_exit")
    try:
        if on_exit is not None:
            on_exit()
    finally:
        os._exit(0)


def _read_lifeline(fd: int, ident: tuple[int, int] | None, parent: int) -> None:
    import _thread

    while True:
        try:
            data = os.read(fd, 1)
        except OSError:
            data = None  # closed by the lesson's code (EBADF), or not a pipe any more
        if data == b"i":
            _thread.interrupt_main(signal.SIGINT)
            continue
        if data and _identity(fd) == ident:
            continue
        if data == b"" and _identity(fd) == ident:
            _tutor_gone()  # end of file on our own pipe: the tutor has gone
        break  # the lesson took the descriptor away: watch the parent instead
    while True:
        threading.Event().wait(POLL)
        if orphaned(parent):
            _tutor_gone()


def guard_worker(parent: int) -> None:
    """Watch the lifeline (a duplicate of stdin) from now on."""
    if _lifeline:
        return
    try:
        fd = os.dup(0)
    except OSError:
        watch_parent(parent)
        return
    ident = _identity(fd)
    _lifeline.update(fd=fd, ident=ident)
    threading.Thread(target=_read_lifeline, args=(fd, ident, parent), name="tutor-lifeline",
                     daemon=True).start()


def on_tutor_gone(action: Any) -> None:
    """What a worker does before it exits when the tutor has gone (kill its children)."""
    _lifeline["on_exit"] = action


def guard(role: str) -> None:
    """From BOOT, before `import torch`: leave when the tutor leaves (see the module)."""
    parent = parent_pid()
    if role == "zygote":
        guard_zygote(parent)
    else:
        guard_worker(parent)
