"""Processes, their limits and their clean-up, for the kernel (stdlib only: no torch).

/proc readers (thread counts, process tables, subtrees), killing whole trees, the
optional pids cgroup that caps the kernel's tasks, and prctl.  Used by the zygote;
importable anywhere (the tests use it to look for leftover processes).
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

PROCESS_LIMIT = 512  # tasks (processes and threads) one lesson run may have
KERNEL_TASK_LIMIT = 1024  # tasks of the whole kernel, where a pids cgroup is available
NO_CGROUP_ENV = "TUTOR_KERNEL_NO_CGROUP"  # set to 1 to test the fallback (watchdog)
TASKS_ENV = "TUTOR_KERNEL_TASKS"  # overrides KERNEL_TASK_LIMIT (tests)

_LIBC: Any = None


def libc() -> Any:
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def prctl(option: int, value: int) -> None:
    try:
        libc().prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: best effort
        pass


def thread_count() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 1


def kill_pid(pid: int, sig: int = getattr(signal, "SIGKILL", 9)) -> None:  # (importable on Windows)
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ------------------------------------------------------------------ /proc helpers


def children_of(pid: int) -> list[int]:
    """Direct children of `pid` (all its threads), without scanning all of /proc."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            continue
    return out


def process_table() -> dict[int, tuple[int, int]]:
    """pid -> (ppid, threads) for every process (one pass over /proc)."""
    table: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        fields = raw[raw.rfind(b")") + 2:].split()
        try:
            table[int(name)] = (int(fields[1]), int(fields[17]))
        except (IndexError, ValueError):
            continue
    return table


