"""Comparing word predictions (bool, same_storage, text, exception, stdout) with
observations."""

from __future__ import annotations

import re
from dataclasses import replace

from tutor import i18n

from ..base.obs import Obs, otype, public_exception_name, single_number, token, truncated
from ..base.parts import Fill, Live, Msg, Said, short
from ..base.text import NONE_WORDS, collapse, normalise_chars, strip_noise
from ..base.verdict import Outcome, correct, incorrect, partial
from ..reading.predictions import BoolP, ExcP, StdoutP, TextP
from ..reading.words import exception_name, text_key
from .names import name_matches


def live_bool(live: Obs) -> bool | None:
    if otype(live) == "bool":
        return bool(live.get("value"))
    v = single_number(live)
    if v is None or isinstance(v, complex):
        return None
    return bool(v)


def compare_bool(p: BoolP, live: Obs) -> Outcome:
    v = live_bool(live)
    if v is None:
        return incorrect("The live value is ", Live(live), ", not yes or no.")
    if p.value == v:
        if p.worded:
            return correct("Yes: the live value is True." if v
                           else "No: the live value is False.")
        return correct("It is ", Fill(str(v)), ".")
    if p.worded:
        return incorrect("You said ", Fill(_yes_no(p.value)), "; it is ", Fill(_yes_no(v)),
                         " (the live value is ", Fill(str(v)), ").")
    return incorrect("You said ", Fill(str(p.value)), "; the live value is ", Fill(str(v)), ".")


def _yes_no(value: bool) -> str:
    return i18n._("yes") if value else i18n._("no")


def compare_storage(p: BoolP, live: Obs) -> Outcome:
    v = live_bool(live)
    if v is None:
        return incorrect("The live value is ", Live(live), ", not yes or no.")
    if p.value == v:
        return correct("They share memory (one storage)." if v
                       else "They do not share memory.")
    if v:
        return incorrect("You said ", Fill(_yes_no(p.value)),
                         "; they share memory (one storage).")
    return incorrect("You said ", Fill(_yes_no(p.value)), "; they do not share memory.")


def compare_text(p: TextP, live: Obs) -> Outcome:
    if name_matches(p.token, live):
        return correct("The live value is ", Live(live), ".")
    details: tuple[Msg, ...] = ()
    tok = token(live)
    if tok and p.token and text_key(tok) == text_key(p.token):
        details = (("Case matters here: the live value is ", Fill(tok), "."),)
    elif tok and p.token and text_key(tok).startswith(text_key(p.token)):
        details = (("Close, but the live value is longer: ", Fill(tok), "."),)
    return incorrect("You said ", Said(p.token, 60), "; the live value is ", Live(live), ".",
                     details=details)


def _article(word: str) -> str:
    return "an" if word[:1].casefold() in "aeiou" else "a"


def _sentence(text: str) -> str:
    """End with one period (an exception message may already end with one)."""
    return text + _end(text)


def _end(text: str) -> str:
    """The period a sentence ending in `text` needs: none after one already there."""
    return "" if text.endswith((".", "\u2026", "!", "?")) else "."


def live_exception(live: Obs) -> Obs:
    """What an `exception` prompt sees: the exception raised, or (for anything
    else, such as the value an `expect` evaluated to) no error."""
    return live if otype(live) == "exception" else {"type": "none"}


_ANY_EXCEPTION = frozenset({"exception", "baseexception"})


def compare_exception(p: ExcP, live: Obs) -> Outcome:
    live = live_exception(live)
    if otype(live) == "none":
        if p.mode == "none":
            return correct("It runs without an error.")
        return incorrect("No error: the code ran without raising anything.")
    name = public_exception_name(live)  # the public name (torch's `_LinAlgError` is torch.linalg's)
    msg = str(live.get("message", ""))
    raised = f"{name}: {short(msg, 200)}" if msg else name
    # a short message is part of the sentence; a long one only under it, as the live
    # value (quoted in both, torch's long messages filled eight lines: reader r32)
    said = raised if len(msg) <= 80 and "\n" not in msg else name
    if p.mode == "none":
        return incorrect("It raised ", Fill(said), _end(said))
    mro = [exception_name(str(m)) for m in live.get("mro", [])]
    generic = p.mode == "any" or (exception_name(p.name) in _ANY_EXCEPTION
                                  and exception_name(p.name) in mro)
    if generic and exception_name(name) not in _ANY_EXCEPTION:
        # hedging must not beat knowing: "it raises" / "Exception" is half of "RuntimeError"
        return partial("It raises, yes: ", Fill(f"{_article(name)} {name}"),
                       ". Name the class for full credit.", details=((raised,),))
    if p.mode == "any":
        return correct("It raises ", Fill(said), _end(said))
    typed = exception_name(p.name)
    if typed == exception_name(name):
        return correct("It raises ", Fill(said), _end(said))
    if typed in mro:
        return correct(
            "It raises ", Fill(name), ", which is ", Fill(f"{_article(p.name)} {p.name}"),
            "; the exact type is ", Fill(name), ".", details=((raised,),))
    return incorrect("It raised ", Fill(name), ", not ", Fill(p.name), ".",
                     details=((raised,),))


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


