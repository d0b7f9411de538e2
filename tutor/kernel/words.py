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


def said(msgid: str, **args: object) -> dict[str, Any]:
    """`msgid` with its values, as a reply carries it (a `Words`)."""
    return {"msgid": msgid, "args": {k: str(v) for k, v in args.items()}}


def english(words: Any) -> str | None:
    """The English text of `words`, or None where it is not well-formed."""
    if not isinstance(words, dict) or not isinstance(words.get("msgid"), str):
        return None
    args = words.get("args", {})
    if not isinstance(args, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in args.items()):
        return None
    try:
        return str(words["msgid"].format(**args))
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def translated(text: str, words: Any) -> str:
    """`text` as the learner reads it: `words` translated where given and well-formed
    (its English is `text`'s own), else `text` as it came."""
    if english(words) is None:
        return text
    try:
        return str(_(words["msgid"]).format(**words["args"]))
    except (KeyError, IndexError, ValueError, AttributeError):
        return text  # (a translation that names a value the English does not)


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
