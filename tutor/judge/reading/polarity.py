"""Reading sentences that answer a yes/no question, respecting negation and contrast.

An answer is cut into clauses (at punctuation and at "but", "because", ...); each
clause says yes, no, or nothing, and a negation ("not", "no", "n't", "never",
"without") reverses only what follows it in its own clause:

    "they don't share memory, b is a copy"   -> no, no        -> no
    "a copy, not a view"                     -> no, no        -> no
    "same storage, different strides"        -> yes, nothing  -> yes
    "no, it is a view"                       -> no, yes       -> ask again

When clauses disagree, or a clause hedges ("not sure"), the answer is ambiguous
and the learner is asked again: a sentence is never read as its opposite.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .phrases import has_hedge

_CLAUSE = re.compile(
    r"\s*(?:[,;:!?()\[\]\u2014]|\.(?=\s|$)|\s-+\s|->|=>)\s*"
    r"|\s+(?=(?:but|however|though|although|whereas|instead|rather|yet|because|since|so)\b)",
    re.IGNORECASE,
)
_LEADING_CONTRAST = re.compile(
    r"^(?:but|however|though|although|whereas|instead|rather|yet|because|since|so)\s+",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z_][\w'.]*[\w']|[a-z_]|[0-9]+(?:\.[0-9]*)?")
NEGATORS = frozenset(
    {"not", "no", "never", "without", "neither", "nor", "cannot", "nothing", "none",
     "dont", "doesnt", "isnt", "arent", "wasnt", "werent", "wont", "cant", "didnt",
     "hasnt", "havent", "shouldnt", "wouldnt", "couldnt", "aint", "nope"}
)  # fmt: skip
YES = frozenset({"true", "yes", "y", "yep", "yeah", "yup", "ya", "aye", "t", "affirmative"})
NO = frozenset({"false", "no", "n", "nope", "nah", "f", "never", "negative"})
_ONE_LETTER = frozenset({"y", "n", "t", "f"})
# "no" answers a question when a pause or a new sentence follows it ("no, it ...",
# "no it isn't"); before a noun it negates that noun ("no copy is made").
_ANSWER_FOLLOWERS = frozenset(
    {"it", "they", "that", "this", "he", "she", "we", "i", "not", "never", "way", "sir",
     "definitely", "certainly", "really", "of"}
)  # fmt: skip
_LEAD = re.compile(
    r"^(?:(?:i\s+think|i\s+guess|i'?d\s+say|i\s+believe|probably|definitely|certainly"
    r"|surely|clearly|obviously|of\s+course|well|hmm|ok|okay|so)\s*,?\s+)+"
)
_BARE_AUX = re.compile(
    r"^(?:it|they|that|this|he|she|[a-z_][\w.]*)\s+"
    r"(?:is|are|does|do|will|was|were|has|have|can|did|would|could|should)"
    r"(?P<neg>\s*n'?t|\s+not)?$"
)


def words(clause: str) -> list[str]:
    """The clause's words, lowercase, with `n't` contractions folded (`doesn't` ->
    `doesnt`) so that they read as negators."""
    return [w.replace("'", "") if w.endswith("n't") else w for w in _WORD.findall(clause)]


def clauses(text: str) -> list[str]:
    """`text` cut into clauses, without their leading "but"/"because"."""
    out = []
    for part in _CLAUSE.split(text):
        part = _LEADING_CONTRAST.sub("", part.strip())
        if part:
            out.append(part)
    return out


def is_negator(word: str) -> bool:
    return word in NEGATORS or word.endswith("nt") and word[:-2] in (
        "do", "does", "is", "are", "was", "were", "wo", "ca", "did", "has", "have", "should",
        "would", "could", "need", "must")  # fmt: skip


@dataclass(frozen=True)
class Signal:
    """One clause's say: `value` True (yes) / False (no); `weak` for a bare yes/no
    word where a phrase could mean either."""

    value: bool
    weak: bool = False


class Ambiguous(Exception):
    """The answer says both yes and no, or hedges."""


def answer_word(clause: str) -> tuple[bool | None, str]:
    """A leading yes/no word of a clause ("yes", "nope, ...", "not true"): its
    value and the rest of the clause; (None, clause) when there is none."""
    clause = _LEAD.sub("", clause)
    ws = clause.split()
    if not ws:
        return None, clause
    first = ws[0].strip(".!")
    rest = " ".join(ws[1:])
    if first in _ONE_LETTER and rest:
        return None, clause  # `t.is_contiguous()`, `y is a leaf`: a variable, not "yes"
    if first == "not":
        second = ws[1].strip(".!") if len(ws) > 1 else ""
        if not second:
            return False, ""
        if second in YES:
            return False, " ".join(ws[2:])
        if second in NO:
            return True, " ".join(ws[2:])
        return None, clause
    if first in YES:
        return True, rest
    if first in NO:
        if first == "no" and rest and rest.split()[0] not in _ANSWER_FOLLOWERS:
            return None, clause  # "no copy is made": a negation, not an answer
        return False, rest
    m = re.match(r"^(?:it'?s|it\s+is|that'?s|that\s+is|this\s+is)\s+(true|false|yes|no)$",
                 clause)
    if m:
        return m.group(1) in YES, ""
    return None, clause


_JOINER = re.compile(r"^(?:and|or|/|slash)\s*")


def answer_words(clause: str) -> tuple[list[bool], str]:
    """The yes/no words a clause starts with ("yes", "yes and no", "true or
    false"), and the rest of the clause."""
    values: list[bool] = []
    value, rest = answer_word(clause)
    while value is not None and len(values) < 4:
        values.append(value)
        if not rest:
            break
        value, more = answer_word(_JOINER.sub("", rest))
        if value is not None:
            rest = more
    return values, rest


def bare_statement(clause: str) -> bool | None:
    """"it is", "it isn't", "they do not": a bare auxiliary answers yes or no."""
    m = _BARE_AUX.match(clause)
    if not m:
        return None
    return m.group("neg") is None


def combine(signals: list[Signal]) -> bool | None:
    """The answer all clauses agree on; weak signals count only when no strong
    one is there; raises Ambiguous when they disagree."""
    strong = {s.value for s in signals if not s.weak}
    weak = {s.value for s in signals if s.weak}
    values = strong or weak
    if len(values) > 1:
        raise Ambiguous
    return next(iter(values)) if values else None


def _read(text: str, more: Callable[[str, bool], list[Signal]]) -> bool | None:
    """An answer read clause by clause (`text` lowercase, whitespace collapsed):
    each clause's yes/no words and bare statement, and what `more` finds in the
    rest of it.  Raises Ambiguous; None when no clause says yes or no."""
    signals: list[Signal] = []
    for clause in clauses(text):
        if has_hedge(clause):
            raise Ambiguous
        values, rest = answer_words(clause)
        signals += [Signal(v) for v in values]
        bare = bare_statement(rest)
        if bare is not None:
            signals.append(Signal(bare))
        signals += more(rest, bool(values) or bare is not None)
    return combine(signals)


def _not_phrases(rest: str, answered: bool) -> list[Signal]:
    """"not contiguous", "not a leaf": no.  A double negation ("not it isn't",
    "it isn't not") reads both ways: ambiguous."""
    if answered:
        return []
    if rest.startswith("not "):
        after = rest[4:]
        if bare_statement(after) is not None or any(is_negator(w) for w in words(after)):
            raise Ambiguous
        return [Signal(False)]
    ws = words(rest)
    negations = [i for i, w in enumerate(ws) if is_negator(w)]
    if len(negations) > 1:
        raise Ambiguous
    if negations and negations[0] <= 2 and ws[negations[0]] in _STATE_NEGATORS \
            and len(ws) > negations[0] + 1:
        # a negated state: "doesn't require grad", "isn't a leaf", "it's not contiguous",
        # "x.grad is not None" (the negation is near the start and about what follows)
        return [Signal(False)]
    return []


_STATE_NEGATORS = frozenset(
    {"not", "never", "cannot", "dont", "doesnt", "isnt", "arent", "wasnt", "werent", "wont",
     "cant", "didnt", "hasnt", "havent"})


def yes_no(text: str) -> bool | None:
    """A bool answer: yes/no words, bare statements ("it isn't"), "not X"."""
    return _read(text, _not_phrases)


# ---- same_storage: do two tensors share memory? ---------------------------------

_MEMORY = r"(?:memory|storage|storages|buffer|buffers|data\s*ptr|data_ptr|address|allocation)"
_SHARE = re.compile(
    r"\bshar(?:e|es|ed|ing)\b"
    r"|\b(?:the\s+)?same\b(?!\s+(?:values?|shape|shapes|size|sizes|strides?|dtype|numbers?"
    r"|contents?|results?|elements?|numel|device|offsets?|thing|way|type))"
    r"|\bviews?\b|\bviewing\b|\balias(?:es|ed|ing)?\b|\bone\s+storage\b"
    r"|\bin[\s-]place\b|\bpoints?\s+(?:to|at)\b"
)
_SEPARATE = re.compile(
    r"\bcop(?:y|ies|ied|ying)\b|\bclon(?:e|es|ed|ing)\b|\bseparate(?:ly|d)?\b"
    r"|\b(?:different|distinct)\b(?!\s+(?:strides?|shapes?|values?|offsets?|views?|dtypes?"
    r"|sizes?|numbers?|names?|objects?|tensors?|python\s+objects?|ids?))"
    rf"|\b(?:new|own|fresh|its\s+own|their\s+own|independent|two|2)\s+{_MEMORY}"
    r"|\bindependent(?:ly)?\b|\b(?:re)?allocat\w*"
)


def storage_signals(clause: str) -> list[Signal]:
    """What a clause says about sharing memory: each mention of sharing or of a
    copy, reversed when a negation comes before it in the clause."""
    spans = sorted(
        [(m.start(), m.end(), True) for m in _SHARE.finditer(clause)]
        + [(m.start(), m.end(), False) for m in _SEPARATE.finditer(clause)]
    )
    out: list[Signal] = []
    last = 0
    for start, end, shared in spans:
        if start < last:
            continue  # "the same" and "same": one mention
        negators = sum(is_negator(w) for w in words(clause[last:start]))
        if negators > 1:
            raise Ambiguous  # "not they don't share": a double negation reads both ways
        out.append(Signal(shared != bool(negators)))
        last = end
    if out and any(is_negator(w) for w in words(clause[last:])):
        raise Ambiguous  # "a copy isn't made": a negation after the fact reads both ways
    return out


def shares_memory(text: str) -> bool | None:
    """A same_storage answer: yes/no words, and what each clause says of memory."""
    return _read(text, lambda rest, answered: storage_signals(rest))
