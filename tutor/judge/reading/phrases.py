"""Plain-language wrappers around an answer: "it's None", "no grad",
`x.grad = 0.6`, `state_dict keys: a, b`, "It's MulBackward0", "about 0.6", "no idea".

These are form, not substance: they are peeled off (or read as None) only when
the answer can't be read as it stands, so they never change the meaning of an
answer the grammar already understands.  A hedge ("no idea", "not sure") is no
answer at all: the learner is asked again.
"""

from __future__ import annotations

import re

from ..base.text import NONE_WORDS, collapse

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
    r"^(?:[A-Za-z_][\w.]*(?:\[[^\]=]{0,80}\])*(?:\(\))?\s*(?:==?|:|\s(?:is|are)\s)|=)\s*(?=\S)"
)
# `state_dict keys: a, b`, `the names are: a, b`
_LABEL = re.compile(r"^[A-Za-z_][\w.()]*(?:\s+[A-Za-z_][\w.()]*){0,4}\s*:\s*(?=\S)")
# "It's MulBackward0", "I think it's 0.6", "the answer is a tuple", "probably 3"
_SPOKEN = re.compile(
    r"^(?:(?:i\s+think|i\s+guess|i'?d\s+say|i\s+believe|probably|likely|surely|definitely"
    r"|my\s+guess\s+is|my\s+answer\s+is|answer)\s*:?\s*)?"
    r"(?:it'?s|it\s+is|it\s+will\s+be|it'?ll\s+be|that'?s|that\s+is|this\s+is|they\s+are"
    r"|they'?re|the\s+answer\s+is|the\s+result\s+is|the\s+value\s+is|we\s+get|you\s+get"
    r"|i\s+get|i\s+got|gives|returns|prints"
    # "the grad_fn is ExpBackward0", "y's dtype will be float32", "the shape is (2, 5)"
    r"|(?:the\s+)?[\w.\[\]()]+'?s?(?:\s+[\w.]+){0,2}\s+(?:is|are|will\s+be|would\s+be"
    r"|should\s+be|becomes|stays|equals)"
    # "it's on the cpu", "it lives on the cuda device"
    r"|(?:(?:it'?s|it\s+is|it\s+lives|it\s+stays|lives|stays|is|it'?s\s+still)\s+)?on"
    r"(?:\s+the)?)"
    r"\s+(?=\S)"
    r"|^(?:i\s+think|i\s+guess|i'?d\s+say|probably|my\s+guess\s+is|my\s+answer\s+is)\s*:?\s+(?=\S)",
    re.IGNORECASE,
)

_HEDGE = re.compile(
    r"(?:i\s+)?(?:really\s+|honestly\s+|truly\s+)?"
    r"(?:have\s+)?(?:no\s+idea|no\s+clue|not\s+sure|unsure|not\s+certain|uncertain"
    r"|(?:i\s+)?(?:don'?t|do\s+not)\s+know|dunno|idk|can'?t\s+tell|cannot\s+tell|hard\s+to\s+say"
    r"|who\s+knows|no\s+guess|pass|skip|it\s+depends|depends|either|either\s+one|both"
    r"|maybe|perhaps|\?+)"
    r"(?:\s+(?:at\s+all|really|sorry|honestly|tbh))?[\s.!?]*",
    re.IGNORECASE,
)


def is_hedge(text: str) -> bool:
    """Is the whole answer a hedge ("no idea", "not sure", "I don't know", "?")?"""
    low = collapse(text.casefold()).strip(" .!")
    return len(low) <= 60 and _HEDGE.fullmatch(low) is not None