def first_difference(a: str, b: str) -> int:
    """Where two texts first differ (by bisection on slices: no per-character loop)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


_COMMA = re.compile(r"\s*,\s*")
_BREAK = re.compile(r"\s*\n\s*")


def _lines_with_commas(typed: list[str], live_text: str) -> bool:
    """Printed lines typed with commas between them: `pre, forward, hook_b` for the
    three lines pre / forward / hook_b (a comma only where the output breaks a line;
    newlines may stand there too)."""
    if not any("," in t for t in typed):
        return False
    lines = [collapse(line) for line in live_text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    want = _COMMA.sub(", ", ", ".join(lines))
    return any(_COMMA.sub(", ", collapse(_BREAK.sub(", ", t.strip()))) == want for t in typed)


def compare_stdout(p: StdoutP, live: Obs) -> Outcome:
    if otype(live) != "str":
        live_text = token(live) or str(live.get("repr", ""))
    else:
        live_text = str(live.get("value", ""))
    shown = short(collapse(live_text), 200) or i18n._("nothing")  # (출력 없음 in Korean)
    # unicode minus, dashes, full-width digits, curly quotes: form, on both sides
    live_text, p = normalise_chars(live_text), replace(p, text=normalise_chars(p.text))
    want = collapse(live_text)
    forms = [collapse(v) for v in _variants(p.text, live_text)]
    says_none = collapse(strip_noise(p.text)).casefold() in NONE_WORDS
    if want in forms or (p.says_empty and not want) or (says_none and want == "None") \
            or _lines_with_commas(_variants(p.text, live_text), live_text):
        return correct("It printed ", Fill(shown), ".")
    if truncated(live) and any(f.startswith(want) for f in forms):
        return incorrect("The output was too long to show in full, so I can't confirm the rest.")
    details: tuple[Msg, ...] = ()
    typed = forms[-1]
    by_line = _line_difference(p.text, live_text)
    if by_line:
        details = (by_line,)
    elif want and typed:
        n = first_difference(typed, want)
        details = (("The first difference is at character ", Fill(str(n + 1)), ": ",
                    Fill(repr(short(want[n:], 40))), "."),)
    said = i18n._("nothing") if p.says_empty else short(typed, 80)  # (typed as 출력 없음)
    return incorrect("You said ", Fill(repr(said)), "; it printed ",
                     Fill(repr(shown)), ".", details=details)


def _line_difference(typed: str, live_text: str) -> Msg | None:
    """Where an answer typed line by line (or with commas between the lines, or, for
    output of one word a line, with spaces) first differs from the printed lines:
    `Line 3: you said 'hook_a'; it printed 'hook_b'.` (a character count pointed at
    the learner's comma: reader r32).  None where the output is not several lines."""
    lines = [collapse(line) for line in live_text.splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    raw = typed.strip()
    if "\n" in raw or ("," in raw and not any("," in line for line in lines)):
        parts = [collapse(x) for x in re.split(r"\n|,", raw) if x.strip()]
    elif all(" " not in line for line in lines):
        parts = raw.split()
    else:
        return None
    if len(parts) < 2:
        return None
    for k, (said, printed) in enumerate(zip(parts, lines, strict=False), 1):
        if said != printed:
            return ("Line ", Fill(str(k)), ": you said ", Fill(repr(short(said, 40))),
                    "; it printed ", Fill(repr(short(printed, 40))), ".")
    if len(parts) < len(lines):
        return ("It printed ", Fill(str(len(lines))), " lines, you said ",
                Fill(str(len(parts))), "; the next one is ",
                Fill(repr(short(lines[len(parts)], 40))), ".")
    if len(parts) > len(lines):
        return ("It printed only ", Fill(str(len(lines))), " lines; you said ",
                Fill(str(len(parts))), ".")
    return None
