"""The app's catalog load, in process: imports plus `load_catalog`, without and with the
catalog index, at the bundled count and at 500 lessons.

    .venv/bin/python benchmarks/catalog_load.py [--runs 5] [--lessons 0 500]

Each figure is a fresh `python` process that imports what the app's lesson worker
imports and loads the catalog as the app does (bundled lessons, TUTOR_PATH, installed
packs), timed from before the imports to the catalog in hand: wall time and CPU time
of the process (CPU time is the steadier figure on a shared machine).  `cold`: an
empty cache directory (every file read and validated, and the index written);
`warm`: the index of the previous run in place.  The lessons beyond the bundled ones
are copies of the bundled files under new ids, on TUTOR_PATH (as in first_paint.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, median, print_machine  # noqa: E402
from first_paint import generate  # noqa: E402

PROBE = """
import json, sys, time
wall, cpu = time.perf_counter(), time.process_time()
from tutor.lesson.catalog import load_catalog
from tutor.lesson.index import LessonIndex
catalog = load_catalog([], with_bundled=True, index=LessonIndex.open())
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "lessons": len(catalog.lessons), "from_index": len(catalog.from_index),
                  "judge": "tutor.judge.api" in sys.modules, "yaml": "yaml" in sys.modules}))
"""


def probe(env: dict[str, str]) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lessons", type=int, nargs="*", default=[0, 500])
    args = parser.parse_args()
    print_machine()
    bundled = sum(1 for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml")
    for size in args.lessons:
        with tempfile.TemporaryDirectory(prefix="tutor-bench-") as tmp:
            extra = Path(tmp, "lessons")
            added = generate(extra, size - bundled) if size > bundled else 0
            cache = Path(tmp, "cache")
            env = dict(os.environ, TUTOR_PATH=str(extra) if added else "",
                       XDG_CACHE_HOME=str(cache))
            cold, warm = [], []
            for _ in range(args.runs):
                shutil.rmtree(cache, ignore_errors=True)
                cold.append(probe(env))
                warm.append(probe(env))
            for name, runs in (("cold", cold), ("warm", warm)):
                last = runs[-1]
                print(f"{last['lessons']} lessons, {name} index: wall median "
                      f"{median([r['wall'] for r in runs]) * 1000:.0f} ms, CPU median "
                      f"{median([r['cpu'] for r in runs]) * 1000:.0f} ms over {len(runs)} "
                      f"runs; {last['from_index']} from the index; loader/judge imported: "
                      f"{'yes' if last['yaml'] or last['judge'] else 'no'}")


if __name__ == "__main__":
    main()
