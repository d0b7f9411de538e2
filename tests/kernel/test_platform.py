"""Where forking is unsafe or impossible, and where CUDA is: the kernel still runs lessons.

Simulated here without a GPU, a Mac or a multi-threaded torch: a `sitecustomize`
on the kernel's PYTHONPATH starts a thread at start-up, hides `resource`, `/proc`,
`prctl`, `fork` and `setsid`, or spies on `torch.cuda`; TUTOR_KERNEL_FAKE_CUDA=1
makes the kernel report one CUDA device without touching CUDA.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutor.engine import check_lesson
from tutor.kernel import Kernel, KernelDead, KernelError, StepTimeout, modes, spawn
from tutor.lesson import load_lesson

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "lessons" / "samples" / "accumulate.yaml"

SECOND_THREAD = """
import threading, time
threading.Thread(target=time.sleep, args=(10**6,), daemon=True, name="not-torch").start()
"""

NO_PROC = r"""
import builtins, ctypes, os, sys
_open, _listdir, _isdir = builtins.open, os.listdir, os.path.isdir
def _no_proc(path):
    if str(path).startswith("/proc"):
        raise FileNotFoundError(2, "No such file or directory", str(path))
def _guarded_open(file, *args, **kwargs):
    _no_proc(file)
    return _open(file, *args, **kwargs)
def _guarded_listdir(path="."):
    _no_proc(path)
    return _listdir(path)
builtins.open = _guarded_open
os.listdir = _guarded_listdir
os.path.isdir = lambda path: False if str(path).startswith("/proc") else _isdir(path)
_getattr = ctypes.CDLL.__getattr__
def _no_prctl(self, name):
    if name in ("prctl", "madvise"):
        raise AttributeError(name)
    return _getattr(self, name)
ctypes.CDLL.__getattr__ = _no_prctl
"""
NO_POSIX = r"""
sys.modules["resource"] = None                      # import resource -> ImportError
for name in ("fork", "forkpty", "setsid", "killpg"):
    if hasattr(os, name):
        delattr(os, name)
"""
MACOS = NO_PROC  # resource (without an enforced RLIMIT_AS), fork, setsid, signals: yes
WINDOWS = NO_PROC + NO_POSIX  # none of them; no fd passing, no signal to one process

CUDA_SPY = """
import os
import torch
def _spy(name, result):
    def call(*args, **kwargs):
        with open(os.environ["CUDA_SPY_LOG"], "a") as log:
            log.write(f"{os.getpid()} {name}\\n")
        return result
    return call
for _name, _result in (("is_available", False), ("device_count", 0), ("init", None),
                       ("current_device", 0), ("get_device_name", "spy")):
    setattr(torch.cuda, _name, _spy(_name, _result))
