"""A spawned kernel worker: a fresh process for a lesson run, started ahead of need.

    python -c BOOT worker --fd N [--cuda] [--probe] [--no-optimizers] [--reuse]  # POSIX
    python -c BOOT worker --connect HOST:PORT [--cuda] ...   # elsewhere: connect back, token
                                                             # in TUTOR_KERNEL_TOKEN

Used where forking a zygote is unsafe or impossible (spawn mode: macOS, Windows, a
multi-threaded zygote) and, in every mode, for lesson runs that need CUDA (a
process that has initialised CUDA cannot fork).  The tutor keeps a small pool of
workers that have already imported torch (and, for CUDA, initialised it); each
serves one lesson run and exits, except a batch's CPU workers (`--reuse`: `tutor
check`, the pytest plugin), which serve runs one after the other for as long as each
run leaves the process as the first run found it (tutor/kernel/reuse.py).  Protocol
on its socket (JSON lines):

    <- {"event": "hello", "torch": "2.13.0", "python": "3.11.7", "pid": 4242, "limits": {...},
        "cuda": true, ...}                       (torch imported, warmed up: waiting)
    -> {"op": "start", "seed": 0, "limits": {"cpu_seconds": 30}, "workdir": "/tmp/tutor-lesson-…"}
    ... then the lesson session's requests (docs/kernel.md), until {"op": "bye"}
    <- {"event": "idle", "runs": 1}              (--reuse, found unchanged: another start)
    <- {"event": "retire", "why": "…"}           (--reuse, found changed: it exits)

Its stdin is a lifeline from the tutor, watched from before the torch import
(tutor/kernel/lifeline.py): end of file means the tutor has gone (the worker kills
what it started and exits, on every platform); a byte `i` is an interrupt, for
platforms where a signal cannot be sent to one process (Windows).

Portable: imports only the standard library and torch; `resource`, `/proc`,
`prctl` and `setsid` are used where they exist (see tutor/kernel/limits.py).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import sys
import tempfile
from typing import Any

import torch

from tutor.kernel import lifeline, warm
from tutor.kernel import limits as lim
from tutor.kernel import reuse as reuse_mod
from tutor.kernel.channel import Channel, ChannelClosed
from tutor.kernel.cleanup import remove_tree
from tutor.kernel.guard import EXIT_CHANNEL_LOST, EXIT_KERNEL_FAILED, ChannelLost
from tutor.kernel.session import LessonSession, private_stdio, serve_run

TOKEN_ENV = "TUTOR_KERNEL_TOKEN"


def _linux_procs() -> Any:
    """tutor.kernel.procs where there is a /proc to read (Linux), else None."""
    if not os.path.isdir("/proc/self/task"):
        return None
    from tutor.kernel import procs

    return procs


def kill_descendants() -> None:
    procs = _linux_procs()
    if procs is not None:
        procs.kill_descendants(0.5)


def connect(args: argparse.Namespace) -> socket.socket:
    if args.fd is not None:
        return socket.socket(fileno=args.fd)
    host, _, port = args.connect.rpartition(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.settimeout(None)
    sock.sendall(os.environ.get(TOKEN_ENV, "").encode() + b"\n")
    os.environ.pop(TOKEN_ENV, None)  # not for lesson code to read
    return sock


def planned_limits(cuda: bool) -> dict[str, Any]:
    """What will hold in this worker's run (the same keys as the zygote's report)."""
    subreaper = _linux_procs() is not None
    has_rlimits = lim.resource is not None
    memory = "rlimit" if has_rlimits and lim.vm_size() is not None \
        and sys.platform != "darwin" else None
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    out: dict[str, Any] = {
        "processes": "rlimit" if has_rlimits and not root and subreaper else None,
        "cpu": "rlimit" if lim.cpu_limit_available() else None,
        "memory": None if cuda else memory,
        "file_size": "rlimit" if has_rlimits else None,
        "descendants": "subreaper" if subreaper else (
            "process group" if hasattr(os, "setsid") else None),
        "kernel_tasks": None,
    }
    if cuda:
        out["gpu_memory"] = "allocator cap"
    return out


def isolate(workdir: str, limits: dict[str, Any], *, cuda: bool, first: bool = True) -> int:
    """Become a lesson run: own session, private directory, stdio, limits (`first`:
    the worker's first run; a reused worker is isolated already, and its limits are
    set again for this run).  Returns the fd of the capture file (fd 1 and 2 write
    there)."""
    if hasattr(os, "setsid"):
        try:
            os.setsid()
        except OSError:
            pass
    procs = _linux_procs()
    if procs is not None:
        procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)  # the run's orphans stay in its tree
    for name in ("SIGCHLD", "SIGTERM", "SIGXCPU"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    capture = private_stdio(workdir, first=first)
    nproc = None
    if procs is not None and hasattr(os, "geteuid") and os.geteuid() != 0:
        nproc = procs.user_tasks() + int(limits.get("processes", procs.PROCESS_LIMIT))
    lim.set_limits(limits, nproc=nproc, address_space=not cuda)
    return capture


def _wait_for_start(channel: Channel) -> dict[str, Any] | None:
    """The next `start` request (None: the tutor said bye or went away)."""
    while True:
        try:
            request = channel.recv()
        except ChannelClosed:
            return None
        if request.get("op") == "bye":
            return None
        if request.get("op") == "ping":  # the pool's look before it hands us out
            channel.send({"event": "pong", "seq": request.get("seq")})
        if request.get("op") == "start":
            return request


def _cpu_limit_off() -> None:
    """Between runs of a reused worker: no CPU-time limit until the next request arms
    its own (session.LessonSession._arm_cpu_limit), so the idle worker is not killed
    for what earlier runs used."""
    if lim.resource is not None and lim.cpu_limit_available():
        try:
            _soft, hard = lim.resource.getrlimit(lim.resource.RLIMIT_CPU)
            lim.resource.setrlimit(lim.resource.RLIMIT_CPU, (hard, hard))
        except (ValueError, OSError):
            pass


def serve(channel: Channel, *, cuda: bool, hello: dict[str, Any],
          reuse: reuse_mod.Watch | None = None) -> int:
    """Serve one run (`reuse` None), or runs one after the other for as long as each
    leaves the process as the first found it (`reuse`: a batch worker; see
    tutor/kernel/reuse.py): after each, {"event": "idle"} (ready for another `start`)
    or {"event": "retire", "why": ...} and exit."""
    channel.send({"event": "hello", **hello})
    baseline: dict[str, Any] | None = None
    runs = 0
    capture = -1
    while True:
        request = _wait_for_start(channel)
        if request is None:
            return 0
        limits = request.get("limits") or {}
        # made by the tutor, which removes it after the run whatever happens to us
        workdir = request.get("workdir") or tempfile.mkdtemp(prefix="tutor-lesson-")
        code = 0
        why: list[str] = []
        session = None
        try:
            if capture >= 0:  # the last run's (a reused worker)
                os.close(capture)
            capture = isolate(workdir, limits, cuda=cuda, first=runs == 0)
            warm.seed_all(int(request.get("seed") or 0), warm=not cuda and runs == 0)
            if reuse is not None:
                if baseline is None:  # (the first run: later ones are compared with it)
                    baseline = _fingerprint(workdir)
                reuse.arm()
            session = serve_run(channel, capture, limits)
        except ChannelLost:  # the lesson's code closed or replaced the channel's descriptors
            code = EXIT_CHANNEL_LOST
        except BaseException:  # noqa: B036
            code = EXIT_KERNEL_FAILED
        finally:
            if reuse is not None:
                why = reuse.disarm()
                if session is None or not session.said_bye:
                    why.append("its run did not end with the tutor's bye")
                elif not code:
                    try:
                        why += _after_run(session, baseline, workdir)
                    except Exception as exc:  # noqa: BLE001 - then it is not known to be clean
                        why.append(f"the look after its run failed ({type(exc).__name__})")
            session = None
            try:
                kill_descendants()
            except BaseException:  # noqa: B036
                pass
            try:
                os.chdir(tempfile.gettempdir())
            except OSError:
                pass
            remove_tree(workdir, 10.0)
        runs += 1
        if reuse is None or code:
            return code
        if why:
            try:
                channel.send({"event": "retire", "why": "; ".join(why)[:2000]})
            except (ChannelClosed, ValueError, TypeError):
                pass
            return 0
        _cpu_limit_off()
        try:
            channel.send({"event": "idle", "runs": runs})
        except ChannelClosed:
            return 0


def _fingerprint(workdir: str) -> dict[str, Any]:
    state = reuse_mod.take()
    state["cwd"] = state["cwd"] == repr(workdir)  # (each run has a directory of its own)
    return state


def _after_run(session: LessonSession, baseline: dict[str, Any] | None,
               workdir: str) -> list[str]:
    """Why this worker must not serve another run ([]: it may)."""
    why = []
    if session.wrote_modules:
        why.append("the lesson's modules were put on its import path")
    if session.forks.count:
        why.append("the lesson forked")
    broke = session.guard.describe()
    if broke:
        why.append(f"the lesson's code {broke}")
    session.close()
    del session
    gc.collect()
    if baseline is None:
        return [*why, "no fingerprint was taken"]
    return why + reuse_mod.differences(baseline, _fingerprint(workdir))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tutor kernel worker")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--fd", type=int, help="the socket to the tutor, as a file descriptor")
    where.add_argument("--connect", help="HOST:PORT to connect back to (token in the env)")
    parser.add_argument("--cuda", action="store_true", help="initialise CUDA ahead of the run")
    parser.add_argument("--probe", action="store_true", help="report whether CUDA is available")
    parser.add_argument("--no-optimizers", action="store_true",
                        help="leave the optimizers out of the warm-up (a batch of runs)")
    parser.add_argument("--reuse", action="store_true",
                        help="serve further runs while each leaves the process as the "
                             "first found it (a batch; tutor/kernel/reuse.py)")
    args = parser.parse_args(argv)
    lifeline.on_tutor_gone(kill_descendants)
    lifeline.guard_worker(lifeline.parent_pid())  # (started by BOOT, before the import)
    sock = connect(args)
    torch.set_num_threads(1)
    hello: dict[str, Any] = {**warm.versions(), "pid": os.getpid(),
                             "limits": planned_limits(args.cuda)}
    if args.probe:
        hello.update(warm.probe_cuda())
    if args.cuda:
        hello.update(warm.init_cuda())
        warm.warm_up(count_devices=True, optimizers=not args.no_optimizers)
    else:  # a CPU run: no backward where it may start CUDA's driver (see warm_up)
        no_gpu = not hello.get("cuda") if args.probe else not torch.backends.cuda.is_built()
        warm.warm_up(count_devices=no_gpu, optimizers=not args.no_optimizers)
    watch = None
    if args.reuse:
        reuse_mod.warm_up()
        gc.freeze()  # (what the warm-up made is kept: the look after each run is cheap)
        watch = reuse_mod.Watch()
    code = serve(Channel(sock), cuda=args.cuda, hello=hello, reuse=watch)
    os._exit(code)
