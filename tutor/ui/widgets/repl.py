"""The REPL pane: Python in the lesson's live namespace, once the step's questions are
answered.

Enter runs the input when it is a complete statement (decided by
`codeop.compile_command`, like the Python console), else starts a new line; an
empty last line or ctrl+s runs it anyway.  Up/down on the first/last line walk
the history.  Lines starting with `:` draw pictures (`:graph z`, `:storage`,
`:tree net`).

The pane owns its state: it runs code and draws pictures in its own named
workers, in the session the screen hands down (`session`), refuses while the
screen says why not (`blocked`), and posts `Repl.Changed` (the namespace now
differs from the lesson's) and `Repl.Died` (the lesson's process is gone: the
screen rebuilds it) up to the screen.
"""

from __future__ import annotations

import codeop
from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.highlight import highlight
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static, TextArea
from textual.worker import Worker

from tutor.i18n import N_, _
from tutor.kernel import KernelError, Session, SessionDied, StepTimeout
from tutor.kernel.words import translated, translated_output
from tutor.pictures import ShowSpec, parse_show, render
from tutor.safetext import sanitize
from tutor.ui.messages import WorkerChanged
from tutor.ui.text import opening, plain, translate_bindings
from tutor.ui.widgets.picture import inspect_live, picture_content

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
        out += "\n… " + _("truncated ({lines} more lines, {chars} more chars)").format(
            lines=hidden_lines, chars=f"{len(text) - len(out):,}")
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

    BINDINGS = [Binding("ctrl+s", "run", N_("Run"), show=True)]

    class Submitted(Message):
        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(language=None, soft_wrap=True, show_line_numbers=False, **kwargs)
        translate_bindings(self)  # (ctrl+s Run, in the footer)
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

    class Changed(Message):
        """Code ran: the namespace may now differ from what the lesson's steps made."""

    class Died(Message):
        """The lesson's process is gone (the REPL has said how): rebuild it."""

    running: reactive[bool] = reactive(False, init=False)

    def __init__(self, session: Callable[[], Session | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session  # the lesson's live session, looked up at each run
        self.blocked: str | None = None  # why code cannot run now (the screen says)

    def compose(self) -> ComposeResult:
        yield Static(_("REPL — the lesson's live namespace. enter runs · ctrl+s runs · "
                       "↑/↓ history · :graph z · ctrl+c interrupts · esc leaves"),
                     id="repl-title")
        yield VerticalScroll(id="repl-log")
        yield ReplInput(id="repl-input")

    def write(self, content: Content, classes: str = "") -> None:
        log = self.query_one("#repl-log", VerticalScroll)
        log.mount(Static(content, classes=f"repl-entry {classes}".strip()))
        if len(log.children) > MAX_ENTRIES:
            log.children[0].remove()
        log.anchor()  # stays at the newest line while entries are laid out (until scrolled up)

    @property
    def log_text(self) -> str:
        return "\n".join(str(w.render()) for w in self.query(".repl-entry"))

    def on_repl_input_submitted(self, event: ReplInput.Submitted) -> None:
        event.stop()
        code = event.code
        shown = Content("\n").join(
            Content.styled(">>> " if i == 0 else "... ", "$text-muted") + line
            for i, line in enumerate(highlight(code, language="python").split("\n")))
        self.write(shown, "-code")
        if self.blocked:
            self.show_problem(self.blocked)
            return
        self.running = True
        if code.lstrip().startswith(":"):  # :graph z, :storage, :tree net
            try:
                spec = parse_show(code)
            except ValueError as exc:
                self.show_problem(str(exc))
                return
            self.draw(spec)
            return
        self.post_message(self.Changed())
        self.run_code(code)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.post_message(WorkerChanged(event.worker))  # (the app shows the kernel busy)

    def watch_running(self, running: bool) -> None:
        self.set_class(running, "-running")
        self.query_one("#repl-input", ReplInput).read_only = running

    # ------------------------------------------------------------------ workers
    @work(thread=True, exit_on_error=False, group="repl", description=N_("run REPL code"))
    def run_code(self, code: str) -> None:
        session = self.session()
        if session is None or not session.alive:
            self.app.call_from_thread(self.died, _("The lesson's process is not running; "
                                                   "rebuilding the namespace…"))
            return
        try:
            reply = session.repl(code, timeout=None)
        except SessionDied as exc:
            # (what died is in the error: `the lesson's process exited with code 3`)
            self.app.call_from_thread(self.died, _(
                "{error}. Restarting it and re-running the steps…").format(
                    error=opening(str(exc))))
            return
        except StepTimeout as exc:
            if session.alive:
                self.app.call_from_thread(self.show_problem, str(exc))
            else:
                self.app.call_from_thread(self.died, str(exc))
            return
        except KernelError as exc:
            self.app.call_from_thread(self.show_problem, _(
                "the kernel could not run it: {error}").format(error=exc))
            return
        self.app.call_from_thread(self.show_reply, reply)

    @work(thread=True, exit_on_error=False, group="repl", description=N_("draw a picture"))
    def draw(self, spec: ShowSpec) -> None:
        try:
            data = inspect_live(self.session(), spec)
        except KernelError as exc:
            self.app.call_from_thread(self.show_problem, _(
                "the picture could not be drawn: {error}").format(error=exc))
            return
        self.app.call_from_thread(self.show_picture, data)

    # ------------------------------------------------------------------ showing
    def show_reply(self, reply: dict[str, Any]) -> None:
        if reply.get("stdout"):
            out = translated_output(reply["stdout"], reply.get("stdout_note"))
            self.write(plain(truncate(out.rstrip("\n"))), "-stdout")
        if reply.get("stderr"):
            err = translated_output(reply["stderr"], reply.get("stderr_note"))
            self.write(plain(truncate(err.rstrip("\n"))), "-stderr")
        if reply.get("value") is not None:
            value = sanitize(truncate(str(reply["value"])))
            self.write(highlight(value, language="python"), "-value")
        error = reply.get("error")
        if error:
            message = translated(str(error.get("message")), error.get("words"))
            text = error.get("traceback") or f"{error.get('name')}: {message}"
            self.write(plain(truncate(text.rstrip("\n"), lines=30)), "-error")
        self.running = False

    def show_picture(self, data: dict[str, Any]) -> None:
        log = self.query_one("#repl-log")
        width = max(40, (log.content_size.width or 80) - 2)
        failed = data.get("type") == "exception"
        self.write(picture_content(render(data, width)), "-error" if failed else "-value")
        self.running = False

    def show_problem(self, text: str) -> None:
        self.write(plain(text), "-problem")
        self.running = False

    def died(self, text: str) -> None:
        self.show_problem(text)
        self.post_message(self.Died())

    def focus_input(self) -> None:
        self.query_one("#repl-input", ReplInput).focus()
