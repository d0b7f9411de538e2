"""Light Markdown for short lesson texts (questions, explanations, feedback).

Full `Markdown` widgets are costly to mount; the short texts a lesson shows on
every question need only paragraphs, `code`, **bold** and *italic*.
"""

from __future__ import annotations

import re

from textual.content import Content

from tutor.safetext import sanitize

LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s|^    ")
TOKEN = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def inline(text: str) -> Content:
    """`text` with inline Markdown turned into styles; single newlines join lines."""
    text = sanitize(text)  # (lesson text is clean already; feedback may quote live values)
    paragraphs = [_join(block) for block in re.split(r"\n\s*\n", text.strip())]
    out: list[Content] = []
    for para in paragraphs:
        pieces: list[tuple[str, str] | str] = []
        pos = 0
        for m in TOKEN.finditer(para):
            pieces.append(para[pos:m.start()])
            code, bold, italic = m.groups()
            if code is not None:
                pieces.append((code, "$text-accent"))
            elif bold is not None:
                pieces.append((bold, "bold"))
            else:
                pieces.append((italic, "italic"))
            pos = m.end()
        pieces.append(para[pos:])
        out.append(Content.assemble(*pieces))
    return Content("\n\n").join(out)


def _join(block: str) -> str:
    """Soft-wrapped lines become one; list items and indented lines keep their breaks."""
    out = ""
    for line in block.splitlines():
        if not out:
            out = line.rstrip() if LIST_ITEM.match(line) else line.strip()
        elif LIST_ITEM.match(line):
            out += "\n" + line.rstrip()
        else:
            out += " " + line.strip()
    return out
