"""The verdict: right / partly / wrong, your answer beside the live value, and why."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tutor.judge import Verdict
from tutor.kernel.text import sanitize_output
from tutor.ui.text import plain
from tutor.ui.widgets.inline import inline

HEADINGS = {
    "correct": "✓ Correct",
    "partial": "≈ Partly right",
    "incorrect": "✗ Not quite",
    "revealed": "⚑ Revealed (counts as given up)",
}
MAX_VALUE_LINES = 12
# The judge's messages may open with the verdict the heading already says.
SAID = {"correct": ("Right: ",), "incorrect": ("Not quite: ", "Not quite. ")}


def clip(text: str, lines: int = MAX_VALUE_LINES) -> str:
    rows = text.splitlines() or [""]
    if len(rows) <= lines:
        return text
    return "\n".join(rows[:lines] + [f"… ({len(rows) - lines} more lines)"])


def aligned(text: str) -> str:
    """Multi-line values line up under the first line (after the 10-column label)."""
    return clip(sanitize_output(text).rstrip()).replace("\n", "\n" + " " * 10)


def side_by_side(answer: str, live: str) -> Content:
    label = "$text-muted"
    return Content.assemble(
        ("you said  ", label), aligned(answer) or "(nothing)", "\n",
        ("live      ", label), (aligned(live), "bold"),
    )


class VerdictPanel(Vertical, can_focus=True):
    """Shown after a counted answer; focusable so the lesson's letter keys work."""

    def compose(self) -> ComposeResult:
        yield Static(id="verdict-title")
        yield Static(id="verdict-values")
        yield Static(id="verdict-details")
        yield Static(id="verdict-feedback")
        yield Static(id="verdict-explain")
        yield Static(id="verdict-keys", classes="keys")

    def _set(self, status: str, title: str, values: Content, details: str,
             feedback: str | None, explain: str | None, keys: str) -> None:
        for name in HEADINGS:
            self.set_class(name == status, f"-{name}")
        self.query_one("#verdict-title", Static).update(plain(title))
        self.query_one("#verdict-values", Static).update(values)
        detail = self.query_one("#verdict-details", Static)
        detail.update(plain(details))
        detail.display = bool(details)
        fb = self.query_one("#verdict-feedback", Static)
        fb.update(inline(f"» {feedback.strip()}") if feedback else "")
        fb.display = bool(feedback)
        ex = self.query_one("#verdict-explain", Static)
        ex.update(inline(f"**Why:** {explain.strip()}") if explain else "")
        ex.display = bool(explain)
        self.query_one("#verdict-keys", Static).update(keys)

    def show_verdict(self, verdict: Verdict, explain: str | None, keys: str) -> None:
        status = verdict.status.value
        message = verdict.message.strip()
        for opening in SAID.get(status, ()):
            message = message[len(opening):] if message.startswith(opening) else message
        details = "\n".join(f"  {d}" for d in verdict.details)
        title = HEADINGS[status] + (f" — {message}" if message else "")
        self._set(status, title, side_by_side(verdict.answer, verdict.expected), details,
                  verdict.feedback, explain, keys)

    def show_reveal(self, live: str, explain: str | None, keys: str) -> None:
        values = Content.assemble(("live      ", "$text-muted"), (aligned(live), "bold"))
        self._set("revealed", HEADINGS["revealed"], values, "", None, explain, keys)
