"""Verdict latency after warm-up, over every prompt of the bundled lessons.

    .venv/bin/python benchmarks/verdict_latency.py [--rounds 5]

The learner predicts first, then the step runs, then the verdict shows.  So the
time from pressing Enter to seeing the verdict is, for a prompt:

    step round trip   client sends the step's code to its lesson run (a forked
                      process that already ran the previous steps), the run
                      executes it, observes every prompt's `expect`, and the reply
                      (JSON) is back and decoded in the tutor process;
  + judge             the tutor parses the typed answer and compares it with the
                      observation (pure Python, in the tutor process).

Reported: p50/p95 of `judge` alone, of the step round trip alone, and of
"verdict" = round trip of the prompt's step + judge of its reference answer
(every prompt counts its whole step, so multi-prompt steps count more than once:
pessimistic).  Opening a lesson run (a fork, ~5-10 ms) happens when the lesson
opens, before any prediction, so it is reported separately.  Warm-up: one full
round over all lessons is run and discarded; then `--rounds` rounds are timed.

Lessons this kernel cannot run (a CUDA lesson on a machine without a GPU, an older
torch: `requires:`) are skipped and counted, as are questions whose own `requires:` is
unmet; a lesson whose run fails with a kernel error is reported and skipped.

Targets (issue #6): verdict p50 <= 20 ms, p95 <= 60 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, pct, print_machine, verdict  # noqa: E402

from tutor.engine import LessonRun, judge_prompt  # noqa: E402
from tutor.kernel import Kernel, KernelError  # noqa: E402
from tutor.lesson import load_catalog  # noqa: E402
from tutor.lesson.requires import unmet_prompt, unmet_requirement  # noqa: E402


def runnable(kernel: Kernel, lessons: list) -> list:  # noqa: ANN001
    """The lessons this kernel can run; the others are named, with why."""
    info = kernel.wait_ready()
    out = []
    for lesson in lessons:
        why = unmet_requirement(lesson, info)
        if why:
            print(f"  skipped {lesson.id}: {why}", file=sys.stderr)
        else:
            out.append(lesson)
    return out


def one_round(kernel: Kernel, lessons: list, out: dict[str, list[float]]) -> None:  # noqa: ANN001
    for lesson in list(lessons):
        try:
            one_lesson(kernel, lesson, out)
        except KernelError as exc:  # (reported, and left out of the figures)
            print(f"  {lesson.id}: kernel error, skipped: {exc}", file=sys.stderr)
            lessons.remove(lesson)


def one_lesson(kernel: Kernel, lesson, out: dict[str, list[float]]) -> None:  # noqa: ANN001
    info = kernel.info
    started = time.perf_counter()
    with LessonRun(kernel, lesson) as run:
        run.open()
        out["open"].append(time.perf_counter() - started)
        for step in lesson.steps:
            started = time.perf_counter()
            outcome = run.run_step(step)
            trip = time.perf_counter() - started
            out["step"].append(trip)
            if outcome.failure:
                print(f"  {lesson.id} step {step.index}: {outcome.failure}", file=sys.stderr)
                break
            for prompt in step.prompts:
                if prompt.answer is None or unmet_prompt(prompt, info):
                    continue
                started = time.perf_counter()
                judge_prompt(outcome, prompt, prompt.answer)
                spent = time.perf_counter() - started
                out["judge"].append(spent)
                out["verdict"].append(trip + spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print_machine()
    catalog = load_catalog([ROOT / "lessons"], with_env=False, with_bundled=False)
    lessons = catalog.lessons
    prompts = sum(len(s.prompts) for lesson in lessons for s in lesson.steps)
    print(f"bundled lessons: {len(lessons)} lessons, {prompts} prompts")
    kernel = Kernel()
    try:
        lessons = runnable(kernel, list(lessons))
        print(f"runnable here: {len(lessons)} lessons")
        one_round(kernel, lessons, {"open": [], "step": [], "judge": [], "verdict": []})
        times: dict[str, list[float]] = {"open": [], "step": [], "judge": [], "verdict": []}
        for _ in range(args.rounds):
            one_round(kernel, lessons, times)
    finally:
        kernel.shutdown()
    for name, label in (("judge", "judge only"), ("step", "step round trip"),
                        ("verdict", "verdict (step + judge)"), ("open", "open a lesson run")):
        values = times[name]
        print(f"{label:>24}: n={len(values):5d}  p50 {pct(values, 50) * 1000:6.2f} ms  "
              f"p95 {pct(values, 95) * 1000:6.2f} ms  max {max(values) * 1000:7.2f} ms")
    p50, p95 = pct(times["verdict"], 50), pct(times["verdict"], 95)
    print(f"verdict p50 <= 20 ms: {verdict(p50 <= 0.020)}; p95 <= 60 ms: {verdict(p95 <= 0.060)}")


if __name__ == "__main__":
    main()
