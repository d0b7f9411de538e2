"""Reading answers of the word kinds: bool, same_storage, text, choice,
exception, stdout."""

from __future__ import annotations

import builtins
import re

from .errors import InvalidPrediction
from .grammar import Num, parse_value
from .numbers import matches
from .predictions import BoolP, ChoiceP, ExcP, NoneP, StdoutP, TextP
from .text import NONE_WORDS, check_length, collapse, normalise_chars, strip_noise

YES = frozenset({"true", "yes", "y", "yep", "yeah", "yup", "ya", "aye", "t"})
NO = frozenset({"false", "no", "n", "nope", "nah", "not", "never", "f"})
_FIRST = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]*)?")
_TENSOR_BOOL = re.compile(r"(?:torch\.)?tensor\(\s*(true|false|1|0)\.?\s*\)")

# same_storage phrases
_SHARE = re.compile(r"\b(?:same|shared?|shares|sharing|alias(?:es|ed)?|views?|identical)\b")
_SEPARATE = re.compile(
    r"\b(?:separate|different|distinct|independent|cop(?:y|ies|ied)|clone[ds]?|two storages"
    r"|own (?:memory|storage)|new (?:memory|storage))\b"
)
_NEG = re.compile(r"\b(?:not|no|never|cannot|without)\b|n't\b|\b(?:dont|doesnt|isnt|arent|wont)\b")
_SEPARATOR = re.compile(r"\s*(?:$|[,.;:!\-(])")
# a one-letter answer (y, n, t, f) is a word only on its own: `t.is_contiguous()`
# or `y.is_leaf` is a variable, not "true" / "yes"
_LETTER_END = re.compile(r"\s*(?:$|[,;!])")
# `t.is_contiguous() = False`, `y.is_leaf == True`, `B.requires_grad: no`
_CODE_LHS = re.compile(r"[a-z_][\w.\[\]'\"]*(?:\(\))?\s*(?:==?|:)\s*(?=\S)")
_UNSURE = frozenset({"sure", "certain", "know", "known", "clear", "decided"})

# exceptions
BUILTIN_MRO: dict[str, list[str]] = {
    name: [c.__name__ for c in obj.__mro__ if c is not object]
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
}
_EXC_SUFFIXES = ("error", "exception", "warning", "interrupt", "exit")
_GENERIC = frozenset({"error", "errors", "exception", "exceptions"})
_IDENT = re.compile(r"[A-Za-z_][\w.]*")
_RAISE_WORDS = frozenset(
    {"raise", "raises", "raised", "raising", "error", "errors", "errored", "exception",
     "exceptions", "throw", "throws", "thrown", "fail", "fails", "failed", "crash", "crashes",
     "crashed", "yes", "traceback"}
)  # fmt: skip
_OK_WORDS = frozenset(
    {"works", "work", "worked", "fine", "ok", "okay", "runs", "run", "succeeds", "success",
     "nothing", "no", "none", "null", "nil", "passes", "normally"}
)  # fmt: skip
_NEG_WORDS = frozenset(
    {"no", "not", "never", "without", "doesn't", "doesnt", "don't", "dont", "won't", "wont",
     "didn't", "didnt", "nothing"}
)  # fmt: skip
_WORD = re.compile(r"[a-z']+")

# stdout
STDOUT_EMPTY = frozenset(
    {"nothing", "empty", "no output", "(nothing)", "(no output)", "(empty)", "blank",
     "nothing printed", "prints nothing", "none", "null", "nil"}
)  # fmt: skip


def _require(text: str) -> str:
    if not text:
        raise InvalidPrediction("Type an answer.")
    return text


# ---- bool and same_storage -------------------------------------------------


def _storage_phrase(low: str, first: str) -> bool | None:
    if first in ("no", "not", "never") and _SEPARATOR.match(low, len(first)):
        return False
    negated = _NEG.search(low) is not None
    if _SEPARATE.search(low):
        return negated
    if _SHARE.search(low):
        return not negated
    return None


def read_bool_pred(text: str, same_storage: bool = False) -> BoolP | NoneP:
    low = collapse(_require(text).casefold())
    if low in NONE_WORDS:
        return NoneP()
    lhs = _CODE_LHS.match(low)
    if lhs and lhs.end() < len(low):
        low = low[lhs.end() :]
    m = _TENSOR_BOOL.fullmatch(low)
    if m:
        return BoolP(m.group(1) in ("true", "1"))
    m = _FIRST.match(low)
    first = m.group() if m else ""
    if len(first) == 1 and first.isalpha() and not _LETTER_END.match(low, 1):
        first = ""
    if first in YES - {"t"} or first in ("nope", "nah", "false"):
        return BoolP(first in YES)
    if same_storage:
        decided = _storage_phrase(low, first)
        if decided is not None:
            return BoolP(decided)
    if first == "not":  # "not true" is False; "not sure" is no answer
        rest = _FIRST.match(low, len(first) + 1)
        word = rest.group() if rest else ""
        if _SEPARATOR.match(low, len(first)) or word in NO:
            return BoolP(word in NO)
        if word in YES:
            return BoolP(False)
        if word and word[0].isalpha() and word not in _UNSURE:
            return BoolP(False)  # "not contiguous", "not a leaf"
    elif first in YES or first in NO:
        return BoolP(first in YES)
    if first and first[0].isdigit() and float(first) in (0.0, 1.0):
        if _SEPARATOR.match(low, len(first)):
            return BoolP(float(first) == 1.0)
    if same_storage:
        raise InvalidPrediction(
            "Say yes (they share memory) or no (separate memory), e.g. 'yes, same storage'."
        )
    raise InvalidPrediction("Answer yes or no (or True / False).")


