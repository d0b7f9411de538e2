"""The one sanitiser: text from a lesson or a lesson file, made safe for a terminal.

Lesson output comes back verbatim (a lesson about printing may need the exact
bytes), and lesson files are the author's text; neither may be written to the
learner's terminal as is: escape
sequences can move the cursor, clear or retitle the screen, switch the
character set, set the clipboard (OSC 52), hide text, make fake hyperlinks or
ring the bell; bidirectional overrides can make text read differently from what
it is.  `sanitize` turns any string into plain, printable text.  Pure: no
torch, no textual.  Every door to a terminal uses it (docs/security.md):

* the command line: `tutor.cli` wraps stdout and stderr in `SafeStream`, so
  nothing any command prints (check, play, list, lint, show, ...) can carry a
  sequence, and JSON reports go through `json_dumps` (data kept exact: the
  characters a terminal would act on are written as `\\uXXXX` escapes);
* lesson files: the loader sanitises every text the learner reads (titles,
  intros, questions, hints, explanations, feedback) when it builds the model;
* the app: `tutor.ui.text.plain`, the inline-Markdown renderers and every
  notification sanitise what they show;
* the pytest plugin sanitises its failure reports.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

# ESC-introduced sequences (7-bit) and their 8-bit C1 equivalents.
_SEQUENCES = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?      # CSI ... final
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])                      # OSC DCS SOS PM APC
        .*? (?:\x07|\x1b\\|\x9c|$)                                 #   ... BEL or ST
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                               # other ESC sequences
    """,
    re.VERBOSE | re.DOTALL,
)
# Controls left after the sequences: C0 except \t and \n, DEL, C1; bidi controls;
# lone surrogates (from undecodable bytes sent with surrogateescape/surrogatepass).
_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_NEEDS_WORK = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                         "\u2066-\u2069\ud800-\udfff]")
_VISIBLE = {
    "\x00": "\u2400",  # ␀
    "\x07": "",  # the bell: just drop it
    "\x0b": "\n",
    "\x0c": "\n",
    "\x1b": "\u241b",  # ␛ (a lone ESC that started no sequence)
    "\x7f": "",
}


def _control(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _VISIBLE:
        return _VISIBLE[ch]
    if "\ud800" <= ch <= "\udfff":
        return "\ufffd"
    if ch == "\b":
        return ""
    if ch < " ":
        return chr(0x2400 + ord(ch))  # the Control Pictures block: ␁ ␂ ...
    return "\ufffd"  # DEL, C1 and bidi controls


def _carriage_returns(line: str) -> str:
    """A progress bar redraws its line with \\r: keep what a terminal would show last."""
    if "\r" not in line:
        return line
    shown = ""
    for part in line.split("\r"):  # each part overwrites the start of the line
        shown = part + shown[len(part):]
    return shown


def sanitize(text: str) -> str:
    """`text` with every escape sequence removed and every control character
    except newline and tab neutralised, so it can be shown in a terminal safely.

    * CSI (colours, cursor movement, clear screen), OSC (titles, hyperlinks,
      clipboard), DCS/SOS/PM/APC strings and other ESC sequences are removed,
      in their 7-bit and 8-bit (C1) forms;
    * \\r\\n becomes \\n, and a bare \\r keeps what a terminal would show (the
      last redraw of a progress bar); backspace, bell and DEL are dropped;
    * other C0 controls become visible symbols (\\x00 -> ␀), C1 and
      bidirectional-override characters and lone surrogates become U+FFFD.

    Everything else — including non-ASCII text — is kept.
    """
    if not text:
        return ""
    if not _NEEDS_WORK.search(text):
        return text  # the common case: nothing to do
    text = _SEQUENCES.sub("", text)
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(_carriage_returns(line) for line in text.split("\n"))
    return _CONTROLS.sub(_control, text)


sanitize_output = sanitize  # the name it had when it lived in tutor.kernel.text

SHOWN_CHARS = 2_000  # characters of one live value shown (a verdict, a `check` report)
SHOWN_LINES = 40


def shorten(text: str, chars: int = SHOWN_CHARS, lines: int = SHOWN_LINES) -> str:
    """`text` cut to at most `chars` characters and `lines` lines, saying how much is
    left out: whatever the size of a live value, what is shown of it stays small."""
    cut = text[:chars]
    if cut.count("\n") >= lines:
        cut = "\n".join(cut.split("\n", lines)[:lines])
    if len(cut) == len(text):
        return text
    rest = text[len(cut):]
    more = rest.count("\n")
    what = f"{len(rest):,} more characters" + (f", {more:,} more lines" if more else "")
    return f"{cut}… ({what})"


# JSON strings may hold any character but C0 (json escapes those itself): write the
# others a terminal acts on as escapes, so a JSON report is safe and still exact.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                          "\u2066-\u2069\ud800-\udfff]")


def json_dumps(value: Any, **options: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, ...)` that `sanitize` leaves unchanged."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeStream(io.TextIOBase):
    """A text stream that sanitises everything written to it (for sys.stdout/stderr).

    Each write is sanitised on its own: a sequence split across two writes loses
    its start in the first and is harmless in the second.
    """

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(sanitize(text))
        return len(text)

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)


@contextmanager
def safe_streams() -> Iterator[None]:
    """While it lasts, this process's stdout and stderr go through `sanitize`."""
    saved = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        sys.stdout, sys.stderr = saved


__all__ = ["SafeStream", "json_dumps", "safe_streams", "sanitize", "sanitize_output",
           "shorten"]
