"""The judge: reads what a learner typed and compares it, by meaning, with the
live value the kernel observed.

Pure Python: no torch, numpy or textual. Nothing here evaluates the learner's
text (no eval/exec/literal_eval/compile): a tokenizer and a recursive-descent
parser read it, and arithmetic is applied operator by operator.  See
docs/judging.md.

Layers, each importing only the ones below it (checked by import-linter):

    api        judge, parse_error, display, notation, entry_examples, gives_away,
               choice_marks, says_nothing_printed
    registry   one `Kind` record per kind of prediction (tutor.kinds re-exports it)
    showing    display, notation candidates, messages as text
    comparing  the number rule, names, items, tensors, yes/no, exceptions
    reading    lexer, grammar (with arithmetic), phrases, yes/no sentences, readers
    base       verdicts, message parts, limits, observations, dtypes, text

The names below are imported on first use (PEP 562), so that a module of the judge's
base (the verdict types a lesson holds) can be imported without the readers and the
comparers: the app's catalog index does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import (
        choice_marks,
        chosen,
        display,
        entry_examples,
        gives_away,
        judge,
        notation,
        parse_error,
        says_nothing_printed,
    )
    from .base.errors import InvalidPrediction
    from .base.verdict import JudgeSpec, Status, Tolerance, Verdict
    from .registry import REGISTRY, Kind, live_choice

_HOME = {
    **dict.fromkeys(("choice_marks", "chosen", "display", "entry_examples", "gives_away", "judge",
                     "notation", "parse_error", "says_nothing_printed"), "api"),
    "InvalidPrediction": "base.errors",
    **dict.fromkeys(("JudgeSpec", "Status", "Tolerance", "Verdict"), "base.verdict"),
    **dict.fromkeys(("REGISTRY", "Kind", "live_choice"), "registry"),
}

__all__ = [
    "REGISTRY",
    "InvalidPrediction",
    "JudgeSpec",
    "Kind",
    "Status",
    "Tolerance",
    "Verdict",
    "choice_marks",
    "chosen",
    "display",
    "entry_examples",
    "gives_away",
    "judge",
    "live_choice",
    "notation",
    "parse_error",
    "says_nothing_printed",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'tutor.judge' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"tutor.judge.{_HOME[name]}"), name)
    globals()[name] = value
    return value