# ---- text and choice -------------------------------------------------------

_GRAD_FN_REPR = re.compile(r"<\s*([\w.]+)(?:\s+object at 0x[0-9a-f]+)?\s*>", re.I)


def text_key(text: str) -> str:
    """A token for comparing text answers: noise stripped, whitespace collapsed,
    a grad_fn repr unwrapped, case folded."""
    t = collapse(strip_noise(normalise_chars(text)))
    t = re.sub(r"^grad_fn\s*=\s*", "", t)
    m = _GRAD_FN_REPR.fullmatch(t)
    if m:
        t = m.group(1)
    return t.casefold()


def read_text_pred(text: str) -> TextP:
    check_length(text)
    if text.strip() in ("''", '""'):
        return TextP("")
    t = collapse(strip_noise(normalise_chars(text)))
    _require(t)
    return TextP(t)


def _as_number(text: str) -> Num | None:
    try:
        node = parse_value(text)
    except InvalidPrediction:
        return None
    return node if isinstance(node, Num) else None


def read_choice_pred(text: str, choices: tuple[str, ...]) -> ChoiceP | NoneP:
    key = text_key(_require(text))
    keys = [text_key(c) for c in choices]
    if key in keys:
        return ChoiceP(keys.index(key))
    typed = _as_number(text)
    if typed is not None:
        for i, c in enumerate(choices):
            num = _as_number(c)
            if num is not None and matches(typed.lit, num.lit.value):
                return ChoiceP(i)
    bare = re.sub(r"^(?:option|choice|answer)\s*", "", key)
    m = re.fullmatch(r"\(?([0-9]+)[).:]?", bare)
    if m and 1 <= int(m.group(1)) <= len(choices):
        return ChoiceP(int(m.group(1)) - 1)
    m = re.fullmatch(r"\(?([a-z])[).:]?", bare)
    if m and len(choices) <= 10 and ord(m.group(1)) - ord("a") < len(choices):
        return ChoiceP(ord(m.group(1)) - ord("a"))
    if key in NONE_WORDS:
        return NoneP()
    listed = "; ".join(f"{i + 1}) {c}" for i, c in enumerate(choices))
    raise InvalidPrediction(f"Pick one of: {listed}.")


# ---- exception -------------------------------------------------------------


def looks_like_exception(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    low = last.casefold()
    if last in BUILTIN_MRO:
        return True
    return any(low.endswith(s) and len(low) > len(s) for s in _EXC_SUFFIXES)


def read_exception_pred(text: str) -> ExcP:
    t = collapse(strip_noise(normalise_chars(text)))
    _require(t)
    head = re.split(r"[:(]", t, maxsplit=1)[0]
    words_before: list[str] = []
    for m in _IDENT.finditer(head):
        ident = m.group().rstrip(".")
        last = ident.rsplit(".", 1)[-1]
        if looks_like_exception(ident) and last.casefold() not in _GENERIC or last == "Exception":
            negated = any(w in _NEG_WORDS for w in words_before)
            return ExcP("none") if negated else ExcP("named", last)
        words_before.append(ident.casefold())
    words = _WORD.findall(t.casefold())
    if any(w in _RAISE_WORDS for w in words):
        negated = any(w in _NEG_WORDS for w in words)
        return ExcP("none" if negated else "any")
    if any(w in _OK_WORDS for w in words):
        return ExcP("none")
    if _IDENT.fullmatch(t):
        raise InvalidPrediction(
            f"{t} doesn't look like an exception type (those end in Error, like RuntimeError)."
        )
    raise InvalidPrediction(
        "Name the exception (e.g. RuntimeError), or say 'raises' or 'no error'."
    )


# ---- stdout ----------------------------------------------------------------


def read_stdout_pred(text: str) -> StdoutP:
    check_length(text)
    t = text.strip()
    if not t:
        raise InvalidPrediction("Type what you expect it to print, or 'nothing'.")
    return StdoutP(t, collapse(strip_noise(t)).casefold() in STDOUT_EMPTY)
