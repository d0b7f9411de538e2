"""Messages must never give the answer away.

When an answer cannot be read, the judge says how to write one, with examples
("Type a number, like 0.6, -4.0 or 1.6094").  An example can be this very
question's answer; then the message would hand it to the learner.  `gives_away`
finds any phrase of a text that would be judged correct against the live value,
and `judge` replaces such a message with one whose examples are all wrong here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .verdict import JudgeSpec, Status

# A message cut into what could be typed as an answer: "like 0.6, -4.0 or tensor(0.6000)".
_COARSE = re.compile(r";\s+|:\s+|\s+or\s+|\blike\s+|\be\.g\.\s*|\btry\s+|\.\.\.|\.\s+|\.$",
                     re.IGNORECASE)
_FINE = re.compile(r",\s+")
_SPACE = re.compile(r"\s+")
# Kinds whose messages must name their few options (yes/no, the choices): never hidden.
SHOWS_OPTIONS = ("bool", "same_storage", "choice")
# Words of the answer language itself, not examples of a value.
_VOCABULARY = {"yes", "no", "true", "false", "raises", "raise", "error", "exception",
               "no error", "nothing", "none"}
# Notation examples per kind; those that would be right for a question are dropped.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "number": ("3.5", "-0.25", "1e-3", "tensor(3.5)", "7", "0.125"),
    "tensor": ("tensor([7., 9.])", "[[1, 0], [0, 1]]", "[True, False]", "[5, 6]"),
    "text": ("SinBackward0", "float16", "Linear"),
    "shape": ("(4, 5)", "torch.Size([4, 5])", "4x5", "(7,)"),
    "dtype": ("torch.float16", "float16", "half", "int8", "torch.bfloat16"),
    "exception": ("IndexError", "TypeError", "KeyError", "no error"),
    "set": ("'a', 'b'", "['w', 'v']", "x, y"),
    "list": ("'a', 'b'", "['w', 'v']", "x, y"),
    "stdout": (),
}


def _split(text: str, sep: re.Pattern[str]) -> list[str]:
    """`text` cut at the matches of `sep` that are outside brackets and quotes."""
    depth, depths, quote = 0, [], ""
    for i, ch in enumerate(text):
        depths.append(depth + bool(quote))
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"" and not (i and text[i - 1].isalnum()):  # (not "can't")
            quote = ch
        else:
            depth = max(0, depth + (ch in "([{") - (ch in ")]}"))
    cuts = [m.span() for m in sep.finditer(text) if depths[m.start()] == 0]
    bounds = [0, *[x for span in cuts for x in span], len(text)]
    return [text[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]


def _trim(piece: str) -> str:
    piece = piece.strip(" ,.'\"`")
    while piece[:1] in ("(", "[") and piece.count(piece[0]) > piece.count(
            ")" if piece[0] == "(" else "]"):
        piece = piece[1:]  # "(e.g. RuntimeError" -> "RuntimeError"
    while piece[-1:] in (")", "]") and piece.count(piece[-1]) > piece.count(
            "(" if piece[-1] == ")" else "["):
        piece = piece[:-1]
    return piece.strip()


def pieces(text: str) -> set[str]:
    """Every phrase of a message that could be typed as an answer: each part between
    separators, each comma-separated item, and each tail after a space."""
    out: set[str] = set()
    for coarse in _split(text[:2000], _COARSE):
        for item in {coarse, *_split(coarse, _FINE)}:
            words = _split(item, _SPACE)
            for i in range(len(words)):
                piece = _trim(" ".join(words[i:]))
                if piece:
                    out.add(piece)
                if len(piece) > 2 and piece[0] + piece[-1] in ("()", "[]"):
                    out |= pieces(piece[1:-1])  # "(e.g. RuntimeError)"
    return out


Judge = Callable[[JudgeSpec, str, dict], object]


def gives_away(judge: Judge, spec: JudgeSpec, live: dict, text: str) -> bool:
    """Would typing some phrase of `text` be judged correct against `live`?"""
    for piece in pieces(text):
        if piece.casefold() in _VOCABULARY:
            continue
        if getattr(judge(spec, piece, live), "status", None) is Status.CORRECT:
            return True
    return False


def safe_examples(judge: Judge, spec: JudgeSpec, live: dict, n: int = 3) -> list[str]:
    """Up to `n` notation examples of the kind, none of them right for this question."""
    out = [e for e in EXAMPLES.get(spec.kind, ())
           if getattr(judge(spec, e, live), "status", None) is not Status.CORRECT]
    return out[:n]


_MARKER = re.compile(r"\b(?:like|e\.g\.|[Tt]ry)\s+")
_ITEM_SEP = re.compile(r",\s+(?:or\s+)?|\s+or\s+")


def _list_end(text: str, start: int) -> int:
    """Where the example list that starts at `start` ends (its sentence's end, a
    closing bracket it did not open, or an aside in brackets)."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "([{":
            if (depth == 0 and ch == "(" and text[i - 1] == " "
                    and text[i + 1:i + 2].isalpha()):
                return i - 1  # an aside: "a, b (or [] for none)"
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i  # "(e.g. RuntimeError)"
            depth -= 1
        elif depth == 0 and (ch in ";\n" or (ch == "." and (i + 1 == len(text)
                                                          or text[i + 1] in " .\n"))):
            return i
    return len(text)


def safe_message(judge: Judge, spec: JudgeSpec, live: dict) -> str:
    """A message for an unreadable answer whose examples are all wrong here."""
    what = {"same_storage": "a yes or no", "stdout": "printed output",
            "exception": "an exception name"}.get(spec.kind, f"a {spec.kind}")
    examples = safe_examples(judge, spec, live)
    if not examples:
        return f"I can't read that as {what}."
    if len(examples) == 1:
        return f"I can't read that as {what}: write it like {examples[0]}."
    listed = ", ".join(examples[:-1])
    return f"I can't read that as {what}: write it like {listed} or {examples[-1]}."


def _bare(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).casefold()


def scrub(judge: Judge, spec: JudgeSpec, live: dict, message: str, typed: str = "") -> str:
    """`message` with every example that would be right for this question replaced,
    in place, by one that is not.

    Examples are the items of the lists after "like", "e.g." or "try", and runs of
    them ("a, b"); prose such as "look like an exception type" is left alone, and so
    is the learner's own answer written out properly ("4,000" -> "4000")."""
    def right(item: str) -> bool:
        item = item.strip(" '\"`")
        return (bool(item) and " " not in item.replace(", ", ",")
                and item.casefold() not in _VOCABULARY and _bare(item) != _bare(typed)
                and getattr(judge(spec, item, live), "status", None) is Status.CORRECT)

    pool = [e for e in EXAMPLES.get(spec.kind, ()) if e not in message and not right(e)]
    out, pos = [], 0
    for m in _MARKER.finditer(message):
        if m.start() < pos:
            continue
        end = _list_end(message, m.end())
        segment = message[m.end():end]
        items = _split(segment, _ITEM_SEP)
        runs = {", ".join(items[i:j]) for i in range(len(items))
                for j in range(i + 1, len(items) + 1)}
        for item in sorted(runs, key=len, reverse=True):
            if item in segment and right(item):
                if not pool:
                    return safe_message(judge, spec, live)
                segment = re.sub(rf"(?<![\w.]){re.escape(item.strip())}(?![\w.(\[])",
                                 pool.pop(0).replace("\\", "\\\\"), segment, count=1)
        out.append(message[pos:m.end()] + segment)
        pos = end
    out.append(message[pos:])
    return "".join(out)