# a hedge inside a sentence: "not sure if it raises", "I'm not sure they share", "no
# idea, RuntimeError?" (never read as an answer or a negation; "maybe it raises" is a
# guess, read as its answer)
_HEDGE_IN = re.compile(
    r"\b(?:not\s+(?:really\s+|quite\s+|100%\s+)?(?:sure|certain)|unsure|uncertain|no\s+idea"
    r"|no\s+clue|(?:don'?t|do\s+not|dont)\s+(?:really\s+)?know|dunno|idk|can'?t\s+tell"
    r"|cannot\s+tell|hard\s+to\s+say|who\s+knows|not\s+a\s+clue"
    r"|(?:could|might)\s+be\s+either)\b",
    re.IGNORECASE,
)


def has_hedge(clause: str) -> bool:
    """Does a clause of an answer hedge ("not sure", "not sure if it raises")?"""
    return is_hedge(clause) or (len(clause) <= 1000 and _HEDGE_IN.search(clause) is not None)


def hedges(text: str) -> bool:
    """Does an answer hedge anywhere ("0.6, not sure", "I don't know, maybe 3")?"""
    quoted = text.strip()[:1] in ("'", '"', "`")  # a quoted string is a value as typed
    return is_hedge(text) or (len(text) <= 300 and not quoted
                              and _HEDGE_IN.search(text) is not None)


def says_none(text: str) -> bool:
    """Does this phrase say the value is None ("no grad", "it's None")?"""
    low = collapse(text.casefold()).rstrip(".!")
    if len(low) > 200:
        return False
    low = _LEAD.sub("", low)
    if low in NONE_WORDS:
        return True
    return bool(_NONE_PHRASE.fullmatch(low) or _NONE_THEN_REASON.match(low))


_REASON = re.compile(r"(?:because|since|as)\b.*|[a-z_][\w'.-]*(?:\s+[\w'.-]+)+\)?")


def none_then_reason(text: str) -> bool:
    """None followed by a reason in words: "None (a is a leaf)", "none, all are
    frozen" (not `None, None, 3`: items)."""
    low = collapse(text.casefold())
    m = _NONE_THEN_REASON.match(low) if len(low) <= 200 else None
    if m is None:
        return False
    rest = low[m.end():].strip()
    if low[m.end() - 1:m.end()].isalpha():  # "because", "since", "as"
        return True
    return _REASON.fullmatch(rest) is not None and rest.split()[0] not in NONE_WORDS


def lead_in(text: str) -> str | None:
    """The answer after a leading `name =`, `name is`, `label:` or a spoken
    lead-in ("it's", "I think it's"); None if there is none."""
    for pattern in (_CODE_LHS, _SPOKEN, _LABEL):
        m = pattern.match(text)
        if m:
            return text[m.end() :].strip()
    return None


def lead_ins(text: str) -> list[str]:
    """`text` without each layer of lead-in ("I think x.grad = 0.6")."""
    out: list[str] = []
    rest = lead_in(text)
    while rest and len(out) < 3:
        out.append(rest)
        rest = lead_in(rest)
    return out


_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
_SIGN_WORDS = {"minus": "-", "negative": "-", "plus": "", "positive": ""}
_APPROX = re.compile(
    r"^(?:~|\u2248|about|approx\.?|approximately|around|roughly|circa|nearly|almost)\s*(?=\S)",
    re.I,
)
_UNIT = re.compile(
    r"\s+(?:bytes?|elements?|items?|values?|numbers?|params?|parameters?|modules?|calls?"
    r"|times?|entries|entry)$",
    re.I,
)


def number_forms(text: str) -> list[str]:
    """Other ways to read a number answer: without "about"/"~", without a
    counting unit ("4000 bytes", "3 modules"), and number words ("zero",
    "minus four") as digits."""
    t = collapse(text)
    t = _APPROX.sub("", t)
    t = _UNIT.sub("", t)
    words = t.casefold().split()
    if words and words[-1] in _NUMBER_WORDS and len(words) <= 2:
        sign = _SIGN_WORDS.get(words[0], None) if len(words) == 2 else ""
        if sign is not None:
            t = sign + _NUMBER_WORDS[words[-1]]
    return [t] if t != collapse(text) else []
