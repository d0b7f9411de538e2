"""Prose for plain terminals: how wide to write, and lines wrapped between words.

`tutor play` (and any plain-text command) writes its own words (titles, questions,
verdicts, feedback, hints) through `fill`, so a terminal never splits a word at
its edge; data (code, printed output, values, pictures) keeps its own lines.
Pure: stdlib only.

    width = terminal_width(sys.stdout)            # the terminal's columns, 40..100
    print(fill("✗ not quite: ...", width, "  ", "    "))
    print(title_line("A long lesson title", width))  # == A long lesson title ==
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
import unicodedata
from typing import TextIO

MIN_WIDTH = 40
MAX_WIDTH = 100  # wider prose is hard to read; pictures and code are not cut to it
KEEP = "\u00a0"  # no-break space: textwrap breaks only at ASCII whitespace


def terminal_width(stream: TextIO | None = None) -> int:
    """The columns of the terminal `stream` writes to (the COLUMNS variable first; 80
    when it is not a terminal), kept between MIN_WIDTH and MAX_WIDTH."""
    columns = 0
    if os.environ.get("COLUMNS", "").isdigit():
        columns = int(os.environ["COLUMNS"])
    elif stream is not None:
        try:
            if stream.isatty():
                columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):  # a file-like object, a closed stream
            columns = 0
    else:
        columns = shutil.get_terminal_size((80, 24)).columns
    return max(MIN_WIDTH, min(MAX_WIDTH, columns or 80))


def fill(text: str, width: int, first: str = "", rest: str | None = None,
         keep: tuple[str, ...] = ()) -> str:
    """`text` wrapped to `width` columns between words: the first line starts with
    `first`, the others with `rest` (default: as many spaces as `first`).

    Words longer than a line stay whole (a terminal then folds them, but no line
    breaks inside a word that fits).  Each string of `keep` stays on one line when
    it fits (e.g. an example such as `[[1, 0], [0, 1]]`).  Line breaks in `text`
    are kept: each line is wrapped on its own, continuing with `rest`."""
    rest = " " * cells(first) if rest is None else rest
    for phrase in keep:
        text = text.replace(phrase, phrase.replace(" ", KEEP))
    out: list[str] = []
    for i, line in enumerate(text.split("\n")):
        lead = first if i == 0 else rest
        out += _wrap(line, max(1, width), lead, rest) or [lead.rstrip()]
    return "\n".join(out).replace(KEEP, " ")


def cells(text: str) -> int:
    """Terminal columns `text` takes: wide characters (Hangul, CJK) take two."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF"
               else 1 for c in text)


SPACES = re.compile(r"[ \t]+")  # where a line may break (never at KEEP, a no-break space)


def _wrap(line: str, width: int, lead: str, rest: str) -> list[str]:
    """textwrap's wrapping, by terminal columns where the text or its lead has wide
    characters (Korean: a line of 40 Hangul syllables is 80 columns wide).  Lines break only at
    ASCII spaces, as textwrap's do: never inside a word (a Hangul syllable, a code
    span joined to its particle: `grad_fn`이), never at a no-break space (`keep`)."""
    if all(cells(text) == len(text) for text in (line, lead, rest)):  # (a Korean label too)
        return textwrap.wrap(line, width, initial_indent=lead, subsequent_indent=rest,
                             break_long_words=False, break_on_hyphens=False)
    indent = line[:len(line) - len(line.lstrip(" "))]  # (kept, as textwrap keeps it)
    out: list[str] = []
    current = ""
    for word in SPACES.split(line.strip(" \t")):
        prefix = lead if not out else rest
        candidate = f"{current} {word}" if current else indent + word if not out else word
        if current and cells(prefix + candidate) > width:
            out.append(prefix + current)
            current = word
        else:
            current = candidate
    if current:
        out.append((lead if not out else rest) + current)
    return out


def title_line(title: str, width: int, mark: str = "==") -> str:
    """`== title ==`, wrapped so that the closing mark ends the last line of words
    (never a line of its own)."""
    room = max(1, width - 2 * (cells(mark) + 1))
    lines = _wrap(title, room, "", "") or [""]  # (by terminal columns: a Korean title)
    pad = " " * (len(mark) + 1)
    out = [f"{mark} {lines[0]}", *(pad + line for line in lines[1:])]
    out[-1] += f" {mark}"
    return "\n".join(out)
