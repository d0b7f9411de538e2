"""The kernel process: imports torch once, then forks one child per lesson run.

    python -m tutor.kernel.zygote --fd N        # fork server on control socket N
    python -m tutor.kernel.zygote --session N   # one lesson run (no fork available)

The zygote stays single-threaded (OMP/MKL/OpenBLAS pinned to one thread before
torch is imported, `torch.set_num_threads(1)`), never runs lesson code and never
initialises CUDA, so forking it is safe and cheap: a child shares the imported
torch copy-on-write and starts in milliseconds.  The control protocol (JSON lines):

    <- {"event": "ready", "torch": "2.13.0", "cuda": false, "python": "3.11.7", "pid": 1,
        "limits": {"processes": "cgroup", ...}}
    -> {"id": 1, "op": "spawn", "seed": 0, "limits": {"cpu_seconds": 30, ...}}
    <- {"id": 1, "ok": true, "pid": 4242}           + the session socket, passed as an fd
    <- {"event": "exit", "pid": 4242, "code": null, "signal": 11, "reason": null}

Every lesson run is contained (see docs/security.md):

* the child calls setsid, gets SIGKILL when the zygote dies (PDEATHSIG), runs in a
  private temporary directory (the directory tutor was started in is taken off its
  import path) with stdin on /dev/null and fd 1/2 on a capture file;
* rlimits: no core files, file size, address space, CPU time (re-armed per request
  by the session), and RLIMIT_NPROC when not root;
* processes: a watchdog in the zygote counts each run's tasks (processes and
  threads) and kills a run that exceeds its allowance; RLIMIT_NPROC holds too when
  not root; and where we may create a pids cgroup, the whole kernel lives in one
  whose `pids.max` is a hard cap (the only hard bound for root without a cgroup is
  none: see docs/security.md);
* descendants: the child is a subreaper, so everything the run starts stays in its
  tree (even after setsid or a double fork); when the child ends, whatever is left
  is re-parented to the zygote (also a subreaper), which kills it.

The zygote exits when its control socket closes or its parent process dies.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import resource
import selectors
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

SINGLE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
}
for _key, _value in SINGLE_THREAD_ENV.items():
    os.environ.setdefault(_key, _value)
if __name__ == "__main__":  # a kernel process: a stray Ctrl-C must not kill the import
    signal.signal(signal.SIGINT, signal.SIG_IGN)

import torch  # noqa: E402  (after the thread pins above, on purpose)

from tutor.kernel.channel import Channel, ChannelClosed  # noqa: E402
from tutor.kernel.cleanup import remove_tree  # noqa: E402
from tutor.kernel.procs import (  # noqa: E402
    KERNEL_TASK_LIMIT,
    PR_SET_CHILD_SUBREAPER,
    PR_SET_PDEATHSIG,
    PROCESS_LIMIT,
    TASKS_ENV,
    Cgroup,
    children_of,
    kill_descendants,
    kill_group,
    kill_pid,
    libc,
    prctl,
    process_table,
    subtree,
    tasks_total,
    thread_count,
    user_tasks,
    vm_size,
)
from tutor.kernel.session import LessonSession  # noqa: E402

MADV_COLLAPSE = 25  # Linux >= 6.1
FILE_LIMIT = 64 << 20  # bytes a lesson may write to one file
ADDRESS_SPACE_HEADROOM = 8 << 30  # bytes of virtual memory a lesson may add
WARM_SEED = 0  # the zygote's torch/numpy generators are left seeded with it
CPU_SECONDS = 30  # CPU seconds per request: a safety net beyond the wall timeout


# ---------------------------------------------------------------- the zygote


def collapse_heap() -> int:
    """Back the zygote's anonymous memory with huge pages (MADV_COLLAPSE).

    fork() copies page tables: with ~150 MB of anonymous memory after `import torch`
    that is ~37,000 4 KB entries, and most of a fork's cost.  Collapsed into 2 MB
    pages it is ~75 entries; a child that writes to one gets a 4 KB copy as before.
    Returns the bytes collapsed (0 where the kernel does not support it).
    """
    try:
        c = libc()
        c.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        huge = 2 << 20
        done = 0
        with open("/proc/self/maps") as f:
            lines = f.read().splitlines()
        for line in lines:
            parts = line.split()
            path = parts[5] if len(parts) > 5 else ""
            if "w" not in parts[1] or (path and path != "[heap]"):
                continue
            lo, hi = (int(v, 16) for v in parts[0].split("-"))
            start, end = (lo + huge - 1) // huge * huge, hi // huge * huge
            if end - start >= huge and c.madvise(start, end - start, MADV_COLLAPSE) == 0:
                done += end - start
        return done
    except (OSError, AttributeError, ValueError):
        return 0


def warm_up() -> None:
    """Touch the common CPU paths once so children do not pay for them."""
    torch.set_num_threads(1)
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    if not torch.cuda.is_available():  # a backward on a CUDA machine would poison fork
        y.backward()
    torch.nn.Linear(2, 2)(torch.ones(1, 2)).sum()
    repr(x)
    x.detach().tolist()
    # what the child and the session use on every run (imported here, once, rather
    # than in every child: a lazy import of numpy.random alone costs a child 8 ms)
    import ast  # noqa: F401
    import random
    import traceback  # noqa: F401

    from tutor.kernel import observe  # noqa: F401
    try:
        from tutor.kernel import inspect  # noqa: F401
    except ImportError:
        pass
    compile("x = 1", "<warm-up>", "exec")
    # seeded last, after every random draw: a run with seed WARM_SEED need not reseed
    torch.manual_seed(WARM_SEED)
    random.seed(WARM_SEED)
    try:
        import numpy.random

        numpy.random.seed(WARM_SEED)
    except ImportError:
        pass
    gc.collect()
    gc.freeze()


def info() -> dict[str, Any]:
    return {
        "torch": torch.__version__.split("+")[0],
        "torch_full": torch.__version__,
        "cuda": bool(torch.cuda.is_available()),
        "python": ".".join(map(str, sys.version_info[:3])),
        "pid": os.getpid(),
    }


def _set_limits(limits: dict[str, Any], nproc: int | None) -> None:
    def lower(which: int, value: int) -> None:
        soft, hard = resource.getrlimit(which)
        new_hard = value if hard == resource.RLIM_INFINITY else min(hard, value)
        try:
            resource.setrlimit(which, (min(value, new_hard), new_hard))
        except (ValueError, OSError):
            pass

    lower(resource.RLIMIT_CORE, 0)
    lower(resource.RLIMIT_FSIZE, int(limits.get("file_bytes", FILE_LIMIT)))
    headroom = int(limits.get("memory_bytes", ADDRESS_SPACE_HEADROOM))
    lower(resource.RLIMIT_AS, vm_size() + headroom)
    if nproc is not None:  # not enforced for root; counts all tasks of the uid
        lower(resource.RLIMIT_NPROC, nproc)


def child_main(sock: socket.socket, workdir: str, request: dict[str, Any], *,
               zygote: int | None = None, nproc: int | None = None) -> None:
    """In the forked child: isolate, then serve one lesson run.  Never returns."""
    code = 0
    me = os.getpid()
    try:
        os.setsid()
        if zygote is not None:  # (spawn mode: the parent is watched by a thread instead)
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != zygote:
                os._exit(71)  # the zygote died while we were being forked
        prctl(PR_SET_CHILD_SUBREAPER, 1)  # the run's orphans stay in its tree
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        forget_start_dir(os.getcwd())
        os.chdir(workdir)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        capture = os.open(os.path.join(workdir, ".output"), os.O_RDWR | os.O_CREAT, 0o600)
        os.dup2(capture, 1)
        os.dup2(capture, 2)
        sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
        limits = request.get("limits") or {}
        _set_limits(limits, nproc)
        seed = int(request.get("seed") or 0)
        import random

        random.seed(seed)  # (always: CPython reseeds `random` from urandom after a fork)
        if seed != WARM_SEED:  # torch and numpy are still as the warm-up seeded them
            torch.manual_seed(seed)
            np = sys.modules.get("numpy")
            if np is not None:
                np.random.seed(seed % 2**32)
        cpu = limits.get("cpu_seconds", CPU_SECONDS)
        channel = Channel(sock)
        if zygote is None:  # spawn mode: tell the tutor the slow start is over
            channel.send({"event": "ready", **info()})
        LessonSession(channel, fd_capture=capture,
                      cpu_seconds=float(cpu) if cpu else None).serve()
    except BaseException:  # noqa: B036
        code = 70
    finally:
        if os.getpid() == me:  # (never in a child the lesson forked that got here)
            try:
                kill_descendants()
            except BaseException:  # noqa: B036
                pass
            remove_tree(workdir, 10.0)  # what is left, the zygote's cleaner removes
        os._exit(code)


def forget_start_dir(start: str) -> None:
    """Take the directory tutor was started in off the import path (`python -m` put it
    first), so lesson code cannot import an author's local modules: what passes
    `tutor check` in a pack's directory must pass for a learner anywhere.  Kept only
    when tutor itself is imported from there (a source checkout run in place)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or ".") != start or os.path.abspath(p or ".") == here]


