"""The example tables of docs/judging.md say what the judge does.

A table right after a `<!-- judged: kind=K ... -->` comment has rows
`| `answer` | live value | verdict | why |`; each row is judged here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tutor.judge import JudgeSpec, Status, judge

DOC = Path(__file__).resolve().parents[2] / "docs" / "judging.md"
_MARK = re.compile(r"<!-- judged: kind=(\w+)")
_ROW = re.compile(r"^\| `(.+?)` \| (.+?) \| (correct|incorrect|invalid|partial) \|")


def _live(kind: str, text: str) -> dict[str, Any]:
    if kind in ("bool", "same_storage"):
        return {"type": "bool", "value": text == "True"}
    if kind == "exception":
        if text == "none":
            return {"type": "none"}
        return {"type": "exception", "name": text, "message": "m",
                "mro": [text, "RuntimeError", "Exception", "BaseException"]}
    if text.startswith("f32 "):
        return {"type": "tensor", "dtype": "float32", "shape": [], "values": float(text[4:])}
    if re.fullmatch(r"-?\d+", text):
        return {"type": "int", "value": int(text)}
    return {"type": "float", "value": float(text)}


def _rows() -> list[tuple[str, str, str, Status]]:
    rows, kind = [], ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        mark = _MARK.search(line)
        if mark:
            kind = mark.group(1)
        elif not line.startswith("|"):
            kind = ""  # the table ended
        m = _ROW.match(line)
        if kind and m:
            rows.append((kind, m.group(1), m.group(2), Status(m.group(3))))
    return rows


ROWS = _rows()


def test_the_tables_are_found() -> None:
    assert {kind for kind, *_ in ROWS} == {"number", "same_storage", "bool", "exception"}
    assert len(ROWS) >= 50


@pytest.mark.parametrize(("kind", "answer", "live", "expected"), ROWS)
def test_the_doc_tables(kind: str, answer: str, live: str, expected: Status) -> None:
    assert judge(JudgeSpec(kind), answer, _live(kind, live)).status is expected
