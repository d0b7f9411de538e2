"""Lesson Markdown (questions, intros, hints, explanations, titles) as styled Content.

`tutor.markup` reads the text (the same reading `tutor play` prints as plain text);
this maps its runs to theme styles.  Full `Markdown` widgets are costly to mount,
and lesson texts need only paragraphs, lists, code, **bold** and *italic*.
Lesson text is never parsed as Textual markup and is made terminal-safe.
"""

from __future__ import annotations

from textual.content import Content

from tutor.markup import Block, blocks, runs
from tutor.safetext import sanitize

STYLES = {"": "", "code": "$text-accent", "bold": "bold", "italic": "italic"}


def _line(text: str) -> Content:
    return Content.assemble(*[(sanitize(t), STYLES[s]) for t, s in runs(text)])


def _block(block: Block) -> Content:
    if block.kind == "code":
        return Content.styled(sanitize(block.text), "$text-accent")
    body = _line(block.text)
    if block.kind == "item":
        bullet = "•" if block.marker in "-*+" else block.marker
        return Content("  " * block.depth + bullet + " ") + body
    return body


def inline(text: str) -> Content:
    """`text` with its Markdown turned into styles: blocks apart, soft breaks joined."""
    out = Content()
    previous: Block | None = None
    for block in blocks(text):
        if previous is not None:
            out += Content("\n" if block.kind == previous.kind == "item" else "\n\n")
        out += _block(block)
        previous = block
    return out


def title(text: str) -> Content:
    """A one-line title (a lesson's, a pack's): inline marks only."""
    return _line(" ".join(text.split()))
