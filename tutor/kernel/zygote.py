"""The kernel process: imports torch once, then forks one child per lesson run.

    python -c BOOT KERNEL_PATH zygote --fd N --parent PID   # (tutor/kernel/launch.py)

The zygote stays single-threaded (OMP/MKL/OpenBLAS pinned to one thread before
torch is imported, `torch.set_num_threads(1)`), never runs lesson code and never
initialises CUDA, so forking it is safe and cheap: a child shares the imported
torch copy-on-write and starts in milliseconds.  The control protocol (JSON lines):

    <- {"event": "ready", "torch": "2.13.0", "cuda": false, "python": "3.11.7", "pid": 1,
        "threads": 1, "limits": {"processes": "cgroup", ...}}
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
import os
import selectors
import signal
import socket
import sys
import tempfile
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

from tutor.kernel import lifeline, warm  # noqa: E402
from tutor.kernel import limits as lim  # noqa: E402
from tutor.kernel.channel import Channel, ChannelClosed  # noqa: E402
from tutor.kernel.cleanup import remove_tree  # noqa: E402
from tutor.kernel.guard import EXIT_CHANNEL_LOST, EXIT_KERNEL_FAILED, ChannelLost  # noqa: E402
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
)
from tutor.kernel.session import private_stdio, serve_run  # noqa: E402

MADV_COLLAPSE = 25  # Linux >= 6.1


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


_CUDA: dict[str, Any] = {"cuda": False}  # learned at start, in a throwaway child


def info() -> dict[str, Any]:
    """For `ready`: versions, CUDA (as probed), and the thread count, which tells the
    tutor whether forking this process is safe (it switches to spawn mode if not)."""
    return {**warm.versions(), **_CUDA, "pid": os.getpid(), "threads": thread_count()}


def optimizers_stay_single() -> bool:
    """Whether warming the optimizers up leaves this process single-threaded, tried
    in a throwaway child (with a CUDA device, some torch versions count devices
    through NVML, which starts a thread, while `torch._dynamo` is imported)."""
    def trial() -> dict[str, Any]:
        warm.warm_optimizers(step=False)
        return {"threads": thread_count()}

    return warm.in_child(trial, timeout=120.0).get("threads") == 1


def child_main(sock: socket.socket, workdir: str, request: dict[str, Any], *,
               zygote: int | None = None, nproc: int | None = None) -> None:
    """In the forked child: isolate, then serve one lesson run.  Never returns."""
    code = 0
    me = os.getpid()
    try:
        os.setsid()
        if zygote is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != zygote:
                os._exit(71)  # the zygote died while we were being forked
        prctl(PR_SET_CHILD_SUBREAPER, 1)  # the run's orphans stay in its tree
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        capture = private_stdio(workdir)
        limits = request.get("limits") or {}
        lim.set_limits(limits, nproc=nproc)
        warm.seed_all(int(request.get("seed") or 0), warm=True)
        serve_run(Channel(sock), capture, limits, zygote=zygote)
    except ChannelLost:  # the lesson's code closed or replaced the channel's descriptors
        code = EXIT_CHANNEL_LOST
    except BaseException:  # noqa: B036
        code = EXIT_KERNEL_FAILED
    finally:
        if os.getpid() == me:  # (never in a child the lesson forked that got here)
            try:
                kill_descendants()
            except BaseException:  # noqa: B036
                pass
            remove_tree(workdir, 10.0)  # what is left, the zygote's cleaner removes
        os._exit(code)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tutor kernel zygote")
    parser.add_argument("--fd", type=int, required=True, help="control socket")
    parser.add_argument("--parent", type=int, default=None,
                        help="pid of the tutor process: exit when it is gone")
    parser.add_argument("--no-optimizers", action="store_true",
                        help="leave out the optimizers' warm-up (no lesson of this kernel "
                        "makes an optimizer: see tutor/kernel/manager.py)")
    args = parser.parse_args(argv)
    parent = args.parent if args.parent is not None else os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    torch.set_num_threads(1)
    signal.signal(signal.SIGTERM, _exit_if_orphaned(parent))
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # (armed in BOOT already, before the import)
    lifeline.stop_watching()  # a parent-polling thread, where prctl is missing: not now
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    _CUDA.update(warm.probe_cuda_in_child())  # never a torch.cuda call in this process
    cuda = bool(_CUDA["cuda"])
    optimizers = not args.no_optimizers and (not cuda or optimizers_stay_single())
    warm.warm_up(count_devices=not cuda, optimizers=optimizers)
    gc.freeze()
    collapse_heap()
    Zygote(socket.socket(fileno=args.fd), parent).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
