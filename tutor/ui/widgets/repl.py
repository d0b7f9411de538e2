"""The REPL: Python in the lesson's live namespace, once the step's questions are answered.

Enter runs the input when it is a complete statement (decided by
`codeop.compile_command`, like the Python console), else starts a new line; an
empty last line or ctrl+s runs it anyway.  Up/down on the first/last line walk
the history.  The widget only posts `Repl.Run(code)`; the lesson screen runs it
in the kernel and hands the reply back to `show_reply`.
"""

from __future__ import annotations

import codeop
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.highlight import highlight
from textual.message import Message
from textual.widgets import Static, TextArea

from tutor.kernel.text import sanitize_output
from tutor.ui.text import plain

MAX_LINES = 40
MAX_CHARS = 4000
MAX_ENTRIES = 200


def truncate(text: str, lines: int = MAX_LINES, chars: int = MAX_CHARS) -> str:
    """Long output, cut for reading (the full value stays in the namespace as `_`)."""
    out = text
    if len(out) > chars:
        out = out[:chars]
    rows = out.splitlines()
    if len(rows) > lines:
        out = "\n".join(rows[:lines])
    hidden_lines = len(text.splitlines()) - len(out.splitlines())
    if out != text:
        out += f"\n… truncated ({hidden_lines} more lines, {len(text) - len(out):,} more chars)"
    return out


def is_complete(source: str) -> bool:
    """Would the Python console run `source` now (complete, or a syntax error to report)?"""
    if not source.strip():
        return False
    lines = source.split("\n")
    if len(lines) > 1 and not lines[-1].strip():
        return True  # an empty line ends a block
    try:
        return codeop.compile_command(source, "<repl>", "single") is not None
    except (SyntaxError, ValueError, OverflowError):
        return True  # let the kernel report it


class ReplInput(TextArea):
    """Multi-line input with console-like enter and a history."""

    BINDINGS = [Binding("ctrl+s", "run", "Run", show=True)]

    class Submitted(Message):
        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(language=None, soft_wrap=True, show_line_numbers=False, **kwargs)
        self.past: list[str] = []
        self.back = 0  # 0 = the line being written; n = the n-th most recent entry
        self.draft = ""

    async def _on_key(self, event: Key) -> None:
        row, _ = self.cursor_location
        last_row = self.document.line_count - 1
        if event.key == "enter":
            if row == last_row and is_complete(self.text):
                event.stop()
                event.prevent_default()
                self.action_run()
                return
            event.stop()
            event.prevent_default()
            line = self.document[row]
            indent = line[: len(line) - len(line.lstrip())]
            if line.rstrip().endswith(":"):
                indent += "    "
            self.insert("\n" + indent)
            return
        if event.key == "up" and row == 0 and self.past:
            event.stop()
            event.prevent_default()
            self._walk(+1)
            return
        if event.key == "down" and row == last_row and self.back:
            event.stop()
            event.prevent_default()
            self._walk(-1)
            return
        await super()._on_key(event)

    def _walk(self, delta: int) -> None:
        if self.back == 0:
            self.draft = self.text
        self.back = max(0, min(len(self.past), self.back + delta))
        self.text = self.past[-self.back] if self.back else self.draft
        self.move_cursor(self.document.end)

    def action_run(self) -> None:
        code = self.text.rstrip()
        if not code.strip():
            return
        if not self.past or self.past[-1] != code:
            self.past.append(code)
        self.back = 0
        self.draft = ""
        self.text = ""
        self.post_message(self.Submitted(code))


class Repl(Vertical):
    """Output log above, input below."""

    class Run(Message):
        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    def compose(self) -> ComposeResult:
        yield Static("REPL — the lesson's live namespace. enter runs · ctrl+s runs · "
                     "↑/↓ history · ctrl+c interrupts · esc leaves", id="repl-title")
        yield VerticalScroll(id="repl-log")
        yield ReplInput(id="repl-input")

    def write(self, content: Content, classes: str = "") -> None:
        log = self.query_one("#repl-log", VerticalScroll)
        log.mount(Static(content, classes=f"repl-entry {classes}".strip()))
        if len(log.children) > MAX_ENTRIES:
            log.children[0].remove()
        log.anchor()  # stays at the newest line while entries are laid out (until scrolled up)

    def on_repl_input_submitted(self, event: ReplInput.Submitted) -> None:
        event.stop()
        code = event.code
        shown = Content("\n").join(
            Content.styled(">>> " if i == 0 else "... ", "$text-muted") + line
            for i, line in enumerate(highlight(code, language="python").split("\n")))
        self.write(shown, "-code")
        self.set_running(True)
        self.post_message(self.Run(code))

    def set_running(self, running: bool) -> None:
        self.set_class(running, "-running")
        box = self.query_one("#repl-input", ReplInput)
        box.read_only = running

    def show_reply(self, reply: dict[str, Any]) -> None:
        if reply.get("stdout"):
            self.write(plain(truncate(reply["stdout"].rstrip("\n"))), "-stdout")
        if reply.get("stderr"):
            self.write(plain(truncate(reply["stderr"].rstrip("\n"))), "-stderr")
        if reply.get("value") is not None:
            value = sanitize_output(truncate(str(reply["value"])))
            self.write(highlight(value, language="python"), "-value")
        error = reply.get("error")
        if error:
            text = (error.get("traceback") or f"{error.get('name')}: {error.get('message')}")
            self.write(plain(truncate(text.rstrip("\n"), lines=30)), "-error")
        self.set_running(False)

    def show_problem(self, text: str) -> None:
        self.write(plain(text), "-problem")
        self.set_running(False)

    def focus_input(self) -> None:
        self.query_one("#repl-input", ReplInput).focus()
