"""Plain-text input and output that hold up: line editing at a terminal, key codes
kept out of answers, and output that never ends in a traceback.

* **Line editing.** At a terminal (standard input and output both one), lines are read
  with `input()` and the `readline` module where Python has one (GNU readline or
  libedit: arrow keys move, Home/End, history of this session's lines with up/down),
  else as plain lines.  Tab inserts itself (no file-name completion in an answer).
* **Key codes.** A line that still holds a terminal key code (ESC, as an arrow key or
  PageUp sends without line editing) or another control character is never an
  answer: `key_codes` says so, and the caller asks again (`KEY_CODES_REFUSED`).
* **Input that is not there.** Standard input closed (`<&-`: `sys.stdin` is None), a
  stream closed or failing while read (a terminal hung up): the end of input, with
  the reason kept in `Reader.ended`.  Bytes that are not text are read as U+FFFD.
* **Output that cannot take it.** An output encoding that cannot show a character
  (`PYTHONIOENCODING=cp1252`, what Windows gives a pipe or a file; ASCII) writes a
  plain stand-in instead (✓ as `v`, · as `-`; else `?`): `tolerate_encoding`.
  A write that fails (a full device, a closed stream) raises `OutputLost`; `silence`
  points the failed descriptor at the null device so that Python's own flush at exit
  fails no more.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import sys
from typing import TextIO

from tutor.i18n import N_, _

# C0 controls but tab and newline, DEL, C1: what a key (an arrow, PageUp, F1) or a
# pasted control puts in a line when nothing edits it
_KEY_CODES = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
KEY_CODES_REFUSED = N_("? That line holds a terminal key code (an arrow key, PageUp or "
                       "another key that is not text), so it is not taken as an answer. "
                       "Type the answer again.")

# stand-ins for the characters tutor's own text uses, where the encoding has none
STAND_INS = {
    "✓": "v", "✗": "x", "★": "*", "·": "-", "…": "...", "—": "-", "–": "-", "»": ">>",
    "«": "<<", "≈": "~", "→": "->", "←": "<-", "↳": "->", "≤": "<=", "≥": ">=", "≠": "!=",
    "×": "x", "−": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "␀": "^@", "␛": "^[",
    "█": "#", "▶": ">", "⚑": "!", "⊘": "(x)", "─": "-", "│": "|", "┌": "+", "┐": "+",
    "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+", "═": "=",
    "\ufffd": "?",
}
ERRORS = "tutor-stand-in"


def _stand_in(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start:exc.end]
    out = []
    for ch in bad:
        plain = STAND_INS.get(ch, "?")
        try:
            plain.encode(exc.encoding)
        except (UnicodeError, LookupError):
            plain = "?"
        out.append(plain)
    return "".join(out), exc.end


codecs.register_error(ERRORS, _stand_in)


def tolerate_encoding(stream: TextIO | None) -> None:
    """Make `stream` write a stand-in for what its encoding cannot show, instead of
    raising UnicodeEncodeError (a stream that cannot be reconfigured is left alone)."""
    if stream is None or getattr(stream, "errors", None) in (ERRORS, "replace",
                                                             "backslashreplace"):
        return
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    if encoding in ("utf-8", "utf8", "utf-16", "utf-32"):
        return  # (every character has a form; surrogates are sanitised before)
    try:
        stream.reconfigure(errors=ERRORS)  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        pass


def tolerate_input(stream: TextIO | None) -> None:
    """Bytes on standard input that are not text are read as U+FFFD, not an error."""
    if stream is None:
        return
    try:
        stream.reconfigure(errors="replace")  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        pass


def key_codes(line: str) -> bool:
    """Whether `line` holds a key code or control character (tab excepted)."""
    return bool(_KEY_CODES.search(line))


def is_closed(stream: TextIO | None) -> bool:
    """Standard input that cannot be read at all: closed before tutor started (None)
    or since."""
    if stream is None:
        return True
    try:
        return bool(stream.closed)
    except (AttributeError, ValueError):
        return False


class OutputLost(Exception):
    """Writing to the learner's output failed (a full device, a closed pipe)."""

    def __init__(self, stream: TextIO, error: BaseException):
        self.stream = stream
        self.error = error
        super().__init__(describe(error))

    @property
    def broken_pipe(self) -> bool:
        return isinstance(self.error, BrokenPipeError) or getattr(
            self.error, "errno", None) == errno.EPIPE


def describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if isinstance(error, ValueError):
        return _("the stream is closed")
    return str(error) or type(error).__name__


def write(stream: TextIO, text: str) -> None:
    """`text` written and flushed, or OutputLost."""
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError) as exc:
        raise OutputLost(stream, exc) from exc


def silence(stream: TextIO | None) -> None:
    """Point the descriptor under `stream` at the null device: what is still buffered
    for it (and Python's own flush at exit) then goes nowhere instead of failing."""
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        os.close(devnull)


def _readline_module() -> object | None:
    """The `readline` module, set up for answers (None where Python has none)."""
    try:
        import readline
    except ImportError:  # (Windows without pyreadline, some minimal builds)
        return None
    try:
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I ed-insert")
        else:
            readline.parse_and_bind("tab: tab-insert")
        readline.set_auto_history(True)
    except (AttributeError, ValueError, OSError):
        pass
    return readline


class Reader:
    """Lines of standard input, with line editing at a terminal."""

    def __init__(self, stdin: TextIO | None, out: TextIO):
        self.stdin = stdin
        self.out = out
        self.ended: str | None = None  # why input ended, when it was not a plain end
        self.edited = self.interactive and self._can_edit()

    @property
    def interactive(self) -> bool:
        try:
            return self.stdin is not None and self.stdin.isatty()
        except (ValueError, OSError):
            return False

    def _can_edit(self) -> bool:
        """`input()` edits lines only when stdin and stdout are the terminal, and its
        prompt goes to stdout: so only where our output is stdout."""
        if self.stdin is not sys.stdin or self.out is not sys.stdout:
            return False
        try:
            if not sys.stdout.isatty():
                return False
        except (ValueError, OSError):
            return False
        return _readline_module() is not None

    def read(self, prompt: str) -> str | None:
        """One line without its line end, or None at the end of input.  The prompt is
        written first (OutputLost if it cannot be)."""
        if self.stdin is None or is_closed(self.stdin):
            self.ended = _("standard input is closed")
            return None
        if self.edited:
            try:
                return input(prompt)
            except EOFError:
                return None
            except (OSError, ValueError) as exc:
                self.ended = _("input could not be read ({why})").format(why=describe(exc))
                return None
        write(self.out, prompt)
        try:
            raw = self.stdin.readline()
        except (OSError, ValueError) as exc:
            self.ended = _("input could not be read ({why})").format(why=describe(exc))
            return None
        if not raw:
            return None
        return raw.rstrip("\r\n")
