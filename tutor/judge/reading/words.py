"""Reading answers of the word kinds: bool, same_storage, text, choice,
exception, stdout."""

from __future__ import annotations

import builtins
import re
from functools import lru_cache

from ..base.errors import MAX_SENTENCE, InvalidPrediction
from ..base.parts import Said
from ..base.text import NONE_WORDS, check_length, collapse, normalise_chars, strip_noise
from . import korean, polarity
from .grammar import Num, parse_value
from .lexer import tokenize
from .phrases import has_hedge
from .predictions import BoolP, ChoiceP, ExcP, NoneP, StdoutP, TextP

_TENSOR_BOOL = re.compile(r"(?:torch\.)?tensor\(\s*(true|false|1|0)\.?\s*\)")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?")
# `t.is_contiguous() = False`, `y.is_leaf == True`, `B.requires_grad: no`
_CODE_LHS = re.compile(r"[a-z_][\w.\[\]'\"]{0,200}(?:\(\))?\s*(?:==?|:)\s*(?=\S)")

# exceptions
BUILTIN_MRO: dict[str, list[str]] = {
    name: [c.__name__ for c in obj.__mro__ if c is not object]
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
}
# Names that are another exception under a different name: IOError is OSError.
EXCEPTION_ALIASES: dict[str, str] = {
    name.casefold(): obj.__name__
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__name__ != name
}
_EXC_SUFFIXES = ("error", "exception", "warning", "interrupt", "exit")
_GENERIC = frozenset({"error", "errors", "exception", "exceptions"})
_RAISE_WORDS = frozenset(
    {"raise", "raises", "raised", "raising", "error", "errors", "errored", "exception",
     "exceptions", "throw", "throws", "thrown", "throwing", "fail", "fails", "failed",
     "failing", "crash", "crashes", "crashed", "traceback", "breaks", "explodes"}
)  # fmt: skip
_OK_WORDS = frozenset(
    {"works", "work", "worked", "working", "fine", "ok", "okay", "runs", "run", "ran",
     "succeeds", "succeed", "success", "successfully", "passes", "normally", "completes",
     "clean", "cleanly"}
)  # fmt: skip
_IDENT = re.compile(r"[A-Za-z_][\w.']*\w|[A-Za-z_]")
# exception classes typed as words: "key error", "Zero Division Error", "out of memory error"
_KNOWN_EXCEPTIONS = {n.casefold(): n for n in (*BUILTIN_MRO, "LinAlgError", "OutOfMemoryError")}
_WORDED = re.compile(r"\b((?:(?!(?:error|exception|warning)\b)[A-Za-z]+(?:\s+|-)){1,4})"
                     r"(error|exception|warning)\b", re.I)


def _joined(match: re.Match[str]) -> str:
    """A run of words ending in error/exception/warning, as the class it names
    (`key error` -> `KeyError`), from its longest known tail; else as typed."""
    words = match.group(1).replace("-", " ").split()
    for i in range(len(words)):
        name = _KNOWN_EXCEPTIONS.get("".join(words[i:]).casefold() + match.group(2).casefold())
        if name is not None:
            return " ".join(words[:i] + [name])
    return match.group(0)


def join_worded(text: str) -> str:
    """Exception classes typed as words joined into their names: "it raises a key
    error" -> "it raises a KeyError" (only names of known classes)."""
    return _WORDED.sub(_joined, text) if len(text) <= MAX_SENTENCE else text
_NOTHING = frozenset({"nothing", "none", "null", "nil"})

# stdout
# (not None: a printed `None` is output, and print(f()) prints it)
STDOUT_EMPTY = re.compile(
    r"\(?(?:it\s+|that\s+|this\s+|the\s+code\s+)?"
    r"(?:nothing|empty|blank|no\s+output|(?:an?\s+)?empty\s+(?:output|line|string)"
    r"|nothing\s+(?:is\s+|gets\s+|will\s+be\s+)?(?:printed|shown|output)"
    r"|(?:prints|outputs|shows|will\s+print|would\s+print)\s+nothing"
    r"|(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+print(?:\s+anything)?"
    r"|no\s+(?:output|lines?)\s+(?:is\s+|are\s+)?(?:printed|shown))"
    r"(?:\s+at\s+all)?\)?")


def _require(text: str) -> str:
    if not text:
        raise InvalidPrediction("Type an answer.")
    return text


