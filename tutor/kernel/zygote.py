"""The kernel process: imports torch once, then forks one child per lesson run.

    python -m tutor.kernel.zygote --fd N        # fork server on control socket N
    python -m tutor.kernel.zygote --session N   # one lesson run (no fork available)

The zygote stays single-threaded (OMP/MKL/OpenBLAS pinned to one thread before
torch is imported, `torch.set_num_threads(1)`), never runs lesson code and never
initialises CUDA, so forking it is safe and cheap: a child shares the imported
torch copy-on-write and starts in milliseconds.  The control protocol (JSON lines):

    <- {"event": "ready", "torch": "2.13.0", "cuda": false, "python": "3.11.7", "pid": 1}
    -> {"id": 1, "op": "spawn", "seed": 0}
    <- {"id": 1, "ok": true, "pid": 4242}           + the session socket, passed as an fd
    <- {"event": "exit", "pid": 4242, "code": null, "signal": 11}

The zygote exits when its control socket closes or its parent dies.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import resource
import selectors
import shutil
import signal
import socket
import sys
import tempfile
from typing import Any

SINGLE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
}
for _key, _value in SINGLE_THREAD_ENV.items():
    os.environ.setdefault(_key, _value)

import torch  # noqa: E402  (after the thread pins above, on purpose)

from tutor.kernel.channel import Channel, ChannelClosed  # noqa: E402
from tutor.kernel.session import LessonSession  # noqa: E402

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
FILE_LIMIT = 64 << 20  # bytes a lesson may write to one file
ADDRESS_SPACE_HEADROOM = 8 << 30  # bytes of virtual memory a lesson may add


def _prctl(option: int, value: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, value, 0, 0, 0)
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


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 1 << 30


def warm_up() -> None:
    """Touch the common CPU paths once so children do not pay for them."""
    torch.set_num_threads(1)
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    if not torch.cuda.is_available():  # a backward on a CUDA machine would poison fork
        y.backward()
    torch.nn.Linear(2, 2)(torch.ones(1, 2)).sum()
    repr(x)
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


def _set_limits(limits: dict[str, Any]) -> None:
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
    lower(resource.RLIMIT_AS, _vm_size() + headroom)


def child_main(sock: socket.socket, workdir: str, request: dict[str, Any]) -> None:
    """In the forked child: isolate, then serve one lesson run.  Never returns."""
    code = 0
    try:
        os.setsid()
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.chdir(workdir)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        capture = os.open(os.path.join(workdir, ".output"), os.O_RDWR | os.O_CREAT, 0o600)
        os.dup2(capture, 1)
        os.dup2(capture, 2)
        sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
        _set_limits(request.get("limits") or {})
        seed = int(request.get("seed") or 0)
        torch.manual_seed(seed)
        import random

        random.seed(seed)
        try:
            import numpy

            numpy.random.seed(seed % 2**32)
        except ImportError:
            pass
        gc.unfreeze()
        LessonSession(Channel(sock), fd_capture=capture).serve()
    except BaseException:  # noqa: B036
        code = 70
    finally:
        if request.get("cleanup"):
            shutil.rmtree(workdir, ignore_errors=True)
        os._exit(code)


class Zygote:
    def __init__(self, control: socket.socket):
        self.channel = Channel(control)
        self.children: dict[int, str] = {}  # pid -> private working directory
        self.selector = selectors.DefaultSelector()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)

    def spawn(self, req: dict[str, Any]) -> None:
        if thread_count() != 1:
            self.channel.send({"id": req.get("id"), "ok": False, "fatal": True,
                               "error": f"the kernel has {thread_count()} threads; forking it "
                               "is unsafe, so it will be restarted"})
            raise SystemExit(3)
        parent_end, child_end = socket.socketpair()
        workdir = tempfile.mkdtemp(prefix="tutor-lesson-")
        pid = os.fork()
        if pid == 0:
            parent_end.close()
            self.channel.close()
            os.close(self.wake_r)
            os.close(self.wake_w)
            child_main(child_end, workdir, req)
        child_end.close()
        self.children[pid] = workdir
        try:
            self.channel.send({"id": req.get("id"), "ok": True, "pid": pid},
                              fds=[parent_end.fileno()])
        finally:
            parent_end.close()

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            workdir = self.children.pop(pid, None)
            if workdir is None:
                continue  # an orphaned descendant we adopted as subreaper
            shutil.rmtree(workdir, ignore_errors=True)
            try:
                os.killpg(pid, signal.SIGKILL)  # the run's leftover descendants
            except (ProcessLookupError, PermissionError):
                pass
            event = {"event": "exit", "pid": pid,
                     "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                     "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None}
            try:
                self.channel.send(event)
            except ChannelClosed:
                return

    def shutdown(self) -> None:
        for pid, workdir in list(self.children.items()):
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            shutil.rmtree(workdir, ignore_errors=True)

    def serve(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.selector.register(self.channel.sock, selectors.EVENT_READ, "control")
        self.selector.register(self.wake_r, selectors.EVENT_READ, "signal")
        self.channel.send({"event": "ready", **info()})
        try:
            while True:
                for key, _ in self.selector.select(timeout=1.0):
                    if key.data == "signal":
                        try:
                            os.read(self.wake_r, 4096)
                        except BlockingIOError:
                            pass
                    else:
                        req = self.channel.recv()
                        if req.get("op") == "spawn":
                            self.spawn(req)
                        elif req.get("op") == "bye":
                            return
                self.reap()
                if os.getppid() == 1:
                    return
        except ChannelClosed:
            return
        finally:
            self.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.kernel.zygote")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--fd", type=int, help="control socket: run as a fork server")
    group.add_argument("--session", type=int, help="session socket: run one lesson directly")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    torch.set_num_threads(1)
    if args.session is not None:
        sock = socket.socket(fileno=args.session)
        workdir = tempfile.mkdtemp(prefix="tutor-lesson-")
        child_main(sock, workdir, {"seed": args.seed, "cleanup": True})
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    warm_up()
    Zygote(socket.socket(fileno=args.fd)).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
