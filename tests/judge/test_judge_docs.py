"""The example tables of docs/judging.md say what the judge does.

A table right after a `<!-- judged: kind=K ... -->` comment has rows
`| `answer` | live value | verdict | why |`; each row is judged here.  A choice
table's comment names its choices (`choices=1|3|2`).  Live values: `f32 0.6` a
float32 0-d tensor, `f64 [1, 2]` (also f16, i32, i64, bool) a tensor, `'text'` a
string, `"a\nb"` (JSON) printed output, a whole number an int, else a float."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tutor.judge import REGISTRY, JudgeSpec, Status, judge

DOC = Path(__file__).resolve().parents[2] / "docs" / "judging.md"
_MARK = re.compile(r"<!-- judged: kind=(\w+)(?:.*?choices=(\S+))?")
_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i32": "int32",
           "i64": "int64", "bool": "bool"}


def _shape(values: Any) -> list[int]:
    return [len(values), *_shape(values[0])] if isinstance(values, list) and values else \
        [0] if isinstance(values, list) else []
_ROW = re.compile(r"^\| `(.+?)` \| (.+?) \| (correct|incorrect|invalid|partial) \|")


def _live(kind: str, text: str) -> dict[str, Any]:
    if kind in ("bool", "same_storage"):
        return {"type": "bool", "value": text == "True"}
    if kind == "exception":
        if text == "none":
            return {"type": "none"}
        return {"type": "exception", "name": text, "message": "m",
                "mro": [text, "RuntimeError", "Exception", "BaseException"]}
    if text.startswith("`") and text.endswith("`"):
        text = text[1:-1]
    if kind in ("set", "list") and text[:1] in "[(":
        items = json.loads("[" + text[1:-1].replace("'", '"').rstrip(",") + "]")
        return {"type": "tuple" if text[0] == "(" else "list",
                "items": [{"type": "str", "value": x} if isinstance(x, str) else
                          {"type": "int" if isinstance(x, int) else "float", "value": x}
                          for x in items]}
    if text.startswith("'") and text.endswith("'"):
        return {"type": "str", "value": text[1:-1]}
    if text.startswith('"'):
        return {"type": "str", "value": json.loads(text)}
    code, _, rest = text.partition(" ")
    if code in _DTYPES and rest:
        values = json.loads(rest.replace("True", "true").replace("False", "false"))
        return {"type": "tensor", "dtype": _DTYPES[code], "shape": _shape(values),
                "values": values, "requires_grad": False, "grad_fn": None, "is_leaf": True,
                "is_parameter": False, "device": "cpu"}
    if re.fullmatch(r"-?\d+", text):
        return {"type": "int", "value": int(text)}
    return {"type": "float", "value": float(text)}


def _rows() -> list[tuple[JudgeSpec, str, str, Status]]:
    rows: list[tuple[JudgeSpec, str, str, Status]] = []
    spec = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        mark = _MARK.search(line)
        if mark:
            choices = tuple(mark.group(2).split("|")) if mark.group(2) else ()
            spec = JudgeSpec(mark.group(1), choices=choices)
        elif not line.startswith("|"):
            spec = None  # the table ended
        m = _ROW.match(line)
        if spec and m:
            rows.append((spec, m.group(1), m.group(2), Status(m.group(3))))
    return rows


ROWS = _rows()


def test_the_tables_are_found() -> None:
    assert {spec.kind for spec, *_ in ROWS} == {
        "number", "same_storage", "bool", "exception", "tensor", "choice", "text", "stdout",
        "set", "list"}
    assert len(ROWS) >= 80


@pytest.mark.parametrize(("spec", "answer", "live", "expected"), ROWS)
def test_the_doc_tables(spec: JudgeSpec, answer: str, live: str, expected: Status) -> None:
    assert judge(spec, answer, _live(spec.kind, live)).status is expected


def test_the_kinds_table_shows_each_kinds_entry_label() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, kind in REGISTRY.items():
        assert f"| `{name}` | {kind.label} |" in text, name