# ---- bool and same_storage -------------------------------------------------------


def _yes_no_prefix(low: str) -> str:
    """Code on the left of a yes/no answer, skipped: `t.is_contiguous() = False`."""
    lhs = _CODE_LHS.match(low)
    return low[lhs.end() :] if lhs and lhs.end() < len(low) else low


def read_bool_pred(text: str, same_storage: bool = False) -> BoolP | NoneP:
    if len(text) > MAX_SENTENCE:
        raise InvalidPrediction("That is too long for a yes-or-no answer; a few words will do.")
    low = collapse(_require(text).casefold())
    if low in NONE_WORDS:
        return NoneP()
    low = _yes_no_prefix(low)
    m = _TENSOR_BOOL.fullmatch(low)
    if m:
        return BoolP(m.group(1) in ("true", "1"))
    m = _NUMBER.fullmatch(low)
    if m and float(low) in (0.0, 1.0):
        return BoolP(float(low) == 1.0)
    try:
        value = polarity.shares_memory(low) if same_storage else polarity.yes_no(low)
    except polarity.Ambiguous:
        raise InvalidPrediction("That says both yes and no; which is it? ") from None
    if value is not None:
        return BoolP(value, worded=low not in ("true", "false"))
    raise InvalidPrediction()


# ---- text and choice -------------------------------------------------------------

_GRAD_FN_REPR = re.compile(r"<\s*([\w.]+)(?:\s+object)?(?:\s+at\s+[^<>]*)?\s*>", re.I)


def text_key(text: str) -> str:
    """A token for comparing names whose case means nothing (choices, grad_fn,
    classes): noise stripped, whitespace collapsed, a repr unwrapped, case folded."""
    return _text_key(text) if len(text) <= 2000 else _text_key.__wrapped__(text)


@lru_cache(maxsize=1024)  # names are looked at again and again; long texts are not kept
def _text_key(text: str) -> str:
    t = collapse(strip_noise(normalise_chars(text)))
    t = re.sub(r"^grad_fn\s*=\s*", "", t)
    m = _GRAD_FN_REPR.fullmatch(t)
    if m:
        t = m.group(1)
    return t.casefold()


# "ExpBackward0 or MulBackward0", "it's cpu or cuda": two answers, not a name
_TWO_NAMES = re.compile(r"(?:^|\s)(?:either\s+)?[\w.<>'\"`=]+,?\s+or\s+[\w.<>'\"`=()]+$", re.I)
# a pasted NumPy array: `array([1., 2.], dtype=float32)`, `np.array(2.)`
NUMPY_ARRAY = re.compile(r"(?:np\.|numpy\.)?array\(.*\)", re.S)


def read_text_pred(text: str) -> TextP:
    check_length(text)
    if text.strip() in ("''", '""'):
        return TextP("")
    t = collapse(strip_noise(normalise_chars(text)))
    _require(t)
    if len(t) <= 300 and _TWO_NAMES.search(t):
        raise InvalidPrediction("That gives two answers; which one is it? ", how=False)
    if len(t) <= 100_000 and NUMPY_ARRAY.fullmatch(t):
        raise InvalidPrediction("That is a NumPy array, not a name. ")
    return TextP(t)


def _as_number(text: str) -> Num | None:
    try:
        node = parse_value(text)
    except InvalidPrediction:
        return None
    return node if isinstance(node, Num) else None


_ASIDE = re.compile(r"\s*\([^()]*\)\s*$")  # a choice's closing aside: "(about 0.69)"


def _form_key(text: str) -> str | None:
    """A choice text without the space between its tokens: `(2,3)` is `(2, 3)`
    (None for what the lexer can't read)."""
    if len(text) > 500:
        return None
    try:
        return "".join(tok.text for tok in tokenize(text) if tok.kind != "EOF").casefold()
    except ValueError:  # (InvalidPrediction is one)
        return None


_POSITION = re.compile(r"(?:option|choice|answer|number|no\.?|#)\s*\(?([0-9]{1,4})\)?"
                       r"|([0-9]{1,4})\)")


def _whole_number_texts(numbered: list[Num | None]) -> bool:
    return any(n is not None and getattr(n.lit, "is_int", False) for n in numbered)


