"""The light Markdown of lesson texts (titles, intros, questions, hints, explanations).

Lesson texts use paragraphs, `- ` and `1. ` lists, fenced or indented code, and the
inline marks `code`, **bold** and *italic*.  `blocks` reads them once, for every
front end: the app styles the runs (tutor.ui.widgets.inline), `tutor play` and
the other plain-text commands print `plain_text` (no `**` or backticks left).
Pure: stdlib only.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Literal

from tutor.wrap import cells, fill

BlockKind = Literal["para", "item", "code"]
Style = Literal["", "code", "bold", "italic"]
Run = tuple[str, Style]

_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
# *italic* never opens or closes inside an ASCII word (`a*b*c` is arithmetic), but may
# touch a letter of a script that writes no space before its particles: Korean
# `*타입*에만` is italic followed by 에만, as CommonMark reads it
_TOKEN = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*"
                    r"|(?<![A-Za-z0-9_*])\*(?!\s)(.+?)(?<!\s)\*(?![A-Za-z0-9_*])")


@dataclass(frozen=True)
class Block:
    """A paragraph, a list item (with its marker, e.g. "-" or "2.") or verbatim code."""

    kind: BlockKind
    text: str
    marker: str = ""
    depth: int = 0  # list nesting, in units of the item's leading spaces // 2

    @property
    def runs(self) -> list[Run]:
        return [(self.text, "code")] if self.kind == "code" else runs(self.text)


def runs(text: str) -> list[Run]:
    """Inline marks of one line of text, as (text, style) runs."""
    out: list[Run] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], ""))
        code, bold, italic = m.groups()
        if code is not None:
            out.append((code, "code"))
        else:  # **`grad_fn`**: the marks inside count too (code wins over emphasis)
            style: Style = "bold" if bold is not None else "italic"
            out += [(t, inner or style) for t, inner in runs(bold or italic)]
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], ""))
    return out


def blocks(text: str) -> list[Block]:
    """`text` read as blocks: soft-wrapped lines joined, list items and code kept apart."""
    out: list[Block] = []
    lines = textwrap.dedent(text.strip("\n")).splitlines()
    current: list[str] = []
    item: tuple[str, int] | None = None  # the open list item's marker and depth
    i = 0

    def close() -> None:
        nonlocal current, item
        if current:
            joined = " ".join(part.strip() for part in current)
            out.append(Block("item", joined, item[0], item[1]) if item else Block("para", joined))
        current, item = [], None

    while i < len(lines):
        line = lines[i]
        fenced = _FENCE.match(line)
        if fenced:
            close()
            fence = fenced.group(1)
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            out.append(Block("code", textwrap.dedent("\n".join(body)).rstrip()))
            i += 1
            continue
        if not line.strip():
            close()
            i += 1
            continue
        marked = _ITEM.match(line)
        if marked and current and item is None and marked.group(2)[:-1] not in ("", "1"):
            marked = None  # as in CommonMark, only `1.` may interrupt a paragraph:
            # a wrapped line that happens to start "6. " goes on with the sentence
        if marked:
            close()
            item = (marked.group(2), len(marked.group(1)) // 2)
            current = [marked.group(3)]
        elif line.startswith("    ") and not current:
            code = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                code.append(lines[i][4:])
                i += 1
            out.append(Block("code", "\n".join(code).rstrip()))
            continue
        else:
            current.append(line)
        i += 1
    close()
    return _lone_numbers_as_text(out)


def _numbered(block: Block | None) -> bool:
    return block is not None and block.kind == "item" and block.marker[:-1].isdigit()


def _lone_numbers_as_text(found: list[Block]) -> list[Block]:
    """A numbered item with no numbered item next to it is a paragraph that starts
    with a number ("1. That is one call ..."): no list of one, no renumbering."""
    out = []
    for i, block in enumerate(found):
        before = found[i - 1] if i else None
        after = found[i + 1] if i + 1 < len(found) else None
        if _numbered(block) and not _numbered(before) and not _numbered(after):
            block = Block("para", f"{block.marker} {block.text}")
        out.append(block)
    return out


def plain_inline(text: str) -> str:
    """One line of lesson text without its inline marks (titles, questions)."""
    return "".join(t for t, _ in runs(" ".join(text.split())))


def plain_text(text: str, width: int = 78, indent: str = "", first: str | None = None) -> str:
    """Lesson Markdown as readable plain text, wrapped to `width` columns (every line
    starting with `indent`; the very first with `first` instead, when given: `» `)."""
    if first is not None:
        body = plain_text(text, width, indent)
        return first + body[len(indent):] if body.startswith(indent) else body
    room = max(20, width - len(indent))
    out = ""
    previous: Block | None = None
    for block in blocks(text):
        if block.kind == "code":
            part = textwrap.indent(block.text, indent + "    ")
        else:
            words = "".join(t for t, _ in block.runs)
            lead = ""
            if block.kind == "item":
                lead = "  " * block.depth + ("•" if block.marker in "-*+" else block.marker) + " "
            # by terminal columns (Hangul takes two), between words only
            part = textwrap.indent(fill(" ".join(words.split("\n")), room, lead,
                                        " " * cells(lead)), indent)
        if previous is not None:  # the items of a list stay together
            out += "\n" if block.kind == previous.kind == "item" else "\n\n"
        out += part
        previous = block
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 step', '2 steps' ('1 match', '2 matches' with `many`)."""
    return f"{n} {word if n == 1 else many or word + 's'}"
