"""Messages as text: parts (base/parts.py) rendered in a kind's style, and the
"how to write one" ending of an unreadable answer's message."""

from __future__ import annotations

from ..base.parts import Item, Live, Msg, Said, short
from .display import PLAIN, Style, show, show_item


def render(msg: Msg, style: Style = PLAIN) -> str:
    out = []
    for part in msg:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Said):
            out.append(short(part.text, part.limit))
        elif isinstance(part, Live):
            out.append(one_line(show(part.obs, style)))
        elif isinstance(part, Item):
            out.append(show_item(part.obs))
    text = "".join(out)
    if text.endswith("..") and not text.endswith("..."):
        text = text[:-1]  # a sentence ends once, even after "1."
    return text


def one_line(text: str) -> str:
    """A value torch writes on several lines, as a sentence quotes it: `Parameter
    containing: tensor([1.], ...)`, `tensor([[0., 1.], [2., 3.]])` (the value's own
    block, shown beside the sentence, keeps torch's layout)."""
    return " ".join(line.strip() for line in text.splitlines()) if "\n" in text else text


def listing(examples: list[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    if len(examples) <= 1:
        return "".join(examples)
    return ", ".join(examples[:-1]) + " or " + examples[-1]


def how_to(how: str, examples: list[str]) -> str:
    """The sentence an unreadable answer's message ends with: `how`, then the
    examples (already chosen to be wrong for this question)."""
    how = how.rstrip(".")
    return f"{how}, like {listing(examples)}." if examples else f"{how}."


def invalid_message(parts: tuple[str | Said, ...], how: str | None) -> str:
    """An unreadable answer's message: what is wrong, then how to write one."""
    text = render(parts).strip()
    if how:
        text = f"{text} {how}" if text else how
    return text
