"""Lesson code that starts processes: its own modules (importable by spawned
children), a DataLoader's workers, two gloo ranks, and what is left when a run ends
or a step times out.  Both kernel modes (the `kernel` fixture is parametrized)."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from tutor.kernel import Kernel, StepTimeout

# a module that imports no torch: a spawned child that unpickles `square` only loads it
HELPERS = textwrap.dedent("""\
    import time

    def square(x, q):
        q.put(x * x)

    def sleep_long():
        time.sleep(600)
""")

LOADERS = textwrap.dedent("""\
    class SquareDataset:
        def __len__(self):
            return 6

        def __getitem__(self, i):
            return i * i
""")

RANKS = textwrap.dedent("""\
    import torch
    import torch.distributed as dist

    def work(rank, world, port, q):
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}",
                                rank=rank, world_size=world)
        t = torch.tensor([float(rank + 1)])
        dist.all_reduce(t)
        q.put((rank, t.item()))
        dist.destroy_process_group()
""")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return state[state.rfind(b")") + 2:][:1] != b"Z"


def wait_until(predicate, timeout: float, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


def value(reply: dict, i: int = 0):  # noqa: ANN001, ANN201
    assert reply["error"] is None, reply["error"]
    return reply["observations"][i]


def test_a_spawned_process_runs_a_function_from_a_lesson_module(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        assert s.request("modules", 10, modules={"helpers": HELPERS})["modules"] == ["helpers"]
        reply = s.run_step(textwrap.dedent("""\
            import multiprocessing as mp
            from helpers import square
            ctx = mp.get_context("spawn")
            q = ctx.Queue()
            p = ctx.Process(target=square, args=(7, q))
            p.start()
            got = q.get(timeout=100)
            p.join()
        """), prompts=[{"kind": "number", "expect": "got"},
                       {"kind": "number", "expect": "p.exitcode"}], timeout=120)
        assert value(reply, 0)["value"] == 49
        assert value(reply, 1)["value"] == 0


def test_a_function_defined_in_the_step_cannot_be_spawned(kernel: Kernel) -> None:
    """Why modules exist: the same function written in the step's code fails in the
    spawned child would have to import `__lesson__`, so it cannot be pickled for it."""
    with kernel.open_session() as s:
        reply = s.run_step(textwrap.dedent("""\
            import multiprocessing as mp
            def square(x, q):
                q.put(x * x)
            ctx = mp.get_context("spawn")
            q = ctx.Queue()
            p = ctx.Process(target=square, args=(7, q))
            p.start()
        """), timeout=120)
        assert reply["error"]["name"] == "PicklingError"
        assert "import of module '__lesson__' failed" in reply["error"]["message"]


def test_a_dataloader_spawns_workers_over_a_dataset_from_a_lesson_module(
        kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.request("modules", 10, modules={"loaders": LOADERS})
        reply = s.run_step(textwrap.dedent("""\
            from torch.utils.data import DataLoader
            from loaders import SquareDataset
            loader = DataLoader(SquareDataset(), batch_size=2, num_workers=2,
                                multiprocessing_context="spawn")
            batches = [b.tolist() for b in loader]
        """), prompts=[{"kind": "list", "expect": "batches"}], timeout=300)
        got = [[x["value"] for x in b["items"]] for b in value(reply)["items"]]
        assert got == [[0, 1], [4, 9], [16, 25]]


def test_two_gloo_ranks_all_reduce_and_return_a_value(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.request("modules", 10, modules={"ranks": RANKS})
        reply = s.run_step(textwrap.dedent("""\
            import os, socket
            import torch.multiprocessing as mp
            from ranks import work
            os.environ["GLOO_SOCKET_IFNAME"] = "lo"
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                port = sock.getsockname()[1]
            q = mp.get_context("fork").SimpleQueue()
            mp.start_processes(work, args=(2, port, q), nprocs=2, start_method="fork")
            results = sorted(q.get() for _ in range(2))
        """), prompts=[{"kind": "list", "expect": "[v for _, v in results]"}], timeout=120)
        assert [x["value"] for x in value(reply)["items"]] == [3.0, 3.0]


def test_a_bad_module_name_is_refused_with_the_reason(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(Exception, match="'my-mod' is not a Python identifier"):
            s.request("modules", 10, modules={"my-mod": "x = 1"})
        with pytest.raises(Exception, match="'queue' is taken"):
            s.request("modules", 10, modules={"queue": "x = 1"})
        assert s.run_step("x = 2", prompts=[{"kind": "number", "expect": "x"}],
                          )["observations"][0]["value"] == 2  # (the run goes on)


def test_a_process_left_sleeping_is_killed_when_the_run_ends(kernel: Kernel) -> None:
    s = kernel.open_session()
    s.request("modules", 10, modules={"helpers": HELPERS})
    reply = s.run_step(textwrap.dedent("""\
        import multiprocessing as mp
        from helpers import sleep_long
        p = mp.get_context("spawn").Process(target=sleep_long)
        p.start()
    """), prompts=[{"kind": "number", "expect": "p.pid"}], timeout=120)
    pid = value(reply)["value"]
    assert alive(pid)
    s.close(wait=5)
    wait_until(lambda: not alive(pid), 10, f"the lesson's process {pid} to be killed")


def test_a_timeout_says_how_many_started_processes_were_still_running(
        kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout) as info:
            s.run_step(textwrap.dedent("""\
                import subprocess, sys
                kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
                        for _ in range(2)]
                kids[0].wait()
            """), timeout=3)
    assert "2 processes it started were still running" in str(info.value)
    assert "join()" in str(info.value)


def test_a_timeout_without_processes_says_nothing_of_them(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        with pytest.raises(StepTimeout) as info:
            s.run_step("import time\ntime.sleep(600)", timeout=1)
    assert "it started" not in str(info.value)


def test_a_traceback_through_a_lesson_module_names_its_file_and_line(kernel: Kernel) -> None:
    with kernel.open_session() as s:
        s.request("modules", 10, modules={"ranks": "def work(rank):\n    return 1 / rank\n"})
        reply = s.run_step("from ranks import work\nwork(0)")
        tb = reply["error"]["traceback"]
        assert 'File "ranks.py", line 2, in work' in tb and "return 1 / rank" in tb
        assert "tutor-lesson-" not in tb


def test_a_timeout_counts_the_lessons_processes_not_multiprocessings_helpers(
        kernel: Kernel) -> None:
    """A spawn context starts a resource tracker beside the worker: it is not counted."""
    with kernel.open_session() as s:
        s.request("modules", 10, modules={"helpers": HELPERS})
        with pytest.raises(StepTimeout) as info:
            s.run_step(textwrap.dedent("""\
                import multiprocessing as mp
                from helpers import sleep_long
                ctx = mp.get_context("spawn")
                q = ctx.Queue()  # (a semaphore: the resource tracker is started)
                p = ctx.Process(target=sleep_long)
                p.start()
                p.join()
            """), timeout=3)
    assert "; 1 process it started was still running (a worker or rank" in str(info.value)
