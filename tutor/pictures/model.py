"""A picture: lines of styled segments, renderable as plain text or by any UI.

Styles are semantic roles, not colours; a front end maps them as it likes
(the plain-text renderer ignores them):

    title   the picture's heading          op      an autograd node / module class
    name    a lesson variable              leaf    a leaf tensor / parameter
    dim     structure and secondary facts  warn    something surprising (not registered)
    bad     a failure (freed, error)       ok      a reassuring fact (kept, registered)
    rule    box-drawing lines
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tutor.i18n import N_, _
from tutor.i18n import width as cells

ELLIPSIS = "…"
GRAD_FN_OF = N_(" = grad_fn of ")  # a graph node held by several names: `= grad_fn of a, b`
# what opens a fact of one entry: where a long entry may break (with GRAD_FN_OF as said)
SEPARATORS = (" · ", " ↑ ", GRAD_FN_OF)


def separators() -> tuple[str, ...]:
    """SEPARATORS, with GRAD_FN_OF in the language spoken."""
    return (*SEPARATORS, _(GRAD_FN_OF))


@dataclass(frozen=True)
class Segment:
    text: str
    style: str = ""


Line = tuple[Segment, ...]


def seg(text: str, style: str = "") -> Segment:
    return Segment(text, style)


def line(*parts: Segment | str) -> Line:
    return tuple(p if isinstance(p, Segment) else Segment(p) for p in parts if p)


def line_text(ln: Line) -> str:
    return "".join(s.text for s in ln)


def fit(ln: Line, width: int) -> Line:
    """Cut a line to `width` terminal cells (Hangul takes two), ending in an ellipsis
    when cut."""
    total = sum(cells(s.text) for s in ln)
    if total <= width:
        return ln
    out: list[Segment] = []
    room = width - 1
    for s in ln:
        if room <= 0:
            break
        kept = head(s.text, room)
        out.append(Segment(kept, s.style))
        room -= cells(kept)
    out.append(Segment(ELLIPSIS, "dim"))
    return tuple(out)


def head(text: str, room: int) -> str:
    """The longest start of `text` that takes at most `room` cells."""
    used = 0
    for i, c in enumerate(text):
        used += cells(c)
        if used > room:
            return text[:i]
    return text


def wrap(text: str, width: int, indent: str = "", style: str = "") -> list[Line]:
    """Word-wrap prose to `width` terminal cells (continuation lines get `indent`)."""
    words = text.split()
    lines: list[Line] = []
    current = ""
    for word in words:
        prefix = indent if lines else ""
        candidate = f"{current} {word}" if current else prefix + word
        if current and cells(candidate) > width:
            lines.append(line(seg(current, style)))
            current = indent + word
        else:
            candidate = candidate if current else prefix + word
            current = candidate
    if current:
        lines.append(line(seg(current, style)))
    return [fit(ln, width) for ln in lines]


@dataclass
class Picture:
    """What a renderer produces: a title and lines that fit `width` columns."""

    kind: str  # graph, storage, tree, error
    title: str
    lines: list[Line] = field(default_factory=list)
    width: int = 80

    def add(self, *parts: Segment | str) -> None:
        self.lines.append(fit(line(*parts), self.width))

    def add_flowing(self, parts: Sequence[Segment], lead: str) -> None:
        """One entry (a graph's node and its facts) on as many lines as it needs: it
        breaks only before a fact (a segment opening with one of SEPARATORS), and each
        line it goes on to starts with `lead` (the tree's lines going on below the
        entry). Only a fact too long for a line of its own is cut."""
        chunks: list[list[Segment]] = []
        for part in parts:
            if not chunks or part.text.startswith(separators()):
                chunks.append([part])
            else:
                chunks[-1].append(part)
        current: list[Segment] = []
        for chunk in chunks:
            size = sum(cells(s.text) for s in chunk)
            if current and sum(cells(s.text) for s in current) + size > self.width:
                self.lines.append(fit(tuple(current), self.width))
                first = chunk[0]
                current = [Segment(lead, "rule"),
                           Segment(first.text.removeprefix(" "), first.style), *chunk[1:]]
            else:
                current += chunk
        self.lines.append(fit(tuple(current), self.width))

    def extend(self, lines: Iterable[Line]) -> None:
        self.lines.extend(fit(ln, self.width) for ln in lines)

    def title_lines(self) -> list[str]:
        """The title, wrapped to the width between words (a long expression in it
        goes on below, not cut)."""
        return [line_text(ln).rstrip() for ln in wrap(self.title, self.width, indent="  ")]

    def text(self) -> str:
        body = [line_text(ln).rstrip() for ln in self.lines]
        return "\n".join([*self.title_lines(), *body]) + "\n"

    def __str__(self) -> str:
        return self.text()
