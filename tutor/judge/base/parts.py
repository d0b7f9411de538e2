"""Messages as parts, so that what a message may show is decided by its type.

* `str`: prose written in the judge's code;
* `Said`: the learner's own words, quoted back (shortened);
* `Live`: the live value, shown in the prompt kind's notation;
* `Item`: one item or element of the live value, shown on its own.

A reader's message (an unreadable answer) holds only prose and `Said`: it cannot
show the live value, which readers never see.  A comparer's message (a counted
verdict) may show the live value, through `Live` and `Item`, rendered by the
showing layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SAID_LIMIT = 80


@dataclass(frozen=True)
class Said:
    text: str
    limit: int = SAID_LIMIT


@dataclass(frozen=True)
class Fill(Said):
    """A value the judge's code computed (a count, a name, a shape), shown as it is: like
    the learner's words, a placeholder in the sentence its translation reorders."""

    limit: int = 10**9


@dataclass(frozen=True)
class Live:
    obs: dict[str, Any]


@dataclass(frozen=True)
class Item:
    obs: dict[str, Any]


Part = str | Said | Live | Item
Msg = tuple[Part, ...]


def short(text: str, limit: int = 60) -> str:
    """Shorten `text` for a message."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def plain(parts: tuple[str | Said, ...]) -> str:
    """Prose and quotes of the learner, as text (no live value involved)."""
    return "".join(p if isinstance(p, str) else short(p.text, p.limit) for p in parts)
