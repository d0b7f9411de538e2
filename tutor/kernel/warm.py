"""Kernel side, any platform: what a kernel process learns and does before lesson code.

Used by the zygote (fork mode) and by spawned workers (spawn mode and CUDA runs):

* `versions()`: torch and Python versions (no CUDA call);
* `probe_cuda()`: whether CUDA is available, asked without initialising CUDA
  (`PYTORCH_NVML_BASED_CUDA_CHECK`); the zygote asks it in a throwaway child only
  (`probe_cuda_in_child`), since even the NVML check may start a thread, and a
  process with more than one thread must not fork;
* `warm_up()`: the common CPU paths touched once, so a lesson run does not pay for them
  (an optimizer's first use too: it imports `torch._dynamo`);
* `init_cuda()`: a CUDA worker initialises CUDA ahead of its run and caps the
  caching allocator.

Imports only the standard library and torch, and nothing platform-specific at
import time (runs where `resource`, `/proc` and `prctl` are missing).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import torch

WARM_SEED = 0  # the torch/numpy/random generators are left seeded with it
FAKE_CUDA_ENV = "TUTOR_KERNEL_FAKE_CUDA"  # tests: pretend one CUDA device (no CUDA call)
GPU_MEMORY = 8 << 30  # bytes of GPU memory a CUDA lesson run may hold in torch's allocator


def fake_cuda() -> bool:
    return os.environ.get(FAKE_CUDA_ENV) == "1"


def versions() -> dict[str, Any]:
    return {
        "torch": torch.__version__.split("+")[0],
        "torch_full": torch.__version__,
        "python": ".".join(map(str, sys.version_info[:3])),
        **numpy_bridge(),
    }


def numpy_bridge() -> dict[str, Any]:
    """Whether NumPy works with this torch: {"numpy": version} and, where it does not,
    "numpy_error" (a torch built against NumPy 1 with NumPy 2 installed fails
    `torch.from_numpy` with "Numpy is not available", or reads an array as a plain
    sequence: a float64 array becomes a float32 tensor), or {"numpy_missing": True}."""
    try:
        import numpy
    except ImportError:
        return {"numpy_missing": True}
    out: dict[str, Any] = {"numpy": str(getattr(numpy, "__version__", "?"))}
    try:
        array = numpy.zeros(2, dtype=numpy.float64)
        torch.from_numpy(array)
        dtype = torch.tensor(array).dtype
        if dtype != torch.float64:
            raise RuntimeError(f"torch.tensor() of a float64 array gives {dtype}")
    except Exception as exc:  # noqa: BLE001 - any failure means the bridge is off
        out["numpy_error"] = (f"NumPy {out['numpy']} with torch {torch.__version__}: "
                              f"{type(exc).__name__}: {exc}"[:500])
    return out


def probe_cuda() -> dict[str, Any]:
    """{"cuda": bool, "cuda_devices": n} without creating a CUDA context."""
    if fake_cuda():
        return {"cuda": True, "cuda_devices": 1, "cuda_fake": True}
    try:
        available = bool(torch.cuda.is_available())
        count = int(torch.cuda.device_count()) if available else 0
    except Exception as exc:  # noqa: BLE001 - a broken driver means no CUDA, with a reason
        return {"cuda": False, "cuda_devices": 0, "cuda_error": f"{type(exc).__name__}: {exc}"}
    return {"cuda": available and count > 0, "cuda_devices": count}


def in_child(work: Callable[[], dict[str, Any]], timeout: float = 30.0) -> dict[str, Any]:
    """`work()` in a forked child that exits afterwards, so that whatever it starts
    (NVML, driver threads, imports) never lives in the caller.  Returns its result,
    or {"error": why} when it failed, answered nonsense or took over `timeout` s."""
    import select

    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(r)
        os.close(w)
        return {"error": f"fork: {exc}"}
    if pid == 0:  # the throwaway child
        try:
            os.close(r)
            os.write(w, json.dumps(work()).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    try:
        while True:
            ready, _, _ = select.select([r], [], [], timeout)
            if not ready:
                os.kill(pid, 9)
                break
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    try:
        found = json.loads(data.decode())
    except ValueError:
        return {"error": "it did not answer in time" if not data else "it answered nonsense"}
    return found if isinstance(found, dict) else {"error": "it answered nonsense"}


def probe_cuda_in_child(timeout: float = 30.0) -> dict[str, Any]:
    """`probe_cuda()` in a throwaway child (`in_child`): even the NVML check may start
    a thread, which must never live in the zygote."""
    if fake_cuda():
        return probe_cuda()
    found = in_child(probe_cuda, timeout)
    if "error" in found:
        return {"cuda": False, "cuda_devices": 0, "cuda_error": f"the CUDA probe: {found['error']}"}
    return found


def warm_up(*, count_devices: bool = True, optimizers: bool = True) -> None:
    """Touch the common CPU paths once so a run does not pay for them.

    `count_devices=False` where a CUDA device may be present and the process must
    stay single-threaded to fork (the zygote): then nothing that may count devices
    runs here (the autograd engine's first backward; an optimizer's step, which asks
    `torch.cuda.is_available()` in older torch), since that starts driver (and
    device) threads.  `optimizers=False` leaves out `warm_optimizers` (see there).
    """
    torch.set_num_threads(1)
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    if count_devices:
        y.backward()
    torch.nn.Linear(2, 2)(torch.ones(1, 2)).sum()
    repr(x)
    x.detach().tolist()
    if optimizers:
        warm_optimizers(step=count_devices)
    # what a run uses on every request (imported once here rather than in every run:
    # a lazy import of numpy.random alone costs a run 8 ms)
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


def warm_optimizers(*, step: bool) -> None:
    """Make (and, with `step`, step) an SGD and an Adam once.

    An optimizer's methods are wrapped in `torch._disable_dynamo`, which imports
    `torch._dynamo` (about 800 modules, sympy among them) the first time one is
    called: 2-5 s that every lesson run making an optimizer would pay again (a forked
    run's imports die with it).  The import starts no thread in current torch, so
    the zygote stays safe to fork (`tests/kernel/test_platform.py` checks both); with
    a CUDA device, some torch versions count devices while importing it, so there the
    zygote tries it in a throwaway child first (zygote.py).
    """
    w = torch.nn.Parameter(torch.zeros(2))
    for optimizer in (torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([w])):
        optimizer.zero_grad()
        if step:
            w.grad = torch.ones(2)
            optimizer.step()


def seed_all(seed: int, *, warm: bool) -> None:
    """Seed `random`, torch (every device) and numpy for a run.  `warm`: the
    generators are still as `warm_up` left them, so WARM_SEED needs no reseeding."""
    import random

    random.seed(seed)  # (always: CPython reseeds `random` from urandom after a fork)
    if warm and seed == WARM_SEED:
        return
    torch.manual_seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed % 2**32)


def init_cuda(gpu_memory: int = GPU_MEMORY) -> dict[str, Any]:
    """Initialise CUDA now (context, allocator, a first kernel), leave no memory
    allocated or cached behind, and cap torch's caching allocator at `gpu_memory`
    bytes per device.  Returns what a learner may want to know (device names)."""
    if fake_cuda():
        return {"cuda_devices": 1, "cuda_names": ["fake CUDA device"],
                "gpu_memory": f"torch's caching allocator capped at {gpu_memory} bytes (fake)"}
    torch.cuda.init()
    names = []
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        names.append(props.name)
        fraction = min(1.0, gpu_memory / props.total_memory)
        torch.cuda.set_per_process_memory_fraction(fraction, index)
    x = torch.ones(4, device="cuda")
    (x + 1).sum().item()  # a context, a launch, a copy back: CUDA is warm
    del x
    torch.cuda.synchronize()
    torch.cuda.empty_cache()  # a lesson about the allocator starts from nothing cached
    torch.cuda.reset_peak_memory_stats()
    torch.cuda.reset_accumulated_memory_stats()
    return {"cuda_devices": len(names), "cuda_names": names,
            "gpu_memory": f"torch's caching allocator capped at {gpu_memory} bytes per device"}