def choice_marks(choices: tuple[str, ...]) -> list[str]:
    """How a front end labels the choices: 1, 2, 3 ... or, where some choice's text is
    itself a whole number (so that a typed number means that text), a, b, c ... (with at
    most 10 choices; more keep their numbers, which `option N` and `N)` still reach)."""
    numbered = [_as_number(c) if len(c) < 200 else None for c in choices]
    if _whole_number_texts(numbered) and len(choices) <= 10:
        return [chr(ord("a") + i) for i in range(len(choices))]
    return [str(i) for i in range(1, len(choices) + 1)]


def read_choice_pred(text: str, choices: tuple[str, ...]) -> ChoiceP | NoneP:
    """A choice by number (`2`, `option 2`, `(2)`), by text, or by letter (`b`).

    A whole number from 1 to the number of choices is that choice's number, unless
    some choice's text is itself a whole number: then a typed number means the text
    it equals (with the choices `1`, `3`, `2`, typing `2` picks the third; with `1`,
    `7`, typing `2` is asked again), and a position is `option 2`, `2)` or a letter.
    Any other answer is matched to a choice's text (form ignored: case, unless two
    choices differ only by case; the space between tokens, `(2,3)` for `(2, 3)`;
    `2.0` is the choice `2`), then read as a letter (`b`, with at most 10 choices)."""
    _require(text.strip())
    key = text_key(text)
    numbered = [_as_number(c) if len(c) < 200 else None for c in choices]
    # a typed whole number could be a choice's text only where a text is a whole number
    numeric = _whole_number_texts(numbered)
    m = _POSITION.fullmatch(key)
    if m and 1 <= int(m.group(1) or m.group(2)) <= len(choices):
        return ChoiceP(int(m.group(1) or m.group(2)) - 1)
    bare = re.fullmatch(r"\(?([0-9]{1,4})[.:]?\)?", key)
    if bare and not numeric and 1 <= int(bare.group(1)) <= len(choices):
        return ChoiceP(int(bare.group(1)) - 1)
    exact = collapse(strip_noise(normalise_chars(text)))
    plain = [collapse(strip_noise(normalise_chars(c))) for c in choices]
    if exact in plain:
        return ChoiceP(plain.index(exact))
    keys = [text_key(c) for c in choices]
    if keys.count(key) == 1:  # case ignored, unless two choices differ only by case
        return ChoiceP(keys.index(key))
    short_keys = [text_key(_ASIDE.sub("", c)) for c in choices]  # "(about 0.69)" left off
    if short_keys.count(key) == 1 and key not in keys:
        return ChoiceP(short_keys.index(key))
    typed = _as_number(text) if len(text) < 200 else None
    if typed is not None:
        for i, num in enumerate(numbered):
            if num is not None and num.lit.value == typed.lit.value:
                return ChoiceP(i)
    form = _form_key(strip_noise(normalise_chars(text)))
    forms = [_form_key(strip_noise(normalise_chars(c))) for c in choices]
    if form is not None and forms.count(form) == 1:
        return ChoiceP(forms.index(form))
    m = re.fullmatch(r"\(?([a-z])[).:]?", key)
    if m and len(choices) <= 10 and ord(m.group(1)) - ord("a") < len(choices):
        return ChoiceP(ord(m.group(1)) - ord("a"))
    if key in NONE_WORDS:
        return NoneP()
    if typed is not None and numeric:
        raise InvalidPrediction("Some choices are numbers, so a number is read as one of "
                                "them: type the choice itself, or its letter. ")
    raise InvalidPrediction()


# ---- exception -------------------------------------------------------------------


def exception_name(name: str) -> str:
    """The name an exception is known by: its last dotted part, without leading
    underscores (torch's `_LinAlgError` is `torch.linalg.LinAlgError`), aliases
    resolved (`IOError` is `OSError`), case folded."""
    last = name.rsplit(".", 1)[-1].lstrip("_").casefold()
    return EXCEPTION_ALIASES.get(last, last).casefold()