"""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """Install a sitecustomize for the kernel processes started by this test."""
    monkeypatch.delenv(modes.MODE_ENV, raising=False)

    def install(code: str) -> Path:
        folder = tmp_path / "site"
        folder.mkdir(exist_ok=True)
        (folder / "sitecustomize.py").write_text(code)
        monkeypatch.setenv("PYTHONPATH", str(folder))
        return folder

    return install


def passes(kernel: Kernel) -> None:
    result = check_lesson(kernel, load_lesson(SAMPLE))
    assert result.status == "passed", (result.reason, [p.message for p in result.prompts])


# ------------------------------------------------------------------ choosing


@pytest.mark.parametrize(("platform", "can_fork", "said"), [
    ("linux", True, "fork mode (Linux)"),
    ("darwin", True, "spawn mode (macOS cannot safely fork a process that imported torch)"),
    ("win32", False, "spawn mode (Windows has no fork())"),
])
def test_the_mode_follows_the_platform(monkeypatch: pytest.MonkeyPatch, platform: str,
                                       can_fork: bool, said: str) -> None:
    monkeypatch.delenv(modes.MODE_ENV, raising=False)
    mode = modes.choose(platform=platform, can_fork=can_fork)
    assert mode.describe().startswith(said) and not mode.forced


def test_tutor_kernel_forces_a_mode_and_bad_values_are_explained(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(modes.MODE_ENV, "spawn")
    assert modes.choose(platform="linux").name == "spawn"
    assert modes.choose(platform="linux").reason == "forced by TUTOR_KERNEL=spawn"
    monkeypatch.setenv(modes.MODE_ENV, "fork")
    assert modes.choose(platform="darwin", can_fork=True).name == "fork"
    with pytest.raises(modes.ModeError, match="Windows has no fork"):
        modes.choose(platform="win32", can_fork=False)
    monkeypatch.setenv(modes.MODE_ENV, "forking")
    with pytest.raises(modes.ModeError, match="unknown kernel mode 'forking'; use fork, spawn"):
        modes.choose()
    kernel = Kernel()  # a bad mode is the kernel's failure, said when it is needed
    with pytest.raises(KernelDead, match="TUTOR_KERNEL=forking: unknown kernel mode"):
        kernel.wait_ready()
    assert kernel.status == "dead"


def test_a_multi_threaded_zygote_switches_to_spawn_mode(site) -> None:  # noqa: ANN001
    site(SECOND_THREAD)
    kernel = Kernel(batch=True, optimizers=False)  # (no warm-up: not what is tested)
    try:
        assert kernel.mode == "fork"  # until the zygote has imported torch
        info = kernel.wait_ready()
        assert kernel.mode == "spawn" and info["mode"] == "spawn"
        assert "has 2 threads after importing torch, so forking it is unsafe" in kernel.mode_reason
        passes(kernel)
        with kernel.open_session() as s:  # a fresh process of our own, not a fork
            assert s.observe("__import__('os').getppid()")["value"] == os.getpid()
    finally:
        kernel.shutdown()


def test_check_says_which_mode_and_why(site) -> None:  # noqa: ANN001
    site(SECOND_THREAD)
    out = subprocess.run([sys.executable, "-m", "tutor", "check", str(SAMPLE)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("kernel: spawn mode (the kernel process has 2 threads after importing torch, so "
            "forking it is unsafe): a pool of processes with torch loaded") in out.stdout
    assert "CUDA: not available" in out.stdout


def test_forced_fork_mode_with_an_unsafe_zygote_is_refused_clearly(
        site, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    site(SECOND_THREAD)
    monkeypatch.setenv(modes.MODE_ENV, "fork")
    kernel = Kernel()
    try:
        with pytest.raises(KernelDead, match="2 threads.*unset TUTOR_KERNEL"):
            kernel.open_session()
        assert kernel.status == "dead"
    finally:
        kernel.shutdown()


@pytest.mark.parametrize(("platform", "said"), [("darwin", "macOS"), ("win32", "Windows")])
def test_spawn_mode_where_proc_and_prctl_are_missing_and_on_windows_more(
        site, monkeypatch: pytest.MonkeyPatch, platform: str, said: str) -> None:  # noqa: ANN001
    """macOS and Windows as far as Linux can pretend.  macOS: no /proc, no prctl (so
    no subreaper, no known address-space size); lesson runs are passed a socket and
    interrupted and killed by signals.  Windows, besides: no `resource`, `fork`,
    `setsid` or `killpg`; the worker connects back over loopback with a token and is
    interrupted through its lifeline instead of a signal, and killed as a process."""
    windows = platform == "win32"
    site(WINDOWS if windows else MACOS)
    if windows:
        monkeypatch.setenv("TUTOR_KERNEL_TRANSPORT", "tcp")
        monkeypatch.setattr(spawn, "SIGNALS", False)
    monkeypatch.setattr(sys, "platform", platform)
    kernel = Kernel(batch=True, optimizers=False)  # (no warm-up: not what is tested)
    try:
        assert kernel.mode == "spawn" and kernel.mode_reason.startswith(said)
        limits = kernel.wait_ready()["limits"]
        held = None if windows else "rlimit"
        assert limits["cpu"] == held and limits["file_size"] == held
        assert limits["memory"] is None and limits["processes"] is None
        assert limits["descendants"] == (None if windows else "process group")
        passes(kernel)
        with kernel.open_session() as s:
            gone = ("[sys.modules.get('resource') is None, hasattr(os, 'fork'), "
                    "os.path.isdir('/proc/self')]")
            s.run_step("import os, sys")
            assert [i["value"] for i in s.observe(gone)["items"]] == [windows, not windows, False]
            with pytest.raises(StepTimeout, match="interrupted"):
                s.run_step("while True: pass", timeout=0.5)
            assert s.observe("6 * 7")["value"] == 42
        s = kernel.open_session()
        with pytest.raises(StepTimeout, match="ignored the interrupt, so its process was killed"):
            s.run_step("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                       "while True: pass", timeout=0.3)
        s.close()
    finally:
        kernel.shutdown()


def test_runs_start_with_the_optimizers_warm_and_the_zygote_single_threaded(
        kernel: Kernel) -> None:
    """The warm-up made an SGD and an Adam, so `torch._dynamo` (imported by an
    optimizer's first use: seconds) is already loaded when a run starts; doing so
    started no thread in the zygote, which must stay single-threaded to fork.  (The
    shared spawn-mode kernel of these tests is a batch kernel: an interactive one here.)"""
    interactive = kernel if kernel.mode == "fork" else Kernel(mode="spawn", pool_size=1)
    try:
        if interactive is not kernel:
            interactive.start()
        with interactive.open_session() as s:
            s.run_step("import sys\nbefore = set(sys.modules)\n"
                       "w = torch.nn.Parameter(torch.ones(2))\n"
                       "opt = torch.optim.Adam([w], lr=0.1)\n(w * w).sum().backward()\n"
                       "opt.step()\nopt.zero_grad()\nnew = sorted(set(sys.modules) - before)")
            assert s.observe("'torch._dynamo' in before")["value"] is True
            assert s.observe("new")["items"] == []
    finally:
        if interactive is not kernel:
            interactive.shutdown()
    if kernel.mode == "fork":
        assert len(os.listdir(f"/proc/{kernel.info['pid']}/task")) == 1


def test_spawned_workers_of_a_batch_leave_the_optimizers_to_the_runs_that_make_one() -> None:
    """`tutor check` (batch=True) with TUTOR_SPAWN_REUSE=0 (one process per run): a
    worker started for one lesson among many does not import torch._dynamo ahead; the
    few lessons that make an optimizer import it.  (A reused worker does warm them up:
    test_reuse.py.)"""
    kernel = Kernel(mode="spawn", batch=True, reuse=False)
    try:
        with kernel.open_session() as s:
            s.run_step("import sys\nwarm = 'torch._dynamo' in sys.modules\n"
                       "w = torch.nn.Parameter(torch.ones(2))\n"
                       "torch.optim.SGD([w], lr=0.5).zero_grad()")
            assert s.observe("warm")["value"] is False
            assert s.observe("'torch._dynamo' in sys.modules")["value"] is True
    finally:
        kernel.shutdown()


DYNAMO_STARTS_A_THREAD = """
import sys, threading, time
class _StartsAThread:  # as NVML would, in a torch that counts devices on this import
    def find_spec(self, name, path=None, target=None):
        if name == "torch._dynamo":
            threading.Thread(target=time.sleep, args=(10**6,), daemon=True).start()
        return None
sys.meta_path.insert(0, _StartsAThread())
"""


def test_with_cuda_an_optimizer_warm_up_that_starts_a_thread_is_left_out(
        site, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """With a CUDA device the zygote first tries the optimizer warm-up in a throwaway
    child; where that leaves a second thread, the zygote skips it and keeps forking."""
    site(DYNAMO_STARTS_A_THREAD)
    monkeypatch.setenv("TUTOR_KERNEL_FAKE_CUDA", "1")
    kernel = Kernel(mode="fork")  # forced: a multi-threaded zygote would be refused
    try:
        info = kernel.wait_ready()
        assert kernel.mode == "fork" and info["cuda"] is True
        assert len(os.listdir(f"/proc/{info['pid']}/task")) == 1
        with kernel.open_session() as s:
            assert s.observe("'torch._dynamo' in __import__('sys').modules")["value"] is False
    finally:
        kernel.shutdown()


# ---------------------------------------------------------------------- CUDA


def test_the_zygote_never_calls_torch_cuda(site, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    log = tmp_path / "cuda-calls.log"
    log.touch()
    monkeypatch.setenv("CUDA_SPY_LOG", str(log))
    site(CUDA_SPY)
    kernel = Kernel(mode="fork")
    try:
        info = kernel.wait_ready()
        with kernel.open_session() as s:
            s.run_step("x = torch.ones(2, requires_grad=True)\n(x * x).sum().backward()")
        assert kernel.mode == "fork" and info["cuda"] is False
        calls = [line.split() for line in log.read_text().splitlines()]
        assert calls, "the CUDA probe ran nowhere"
        assert all(int(pid) != info["pid"] for pid, _ in calls), calls  # only the probe child
        assert {name for _, name in calls} == {"is_available"}
    finally:
        kernel.shutdown()


CUDA_LESSON = """\
id: test/needs-cuda
title: A run that may initialise CUDA
topic: cuda
level: 1
requires: {cuda: true}
steps:
  - code: |
      import os, resource
      soft = resource.getrlimit(resource.RLIMIT_AS)[0]
      unlimited = soft == resource.RLIM_INFINITY
    predict:
      - ask: Is the address space unlimited in this run?
        expect: unlimited
        kind: bool
        answer: "yes"
"""


def test_cuda_runs_get_a_prepared_worker_without_an_address_space_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUTOR_KERNEL_FAKE_CUDA", "1")
    lesson_file = tmp_path / "needs-cuda.yaml"
    lesson_file.write_text(CUDA_LESSON)
    lesson = load_lesson(lesson_file)
    kernel = Kernel(mode="fork")
    try:
        info = kernel.wait_ready()
        assert info["cuda"] is True and "1 device (simulated)" in kernel.describe_cuda()
        result = check_lesson(kernel, lesson)  # through the engine: a CUDA session
        assert result.status == "passed", (result.reason, [p.message for p in result.prompts])
        limit = "__import__('resource').getrlimit(__import__('resource').RLIMIT_AS)[0]"
        with kernel.open_session() as cpu:  # an ordinary run keeps its limit
            assert cpu.observe(limit)["value"] > 0
            # the optimizers' warm-up, tried in a child first, was kept
            assert cpu.observe("'torch._dynamo' in __import__('sys').modules")["value"] is True
        pool = kernel.spawner.pool("cuda")
        deadline = time.monotonic() + 60
        while not pool.pids() and time.monotonic() < deadline:  # the next one is prepared
            time.sleep(0.05)
        prepared = pool.pids()
        assert len(prepared) == 1
        with kernel.open_session(cuda=True, seed=3) as run:  # a re-run takes it at once
            assert run.pid == prepared[0]
            assert run.observe("__import__('os').getppid()")["value"] == os.getpid()
            assert "--cuda" in Path(f"/proc/{run.pid}/cmdline").read_text()
            assert run.observe("torch.initial_seed()")["value"] == 3
        assert "gpu_memory" in kernel.info and "capped" in kernel.info["gpu_memory"]
    finally:
        kernel.shutdown()


def test_without_cuda_a_cuda_lesson_is_skipped_and_a_cuda_run_refused(
        kernel: Kernel, tmp_path: Path) -> None:
    lesson_file = tmp_path / "needs-cuda.yaml"
    lesson_file.write_text(CUDA_LESSON)
    result = check_lesson(kernel, load_lesson(lesson_file))
    assert result.status == "skipped"
    assert result.reason == "needs a CUDA device, and none is available"
    with pytest.raises(KernelError, match="needs a CUDA device, and this kernel has none"):
        kernel.open_session(cuda=True)


# ------------------------------------------------------------ other pythons


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with nothing installed: no torch, no tutor."""
    where = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    return where / "bin" / "python"


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_an_interpreter_without_torch_gets_a_clear_error_at_once(bare_python: Path,
                                                                  mode: str) -> None:
    kernel = Kernel(python=str(bare_python), mode=mode)
    try:
        with pytest.raises(KernelDead, match=f"{bare_python} cannot import torch.*"
                           "No module named 'torch'.*Install torch"):
            kernel.wait_ready()
        assert kernel.status == "dead"
        # not retried: one kernel process (fork), or the first pool's workers (spawn)
        started = len(kernel.restarter.deaths) if mode == "fork" else len(kernel.spawner.started())
        assert 1 <= started <= (1 if mode == "fork" else kernel.spawner.pool_size)
    finally:
        kernel.shutdown()


def test_a_missing_interpreter_is_named(tmp_path: Path) -> None:
    kernel = Kernel(python=str(tmp_path / "no-such-python"))
    with pytest.raises(KernelDead, match="no-such-python cannot be run .*--python"):
        kernel.wait_ready()


@pytest.fixture(scope="module")
def torch_only_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv that sees this environment's torch and numpy, but not tutor."""
    import importlib.util

    where = tmp_path_factory.mktemp("torch-only") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    site_packages = next((where / "lib").glob("python*/site-packages"))
    spec = importlib.util.find_spec("numpy")  # (torch is not imported in the tutor process)
    assert spec is not None and spec.origin is not None
    ours = Path(spec.origin).parent.parent
    # a .pth line adds a directory; .pth files inside it (tutor's editable hook) are not read
    (site_packages / "torch-from-elsewhere.pth").write_text(f"{ours}\n")
    python = where / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import tutor.engine"], capture_output=True,
                           cwd=where)
    assert probe.returncode != 0, "tutor must not be importable there"
    return python


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_lessons_run_on_another_interpreter_without_tutor_installed_there(
        torch_only_python: Path, mode: str) -> None:
    kernel = Kernel(python=str(torch_only_python), mode=mode)
    try:
        kernel.wait_ready()
        passes(kernel)
        with kernel.open_session() as s:
            s.run_step("import sys, importlib.util, tutor")
            assert s.observe("sys.executable")["value"] == str(torch_only_python)
            home = s.observe("tutor.__file__")["value"]
            assert not home.startswith(str(ROOT))  # a private copy of the kernel modules
            assert s.observe("importlib.util.find_spec('tutor.lesson')")["type"] == "none"
    finally:
        kernel.shutdown()


