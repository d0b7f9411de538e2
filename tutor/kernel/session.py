"""One lesson run, inside the kernel: a fresh namespace served over a channel.

This runs in the forked child of the zygote (or in a spawned process where fork
is unavailable).  It imports torch.  Requests (JSON objects with an `op`):

* `run`   {code, step, prompts: [{kind, expect}], label?} -> {stdout, stderr, error,
           observations}  (`label`: the file name tracebacks show, e.g. "<pack setup>")
* `repl`  {code} -> {stdout, stderr, value, error}
* `observe` {expr} -> {observation}
* `inspect` {what: graph|storage|tree, expr} -> {picture} (see tutor/kernel/inspect.py)
* `modules` {modules: {name: source}} -> {modules: [name, ...]}: the lesson's own
           modules, written as NAME.py into the run's private directory, which is then
           put first on `sys.path` (processes the lesson starts, spawned ones included,
           import them from there: multiprocessing passes `sys.path` on)
* `bye`   -> the process exits

Every reply echoes the request's `id`.  A SIGINT interrupts running code (it
becomes KeyboardInterrupt) and is ignored between requests.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import linecache
import os
import re
import signal
import sys
import threading
import time
import traceback
from typing import TYPE_CHECKING, Any

import torch

from tutor.kernel import observe as obs
from tutor.kernel.caps import MAX_REPL_VALUE, MAX_TRACEBACK, STDOUT_CAP, STDOUT_KILL
from tutor.kernel.channel import Channel, ChannelClosed, ChannelGarbled
from tutor.kernel.guard import CAPTURE, CHANNEL, ChannelLost, Guard
from tutor.kernel.guard import setprofile as unprofile_now
from tutor.kernel.guard import settrace as untrace_now
from tutor.kernel.limits import CPU_SECONDS
from tutor.kernel.liveness import being_stopped
from tutor.kernel.words import N_, Worded, english, said

if TYPE_CHECKING:  # (types only: this process imports nothing more for them)
    from tutor.kernel.wire import FaultKind

try:
    import resource
except ImportError:  # Windows: no CPU-time limit, the wall timeout still holds
    resource = None  # type: ignore[assignment]

MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
FORK_SETTLE = 0.1  # seconds a run waits for children its step forked to end or report

# The kernel's own references, for its code that runs amid lesson code (the output
# writers, the fork and import hooks), where guard.Guard has not put the originals
# back: captured at import, before any lesson code.
_isinstance = isinstance
_getpid = os.getpid
_write = os.write
_get_ident = threading.get_ident


# the kernel's messages (sent with their English as words: tutor/kernel/words.py)
PRINTED_TOO_MUCH = N_("the code printed more than {mb} MB")
TRUNCATED = N_("… output truncated ({n} more characters)")
INTERRUPTED = N_("interrupted")
FORK_CAME_BACK = N_(
    "the step's code called os.fork(), and the child process ({pids}) went on running the "
    "lesson after the step instead of ending: tutor stopped it and cut it off from the "
    "kernel (end a forked child with os._exit())")
NOT_IDENTIFIER = N_("module name {name} is not a Python identifier")
NAME_TAKEN = N_("module name {name} is taken: a module of that name exists already (give "
                "the lesson's module another name)")
KERNEL_FAILED = N_("the kernel's code failed in the lesson's process ({error})")
KERNEL_FAILED_BROKE = N_("the kernel's code failed in the lesson's process ({error}); the "
                         "lesson's code {broke}")
STOPPED_ZYGOTE = N_(  # (with liveness.ZYGOTE_STOPPED's words, which tests look for)
    "the lesson's code stopped the kernel process (pid {pid}, with SIGSTOP or the like), "
    "so its run was ended and the kernel is restarted")
CAPTURE_CLOSED = N_("[tutor: the lesson's code closed the kernel's capture of fd 1 and 2 "
                    "(fd {fd}): what C code and child processes write there is lost]")
CAPTURE_UNREADABLE = N_("[tutor: the output written to fd 1 and 2 could not be read: {error}]")
CANNOT_DRAW = N_("inspect: cannot draw {what} of {expr}")
NOT_SENT = N_("the result could not be sent: {error}")


def _failed(msgid: str, **args: object) -> dict[str, Any]:
    """An `ok: false` reply's fields: the English `error` and its `words`."""
    words = said(msgid, **args)
    return {"ok": False, "error": english(words), "words": words}


