"""The kernel's messages a learner reads (a timeout, a process still running, a kernel
that died), in the language tutor speaks.

The kernel package imports nothing else of tutor (it is copied alone onto another
interpreter for `--python`, kernel/launch.py), so it does not import `tutor.i18n`: it
uses that layer when the process has loaded it (tutor's own process always has), and
speaks English where it has not.  The literals given to `_` and `ngettext` here are in
tutor's catalogs like any other (scripts/i18n_catalog.py finds them).
"""

from __future__ import annotations

import sys
from typing import Any


def _(message: str) -> str:
    layer = sys.modules.get("tutor.i18n")
    return message if layer is None else str(layer._(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    layer = sys.modules.get("tutor.i18n")
    if layer is None:
        return singular if n == 1 else plural
    return str(layer.ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Marks `message` for the catalog (translated where it is shown, with `_`)."""
    return message


# ---------------------------------------------------------------- words on the wire
# A message made inside the lesson's process (which has no translation layer) travels
# as its English text and, beside it, as `Words` (tutor/kernel/wire.py): the msgid,
# marked with N_ where it is written, and its values as strings.  Tutor's process shows
# it translated (`translated`); JSON and records keep the English text.

MAX_WORDS_ARGS = 8
MAX_WORDS_LIST = 16  # words in one value that is a list of them (said joined by commas)
MAX_WORDS_DEPTH = 2  # a value may itself be words, or a list of words, this deep


def said(msgid: str, **args: object) -> dict[str, Any]:
    """`msgid` with its values, as a reply carries it (a `Words`).  A value is a
    string, or itself words (`said(...)`: translated in its turn), or a list of words
    (said joined by commas: what a lesson's code broke, one phrase per thing)."""
    return {"msgid": msgid, "args": {k: v if isinstance(v, (dict, list)) else str(v)
                                     for k, v in args.items()}}


def english(words: Any, depth: int = 0) -> str | None:
    """The English text of `words`, or None where it is not well-formed."""
    return _render(words, depth, lambda msgid: msgid)


def _render(words: Any, depth: int, speak: Any) -> str | None:
    if not isinstance(words, dict) or not isinstance(words.get("msgid"), str):
        return None
    args = words.get("args", {})
    if not isinstance(args, dict):
        return None
    text: dict[str, str] = {}
    for key, value in args.items():
        if not isinstance(key, str):
            return None
        if isinstance(value, str):
            text[key] = value
            continue
        if depth >= MAX_WORDS_DEPTH:
            return None
        if isinstance(value, dict):
            inner = _render(value, depth + 1, speak)
        elif isinstance(value, list) and 0 < len(value) <= MAX_WORDS_LIST:
            parts = [_render(w, depth + 1, speak) for w in value]
            inner = None if any(p is None for p in parts) else ", ".join(
                p for p in parts if p is not None)
        else:
            return None
        if inner is None:
            return None
        text[key] = inner
    try:
        return str(speak(words["msgid"]).format(**text))
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def translated(text: str, words: Any) -> str:
    """`text` as the learner reads it: `words` translated where given and well-formed
    (its English is `text`'s own), else `text` as it came."""
    if english(words) is None:
        return text
    said_here = _render(words, 0, _)
    return text if said_here is None else said_here  # (None: a translation that names a
    # value the English does not)


def translated_output(text: str, note: Any) -> str:
    """A captured stream whose end is the kernel's note (`… output truncated (...)`),
    with that note translated; the text unchanged where it does not end with it."""
    tail = english(note)
    if not tail or not text.endswith(tail):
        return text
    return text[: len(text) - len(tail)] + translated(tail, note)


class Worded:
    """An exception of the kernel's own whose message is `words` (shown translated):
    `exception` observations (tutor/kernel/observe.py) carry them."""

    words: dict[str, Any] | None = None
