"""Display caps: a huge live value costs the tutor process what a small one does.

    .venv/bin/python benchmarks/huge_value.py

Live values (each legal, under the 32 MB channel cap before the caps of issue 12):
1,000 strings of 30,000 characters, 50 tensors of 10,000 elements, a dict with 1,000
long keys (asked as a set), and a small list for comparison.  For each:

  reply       size of the step's reply on the channel (the kernel cuts the value to
              caps.MAX_TEXT characters and caps.MAX_TOTAL_ELEMENTS tensor values);
  verdict     judge the reference answer + the display strings the verdict shows
              (engine.judge_prompt, pure Python in the tutor process);
  app         in the app (Textual, headless): Enter on the answer until the verdict
              panel is shown (median of five, beside a small value: the test pilot's
              own overhead is in both), and the UI process's peak RSS (VmHWM);
  check       bytes `tutor check` prints for the lesson.

Targets (issue 12): verdict <= 100 ms whatever the value (the judge and the display
strings; in the app, at most 100 ms more than for a small value); UI peak < 150 MB;
check output bounded (< 20 kB per lesson).
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "ui"))
from _common import print_machine, verdict  # noqa: E402

from tutor.engine import LessonRun, judge_prompt  # noqa: E402
from tutor.kernel import Kernel  # noqa: E402
from tutor.lesson import load_catalog  # noqa: E402

VALUES = {
    "strings": ("['a' * 30_000 for _ in range(1000)]", "list", "['a']"),
    "tensors": ("[torch.zeros(10_000) for _ in range(50)]", "list", "[1]"),
    "keys": ("{'b' * 30_000 + str(i): i for i in range(1000)}", "set", "['b']"),
    "small": ("[1, 2, 3]", "list", "[1, 2]"),  # (wrong, as the others: the same panel)
}
LESSON = """\
id: huge/{name}
title: {name}
topic: caps
steps:
  - code: |
      x = {code}
    predict:
      - ask: What is x?
        expect: x
        kind: {kind}
        answer: "{answer}"
"""


def write(directory: Path) -> None:
    for name, (code, kind, answer) in VALUES.items():
        (directory / name).mkdir()
        (directory / name / f"{name}.yaml").write_text(
            LESSON.format(name=name, code=code, kind=kind, answer=answer))


def vm_hwm() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def engine(kernel: Kernel, directory: Path) -> dict[str, float]:
    import json

    worst = {}
    for lesson in load_catalog([directory], with_env=False, with_bundled=False).lessons:
        with LessonRun(kernel, lesson) as run:
            outcome = run.run_step(lesson.steps[0])
            prompt = lesson.steps[0].prompts[0]
            size = len(json.dumps(outcome.observations))
            times = []
            for _ in range(5):
                started = time.perf_counter()
                judge_prompt(outcome, prompt, prompt.answer or "")
                times.append(time.perf_counter() - started)
        worst[lesson.id] = max(times)
        print(f"  {lesson.id:<14} reply {size / 1e6:6.2f} MB   verdict {max(times) * 1000:6.1f} ms")
    return worst


async def answer_once(kernel: Kernel, catalog, lesson_id: str) -> float:  # noqa: ANN001
    """Open the lesson in the app, type the reference answer: Enter -> verdict, seconds."""
    from ui_helpers import wait_for

    from tutor.progress import ProgressStore
    from tutor.ui.app import TutorApp
    from tutor.ui.messages import OpenLesson
    from tutor.ui.screens.lesson import LessonScreen

    tui = TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(Path(tempfile.mkdtemp())))
    async with tui.run_test(size=(100, 40)) as pilot:
        tui.post_message(OpenLesson(lesson_id))
        await wait_for(pilot, lambda: isinstance(tui.screen, LessonScreen), what="lesson")
        screen = tui.screen
        await wait_for(pilot, lambda: screen.mode == "asking", timeout=60, what="step")
        await pilot.press(*(screen.lesson.steps[0].prompts[0].answer or ""))
        started = time.perf_counter()
        await pilot.press("enter")
        while screen.mode != "judged":
            await pilot.pause(0.001)
        await pilot.pause()
        return time.perf_counter() - started


async def app(kernel: Kernel, directory: Path) -> dict[str, float]:
    runs: dict[str, list[float]] = {}
    catalog = load_catalog([directory], with_env=False, with_bundled=False)
    for _ in range(5):  # interleaved, the median of five: the machine's noise is not the value's
        for lesson in catalog.lessons:
            runs.setdefault(lesson.id, []).append(await answer_once(kernel, catalog, lesson.id))
    out = {lesson_id: statistics.median(times) for lesson_id, times in runs.items()}
    for lesson_id, spent in out.items():
        print(f"  {lesson_id:<14} Enter -> verdict shown {spent * 1000:6.1f} ms (median; "
              "includes the test pilot's own key handling)")
    return out


def check(directory: Path) -> int:
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", str(directory)],
                          capture_output=True)
    return len(proc.stdout) + len(proc.stderr)


def main() -> None:
    print_machine()
    directory = Path(tempfile.mkdtemp())
    write(directory)
    kernel = Kernel()
    try:
        kernel.wait_ready()
        print("engine (tutor process):")
        judged = engine(kernel, directory)
        print("app:")
        shown = asyncio.run(app(kernel, directory))
        peak = vm_hwm()
    finally:
        kernel.shutdown()
    printed = check(directory)
    worst = max(judged.values())
    small = shown["huge/small"]
    slowest = max(shown.values())
    print(f"UI process peak RSS: {peak:.0f} MB; `tutor check` printed {printed:,} bytes "
          f"for {len(VALUES)} lessons")
    print(f"verdict <= 100 ms: {verdict(worst <= 0.100)}; app: huge values within 100 ms "
          f"of a small one ({slowest * 1000:.0f} vs {small * 1000:.0f} ms): "
          f"{verdict(slowest - small <= 0.100)}; UI < 150 MB: {verdict(peak < 150)}; "
          f"check output < 20 kB per lesson: {verdict(printed < 20_000 * len(VALUES))}")


if __name__ == "__main__":
    main()
