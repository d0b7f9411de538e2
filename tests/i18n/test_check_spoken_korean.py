"""`tutor check --lang ko`'s text report speaks a same_storage live value as its prompt
words it (`예 (같은 메모리)`), not the notation (`yes`); the JSON record keeps `yes`
(issue 25).  The session's shared kernel."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tutor import i18n
from tutor.commands.check import _failures
from tutor.engine import check_lesson
from tutor.kernel import Kernel
from tutor.lesson import load_lesson

pytestmark = pytest.mark.kernel

LESSON = """\
id: words/same-storage
title: Same storage
topic: words
steps:
  - code: |
      a = torch.zeros(4)
      b = a.view(2, 2)
    predict:
      - ask: Do `a` and `b` share memory?
        kind: same_storage
        expect: [a, b]
        answer: "no"
"""


@pytest.mark.parametrize(("lang", "line"), [("ko", "실제 값: 예 (같은 메모리)"),
                                            ("en", "live:   yes")])
def test_a_same_storage_live_value_is_spoken(kernel: Kernel, tmp_path: Path, lang: str,
                                             line: str) -> None:
    path = tmp_path / "same.yaml"
    path.write_text(LESSON, encoding="utf-8")
    i18n.set_language(lang)
    try:
        check = check_lesson(kernel, load_lesson(path))
        out = io.StringIO()
        _failures([check], out)
    finally:
        i18n.set_language("en")
    assert check.status == "failed"
    assert check.prompts[0].record()["expected"] == "yes"  # (JSON: the notation)
    lines = [s.strip() for s in out.getvalue().splitlines()]
    assert line in lines, out.getvalue()
