"""A two-rank gloo all_reduce run from a lesson step, in each kernel mode.

    .venv/bin/python benchmarks/ranks.py [--runs 3] [--modes fork,spawn] [--methods fork,spawn]

For each kernel mode and each multiprocessing start method the ranks are started
with (`fork`: Linux's default; `spawn`: macOS's and Windows', a fresh Python per rank
that imports torch first): the step's wall time, from sending it to its reply, of a
step that writes nothing and runs the docs' recipe (docs/lesson-format.md, "Running a
function on two ranks"): a free port, `GLOO_SOCKET_IFNAME=lo`, a `tcp://127.0.0.1`
rendezvous, `all_reduce`, the results collected in the run.  Also the wall time of
`python -c "import torch"` here, which is most of a spawned rank's start.
"""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import each_mode, latency_line, modes_parser, torch_import_seconds  # noqa: E402

from tutor.kernel import Kernel  # noqa: E402

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

STEP = textwrap.dedent("""\
    import os, socket
    import torch.multiprocessing as mp
    from ranks import work
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    q = mp.get_context(METHOD).SimpleQueue()
    ctx = mp.start_processes(work, args=(2, port, q), nprocs=2, join=False,
                             start_method=METHOD)
    results = sorted(q.get() for _ in range(2))
    ctx.join()
""")


def measure(mode: str, args) -> None:  # noqa: ANN001
    kernel = Kernel(mode=mode)
    kernel.start()
    kernel.wait_ready()
    try:
        print(f"{mode} mode:")
        for method in args.methods.split(","):
            times = []
            for _ in range(args.runs):
                with kernel.open_session() as s:
                    s.request("modules", 30, modules={"ranks": RANKS})
                    started = time.perf_counter()
                    reply = s.run_step(STEP.replace("METHOD", repr(method)), timeout=600,
                                       prompts=[{"kind": "list", "expect": "results"}])
                    times.append(time.perf_counter() - started)
                    if reply["error"]:
                        print(f"  {method}: failed: {reply['error']['message']}")
                        break
                time.sleep(args.pause)
            if times:
                print(latency_line(f"start {method}", times))
    finally:
        kernel.shutdown()


def main() -> None:
    parser = modes_parser(__doc__, runs=3, pause_help="seconds between runs")
    parser.add_argument("--methods", default="fork,spawn",
                        help="start methods of the ranks, comma-separated")
    args = parser.parse_args()
    each_mode(args, measure)
    print(f"python -c 'import torch': {torch_import_seconds(1):.1f} s")


if __name__ == "__main__":
    main()