class OutputLimitExceeded(Worded, BaseException):
    """Raised into lesson code that prints without end (not catchable by `except Exception`)."""

    def __init__(self, mb: int):
        self.words = said(PRINTED_TOO_MUCH, mb=mb)
        super().__init__(english(self.words))


class ForkedChildError(Worded, RuntimeError):
    """The step forked, and a child process came back into the lesson run."""

    def __init__(self, pids: list[int]):
        self.words = said(FORK_CAME_BACK, pids=", ".join(map(str, pids)))
        super().__init__(english(self.words))


class ForkWatch:
    """Keeps a lesson's fork() children off the run's channel, and tells on them.

    A step that calls `os.fork()` and returns in both processes would leave two
    processes serving one channel.  In a child, the run's socket is closed as soon as
    it is forked (`os.register_at_fork`); a child that comes back into the session
    (its step's code returned) reports its pid on a pipe and exits at once, so only
    the run itself ever replies.  A child forked without `os.fork` (ctypes) is caught
    by the pid check before every reply.
    """

    def __init__(self, channel: Channel):
        self.owner = _getpid()
        self.channel = channel
        self.fd = channel.sock.fileno()
        self.count = 0  # os.fork() calls in this run
        self.read, self.write = os.pipe()
        os.set_blocking(self.read, False)
        os.set_blocking(self.write, False)
        global _fork_watch
        _fork_watch = self  # (the hooks, registered once per process, call the current one)
        if not _fork_hooks:
            os.register_at_fork(after_in_parent=_after_fork_parent,
                                after_in_child=_after_fork_child)
            _fork_hooks.append(True)

    def close(self) -> None:
        """The run has ended (a reused worker serves another): forget this watch."""
        global _fork_watch
        if _fork_watch is self:
            _fork_watch = None
        for fd in (self.read, self.write):
            try:
                os.close(fd)
            except OSError:
                pass

    def _parent(self) -> None:
        if _getpid() == self.owner:
            self.count += 1

    def _child(self) -> None:
        try:
            self.channel.sock.close()  # this process's copy only: the run keeps its own
        except OSError:
            pass
        self._report(b"F")

    def _report(self, tag: bytes) -> None:
        try:
            _write(self.write, tag + str(_getpid()).encode() + b"\n")
        except OSError:
            pass  # (a full pipe: thousands of forks; the child is still cut off)

    def leave_if_forked(self) -> None:
        if _getpid() != self.owner:
            self._report(b"R")
            os._exit(0)

    def drain(self) -> None:
        """Forget reports left from earlier requests (before a new one starts)."""
        try:
            while os.read(self.read, 65536):
                pass
        except OSError:
            pass

    def returned(self, since: int) -> list[int]:
        """Pids of children that came back into the run during the request just run.

        Children forked during it get FORK_SETTLE seconds to end or come back (each
        says it was forked as it starts), so a step whose child returns at once is
        reported with it.
        """
        made = self.count - since
        forked: set[int] = set()
        back: list[int] = []
        deadline = time.monotonic() + FORK_SETTLE
        while made > 0:
            try:
                data = os.read(self.read, 65536)
            except BlockingIOError:
                data = b""
            except OSError:
                break
            for line in data.split():
                pid = int(line[1:]) if line[1:].isdigit() else 0
                if line[:1] == b"F":
                    forked.add(pid)
                elif pid not in back:
                    back.append(pid)
            if data:
                continue
            waiting = len(forked) < made or any(p not in back and _running(p) for p in forked)
            if not waiting or time.monotonic() > deadline:
                break
            time.sleep(0.002)
        return back

    def mark_done(self, req_id: Any) -> None:
        """Tell the tutor the request's code has finished (its reply comes next).

        Written straight to the socket, without json or Channel, so that a lesson that
        patched those is still told apart from one that ignored an interrupt.
        """
        if isinstance(req_id, int) and not isinstance(req_id, bool):
            try:
                _write(self.fd, b'{"event":"done","id":%d}\n' % req_id)
            except OSError:
                pass