@dataclass
class Run:
    workdir: str
    processes: int  # task allowance
    reason: str | None = None  # why the zygote killed it, if it did


class Zygote:
    def __init__(self, control: socket.socket, parent: int | None = None):
        self.channel = Channel(control)
        self.parent = parent if parent is not None else os.getppid()
        self.children: dict[int, Run] = {}
        self.cleaners: dict[int, str] = {}  # pid -> the run directory it removes
        self.selector = selectors.DefaultSelector()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        self.task_limit = int(os.environ.get(TASKS_ENV) or KERNEL_TASK_LIMIT)
        self.cgroup = Cgroup.detect(self.task_limit)
        self.root = os.geteuid() == 0
        self.task_mark = tasks_total()
        self.dirty = False  # leftover processes may exist

    def limits_info(self) -> dict[str, Any]:
        processes = ["watchdog"]  # per run, a few tens of ms late
        if not self.root:
            processes.append("rlimit")  # RLIMIT_NPROC: hard, per uid, not for root
        if self.cgroup is not None:
            processes.append("cgroup")  # pids.max: hard, for the whole kernel
        return {"processes": "+".join(processes), "cpu": "rlimit", "memory": "rlimit",
                "file_size": "rlimit", "descendants": "subreaper",
                "kernel_tasks": self.task_limit if self.cgroup is not None else None}

    def spawn(self, req: dict[str, Any]) -> None:
        if thread_count() != 1:
            self.channel.send({"id": req.get("id"), "ok": False, "fatal": True,
                               "error": f"the kernel has {thread_count()} threads; forking it "
                               "is unsafe, so it will be restarted"})
            raise SystemExit(3)
        limits = req.get("limits") or {}
        processes = int(limits.get("processes", PROCESS_LIMIT))
        nproc = None
        if not self.root:
            nproc = user_tasks() + processes
        me = os.getpid()
        try:
            parent_end, child_end = socket.socketpair()
        except OSError as exc:
            self.refuse(req, exc)
            return
        workdir = None
        try:
            workdir = tempfile.mkdtemp(prefix="tutor-lesson-")
            pid = os.fork()
        except OSError as exc:  # EAGAIN: the cgroup is full (a fork bomb?); ENOMEM; ENOSPC
            parent_end.close()
            child_end.close()
            if workdir is not None:
                remove_tree(workdir, 1.0)
            self.refuse(req, exc)
            return
        if pid == 0:
            parent_end.close()
            self.channel.close()
            os.close(self.wake_r)
            os.close(self.wake_w)
            child_main(child_end, workdir, req, zygote=me, nproc=nproc)
        child_end.close()
        self.children[pid] = Run(workdir, processes)
        try:
            self.channel.send({"id": req.get("id"), "ok": True, "pid": pid},
                              fds=[parent_end.fileno()])
        finally:
            parent_end.close()

    def refuse(self, req: dict[str, Any], exc: OSError) -> None:
        self.channel.send({"id": req.get("id"), "ok": False,
                           "error": f"the kernel could not start a lesson run: {exc}"})

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if self.cleaners.pop(pid, None) is not None:
                continue
            run = self.children.pop(pid, None)
            if run is None:
                self.dirty = True  # an adopted orphan died: its children come to us
                continue
            self.finish(pid, run)
            event = {"event": "exit", "pid": pid,
                     "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                     "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                     "reason": run.reason}
            try:
                self.channel.send(event)
            except ChannelClosed:
                return

    def finish(self, pid: int, run: Run) -> None:
        """A run's process ended: kill everything it left behind, remove its directory.

        Nothing a run leaves can make this raise or block the zygote: the directory is
        removed by a process of its own when the run did not remove it itself.
        """
        kill_group(pid)
        self.sweep()
        self.clean(run.workdir)

    def clean(self, workdir: str) -> None:
        try:
            os.rmdir(workdir)  # the run emptied it on its way out (the usual case)
            return
        except FileNotFoundError:
            return
        except OSError:
            pass
        try:
            pid = os.fork()
        except OSError:
            remove_tree(workdir, 0.5)  # no fork to spare: a little, here and now
            return
        if pid == 0:  # the cleaner: removes the directory however deep, then exits
            try:
                prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
                signal.set_wakeup_fd(-1)
                for sig in (signal.SIGCHLD, signal.SIGTERM):
                    signal.signal(sig, signal.SIG_DFL)
                self.channel.close()
                remove_tree(workdir, 120.0)
            finally:
                os._exit(0)
        self.cleaners[pid] = workdir

    def sweep(self) -> None:
        """Kill our children that are neither live runs nor cleaners, with everything
        under them: orphans of runs that ended, and processes that escaped a live run
        (it cleared its subreaper flag and double-forked), so no task outside a run's
        tree lives longer than one turn of the loop."""
        known = self.children.keys() | self.cleaners.keys()
        leftovers = [p for p in children_of(os.getpid()) if p not in known]
        if leftovers:
            table = process_table()
            for pid in leftovers:
                for p in subtree(table, pid):
                    kill_pid(p)
        self.dirty = bool(leftovers)

    def watch(self) -> None:
        """Stop runs that have more tasks (processes and threads) than they may.

        Cheap when nothing happens: one read of /proc/loadavg; the whole process
        table is read only when the machine's task count rose by half an allowance
        since the last look.  A cgroup or RLIMIT_NPROC, where available, is the hard
        bound; this is the per-run one (and the only one for root without a cgroup).
        """
        total = tasks_total()
        self.task_mark = min(self.task_mark, total)
        step = min(run.processes for run in self.children.values()) // 2
        if total - self.task_mark <= max(step, 8):
            return
        self.task_mark = total
        table = process_table()
        for pid, run in self.children.items():
            tree = subtree(table, pid)
            tasks = sum(table[p][1] for p in tree if p in table)
            if tasks > run.processes:
                run.reason = f"it started more than {run.processes} processes and threads"
                kill_group(pid)
                for p in tree:
                    kill_pid(p)
        self.task_mark = tasks_total()

    def tend(self) -> None:
        """Reap, sweep and watch the runs.  What runs leave behind must never end the
        zygote: a failure here is logged and the next turn tries again."""
        try:
            self.reap()
            if self.dirty or self.children:  # (escaped processes die on sight)
                self.sweep()
            if self.children:
                self.watch()
        except ChannelClosed:
            raise
        except Exception:  # noqa: BLE001
            import traceback

            traceback.print_exc()  # (to the kernel's log)

    def shutdown(self) -> None:
        for pid, run in list(self.children.items()):
            kill_group(pid)
            kill_pid(pid)
            remove_tree(run.workdir, 2.0)
        self.children.clear()
        kill_descendants()
        if self.cgroup is not None:
            self.cgroup.close()

    def serve(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        if os.getppid() != self.parent:
            return
        self.selector.register(self.channel.sock, selectors.EVENT_READ, "control")
        self.selector.register(self.wake_r, selectors.EVENT_READ, "signal")
        self.channel.send({"event": "ready", **info(), "limits": self.limits_info()})
        try:
            while True:
                if self.dirty:
                    timeout = 0.02
                elif self.children:
                    timeout = 0.05
                else:
                    timeout = 1.0
                for key, _ in self.selector.select(timeout=timeout):
                    if key.data == "signal":
                        try:
                            os.read(self.wake_r, 4096)
                        except BlockingIOError:
                            pass
                    else:
                        while True:  # every request that arrived, not just the first
                            req = self.channel.recv()
                            if req.get("op") == "spawn":
                                self.spawn(req)
                            elif req.get("op") == "ping":  # the client's liveness check
                                self.channel.send({"event": "pong", "seq": req.get("seq")})
                            elif req.get("op") == "bye":
                                return
                            if not self.channel.buffered():
                                break
                self.tend()
                if os.getppid() != self.parent:
                    return
        except ChannelClosed:
            return
        finally:
            self.shutdown()


def _exit_if_orphaned(parent: int) -> Any:
    """SIGTERM handler: PDEATHSIG fires when the *thread* that started us exits (a
    worker thread of the tutor), so leave only when the tutor process itself has gone
    (we were re-parented)."""
    def handler(*_: Any) -> None:
        if os.getppid() != parent:
            raise SystemExit(0)

    return handler


def _session_watchdog(parent: int) -> None:
    """Spawn mode: leave when the tutor that started us has gone."""
    def loop() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                try:
                    kill_descendants(0.5)
                finally:
                    os._exit(0)

    threading.Thread(target=loop, name="tutor-parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.kernel.zygote")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--fd", type=int, help="control socket: run as a fork server")
    group.add_argument("--session", type=int, help="session socket: run one lesson directly")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limits", default=None, help="spawn mode: the run's limits (JSON)")
    parser.add_argument("--parent", type=int, default=None,
                        help="pid of the tutor process: exit when it is gone")
    args = parser.parse_args(argv)
    parent = args.parent if args.parent is not None else os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    torch.set_num_threads(1)
    if args.session is not None:
        if os.getppid() != parent:
            return 0
        _session_watchdog(parent)
        sock = socket.socket(fileno=args.session)
        workdir = tempfile.mkdtemp(prefix="tutor-lesson-")
        limits = json.loads(args.limits) if args.limits else {}
        child_main(sock, workdir, {"seed": args.seed, "cleanup": True, "limits": limits})
    signal.signal(signal.SIGTERM, _exit_if_orphaned(parent))
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    warm_up()
    collapse_heap()
    Zygote(socket.socket(fileno=args.fd), parent).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
