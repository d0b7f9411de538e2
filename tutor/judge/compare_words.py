"""Comparing word predictions (bool, same_storage, text, exception, stdout)
with observations."""

from __future__ import annotations

import re

from . import dtypes
from .display import display
from .errors import InvalidPrediction
from .grammar import Num, parse_value
from .numbers import as_live, matches
from .obs import Obs, otype, single_number, token, truncated
from .outcome import Outcome, correct, incorrect
from .parse_words import text_key
from .phrases import lead_in, says_none
from .predictions import BoolP, ExcP, StdoutP, TextP
from .text import NONE_WORDS, collapse, short, strip_noise

_DEVICE = re.compile(r"device\(\s*(?:type\s*=\s*)?'?([\w:]+)'?.*\)")


def _yes_no(value: bool, kind: str) -> str:
    return ("yes" if value else "no") if kind == "same_storage" else str(value)


def live_bool(live: Obs) -> bool | None:
    if otype(live) == "bool":
        return bool(live.get("value"))
    v = single_number(live)
    if v is None or isinstance(v, complex):
        return None
    return bool(v)


def compare_bool(p: BoolP, live: Obs, kind: str) -> Outcome:
    v = live_bool(live)
    if v is None:
        return incorrect(f"The live value is {display(live, kind)}, not yes or no.")
    if kind == "same_storage":
        fact = "they share memory (one storage)" if v else "they do not share memory"
        if p.value == v:
            return correct(f"Right: {fact}.")
        return incorrect(f"You said {_yes_no(p.value, kind)}; {fact}.")
    if p.value == v:
        return correct(f"Right: {v}.")
    return incorrect(f"You said {p.value}; the live value is {v}.")


def _number_text(text: str) -> Num | None:
    try:
        node = parse_value(strip_noise(text))
    except InvalidPrediction:
        return None
    return node if isinstance(node, Num) else None


_ARTICLE = re.compile(r"(?:a|an|the)\s+(\S.*)", re.I)
_CLASS_REPR = re.compile(r"<class\s+'([\w.]+)'>")


def _text_forms(typed: str) -> list[str]:
    """The typed token, and the same without form around it: a leading
    `z.grad_fn =` / `it is`, an article ("a tuple"), `<class 'tuple'>`."""
    out = [typed]
    rest = lead_in(collapse(strip_noise(typed)))
    if rest:
        out.append(rest)
    for v in list(out):
        for pattern in (_ARTICLE, _CLASS_REPR):
            m = pattern.fullmatch(v.strip())
            if m:
                out.append(m.group(1))
    return out


def text_matches(typed: str, live: Obs) -> bool:
    """Does the typed token (or the same token without form around it) name
    the live value?"""
    if otype(live) == "none":
        return says_none(strip_noise(typed)) or any(
            text_key(v) in NONE_WORDS for v in _text_forms(typed)
        )
    return any(_token_matches(v, live) for v in _text_forms(typed))


def _token_matches(typed: str, live: Obs) -> bool:
    t = otype(live)
    a = text_key(typed)
    if t == "dtype" or (t == "str" and dtypes.canonical(str(live.get("value"))) is not None):
        name = dtypes.canonical(typed.strip())
        live_name = dtypes.canonical(str(live.get("value")))
        if name is not None and name == live_name:
            return True
    if t in ("module", "object"):
        cls = str(live.get("class", "")).casefold()
        name = a.removesuffix("()")
        last = name.rsplit(".", 1)[-1]
        return cls in (name, last) or a == text_key(str(live.get("repr", "")))
    if t == "device":
        m = _DEVICE.fullmatch(a)
        return (m.group(1) if m else a) == str(live.get("value", "")).casefold()
    if t in ("int", "float"):
        num = _number_text(typed)
        return num is not None and matches(num.lit, as_live(live.get("value")))
    tok = token(live)
    if tok is None:
        return a == text_key(display(live))
    if t == "grad_fn" and "." in a and "." not in tok:
        # a custom Function prints as <torch.autograd.function.MyPowBackward …>
        a = a.rsplit(".", 1)[-1]
    return a == text_key(tok)


def compare_text(p: TextP, live: Obs) -> Outcome:
    exp = display(live, "text")
    if text_matches(p.token, live):
        return correct(f"Right: {exp}.")
    details = []
    tok = token(live)
    if tok and p.token and text_key(tok).startswith(text_key(p.token)):
        details.append(f"Close, but the live value is longer: {tok}.")
    return incorrect(f"You said {short(p.token)}; the live value is {exp}.", *details)


def _article(word: str) -> str:
    return "an" if word[:1].casefold() in "aeiou" else "a"


def _sentence(text: str) -> str:
    """End with one period (an exception message may already end with one)."""
    return text if text.endswith((".", "\u2026", "!", "?")) else text + "."


def compare_exception(p: ExcP, live: Obs) -> Outcome:
    t = otype(live)
    if t == "none":
        if p.mode == "none":
            return correct("Right: it runs without an error.")
        return incorrect("No error: the code ran without raising anything.")
    if t != "exception":
        return incorrect(f"The live value is {display(live)}, not an exception.")
    name = str(live.get("name", "Exception"))
    last = name.rsplit(".", 1)[-1]
    msg = str(live.get("message", ""))
    raised = f"{name}: {short(msg, 200)}" if msg else name
    if p.mode == "none":
        return incorrect(_sentence(f"It raised {raised}"))
    if p.mode == "any":
        return correct(_sentence(f"Right: it raises {raised}"))
    typed = p.name.casefold()
    if typed == last.casefold():
        return correct(_sentence(f"Right: it raises {raised}"))
    mro = [str(m).rsplit(".", 1)[-1].casefold() for m in live.get("mro", [])]
    if typed in mro:
        return correct(
            f"Right: it raises {name}, which is {_article(p.name)} {p.name}; "
            f"the exact type is {name}.",
            f"{raised}",
        )
    return incorrect(f"It raised {name}, not {p.name}.", raised)


def _variants(typed: str, live_text: str) -> list[str]:
    out = [typed]
    if "\\n" in typed or "\\t" in typed:
        out.append(typed.replace("\\n", "\n").replace("\\t", "\t"))
    live_c = collapse(live_text)
    for v in list(out):
        w = v.strip()
        if len(w) >= 2 and w[0] in "'\"`" and w[-1] == w[0] and not live_c.startswith(w[0]):
            w = w[1:-1]
            out.append(w)
        if w.endswith(".") and not live_c.endswith("."):
            out.append(w[:-1])
    return out


def compare_stdout(p: StdoutP, live: Obs) -> Outcome:
    if otype(live) != "str":
        live_text = token(live) or display(live)
    else:
        live_text = str(live.get("value", ""))
    want = collapse(live_text)
    shown = short(want, 200) if want else "nothing"
    forms = [collapse(v) for v in _variants(p.text, live_text)]
    says_none = collapse(strip_noise(p.text)).casefold() in NONE_WORDS
    if want in forms or (p.says_empty and not want) or (says_none and want == "None"):
        return correct(f"Right: it printed {shown}.")
    if truncated(live) and any(f.startswith(want) for f in forms):
        return incorrect("The output was too long to show in full, so I can't confirm the rest.")
    details = []
    typed = forms[-1]
    n = next(
        (i for i, (a, b) in enumerate(zip(typed, want, strict=False)) if a != b),
        min(len(typed), len(want)),
    )
    if want and typed:
        details.append(f"The first difference is at character {n + 1}: {short(want[n:], 40)!r}.")
    return incorrect(f"You said {short(typed, 80)!r}; it printed {shown!r}.", *details)
