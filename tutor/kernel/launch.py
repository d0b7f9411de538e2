"""Starting kernel processes, on this or another interpreter (client side, no torch).

Every kernel process (the zygote, a spawned worker) starts as

    PYTHON -c BOOT KERNEL_PATH ROLE ARGS...

BOOT checks the Python version, puts KERNEL_PATH first on `sys.path` (so the kernel
modules are this tutor's own, whatever the current directory or the interpreter
holds), arms the exit-with-the-tutor hooks (tutor/kernel/lifeline.py: the import
takes seconds, and a tutor killed meanwhile must not leave a kernel behind), imports
torch (a clear exit code when it cannot) and runs the role's main.
For the interpreter tutor runs on, KERNEL_PATH is the directory holding the `tutor`
package; for another one (`tutor --python PATH`, `TUTOR_PYTHON`) it is a private
copy of `tutor/kernel` alone, so nothing else of tutor's environment (its torch, its
site-packages) leaks into that interpreter and nothing needs installing there: the
kernel modules use only the standard library and torch.

A worker's socket reaches it as an inherited file descriptor where the platform can
pass one (`pass_fds`: Linux, macOS), else by connecting back to a loopback port
with a one-time token (Windows).
"""

from __future__ import annotations

import atexit
import hmac
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from tutor.kernel.channel import Channel
from tutor.kernel.lifeline import PARENT_ENV
from tutor.kernel.popen import StoppedBeforeExec, popen
from tutor.kernel.words import _

EXIT_NO_TORCH = 41  # the interpreter cannot import torch
EXIT_OLD_PYTHON = 42  # the interpreter is older than the kernel supports
PYTHON_ENV = "TUTOR_PYTHON"  # the interpreter lessons run on (default: tutor's own)
TRANSPORT_ENV = "TUTOR_KERNEL_TRANSPORT"  # "fd" or "tcp" (tests; default by platform)
TOKEN_ENV = "TUTOR_KERNEL_TOKEN"

BOOT = """\
import sys
if sys.version_info < (3, 10):
    sys.stderr.write("tutor: this is Python %d.%d; lessons need Python 3.10 or newer\\n"
                     % sys.version_info[:2])
    sys.exit(42)
sys.path.insert(0, sys.argv[1])
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)  # a stray Ctrl-C must not kill the import
from tutor.kernel.lifeline import guard
guard(sys.argv[2])  # leave with the tutor, from now on: the import takes seconds
try:
    import torch
except Exception as exc:
    sys.stderr.write("tutor: %s cannot import torch (%s: %s)\\n"
                     % (sys.executable, type(exc).__name__, exc))
    sys.exit(41)
if sys.argv[2] == "zygote":
    from tutor.kernel.zygote import main
else:
    from tutor.kernel.worker import main
sys.exit(main(sys.argv[3:]))
"""

THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTHONUNBUFFERED": "1",
    # torch.cuda.is_available() asks NVML, without initialising CUDA
    "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
}

_PACKAGE = Path(__file__).resolve().parent.parent  # .../tutor
_SHIM: str | None = None


def default_python() -> str:
    return os.environ.get(PYTHON_ENV) or sys.executable


def is_own(python: str) -> bool:
    return os.path.abspath(python) == os.path.abspath(sys.executable)


def kernel_path(python: str) -> str:
    """The directory to put first on the kernel's sys.path (see the module's doc)."""
    global _SHIM
    if is_own(python):
        return str(_PACKAGE.parent)
    if _SHIM is None or not os.path.isdir(_SHIM):
        root = tempfile.mkdtemp(prefix="tutor-kernel-")
        (Path(root) / "tutor" / "kernel").mkdir(parents=True)
        shutil.copy2(_PACKAGE / "__init__.py", Path(root) / "tutor" / "__init__.py")
        for source in (_PACKAGE / "kernel").glob("*.py"):
            shutil.copy2(source, Path(root) / "tutor" / "kernel" / source.name)
        atexit.register(shutil.rmtree, root, True)
        _SHIM = root
    return _SHIM


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update(THREAD_ENV)
    env.pop(TOKEN_ENV, None)
    env[PARENT_ENV] = str(os.getpid())  # (tutor/kernel/lifeline.py: leave when it has gone)
    return env


