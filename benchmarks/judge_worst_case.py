"""The judge's worst case: the slowest (answer, live value) pairs we can build.

    .venv/bin/python benchmarks/judge_worst_case.py [--top 15] [--repeat 5]

Every kind is judged against hostile answers of up to 100,000 characters (long
lists of quoted strings, numbers, names, deep brackets, long sentences, long
arithmetic, pasted output) and against the largest live values the kernel sends
(lists of 1,000 numbers or names, a 1,000-key state_dict, a 10,000-element
tensor, 300 tensors, 100,000 characters of output).  Each pair is judged
`--repeat` times, cold (the judge's caches cleared); its time is the best of them
(CPU time of this process, so that other processes on a busy machine do not
count; wall time is printed beside it).

Target (issue #11): every answer judged in <= 50 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_machine, verdict  # noqa: E402

from tutor.judge import JudgeSpec  # noqa: E402
from tutor.judge.api import clear_caches, judge_strict  # noqa: E402
from tutor.kinds import KINDS  # noqa: E402

NONE: dict[str, Any] = {"type": "none"}


def _s(v: str) -> dict[str, Any]:
    return {"type": "str", "value": v}


def lives() -> dict[str, dict[str, Any]]:
    floats = [i / 7 for i in range(1000)]
    return {
        "1,000 numbers": {"type": "list", "items": [{"type": "float", "value": v}
                                                    for v in floats]},
        "1,000 equal numbers": {"type": "list", "items": [{"type": "int", "value": 0}] * 1000},
        "1,000 names": {"type": "list", "items": [_s(f"layer{i}.weight") for i in range(1000)]},
        "1,000-key state_dict": {"type": "dict", "items": [[_s(f"blocks.{i}.weight"), NONE]
                                                           for i in range(1000)]},
        "1,000 digit names": {"type": "list", "items": [_s(str(i)) for i in range(1000)]},
        "300 tensors": {"type": "list", "items": [
            {"type": "tensor", "dtype": "float32", "shape": [3], "values": [1.0, 2.0, i / 3]}
            for i in range(300)]},
        "1,000 shapes": {"type": "list", "items": [{"type": "size", "value": [i, 3]}
                                                   for i in range(1000)]},
        "1,000 lists of 19": {"type": "list", "items": [
            {"type": "list", "items": [{"type": "int", "value": j} for j in range(19)]}
            for _ in range(1000)]},
        "10 tensors of 10,000": {"type": "list", "items": [
            {"type": "tensor", "dtype": "float32", "shape": [10_000],
             "values": [i / 3 for i in range(10_000)]} for _ in range(10)]},
        "10,000-element tensor": {"type": "tensor", "dtype": "float32", "shape": [10_000],
                                  "values": [i / 3 for i in range(10_000)]},
        "100x100 zeros": {"type": "tensor", "dtype": "float32", "shape": [100, 100],
                          "values": [[0.0] * 100 for _ in range(100)]},
        "truncated tensor": {"type": "tensor", "dtype": "float32", "shape": [1000, 1000],
                             "truncated": True},
        "100,000 characters printed": _s("tensor([1.])\n" * 7692),
        "a float": {"type": "float", "value": 0.6000000238418579},
        "a bool": {"type": "bool", "value": True},
        "an exception": {"type": "exception", "name": "RuntimeError", "message": "x" * 2000,
                         "mro": ["RuntimeError", "Exception", "BaseException"]},
        "a grad_fn": {"type": "grad_fn", "name": "MulBackward0"},
        "a class": {"type": "object", "class": "type", "repr": "<class 'torch.Size'>"},
        "None": NONE,
    }


def answers() -> dict[str, str]:
    n = 100_000
    return {
        "1,000 quoted numbers": "[" + ", ".join(f"'{i / 7}'" for i in range(1000)) + "]",
        "2,500 quoted strings": ", ".join(f"'s{i}'" for i in range(2500)),
        "2,500 numbers": ", ".join(f"{i / 7:.4f}" for i in range(2500)),
        "2,500 zeros": ", ".join("0" for _ in range(2500)),
        "2,500 names, wrong case": ", ".join(f"Layer{i}.Weight" for i in range(2500)),
        "2,500 digit names": " ".join(str(i) for i in range(2500)),
        "1,000 shapes": "[" + ", ".join(f"({i}, 3)" for i in range(1000)) + "]",
        "300 tensors": "[" + ", ".join("tensor([1., 2., 0.])" for _ in range(300)) + "]",
        "a 2,500-element tensor": "tensor([" + ", ".join("0.5" for _ in range(2499)) + "])",
        "arithmetic, 800 terms": "+".join("ln(2)*3/4" for _ in range(800)),
        "a power tower": "**".join("2" for _ in range(600)),
        "100,000 characters of quotes": "'" + "a" * (n - 2) + "'",
        "100,000 backslashes": "'" + "\\" * (n - 2) + "'",
        "100,000 letters": "a" * n,
        "100,000 spaces then 1": " " * (n - 1) + "1",
        "100,000 digits": "1" * n,
        "deep brackets": "[" * 32 + "1" + "]" * 32 + ", 1" * 2000,
        "100,000 opening brackets": "(" * n,
        "100,000 commas": "," * n,
        "a long sentence": ("they don't share memory, b is a copy; " * 2700)[:n],
        "long negations": ("not a copy, " * 9000)[:n],
        "a pasted traceback": ("Traceback (most recent call last):\n  File x, line 1\n" * 1900
                               + "RuntimeError: boom")[-n:],
        "100,000 characters of output": "tensor([1.])\n" * 7692,
        "output lines with commas": ("tensor([1.]), " * 7142)[:n],
        "unicode that grows": "\ufdfa" * 5000,
        "dotted name chain": "a." * 49_999 + "b",
        "digit-name chain": "0.weight." * 11_111,
        "many reprs": " ".join("<MulBackward0 object at 0x7f...>" for _ in range(3000))[:n],
    }


def cases() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    all_lives, all_answers = lives(), answers()
    for kind in KINDS:
        for answer_name, text in all_answers.items():
            for live_name, live in all_lives.items():
                yield kind, answer_name, live_name, live | {}
                _ = text


def timed(spec: JudgeSpec, text: str, live: dict[str, Any], repeat: int) -> tuple[float, float]:
    cpu, wall = float("inf"), float("inf")
    for _ in range(repeat):
        clear_caches()  # cold, every time
        c, w = time.process_time(), time.perf_counter()
        judge_strict(spec, text, live)
        cpu, wall = min(cpu, time.process_time() - c), min(wall, time.perf_counter() - w)
    return cpu, wall


def calibration() -> float:
    """CPU seconds of a plain 1,000,000-step Python loop: how fast this machine
    runs Python right now (about 0.03 s on an unloaded modern core)."""
    start = time.process_time()
    total = 0
    for i in range(1_000_000):
        total += i
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print_machine()
    before = calibration()
    all_answers = answers()
    results = []
    for kind, answer_name, live_name, live in cases():
        spec = JudgeSpec(kind, choices=("a", "b", "c") if kind == "choice" else ())
        cpu, wall = timed(spec, all_answers[answer_name], live, args.repeat)
        results.append((cpu, wall, kind, answer_name, live_name))
    results.sort(reverse=True)
    print(f"{len(results)} (kind, answer, live value) cases, best of {args.repeat} each")
    print(f"{'cpu ms':>8} {'wall ms':>8}  kind          answer  vs  live value")
    for cpu, wall, kind, answer_name, live_name in results[: args.top]:
        print(f"{cpu * 1000:8.2f} {wall * 1000:8.2f}  {kind:12}  {answer_name}  vs  {live_name}")
    worst = results[0][0]
    loop = min(before, calibration())
    print(f"calibration: a 1,000,000-step Python loop took {loop * 1000:.0f} ms of CPU "
          "(about 30 ms on an unloaded modern core)")
    print(f"worst case: {worst * 1000:.1f} ms CPU; <= 50 ms: {verdict(worst <= 0.050)}")


if __name__ == "__main__":
    main()
