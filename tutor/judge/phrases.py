"""Plain-language wrappers around an answer: "it's None", "no grad",
`x.grad = 0.6`, `state_dict keys: a, b`.

These are form, not substance: they are peeled off (or read as None) only when
the answer can't be read as it stands, so they never change the meaning of an
answer the grammar already understands.
"""

from __future__ import annotations

import re

from .text import NONE_WORDS, collapse

# "it's None", "it is None", "that's nothing", "it has none"
_LEAD = re.compile(r"^(?:it'?s|it\s+is|its|that'?s|that\s+is|it\s+has|has|there\s+is|is)\s+")
_NONE_PHRASE = re.compile(
    r"(?:none|null|nil|nothing|no\s+value)(?:\s+(?:yet|at\s+all|set))?"
    r"|no\s+(?:\.?grad(?:ient)?s?|\.?grad_fn|grad\s+fn|gradient\s+function|grad\s+yet)(?:\s+yet)?"
    r"|not\s+(?:set|populated|computed)(?:\s+yet)?"
)
# "None (a is a leaf)", "none, y is not a leaf", "None - it's not a leaf"
_NONE_THEN_REASON = re.compile(r"(?:none|null|nil)\s*(?:[,(;:]|-\s|because\b|since\b|as\b)")

# `x.grad = 0.6`, `b.grad is None`, `= 0.6`, `t.shape == (3, 2)`, `x.grad: 0.6`
_CODE_LHS = re.compile(
    r"^(?:[A-Za-z_][\w.]*(?:\[[^\]=]*\])*(?:\(\))?\s*(?:==?|:|\s(?:is|are)\s)|=)\s*(?=\S)"
)
# `state_dict keys: a, b`, `the names are: a, b`
_LABEL = re.compile(r"^[A-Za-z_][\w.()]*(?:\s+[A-Za-z_][\w.()]*){0,4}\s*:\s*(?=\S)")


def says_none(text: str) -> bool:
    """Does this phrase say the value is None ("no grad", "it's None")?"""
    low = collapse(text.casefold()).rstrip(".!")
    low = _LEAD.sub("", low)
    if low in NONE_WORDS:
        return True
    return bool(_NONE_PHRASE.fullmatch(low) or _NONE_THEN_REASON.match(low))


def lead_in(text: str) -> str | None:
    """The answer after a leading `name =`, `name is` or `label:`; None if
    there is none."""
    for pattern in (_CODE_LHS, _LABEL):
        m = pattern.match(text)
        if m:
            return text[m.end() :].strip()
    return None