def command(python: str, role: str, *args: str) -> list[str]:
    return [python, "-c", BOOT, kernel_path(python), role, *args]


def describe_failure(python: str, code: int | None, log_tail: str) -> str | None:
    """A learner's sentence for an interpreter that cannot run the kernel at all."""
    detail = log_tail.strip().splitlines()[-1] if log_tail.strip() else ""
    if code == EXIT_NO_TORCH:
        return (_("{python} cannot import torch: {why}. Install torch into that environment, "
                  "or run lessons on another interpreter with `tutor --python PATH` (or "
                  "TUTOR_PYTHON)") if detail else
                _("{python} cannot import torch. Install torch into that environment, or run "
                  "lessons on another interpreter with `tutor --python PATH` (or "
                  "TUTOR_PYTHON)")).format(python=python, why=detail)
    if code == EXIT_OLD_PYTHON:
        return detail or _("{python} is older than Python 3.10, which lessons need").format(
            python=python)
    return None


def use_tcp() -> bool:
    choice = os.environ.get(TRANSPORT_ENV)
    if choice in ("fd", "tcp"):
        return choice == "tcp"
    return os.name != "posix" or not hasattr(socket, "AF_UNIX")


class LaunchError(OSError):
    """The process could not be started, or did not connect."""

    def __init__(self, message: str, *, code: int | None = None, missing: bool = False):
        super().__init__(message)
        self.code = code  # its exit code, when it exited before connecting
        self.missing = missing  # the interpreter itself could not be run


def not_runnable(python: str, exc: OSError) -> LaunchError:
    return LaunchError(_("{python} cannot be run ({why}); check --python or {env}").format(
        python=python, why=exc.strerror or exc, env=PYTHON_ENV), missing=True)


def start_worker(python: str, args: list[str], *, log: IO[bytes],
                 timeout: float) -> tuple[subprocess.Popen[bytes], Channel]:
    """Start a worker process and return it with a channel to it.

    Its stdin is a pipe kept open by the caller: the worker's lifeline.
    """
    options: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": log, "stderr": log,
                               "env": environment()}
    if os.name == "posix":
        options["start_new_session"] = True  # Ctrl-C in the terminal stays with the tutor
    else:
        options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    if not use_tcp():
        ours, theirs = socket.socketpair()
        try:
            proc = popen(command(python, "worker", "--fd", str(theirs.fileno()), *args),
                         pass_fds=[theirs.fileno()], **options)
        except StoppedBeforeExec as exc:
            ours.close()
            raise LaunchError(str(exc)) from None
        except OSError as exc:
            ours.close()
            raise not_runnable(python, exc) from None
        finally:
            theirs.close()
        return proc, Channel(ours)
    token = secrets.token_hex(16)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        options["env"][TOKEN_ENV] = token
        try:
            proc = popen(command(python, "worker", "--connect", f"127.0.0.1:{port}", *args),
                         **options)
        except StoppedBeforeExec as exc:
            raise LaunchError(str(exc)) from None
        except OSError as exc:
            raise not_runnable(python, exc) from None
        sock = _accept(listener, token.encode(), proc, timeout)
    return proc, Channel(sock)


def _accept(listener: socket.socket, token: bytes, proc: subprocess.Popen[bytes],
            timeout: float) -> socket.socket:
    """The connection that presents `token` (others are dropped), while `proc` lives."""
    deadline = time.monotonic() + timeout
    listener.settimeout(0.2)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LaunchError(_("the kernel process exited with code {code} before it "
                                "connected").format(code=proc.returncode), code=proc.returncode)
        try:
            conn, _peer = listener.accept()
        except TimeoutError:
            continue
        conn.settimeout(5)
        try:
            line = b""
            while not line.endswith(b"\n") and len(line) <= len(token):
                chunk = conn.recv(len(token) + 1 - len(line))
                if not chunk:
                    break
                line += chunk
        except OSError:
            line = b""
        if hmac.compare_digest(line.rstrip(b"\n"), token):
            conn.settimeout(None)
            return conn
        conn.close()
    proc.kill()
    raise LaunchError(_("the kernel process did not connect within {seconds} s").format(
        seconds=f"{timeout:.0f}"))
