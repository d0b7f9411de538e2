"""Kernel side: may a spawned batch worker take another lesson run? (stdlib + torch)

A spawned worker imports torch (a second or more of CPU) before it serves a run.
In a batch (`tutor check`, the pytest plugin) a worker may serve several runs one
after the other, but only when it is observed back in the state it was in when it
started its first run: nothing is put back ("restoring is a guessing game"), a
worker found changed is retired (it exits, and the pool starts a fresh one).

`Fingerprint.take()` records what a lesson could change that would reach the next
run: torch's global switches (default dtype and device, grad and inference mode,
deterministic algorithms, anomaly mode, threads, autocast, matmul precision, the
backends' flags, print options, mode stacks, saved-tensor hooks, global module
hooks, custom operator registrations, flush-denormal), NumPy's print and error
options, `warnings.filters`, `sys.path` and the import hooks, the set of modules
(and which object each name is), the ids in every torch module's namespace
(monkeypatching), `os.environ`, the working directory, umask, signal handlers, the
signal mask and timers, threads, child processes, open file descriptors, rlimits,
the recursion limit, stdio objects, gc settings, and the process's size.
`differences(before, after)` names what changed.

`Watch` is an audit hook (`sys.addaudithook`, which lesson code cannot remove) that
notes, while a run's code runs, what no fingerprint can see afterwards: a process
started (fork, exec, spawn, subprocess, os.system), a C library loaded (ctypes), an
attribute of a class that existed before the run set or deleted (monkeypatching
`torch.Tensor`).  A run that did any of these retires its worker.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import warnings
from typing import Any

import torch

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

GROWTH_SLACK = 256 << 20  # bytes the process may have grown since its first run
# (the address-space limit of a reused worker's run is its size at the first run plus
# the allowance: a worker that grew by more is retired, so a run keeps nearly all of it)

_PROCESS_EVENTS = {
    "os.fork": "started a process (os.fork)",
    "os.forkpty": "started a process (os.forkpty)",
    "os.posix_spawn": "started a process (os.posix_spawn)",
    "os.spawn": "started a process (os.spawn*)",
    "os.exec": "replaced its process (os.exec*)",
    "os.system": "started a process (os.system)",
    "subprocess.Popen": "started a process (subprocess)",
    "os.startfile": "started a process (os.startfile)",
    "ctypes.dlopen": "loaded a C library (ctypes)",
    "ctypes.dlsym": "called into C (ctypes)",
}
_PATCH_EVENTS = ("object.__setattr__", "object.__delattr__")
_CLASS = "class "

# zero-argument getters of torch's global switches (read where they exist)
_TORCH_GETTERS = (
    "_get_backcompat_broadcast_warn", "_get_backcompat_keepdim_warn",
    "_get_blas_preferred_backend", "_get_cpu_allow_fp16_reduced_precision_reduction",
    "_get_cublas_allow_bf16_reduced_precision_reduction",
    "_get_cublas_allow_fp16_accumulation", "_get_cublas_allow_fp16_reduced_precision_reduction",
    "_get_cublas_allow_tf32", "_get_cudnn_enabled", "_get_cudnn_benchmark",
    "_get_cudnn_deterministic", "_get_cudnn_allow_tf32", "_get_default_device",
    "_get_deterministic_algorithms", "_get_deterministic_algorithms_warn_only",
    "_get_deterministic_fill_uninitialized_memory", "_get_flash_sdp_enabled",
    "_get_float32_matmul_precision", "_get_linalg_preferred_backend", "_get_math_sdp_enabled",
    "_get_mem_efficient_sdp_enabled", "_get_mkldnn_enabled", "_get_mkldnn_deterministic",
    "_get_nnpack_enabled", "_get_onednn_allow_tf32", "_get_qengine", "_get_sdp_priority_order",
    "_get_warnAlways", "_get_autograd_fallback_mode", "_get_graph_executor_optimize",
    "_get_tracing_state", "_is_torch_function_mode_enabled", "_len_torch_function_stack",
    "_len_torch_dispatch_stack", "_is_multithreading_enabled", "_is_view_replay_enabled",
    "is_grad_enabled", "_is_fwd_grad_enabled",
)
# registries a lesson fills that a fresh process would not have (their sizes)
_REGISTRIES = (
    ("torch.nn.modules.module", ("_global_buffer_registration_hooks",
                                 "_global_module_registration_hooks",
                                 "_global_parameter_registration_hooks",
                                 "_global_backward_pre_hooks", "_global_backward_hooks",
                                 "_global_forward_pre_hooks", "_global_forward_hooks",
                                 "_global_forward_hooks_always_called",
                                 "_global_forward_hooks_with_kwargs")),
    ("torch.library", ("_impls", "_defs")),
    ("torch._library.custom_ops", ("OPDEFS",)),
    ("torch._library.simple_registry", ("singleton",)),
    ("torch.serialization", ("_package_registry",)),
    ("torch._weights_only_unpickler", ("_marked_safe_globals_set",)),
    ("copyreg", ("dispatch_table", "_extension_registry")),
    # compiled state (torch.compile: frames traced, graphs made)
    ("torch._dynamo.utils", ("counters", "compilation_time_metrics")),
    ("torch._dynamo.convert_frame", ("input_codes", "output_codes")),
)


def warm_up() -> None:
    """What torch initialises lazily at a first use that lessons make, done before the
    fingerprint, so that such a lesson does not retire its worker: `vmap` registers
    its batching rules (torch.library, `torch._functorch.predispatch`), `jvp` imports
    its decompositions.  (On the bundled course: 5 fewer retirements.)"""
    try:
        ones = torch.ones(2)
        torch.func.vmap(torch.sin)(ones)
        torch.func.jvp(torch.sin, (ones,), (ones,))
    except Exception:  # noqa: BLE001, S110 - an older torch: its lessons may retire workers
        pass


def _read(fn: Any, *args: Any) -> str:
    try:
        return repr(fn(*args))
    except Exception as exc:  # noqa: BLE001 - what it raised is a state like any other
        return f"!{type(exc).__name__}"


def _torch_state() -> dict[str, str]:
    c = torch._C
    out = {name: _read(getattr(c, name)) for name in _TORCH_GETTERS if hasattr(c, name)}
    out["default_dtype"] = repr(torch.get_default_dtype())
    out["inference_mode"] = _read(torch.is_inference_mode_enabled)
    out["anomaly"] = _read(lambda: (torch.is_anomaly_enabled(),
                                    torch.is_anomaly_check_nan_enabled()))
    out["threads"] = _read(lambda: (torch.get_num_threads(), torch.get_num_interop_threads()))
    out["autocast"] = _read(lambda: [(torch.is_autocast_enabled(d), torch.get_autocast_dtype(d))
                                     for d in ("cpu", "cuda")] + [
                                        torch.is_autocast_cache_enabled()])
    out["deterministic_debug_mode"] = _read(torch.get_deterministic_debug_mode)
    out["print_options"] = repr(sorted(vars(torch._tensor_str.PRINT_OPTS).items()))
    out["saved_tensor_hooks"] = _read(lambda: (
        torch._C._autograd._top_saved_tensors_default_hooks(False) is None,
        getattr(torch._C._autograd, "_saved_tensors_hooks_is_enabled", bool)()))
    backends = torch.backends
    out["fp32_precision"] = _read(lambda: [
        getattr(b, "fp32_precision", None) for b in (
            backends, getattr(backends, "mkldnn", None), getattr(backends, "cudnn", None),
            getattr(getattr(backends, "cuda", None), "matmul", None))])
    out["opt_einsum"] = _read(lambda: (backends.opt_einsum.enabled, backends.opt_einsum.strategy))
    # set_flush_denormal has no getter: a denormal that survives a multiplication
    out["flush_denormal"] = _read(lambda: (torch.tensor([1e-310], dtype=torch.float64)
                                           * 1.0).item() == 0.0)
    return out


def _registries() -> dict[str, str]:
    out = {}
    for module_name, names in _REGISTRIES:
        module = sys.modules.get(module_name)
        for name in names:
            value = getattr(module, name, None) if module is not None else None
            out[f"{module_name}.{name}"] = _read(len, value) if value is not None else "-"
    counters = getattr(sys.modules.get("torch._dynamo.utils"), "counters", None)
    if counters is not None:
        out["dynamo counters"] = _read(lambda: sorted(
            (k, sum(v.values())) for k, v in counters.items()))
    eval_frame = getattr(getattr(torch._C, "_dynamo", None), "eval_frame", None)
    if eval_frame is not None:
        out["dynamo callback"] = _read(lambda: eval_frame.get_eval_frame_callback() is None)
    ops = getattr(torch, "ops", None)
    out["torch.ops"] = _read(lambda: sorted(getattr(ops, "_dir", ())))
    return out


def _namespaces() -> dict[str, tuple[tuple[str, ...], tuple[Any, ...]]]:
    """For each torch module, its names and the objects they hold (a name replaced:
    `torch.add = ...`, `F.relu = ...`), and for a few modules lessons could patch.
    (Objects, compared by identity: `id()` is an audited call, and each one would run
    the audit hook.)"""
    out = {}
    for name, module in list(sys.modules.items()):
        if not (name == "torch" or name.startswith("torch.")
                or name in ("builtins", "math", "random", "operator", "functools", "os",
                            "signal", "json", "time", "threading", "warnings")):
            continue
        space = getattr(module, "__dict__", None)
        if isinstance(space, dict):
            items = list(space.items())
            out[name] = (tuple(k for k, _ in items), tuple(v for _, v in items))
    return out


def _same(a: tuple[tuple[str, ...], tuple[Any, ...]],
          b: tuple[tuple[str, ...], tuple[Any, ...]]) -> bool:
    return a[0] == b[0] and all(x is y for x, y in zip(a[1], b[1], strict=True))


def _numpy_state() -> dict[str, str]:
    np = sys.modules.get("numpy")
    if np is None:
        return {}
    return {"numpy.printoptions": _read(lambda: sorted(np.get_printoptions().items())),
            "numpy.err": _read(lambda: sorted(np.geterr().items())),
            "numpy.bufsize": _read(np.getbufsize)}


def _signals() -> dict[str, Any]:
    out = {}
    for sig in sorted(getattr(signal, "valid_signals", lambda: ())()):
        try:
            handler = signal.getsignal(sig)
        except (ValueError, OSError):
            continue
        out[f"signal {int(sig)}"] = repr(handler) if handler in (
            signal.SIG_DFL, signal.SIG_IGN, None) else _Same(handler)
    if hasattr(signal, "pthread_sigmask"):
        out["signal mask"] = _read(lambda: sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
    if hasattr(signal, "getitimer"):
        out["timers"] = _read(lambda: [signal.getitimer(t) for t in (
            signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)])
    return out


def _listdir(path: str) -> list[str] | None:
    try:
        return sorted(os.listdir(path), key=lambda n: (len(n), n))
    except OSError:
        return None


def _children() -> list[str] | None:
    tasks = _listdir("/proc/self/task")
    if tasks is None:
        return None
    found: list[str] = []
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                found += f.read().split()
        except OSError:
            pass
    return found


def _rlimits() -> dict[str, str]:
    """Every rlimit a run does not set afresh (soft and hard), and the hard limits of
    those it does (CPU time, address space, processes: their soft limits are set per
    run or per request)."""
    if resource is None:
        return {}
    out = {}
    per_run = {getattr(resource, n, None) for n in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NPROC")}
    for name in dir(resource):
        if name.startswith("RLIMIT_"):
            which = getattr(resource, name)
            got = _read(resource.getrlimit, which)
            if which in per_run and got.startswith("("):
                got = got.split(",")[1]  # the hard limit only
            out[name] = got
    return out


def _umask() -> str:
    mask = os.umask(0o022)
    os.umask(mask)
    return oct(mask)


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return 0


class _Same:
    """Objects compared by identity (`==` of two `_Same` is `is`, item by item)."""

    __slots__ = ("items",)

    def __init__(self, *items: Any):
        self.items = items

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and len(self.items) == len(other.items) and all(
            a is b for a, b in zip(self.items, other.items, strict=True))

    __hash__ = None  # type: ignore[assignment]


def take() -> dict[str, Any]:
    """What the process is now (comparable with `differences`)."""
    modules = dict(sys.modules)
    state: dict[str, Any] = {
        **_torch_state(), **_registries(), **_numpy_state(), **_signals(), **_rlimits(),
        "modules": modules,
        "namespaces": _namespaces(),
        "warnings.filters": repr(warnings.filters),
        "warnings hooks": _Same(warnings.showwarning, warnings.formatwarning),
        "sys.path": list(sys.path),
        "sys.meta_path": _Same(*sys.meta_path),
        "sys.path_hooks": _Same(*sys.path_hooks),
        "sys hooks": _Same(*(getattr(sys, n, None) for n in (
            "excepthook", "displayhook", "unraisablehook", "breakpointhook"))),
        "threading hooks": _Same(*(getattr(threading, n, None) for n in (
            "excepthook", "_trace_hook", "_profile_hook"))),
        "trace": (sys.gettrace() is None, sys.getprofile() is None),
        "recursion limit": sys.getrecursionlimit(),
        "switch interval": sys.getswitchinterval(),
        "int digits": _read(getattr(sys, "get_int_max_str_digits", lambda: None)),
        "stdio": _Same(sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__, sys.__stdin__),
        "stdin": (type(sys.stdin).__name__, getattr(sys.stdin, "name", None),
                  getattr(sys.stdin, "closed", None)),
        "environ": dict(os.environ),
        "cwd": _read(os.getcwd),
        "umask": _umask(),
        "gc": (gc.isenabled(), gc.get_threshold(), gc.get_debug(), len(gc.callbacks)),
        "threads": sorted(t.ident or 0 for t in threading.enumerate()),
        "tasks": _listdir("/proc/self/task"),
        "children": _children(),
        "fds": _listdir("/proc/self/fd"),
        "atexit": _read(lambda: sys.modules["atexit"]._ncallbacks()),
        "size": _vm_size(),
    }
    for module_name, what in (("socket", "getdefaulttimeout"), ("locale", "setlocale"),
                              ("decimal", "getcontext"), ("faulthandler", "is_enabled")):
        module = sys.modules.get(module_name)
        if module is not None:
            args = (0, None) if what == "setlocale" else ()  # (LC_CTYPE, None: a query)
            state[f"{module_name}.{what}"] = _read(getattr(module, what), *args)
    return state


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed from `before` to `after`, in words ([]: nothing that is watched)."""
    found = []
    for key in sorted(set(before) | set(after)):
        old: Any = before.get(key)
        new: Any = after.get(key)
        if key == "size":
            if isinstance(old, int) and isinstance(new, int) and new - old > GROWTH_SLACK:
                found.append(f"the process grew by {(new - old) >> 20} MB")
        elif key == "modules":
            added = sorted(set(new) - set(old))
            gone = sorted(set(old) - set(new))
            swapped = sorted(n for n in set(old) & set(new) if old[n] is not new[n])
            if added:
                found.append(f"imported {len(added)} new modules ({', '.join(added[:3])}"
                             + (", …" if len(added) > 3 else "") + ")")
            if gone or swapped:
                found.append("removed or replaced modules in sys.modules ("
                             + ", ".join((gone + swapped)[:3]) + ")")
        elif key == "namespaces":
            patched = sorted(n for n in set(old) & set(new) if not _same(old[n], new[n]))
            if patched:
                found.append("changed names in " + ", ".join(patched[:3])
                             + (", …" if len(patched) > 3 else ""))
        elif key == "environ":
            names = sorted(n for n in set(old) | set(new) if old.get(n) != new.get(n))
            found.append("changed os.environ (" + ", ".join(names[:3]) + ")") if names else None
        elif key == "sys.path" and old != new:
            added = [p for p in new if p not in old]
            gone = [p for p in old if p not in new]
            found.append("changed sys.path" + (f" (added {added[:2]})" if added else "")
                         + (f" (removed {gone[:2]})" if gone else ""))
        elif old != new:
            found.append(f"changed {key}")
    return found