_fork_watch: ForkWatch | None = None  # the run's (one run at a time per process)
_fork_hooks: list[bool] = []  # os.register_at_fork cannot be undone: registered once


def _after_fork_parent() -> None:
    watch = _fork_watch
    if watch is not None:
        watch._parent()


def _after_fork_child() -> None:
    watch = _fork_watch
    if watch is not None:
        watch._child()


class ImportClock:
    """Tells the tutor when lesson code loads a module, so that loading does not count
    against the step's wall timeout.

    torch imports much on first use (`torch.use_deterministic_algorithms` loads
    `torch._inductor` and `torch._dynamo`, some 800 modules; an optimizer, `torch.fx`,
    numpy, ...): seconds that a run forked from a warm zygote may not pay, and a spawned
    worker, which warmed up less, pays inside a step.  While lesson code runs, the
    outermost load of a module not yet imported (CPython's `_find_and_load`, which
    `import`, `__import__` and `importlib.import_module` all go through) is announced
    on the run's socket: `{"event": "import", "id": N, "loading": true}`, then
    `... false`.  The client stops the step's clock meanwhile, up to its allowance
    (tutor/kernel/run.py, IMPORT_ALLOWANCE).  Written straight to the socket, from
    the main thread only (replies are sent by it too, never while code runs).
    """

    def __init__(self, fd: int):
        self.fd = fd
        self.request: int | None = None  # the request whose code is running
        self.depth = 0
        self.main = _get_ident()
        self.machinery = sys.modules.get("_frozen_importlib")
        self.original = getattr(self.machinery, "_find_and_load", None)
        earlier = getattr(self.original, "__self__", None)
        if _isinstance(earlier, ImportClock):  # (a reused worker's earlier run: not ours)
            self.original = earlier.original  # type: ignore[union-attr]
        if self.original is not None:
            self.machinery._find_and_load = self._find_and_load  # type: ignore[union-attr]

    def close(self) -> None:
        """The run has ended: CPython's own loader back (a reused worker)."""
        if self.original is not None and self.machinery is not None:
            self.machinery._find_and_load = self.original  # type: ignore[attr-defined]

    def _find_and_load(self, *args: Any, **kwargs: Any) -> Any:
        assert self.original is not None
        req = self.request
        if req is None or self.depth or _get_ident() != self.main:
            return self.original(*args, **kwargs)
        self.depth += 1
        self._say(req, b"true")
        try:
            return self.original(*args, **kwargs)
        finally:
            self.depth -= 1
            self._say(req, b"false")

    def _say(self, req: int, loading: bytes) -> None:
        try:
            _write(self.fd, b'{"event":"import","id":%d,"loading":%s}\n' % (req, loading))
        except OSError:
            pass


def _running(pid: int) -> bool:
    """`pid` is our child and has not exited (without reaping it: the lesson may wait
    for it itself)."""
    waitid = getattr(os, "waitid", None)
    if waitid is None:
        return False  # (no way to look without reaping: do not wait)
    try:
        return waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except (ChildProcessError, OSError):
        return False


class CappedWriter(io.TextIOBase):
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.written = 0
        self.note: dict[str, Any] | None = None  # the last `take`'s note, as words

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not _isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.written += len(text)
        if self.kept < STDOUT_CAP:
            piece = text[: STDOUT_CAP - self.kept]
            self.parts.append(piece)
            self.kept += len(piece)
        if self.written > STDOUT_KILL:
            raise OutputLimitExceeded(STDOUT_KILL >> 20)
        return len(text)

    def take(self) -> str:
        """What was kept, ended by a note of what was cut (that note's words: `note`)."""
        text = "".join(self.parts)
        self.note = None
        if self.written > self.kept:
            self.note = said(TRUNCATED, n=f"{self.written - self.kept:,}")
            text += "\n" + str(english(self.note))
        self.parts, self.kept, self.written = [], 0, 0
        return text


