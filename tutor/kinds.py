"""The prediction kinds a prompt can have: the judge's kind registry.

Each kind is one `Kind` record (tutor/judge/registry.py): its description, the
answer entry's label and examples, how an answer is read and compared, how the
live value is shown.  The lesson loader uses `KINDS` (name -> description) and
`OUTCOME_KINDS`; the learner's flow (tutor/flow.py) reads `REGISTRY[name].label`
and `tutor.judge.entry_examples(spec, live, n, seed)` for examples safe to show.
"""

from __future__ import annotations

from tutor.judge.registry import ENTRIES, REGISTRY, Kind

KINDS: dict[str, str] = {name: kind.description for name, kind in REGISTRY.items()}

# Kinds whose prompt may omit `expect`: the live value is then the step's outcome.
OUTCOME_KINDS = frozenset(name for name, kind in REGISTRY.items() if kind.outcome)

__all__ = ["ENTRIES", "KINDS", "OUTCOME_KINDS", "REGISTRY", "Kind"]