class Watch:
    """An audit hook that notes, while `active`, what a run did that no later look
    can see (a process started, a library loaded, a class patched)."""

    def __init__(self) -> None:
        self.active = False
        self.seen: dict[str, None] = {}
        self._modules: set[str] = set()
        sys.addaudithook(self._hook)

    def arm(self) -> None:
        self.seen = {}
        self._modules = set(sys.modules)  # (classes of modules the run imports are new)
        self.active = True

    def disarm(self) -> list[str]:
        """Stop watching; what was seen, in words."""
        self.active = False
        classes = [w for w in self.seen if w.startswith(_CLASS)]
        found = [w for w in self.seen if not w.startswith(_CLASS)]
        if classes:
            names = ", ".join(w[len(_CLASS):] for w in classes[:3])
            found.append(f"changed {len(classes)} classes that existed before it ({names}"
                         + (", …)" if len(classes) > 3 else ")"))
        return found

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.active:
            return
        what = _PROCESS_EVENTS.get(event)
        if what is not None:
            self.seen[what] = None
        elif event in _PATCH_EVENTS and args:
            target = args[0]
            module = getattr(target, "__module__", None) if isinstance(target, type) else None
            if isinstance(target, type) and module in self._modules:
                name = getattr(target, "__qualname__", "?")
                self.seen[f"{_CLASS}{module}.{name}"] = None