def test_tutor_python_option_and_its_errors(bare_python: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_PATH", "TUTOR_PYTHON")}

    def tutor(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True,
                              text=True, timeout=300, env=env)

    missing = tutor("--python", str(tmp_path / "nope"), "check", str(SAMPLE))
    assert missing.returncode == 2
    assert f"--python {tmp_path / 'nope'}: no such interpreter" in missing.stderr
    no_torch = tutor("--python", str(bare_python), "check", str(SAMPLE))
    assert no_torch.returncode == 2
    assert f"{bare_python} cannot import torch" in no_torch.stderr
    assert "No module named 'torch'" in no_torch.stderr
    ok = tutor("--python", sys.executable, "check", str(SAMPLE))
    assert ok.returncode == 0 and "1 passed" in ok.stdout, ok.stdout + ok.stderr


# Spawn mode differs from fork mode in how a run's process starts, not in what runs
# in it: the fork-mode check of every bundled lesson (tests/lessons/test_bundled.py)
# covers the lessons' content.  A spawned worker imports torch afresh, is seeded at
# the start of each run, puts the run's `modules:` on its own sys.path, and in a
# batch serves the next run when the last left it unchanged (tutor/kernel/reuse.py;
# lessons that start processes, write modules, compile, set environment variables
# retire it); so these lessons run in spawn mode, each kind found by what its file
# holds (a new lesson of a kind joins by itself), plus the first lesson of every pack
# (its pack's `setup:` in a worker), most of them on a worker an earlier lesson used.
# What an optimizer or torch.compile costs a spawned batch run is the same in every
# lesson that uses one: one such lesson per pack runs.  (The whole course in spawn
# mode costs about twice the CPU of this selection: 75-80 s against 11 s in fork mode,
# docs/performance.md.)
OPTIMIZER = "an optimizer (warmed up by a reused worker)"
COMPILE = "torch.compile (a fresh process compiles)"
ONE_PER_PACK = {OPTIMIZER, COMPILE}
SPAWN_KINDS = {
    "modules: (files the run imports)": r"^modules:",
    "processes, ranks, DataLoader workers": r"num_workers\s*=\s*[1-9]|multiprocessing"
                                            r"|torch\.distributed|Process\(",
    "seeds and random draws": r"manual_seed|seed\(|random\.",
    OPTIMIZER: r"torch\.optim|optim\.",
    COMPILE: r"torch\.compile",
}


def spawn_sample() -> dict[str, list[str]]:
    """The bundled lessons run in spawn mode, by the reason they are run."""
    import re

    from tutor.lesson.catalog import load_catalog

    lessons = sorted(load_catalog([ROOT / "lessons"], with_env=False).lessons,
                     key=lambda lesson: (str(lesson.file.parent), lesson.file.name))
    chosen: dict[str, list[str]] = {}
    packs = set()
    packs_with: dict[str, set[Path]] = {why: set() for why in SPAWN_KINDS}
    for lesson in lessons:
        text = lesson.file.read_text(encoding="utf-8")
        for why, pattern in SPAWN_KINDS.items():
            if re.search(pattern, text, re.MULTILINE):
                same = chosen.setdefault(why, [])
                if why not in ONE_PER_PACK or lesson.file.parent not in packs_with[why]:
                    same.append(lesson.id)
                packs_with[why].add(lesson.file.parent)
        if lesson.file.parent not in packs:
            packs.add(lesson.file.parent)
            chosen.setdefault("the first lesson of its pack", []).append(lesson.id)
    return chosen


def test_bundled_lessons_where_spawn_mode_differs_pass_check_in_forced_spawn_mode() -> None:
    """Each lesson in a spawned process, fresh or left unchanged by the lessons before
    (CUDA lessons are skipped with their reason where there is no GPU)."""
    chosen = spawn_sample()
    for why in [*SPAWN_KINDS, "the first lesson of its pack"]:
        assert chosen.get(why), f"no bundled lesson found for {why!r}: is the pattern stale?"
    ids = sorted({lesson_id for ids in chosen.values() for lesson_id in ids})
    env = {k: v for k, v in os.environ.items() if k not in ("TUTOR_PATH", "TUTOR_PYTHON")}
    env["TUTOR_KERNEL"] = "spawn"
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "-j", "2", "--json", *ids],
                          capture_output=True, text=True, timeout=1200, env=env)
    out = proc.stderr  # (the progress lines; the report is on stdout)
    assert proc.returncode == 0, out[-4000:] + proc.stdout[-2000:]
    assert "kernel: spawn mode (forced by TUTOR_KERNEL=spawn)" in out
    report = json.loads(proc.stdout)
    assert report["lessons"]["failed"] == 0 and report["lessons"]["error"] == 0
    # a batch reuses the workers that lessons leave unchanged; a compile lesson
    # retires its worker (tests/kernel/test_reuse.py has the rule's cases)
    workers = report["kernel"]["workers"]
    assert workers["reuse"] is True and workers["reused"] > 0 and workers["retired"] > 0
    assert workers["runs"] >= len(ids) - 10 and workers["workers"] < workers["runs"]
    ran = [line.split()[0] for line in out.splitlines() if " ...." in line]
    assert sorted(ran) == ids, out[-4000:]
    for line in out.splitlines():
        if " skipped (" in line:
            assert "needs a CUDA device" in line or "needs torch" in line, line
