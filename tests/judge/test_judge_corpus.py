"""The corpus: realistic answers against realistic live values, each with the verdict
it must get (tests/judge/corpus/*.txt).

Format of a corpus file:

    # a comment
    tag negation                                   optional, before a group: its class
    [number] {"type": "float", "value": 0.6}      a group: the kind, then the live value
    spec {"choices": ["a", "b"]}                   optional: choices, tolerance, and the
                                                   foreseen mistakes: "wrong" (a list) and
                                                   "feedback" (a list of [key, explanation])
    C 0.6                                          verdict letter, one space, the answer
    X -0.6                                         C correct, P partial, X incorrect,
    I no idea                                      I invalid (asked again)
    C json:"  0.6  "                               an answer written as a JSON string

A tensor's live value may leave out the flags (requires_grad, grad_fn, ...): they
default to a plain CPU tensor's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tutor.judge import JudgeSpec, Status, Tolerance
from tutor.judge.api import judge_strict
from tutor.kinds import KINDS

CORPUS = Path(__file__).parent / "corpus"
VERDICTS = {"C": Status.CORRECT, "P": Status.PARTIAL, "X": Status.INCORRECT,
            "I": Status.INVALID}
TENSOR_DEFAULTS = {"requires_grad": False, "is_leaf": True, "grad_fn": None,
                   "is_parameter": False, "device": "cpu"}


@dataclass(frozen=True)
class Row:
    where: str
    kind: str
    live: dict[str, Any]
    spec: JudgeSpec
    answer: str
    expected: Status
    tag: str


def _tensor_defaults(obs: Any) -> Any:
    if isinstance(obs, dict):
        if obs.get("type") == "tensor":
            obs = {**TENSOR_DEFAULTS, **obs}
        return {k: _tensor_defaults(v) for k, v in obs.items()}
    if isinstance(obs, list):
        return [_tensor_defaults(v) for v in obs]
    return obs


def load(path: Path) -> list[Row]:
    rows: list[Row] = []
    kind, live, spec, tag, pending = "", {}, JudgeSpec("number"), "", ""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name}:{n}"
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            kind, _, rest = line[1:].partition("]")
            live = _tensor_defaults(json.loads(rest))
            spec, tag, pending = JudgeSpec(kind), pending, ""
        elif line.startswith("spec "):
            extra = json.loads(line[5:])
            tol = extra.get("tolerance")
            spec = JudgeSpec(kind, choices=tuple(extra.get("choices", ())),
                             tolerance=Tolerance(**tol) if tol else None,
                             feedback=tuple(tuple(f) for f in extra.get("feedback", ())),
                             wrong=tuple(extra.get("wrong", ())))
        elif line.startswith("tag "):
            pending = line[4:].strip()  # for the group whose header comes next
        else:
            letter, answer = line[0], line[2:]
            assert letter in VERDICTS and line[1] == " ", f"{where}: bad row {line!r}"
            if answer.startswith("json:"):
                answer = json.loads(answer[5:])
            rows.append(Row(where, kind, live, spec, answer, VERDICTS[letter], tag))
    return rows


ROWS = [row for path in sorted(CORPUS.glob("*.txt")) for row in load(path)]


def test_the_corpus_is_big_and_covers_every_kind_and_class() -> None:
    assert len(ROWS) >= 1500
    assert {row.kind for row in ROWS} == set(KINDS)
    for status in VERDICTS.values():
        assert any(row.expected is status for row in ROWS)
    tags = {row.tag for row in ROWS}
    # the classes of issue #11, each with rows of its own
    assert {"precision", "magnitude", "case", "digit-names", "shapes-as-items", "negation",
            "contrast", "hedge", "class-object", "pasted-repr", "lead-in", "exception-alias",
            "exception-no-raise", "arithmetic", "uniform-tensor"} <= tags
    # and of issue #27 (round3.txt; foreseen mistakes in numbers.txt)
    assert {"exception-words", "stdout-form", "empty-in-words", "hedge-in-sentence",
            "superscript", "lead-in-names", "clear-answers", "choice-numbers-as-text",
            "pasted-pairs", "foreseen-mistake"} <= tags


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.where}:{r.answer[:30]!r}" for r in ROWS])
def test_corpus(row: Row) -> None:
    verdict = judge_strict(row.spec, row.answer, row.live)
    assert verdict.status is row.expected, (row.where, row.answer, verdict.message)
    # the front ends head a verdict with it ("✗ not quite"): the message never repeats it
    assert not verdict.message.casefold().startswith(("right:", "not quite", "correct")), \
        verdict.message