def _remember(name: str, source: str) -> str:
    """Let tracebacks quote lines of lesson and REPL code (kept in linecache)."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    return name


def _lesson_traceback(exc: BaseException) -> str:
    """The traceback from the first frame of lesson code on (tutor's frames hidden)."""
    tb = exc.__traceback__
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<"):
        tb = tb.tb_next
    frames = traceback.extract_tb(tb)
    while frames and frames[-1].filename == __file__:  # the SIGINT handler, the output cap
        frames.pop()
    lines = ["Traceback (most recent call last):\n", *frames.format()] if frames else []
    text = "".join(lines + traceback.format_exception_only(type(exc), exc))
    return text if len(text) < MAX_TRACEBACK else text[:MAX_TRACEBACK] + "\n…"


class LessonSession:
    def __init__(self, channel: Channel, fd_capture: int | None = None,
                 cpu_seconds: float | None = None, zygote: int | None = None):
        self.channel = channel
        self.zygote = zygote  # the process that forked this run (fork mode), else None
        self.cpu_seconds = cpu_seconds  # CPU time allowed per execution (RLIMIT_CPU)
        self.namespace: dict[str, Any] = {"__name__": "__lesson__", "__builtins__": __builtins__,
                                          "torch": torch}
        self.observer = obs.Observer()
        self.stdout = CappedWriter()
        self.stderr = CappedWriter()
        self.fd_capture = fd_capture
        self.repl_count = 0
        self.interrupted = False  # a SIGINT arrived during the current request
        self.forks = ForkWatch(channel)
        self.imports = ImportClock(channel.sock.fileno())
        self.guard = Guard()  # (before any lesson code: the kernel's own references)
        self.guard.keep(channel.sock.fileno(), CHANNEL)
        if fd_capture is not None:
            self.guard.keep(fd_capture, CAPTURE)
        self.request_id: int | None = None  # the request being served
        self.workdir = os.getcwd()  # the run's private directory (private_stdio went there)
        self.said_bye = False  # the tutor ended the run (not a closed channel)
        self.wrote_modules = False  # the lesson's `modules:` were put on sys.path
        self._lines = set(linecache.cache)  # (tracebacks' sources this run adds)

    def close(self) -> None:
        """Let go of what this run holds in the process (descriptors, hooks, the
        sources kept for tracebacks), for a worker that may serve another run (the
        capture file stays open: fd 1 and 2 write there until the next run's)."""
        self.forks.close()
        self.imports.close()
        self.guard.drop_spares()
        for name in set(linecache.cache) - self._lines:
            linecache.cache.pop(name, None)
        self.namespace.clear()

    # ----------------------------------------------------------------- execution
    def _arm_cpu_limit(self) -> None:
        """RLIMIT_CPU counts the process's whole life: allow `cpu_seconds` more from now.

        Past the soft limit the kernel sends SIGXCPU, which kills the process (the
        client reports it as such); the hard limit stays where it was, so it can be
        raised again for the next request.  The wall timeout normally acts first.
        """
        if not self.cpu_seconds or resource is None:
            return
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # whole seconds only: the allowance holds to within half a second
        soft = max(1, round(usage.ru_utime + usage.ru_stime + self.cpu_seconds))
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        except (ValueError, OSError):
            pass

    def _on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupted = True  # a real interrupt, not code raising KeyboardInterrupt
        raise KeyboardInterrupt

    def _stopped(self, exc: BaseException | None) -> bool:
        """Was the code stopped (interrupt, output flood) rather than failing by itself?"""
        return isinstance(exc, OutputLimitExceeded) or (
            isinstance(exc, KeyboardInterrupt) and self.interrupted)

    def _execute(self, fn: Any) -> BaseException | None:
        """Run `fn` with output captured and SIGINT armed; return what it raised."""
        self._arm_cpu_limit()
        sys.stdout, sys.stderr = self.stdout, self.stderr
        signal.signal(signal.SIGINT, self._on_sigint)
        self.imports.request = self.request_id
        self.guard.to_lesson()
        try:
            fn()
            return None
        except BaseException as exc:  # noqa: B036 - lesson code may raise anything
            return exc
        finally:
            try:  # first, and inline: no Python call of the kernel's may run traced (a
                untrace_now(None), unprofile_now(None)  # trace function sees every call)
            except BaseException:  # noqa: B036 - a profile function that raised is unset
                untrace_now(None), unprofile_now(None)
            self.guard.to_kernel(fds=False)  # the kernel's own functions back
            self.imports.request = None
            self.forks.leave_if_forked()  # a forked child that came back: it ends here
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
            self.guard.check_fds()  # (ChannelLost: the run cannot reply any more)

    def _observed(self, value: Any) -> dict[str, Any]:
        """`value` observed with the kernel's own functions (a lesson that replaced
        `isinstance` still gets its values seen as they are)."""
        return self._as_kernel(lambda: self.observer.observe(value))

    def _as_kernel(self, fn: Any) -> Any:
        """`fn()` (kernel code, amid lesson code) with the kernel's own functions."""
        self.guard.to_kernel(fds=False)
        try:
            return fn()
        finally:
            self.guard.to_lesson()

    def _outputs(self) -> tuple[str, str]:
        err = self.stderr.take()
        fd = self.fd_capture
        if fd is not None and self.guard.fd_lost(fd):
            self.fd_capture = None
            self.stderr.note = said(CAPTURE_CLOSED, fd=fd)  # (the note that ends stderr now)
            err += "\n" + str(english(self.stderr.note))
        elif fd is not None:
            try:
                size = os.lseek(fd, 0, os.SEEK_END)
                if size:
                    os.lseek(fd, 0, os.SEEK_SET)
                    raw = os.read(fd, STDOUT_CAP)
                    os.ftruncate(fd, 0)
                    os.lseek(fd, 0, os.SEEK_SET)
                    err += raw.decode("utf-8", "replace")
            except OSError as exc:  # (not one of ours any more, and no copy was made)
                self.stderr.note = said(CAPTURE_UNREADABLE, error=exc)
                err += "\n" + str(english(self.stderr.note))
        return self.stdout.take(), err

    def _notes(self) -> dict[str, Any]:
        """The notes that end the streams `_outputs` just took, as words to translate."""
        pairs = (("stdout_note", self.stdout.note), ("stderr_note", self.stderr.note))
        return {key: note for key, note in pairs if note}

    def _error(self, exc: BaseException) -> dict[str, Any]:
        out = obs.exception(exc)
        # a lesson's module is quoted by its name (ranks.py), not by the run's directory
        out["traceback"] = _lesson_traceback(exc).replace(
            f'File "{self.workdir}{os.sep}', 'File "')
        if isinstance(exc, KeyboardInterrupt) and self.interrupted:
            out["message"], out["words"] = INTERRUPTED, said(INTERRUPTED)
        return out

    def _kernel_fault(self) -> dict[str, Any] | None:
        """What the lesson's code did to the kernel around it, that the run must answer
        for (the client ends the run with this message): it stopped the zygote, which
        the tutor then kills and restarts.  Charged here, to the lesson whose code ran,
        not to the next lesson, which would find the zygote unable to answer."""
        if self.zygote is None or not being_stopped(self.zygote):
            return None
        return said(STOPPED_ZYGOTE, pid=self.zygote)

    # ------------------------------------------------------------------ requests
    def run(self, req: dict[str, Any]) -> dict[str, Any]:
        step = req.get("step", 0)  # 0-based; tracebacks number steps from 1, as people read them
        name = _remember(req.get("label") or f"<lesson step {step + 1}>", req["code"])
        code = compile(req["code"], name, "exec")
        self.forks.drain()
        forks = self.forks.count
        error = self._execute(lambda: exec(code, self.namespace))
        returned = self.forks.returned(since=forks)
        if returned and error is None:
            error = ForkedChildError(returned)
        stdout, stderr = self._outputs()
        notes = self._notes()
        if error is not None and self._stopped(error):
            return {"stdout": stdout, "stderr": stderr, "error": self._error(error),
                    "observations": [], "interrupted": True, **notes}
        observations = [self._observe_prompt(p, error, stdout) for p in req.get("prompts", ())]
        return {"stdout": stdout, "stderr": stderr,
                "error": self._error(error) if error else None,
                "observations": observations, **notes}

    def _observe_prompt(self, prompt: dict[str, Any], error: BaseException | None,
                        stdout: str) -> dict[str, Any]:
        expect = prompt.get("expect")
        kind = prompt.get("kind")
        if expect is None:
            if kind == "stdout":
                return {"type": "str", "value": stdout}
            return obs.exception(error) if error else {"type": "none"}
        result: dict[str, Any] = {}

        def evaluate() -> None:
            if kind == "same_storage":
                a, b = (eval(compile(e, "<expect>", "eval"), self.namespace) for e in expect)
                result["obs"] = self.observer.same_storage(a, b)
            else:
                value = eval(compile(expect, "<expect>", "eval"), self.namespace)
                # an exception prompt asks what evaluating `expect` raised: nothing
                result["obs"] = ({"type": "none"} if kind == "exception"
                                 else self._observed(value))

        failure = self._execute(evaluate)
        self._outputs()  # output of evaluating an expectation is not the step's
        if failure is not None:
            if self._stopped(failure):
                raise failure
            return obs.exception(failure)
        return result["obs"]

    def repl(self, req: dict[str, Any]) -> dict[str, Any]:
        self.repl_count += 1
        source = req["code"]
        name = _remember(f"<repl {self.repl_count}>", source)
        tree = ast.parse(source, name, "exec")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        result: dict[str, Any] = {}

        def run() -> None:
            exec(compile(tree, name, "exec"), self.namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), name, "eval"), self.namespace)
                if value is not None:
                    self.namespace["_"] = value
                    result["value"] = self._as_kernel(
                        lambda: obs.safe_repr(value, limit=MAX_REPL_VALUE))

        error = self._execute(run)
        stdout, stderr = self._outputs()
        return {"stdout": stdout, "stderr": stderr, "value": result.get("value"),
                "error": self._error(error) if error else None, **self._notes()}

    def observe(self, req: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = {}

        def evaluate() -> None:
            value = eval(compile(req["expr"], "<observe>", "eval"), self.namespace)
            result["observation"] = self._observed(value)

        error = self._execute(evaluate)
        self._outputs()
        if error is not None:
            return {"observation": obs.exception(error)}
        return result

    def inspect(self, req: dict[str, Any]) -> dict[str, Any]:
        from tutor.kernel import inspect as look

        what, expr = req.get("what"), req.get("expr")
        result: dict[str, Any] = {}

        def evaluate() -> None:
            value = (eval(compile(expr, "<inspect>", "eval"), self.namespace)
                     if expr else None)
            if what == "graph" and expr:
                result["picture"] = self._as_kernel(
                    lambda: look.graph(value, expr, self.namespace, self.observer))
            elif what == "tree" and expr:
                result["picture"] = self._as_kernel(
                    lambda: look.tree(value, expr, self.namespace))
            elif what == "storage":
                result["picture"] = self._as_kernel(
                    lambda: look.storage(self.namespace, self.observer, value, expr))
            else:
                raise look.InspectError(CANNOT_DRAW, what=repr(what), expr=repr(expr))

        error = self._execute(evaluate)
        self._outputs()
        if error is not None:
            return {"picture": obs.exception(error)}
        return result

    def modules(self, req: dict[str, Any]) -> dict[str, Any]:
        """Write the lesson's own modules into the run's directory and put it on the
        import path (first), so that lesson code, and every process it starts, can
        import them: a function or class a spawned process must unpickle has to live
        in an importable module, not in the lesson's namespace (`__lesson__`)."""
        given = req.get("modules")
        if not isinstance(given, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in given.items()):
            return {"ok": False, "error": "`modules` must map module names to their source"}
        for name in given:
            if not MODULE_NAME.match(name):
                return _failed(NOT_IDENTIFIER, name=repr(name))
            taken = sys.modules.get(name) or importlib.util.find_spec(name)
            if taken is not None:
                return _failed(NAME_TAKEN, name=repr(name))
        for name, source in given.items():
            with open(os.path.join(self.workdir, name + ".py"), "w", encoding="utf-8") as f:
                f.write(source)
        if self.workdir not in sys.path:
            sys.path.insert(0, self.workdir)
        self.wrote_modules = True
        importlib.invalidate_caches()
        return {"modules": sorted(given)}

    def serve(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        handlers = {"run": self.run, "repl": self.repl, "observe": self.observe,
                    "inspect": self.inspect, "modules": self.modules}
        while True:
            try:
                req = self.channel.recv()
            except ChannelGarbled:
                return
            except ChannelClosed:
                if self.guard.check_fds():  # (ChannelLost if the lesson's code took it)
                    continue  # restored from the kernel's copy: listen again
                return  # the tutor closed it
            self.guard.to_kernel()  # (a lesson's thread may have replaced something)
            op = req.get("op")
            if op == "bye":
                self.said_bye = True
                return
            self.interrupted = False
            req_id = req.get("id")
            self.request_id = req_id if type(req_id) is int else None
            reply: dict[str, Any] = {"id": req.get("id"), "ok": True}
            try:
                handler = handlers[str(op)]
                reply.update(handler(req))
            except KeyError:
                reply = {"id": req.get("id"), "ok": False, "error": f"unknown op {op!r}"}
            except SyntaxError as exc:
                reply = {"id": req.get("id"), "ok": True, "stdout": "", "stderr": "",
                         "error": {**obs.exception(exc), "traceback": "".join(
                             traceback.format_exception_only(type(exc), exc))},
                         "observations": []}
            except ChannelLost:
                raise
            except BaseException as exc:  # noqa: B036 - report, never die silently
                self.guard.to_kernel(fds=False)
                broke = self.guard.describe_words()  # (each translated where shown)
                failure = f"{type(exc).__name__}: {exc}"
                reply = {"id": req.get("id"), **(
                    _failed(KERNEL_FAILED_BROKE, error=failure, broke=broke) if broke
                    else _failed(KERNEL_FAILED, error=failure))}
            self.forks.leave_if_forked()  # (a fork that bypassed os.fork: never reply from it)
            fault = self._kernel_fault()
            if fault:
                kind: FaultKind = "kernel_stopped"  # (the client ends the run with its kind)
                reply["fault"], reply["fault_kind"] = english(fault), kind
                reply["fault_words"] = fault
            self.guard.check_fds()
            self.forks.mark_done(req.get("id"))
            try:
                self.channel.send(reply)
            except ChannelClosed:
                self.guard.check_fds()
                return
            except (ValueError, TypeError) as exc:  # too large or unencodable
                self.channel.send({"id": req.get("id"), **_failed(NOT_SENT, error=exc)})


def forget_start_dir(start: str) -> None:
    """Take the directory tutor was started in off the import path (`python -m` or
    `-c` put it there), so lesson code cannot import an author's local modules: what
    passes `tutor check` in a pack's directory must pass for a learner anywhere.  Kept
    only when tutor itself is imported from there (a source checkout run in place)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or ".") != start or os.path.abspath(p or ".") == here]


def private_stdio(workdir: str, *, first: bool = True) -> int:
    """Work in `workdir` (the start directory off the import path: `first`, the
    process's first run), stdin on /dev/null, fd 1 and 2 on a capture file there (what
    C code and subprocesses write); returns the capture file's fd."""
    if first:
        forget_start_dir(os.getcwd())
    os.chdir(workdir)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    if devnull != 0:
        os.close(devnull)
    capture = os.open(os.path.join(workdir, ".output"), os.O_RDWR | os.O_CREAT, 0o600)
    os.dup2(capture, 1)
    os.dup2(capture, 2)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    return capture


def serve_run(channel: Channel, capture: int, limits: dict[str, Any], *,
              zygote: int | None = None) -> LessonSession:
    """Serve one lesson run's requests until `bye` (or the channel closes); returns the
    run's session (`said_bye`, `close()`).  `zygote`: the pid of the zygote that forked
    this run (fork mode), watched for what the lesson's code does to it."""
    cpu = limits.get("cpu_seconds", CPU_SECONDS)
    session = LessonSession(channel, fd_capture=capture,
                            cpu_seconds=float(cpu) if cpu else None, zygote=zygote)
    session.serve()
    return session