def subtree(table: dict[int, tuple[int, int]], root: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        kids.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += kids.get(pid, ())
    return out


# processes multiprocessing starts for itself, not for the lesson's work: they end with
# the process that started them, so they are not counted as the lesson's leftovers
MP_HELPERS = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")


def lesson_children(pid: int) -> list[int] | None:
    """The live processes `pid` started (its descendants, at any depth), leaving out
    zombies and multiprocessing's own helpers; None where there is no /proc to read."""
    if not os.path.isdir(f"/proc/{pid}/task"):
        return None
    out: list[int] = []
    todo = children_of(pid)
    while todo:
        child = todo.pop()
        todo += children_of(child)
        try:
            with open(f"/proc/{child}/stat", "rb") as f:
                raw = f.read()
            with open(f"/proc/{child}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue  # (ended meanwhile)
        if raw[raw.rfind(b")") + 2:][:1] in (b"Z", b"X"):
            continue
        if any(helper in cmdline for helper in MP_HELPERS):
            continue
        out.append(child)
    return out


def tasks_total() -> int:
    """Tasks (threads) on the whole machine: the 4th field of /proc/loadavg."""
    try:
        with open("/proc/loadavg") as f:
            return int(f.read().split()[3].split("/")[1])
    except (OSError, ValueError, IndexError):
        return 0


_USER_TASKS: tuple[float, int] = (0.0, 0)


def user_tasks() -> int:
    """Tasks of our real uid (what RLIMIT_NPROC counts); cached for two seconds."""
    global _USER_TASKS
    now = time.monotonic()
    if now - _USER_TASKS[0] < 2.0:
        return _USER_TASKS[1]
    uid, count = os.getuid(), 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as f:
                owner = threads = None
                for line in f:
                    if line.startswith("Uid:"):
                        owner = int(line.split()[1])
                    elif line.startswith("Threads:"):
                        threads = int(line.split()[1])
                        break
        except (OSError, ValueError):
            continue
        if owner == uid and threads:
            count += threads
    _USER_TASKS = (now, count)
    return count


def reap_all() -> None:
    """Reap every child that has exited, without waiting."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_descendants(deadline: float = 1.0) -> None:
    """Kill every descendant of this process and reap them (we are a subreaper)."""
    me = os.getpid()
    stop = time.monotonic() + deadline
    while time.monotonic() < stop:
        kids = children_of(me)
        if not kids:
            return
        for pid in kids:
            kill_pid(pid)
        reap_all()
        time.sleep(0.002)


# --------------------------------------------------------------------- cgroup


class Cgroup:
    """A pids cgroup holding the whole kernel: the zygote and every lesson run.

    `<our cgroup>/tutor-<zygote pid>` with `pids.max` = KERNEL_TASK_LIMIT: a hard cap
    on the tasks (processes and threads) of all runs together, enforced by the
    kernel even for root, so a fork bomb stops at the cap however fast it grows.
    Per-run allowances are the watchdog's job (moving each run into a cgroup of its
    own costs ~15 ms of RCU synchronisation per run on cgroup v1, more than the whole
    run).  Available when we may create cgroups (root, or a delegated cgroup v2
    subtree); `detect` returns None otherwise.  A zygote that dies without cleaning
    up leaves its cgroup behind; the next zygote kills what is in it and removes it.
    """

    def __init__(self, path: str, parent: str):
        self.path = path
        self.parent = parent

    @classmethod
    def detect(cls, limit: int) -> Cgroup | None:
        if os.environ.get(NO_CGROUP_ENV) == "1":
            return None
        try:
            candidates = cls._candidates()
        except OSError:
            return None
        for mount, own in candidates:
            parent = os.path.join(mount, own.lstrip("/"))
            cls._remove_stale(parent)
            path = os.path.join(parent, f"tutor-{os.getpid()}")
            try:
                os.mkdir(path)
            except FileExistsError:
                pass
            except OSError:
                continue
            if not os.path.exists(os.path.join(path, "pids.max")):
                # cgroup v2: the pids controller must be enabled for our children
                try:
                    with open(os.path.join(parent, "cgroup.subtree_control"), "w") as f:
                        f.write("+pids")
                except OSError:
                    pass
            try:
                with open(os.path.join(path, "pids.max"), "w") as f:
                    f.write(str(limit))
                with open(os.path.join(path, "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))
            except OSError:
                rmdir_quiet(path)
                continue
            return cls(path, parent)
        return None

    @staticmethod
    def _candidates() -> list[tuple[str, str]]:
        own: dict[str, str] = {}
        with open("/proc/self/cgroup") as f:
            for line in f:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                for c in controllers.split(",") if controllers else ["<v2>"]:
                    own[c] = path
        out = []
        with open("/proc/self/mountinfo") as f:
            for line in f:
                left, _, right = line.partition(" - ")
                fstype, _src, options = (right.split() + ["", "", ""])[:3]
                mount = left.split()[4]
                if fstype == "cgroup" and "pids" in options.split(",") and "pids" in own:
                    out.append((mount, own["pids"]))
                elif fstype == "cgroup2" and "<v2>" in own:
                    out.append((mount, own["<v2>"]))
        return out

    @staticmethod
    def _remove_stale(parent: str) -> None:
        """Clean up after zygotes that died without cleaning up (kill what is left)."""
        try:
            names = os.listdir(parent)
        except OSError:
            return
        for name in names:
            if not name.startswith("tutor-") or not name[6:].isdigit():
                continue
            pid = int(name[6:])
            if pid != os.getpid() and os.path.exists(f"/proc/{pid}"):
                continue  # a live zygote (maybe another tutor's)
            path = os.path.join(parent, name)
            for _ in range(50):
                if not kill_cgroup(path):
                    break
                time.sleep(0.01)
            rmdir_quiet(path)

    def members(self) -> list[int]:
        try:
            with open(os.path.join(self.path, "cgroup.procs")) as f:
                return [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            return []

    def close(self) -> None:
        """Kill everything else in the cgroup, leave it and remove it."""
        me = os.getpid()
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            others = [p for p in self.members() if p != me]
            if not others:
                break
            for pid in others:
                kill_pid(pid)
            reap_all()
            time.sleep(0.005)
        try:
            with open(os.path.join(self.parent, "cgroup.procs"), "w") as f:
                f.write(str(me))
        except OSError:
            return
        rmdir_quiet(self.path)


def kill_cgroup(path: str) -> int:
    try:
        with open(os.path.join(path, "cgroup.procs")) as f:
            pids = [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return 0
    for pid in pids:
        kill_pid(pid)
    return len(pids)


def rmdir_quiet(path: str) -> bool:
    try:
        os.rmdir(path)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False
