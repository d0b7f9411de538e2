"""Compatibility for callers written before the kind registry:
`gives_away(judge, spec, live, text)`.  New code calls
`tutor.judge.gives_away(spec, live, text)` or `tutor.judge.entry_examples(spec, live)`."""

from __future__ import annotations

from typing import Any

from .api import gives_away as _gives_away
from .base.obs import Obs
from .base.verdict import JudgeSpec


def gives_away(_judge: Any, spec: JudgeSpec, live: Obs, text: str) -> bool:
    """Would typing some phrase of `text` be judged right against `live`?"""
    return _gives_away(spec, live, text)