def looks_like_exception(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    low = last.casefold()
    if last in BUILTIN_MRO:
        return True
    return any(low.endswith(s) and len(low) > len(s) for s in _EXC_SUFFIXES)


def _is_name(ident: str) -> bool:
    last = ident.rsplit(".", 1)[-1]
    return last == "Exception" or (looks_like_exception(ident) and last.casefold() not in _GENERIC)


def _message_cut(text: str) -> str:
    """The answer without the message after the first exception name
    (`RuntimeError: element 0 ...`, `RuntimeError('x')`): a message is not a claim."""
    for m in _IDENT.finditer(text):
        if _is_name(m.group()):
            rest = text[m.end() :].lstrip()
            if rest[:1] in (":", "("):
                return text[: m.end()]
    return text


def _clause_exc(original: str) -> tuple[list[tuple[str, str]], bool | None]:
    """A clause's claims: ("named", Name) / ("negated", Name) / ("any", "") /
    ("none", ""), and its bare yes/no answer word (a weak claim) if it is one."""
    clause = original.lower()
    value, rest = polarity.answer_word(clause)
    if value is not None and not rest.strip():
        return [], value
    if value is not None:
        original = original[len(original) - len(rest) :]  # "no, it raises ...": after "no"
    claims: list[tuple[str, str]] = []
    negated = carry = False  # carry: "doesn't raise RuntimeError" negates the name too
    for m in _IDENT.finditer(original):
        ident = m.group()
        word = ident.lower().replace("'", "")
        if _is_name(ident):
            claims.append(("negated" if negated or carry else "named",
                           ident.rsplit(".", 1)[-1]))
            negated = carry = False
        elif word in _RAISE_WORDS:  # "doesn't raise an error": both negated
            claims.append(("none" if negated or carry else "any", ""))
            carry, negated = negated or carry, False
        elif word in _NOTHING and not negated:
            claims.append(("none", ""))  # "nothing is raised": no error, and a negation
            negated = True
        elif word in _OK_WORDS:
            claims.append(("any" if negated else "none", ""))
            negated = carry = False
        elif polarity.is_negator(word):
            negated = True
    if any(mode == "negated" for mode, _ in claims):  # the "no" is about that name
        claims = [(mode, name) for mode, name in claims if mode != "none"]
    return claims, None


def _ask(what: str) -> InvalidPrediction:
    return InvalidPrediction(what, how=True)


def read_exception_pred(text: str) -> ExcP:
    t = join_worded(collapse(strip_noise(normalise_chars(text))))
    _require(t)
    head = _message_cut(t[:MAX_SENTENCE])  # a pasted traceback: its head says what was raised
    if head.casefold() in NONE_WORDS:
        return ExcP("none")
    named: dict[str, str] = {}
    negated: set[str] = set()
    modes: set[str] = set()
    weak: set[bool] = set()
    for original in polarity.clauses(head):
        if has_hedge(original.lower()):
            raise _ask("That sounds unsure: take a guess. ")
        claims, answer = _clause_exc(original)
        if answer is not None:
            weak.add(answer)
        for mode, name in claims:
            if mode == "named":
                named.setdefault(exception_name(name), name)
            elif mode == "negated":
                negated.add(name)
            else:
                modes.add(mode)
    if len(named) > 1:
        raise _ask("That names more than one exception; which one is raised? ")
    if named and "none" in modes or len(modes) > 1:
        raise _ask("That says both that it raises and that it does not; which is it? ")
    if named:
        return ExcP("named", next(iter(named.values())))
    if modes:
        return ExcP(modes.pop())
    if negated:
        raise _ask("That says what is not raised; say what is. ")
    if len(weak) == 1:
        return ExcP("any" if weak.pop() else "none")
    if len(weak) > 1:
        raise _ask("That says both yes and no; which is it? ")
    if _IDENT.fullmatch(t):
        raise InvalidPrediction(Said(t), " doesn't look like an exception type (those end in "
                                "Error, Exception or Warning). ")
    raise InvalidPrediction()


# ---- stdout ----------------------------------------------------------------------


def says_nothing_printed(text: str) -> bool:
    """"nothing", "no output", "it prints nothing", 출력 없음: a prediction that no
    output comes."""
    t = text.strip()
    said = collapse(strip_noise(t)).casefold() if len(t) <= 200 else ""
    return bool(said) and (STDOUT_EMPTY.fullmatch(said) is not None
                           or korean.says_nothing_printed(said))


def read_stdout_pred(text: str) -> StdoutP:
    check_length(text)
    t = text.strip()
    if not t:
        raise InvalidPrediction("Type what you expect it to print, or 'nothing'.", how=False)
    return StdoutP(t, says_nothing_printed(t))
