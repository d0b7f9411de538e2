"""`tutor check --repeat N`: flag prompts whose live value changes between runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.authoring.repeat import check_repeated, merge_runs
from tutor.cli import main
from tutor.engine import LessonCheck, PromptCheck
from tutor.lesson import load_lesson

LESSON = """\
id: t/random
title: R
topic: t
steps:
  - code: |
      import os
      r = int.from_bytes(os.urandom(4), "big")
      g = torch.Generator().manual_seed(3)
      s = torch.rand(2, generator=g)
    predict:
      - ask: r?
        kind: number
        expect: r
        answer: "0"
      - ask: s?
        kind: tensor
        expect: s
        answer: {s}
      - ask: An object's repr has an address, which is ignored
        kind: text
        expect: object()
        answer: object
"""


def prompt(live: dict, passed: bool = True, expected: str = "x") -> PromptCheck:
    return PromptCheck("l", "f.yaml", 0, 0, 7, passed, "correct", "a", expected, "", live=live)


def test_merge_runs_flags_a_changed_value_and_keeps_stable_ones():
    one = LessonCheck("l", "f.yaml", "passed", prompts=[prompt({"type": "int", "value": 1}),
                                                         prompt({"type": "int", "value": 7})])
    two = LessonCheck("l", "f.yaml", "passed", prompts=[prompt({"type": "int", "value": 1}),
                                                         prompt({"type": "int", "value": 8})])
    merged = merge_runs([one, one, two])
    assert merged.status == "failed"
    assert merged.prompts[0].passed
    assert not merged.prompts[1].passed and merged.prompts[1].verdict == "nondeterministic"
    assert "run 1 gave x, run 3 gave x" in merged.prompts[1].message
    same = {"type": "object", "class": "A", "repr": "<A object at 0x7f00aa11bb22>"}
    other = {**same, "repr": "<A object at 0x7f00cc33dd44>"}
    a = LessonCheck("l", "f.yaml", "passed", prompts=[prompt(same)])
    b = LessonCheck("l", "f.yaml", "passed", prompts=[prompt(other)])
    assert merge_runs([a, b]).status == "passed"


@pytest.mark.kernel
def test_check_repeated_catches_unseeded_randomness(kernel, tmp_path: Path):
    path = tmp_path / "random.yaml"
    path.write_text(LESSON.replace("{s}", "tensor([0.0043, 0.1056])"), encoding="utf-8")
    check = check_repeated(kernel, load_lesson(path), 3)
    r, s, obj = check.prompts
    assert not r.passed and "changes between runs" in r.message
    assert s.passed and obj.passed, (s.message, obj.message)


@pytest.mark.kernel
@pytest.mark.usefixtures("commands_share_kernel")
def test_check_repeat_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "random.yaml"
    path.write_text(LESSON.replace("{s}", "tensor([0.0043, 0.1056])"), encoding="utf-8")
    assert main(["check", "--repeat", "2", "-j", "1", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:11: t/random step 1 prompt 1: r?" in out
    assert "the live value changes between runs" in out
