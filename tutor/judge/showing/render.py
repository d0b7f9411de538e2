"""Messages as text: parts (base/parts.py) rendered in a kind's style, and the
"how to write one" ending of an unreadable answer's message."""

from __future__ import annotations

from tutor import i18n

from ..base.parts import Item, Live, Msg, Said, short
from .display import PLAIN, Style, show, show_item


def render(msg: Msg, style: Style = PLAIN) -> str:
    """The message as text, in the current language: its prose with a placeholder for
    each value (`The live value is {0}, not {1}.`) is the catalog's msgid (the judge's
    sentences are translated whole, so that word order may change); a message the
    catalog does not hold is said in English."""
    out = []
    template: list[str] = []
    values: list[str] = []
    parts = list(msg)
    listing = False  # inside `a, b, c`
    for k, part in enumerate(parts):
        if isinstance(part, str):
            out.append(part)
            listing = (part == ", " and 0 < k < len(parts) - 1
                       and not isinstance(parts[k - 1], str) and not isinstance(parts[k + 1], str))
            if listing:  # `a, b, c` (items listed one part each): one value of the sentence
                values[-1] += part
            else:
                template.append(part.replace("{", "{{").replace("}", "}}"))
            continue
        if isinstance(part, Said):
            value = short(part.text, part.limit)
        elif isinstance(part, Live):
            value = one_line(show(part.obs, style))
        elif isinstance(part, Item):
            value = show_item(part.obs)
        else:
            continue
        out.append(value)
        if listing:
            values[-1] += value  # (continues the listing)
            listing = False
        else:
            template.append(f"{{{len(values)}}}")
            values.append(value)
    translated = i18n.template("".join(template))
    text = translated.format(*values) if translated is not None else "".join(out)
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
    return ", ".join(examples[:-1]) + i18n._(" or ") + examples[-1]


def how_to(how: str, examples: list[str]) -> str:
    """The sentence an unreadable answer's message ends with: `how`, then the
    examples (already chosen to be wrong for this question)."""
    how = how.rstrip(".")
    return (i18n._("{how}, like {examples}.").format(how=how, examples=listing(examples))
            if examples else f"{how}.")


def invalid_message(parts: tuple[str | Said, ...], how: str | None) -> str:
    """An unreadable answer's message: what is wrong, then how to write one."""
    text = render(parts).strip()
    if how:
        text = f"{text} {how}" if text else how
    return text
