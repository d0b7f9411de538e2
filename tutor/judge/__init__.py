"""The judge: reads what a learner typed and compares it, by meaning, with the
live value the kernel observed.

Pure Python: no torch, numpy or textual. Nothing here evaluates the learner's
text (no eval/exec/literal_eval/compile): a small tokenizer and a
recursive-descent parser read it. See docs/judging.md.
"""

from __future__ import annotations

from .core import judge, parse_error
from .display import display
from .errors import InvalidPrediction
from .notation import notation
from .verdict import JudgeSpec, Status, Tolerance, Verdict

__all__ = [
    "InvalidPrediction",
    "JudgeSpec",
    "Status",
    "Tolerance",
    "Verdict",
    "display",
    "judge",
    "notation",
    "parse_error",
]
