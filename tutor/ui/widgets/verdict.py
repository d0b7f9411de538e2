"""The verdict: right / partly / wrong, your answer beside the live value, and why;
then, once the step's questions are answered, what the step printed and its note.

Compact on purpose (a coloured bar, not a box): at 80x24 the verdict and the
whole explanation fit on screen together.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tutor.flow import Answer
from tutor.i18n import N_, _, cell
from tutor.safetext import sanitize
from tutor.states import AnswerStatus
from tutor.ui.text import plain
from tutor.ui.widgets.inline import inline

HEADINGS: dict[AnswerStatus, str] = {
    "correct": N_("✓ Correct"),
    "partial": N_("≈ Partly right"),
    "incorrect": N_("✗ Not quite"),
    "revealed": N_("⚑ Revealed (counts as given up)"),
}
MAX_VALUE_LINES = 8
MAX_OUTPUT_CHARS = 2000
# The judge's messages may open with the verdict the heading already says.
SAID: dict[AnswerStatus, tuple[str, ...]] = {
    "correct": (N_("Right: "), N_("Right, ")),
    "incorrect": (N_("Not quite: "), N_("Not quite. "))}


def clip(text: str, lines: int = MAX_VALUE_LINES) -> str:
    rows = text.splitlines() or [""]
    if len(rows) <= lines:
        return text
    return "\n".join(rows[:lines] + ["… " + _("({n} more lines)").format(n=len(rows) - lines)])


def aligned(text: str) -> str:
    """Multi-line values line up under the first line (after the 10-column label)."""
    return clip(sanitize(text).rstrip()).replace("\n", "\n" + " " * 10)


def side_by_side(answer: str | None, live: str, guess: bool = False) -> Content:
    label = "$text-muted"
    said = (Content.assemble((cell(_("you said"), 10), label),
                             aligned(answer) or _("(nothing)"),
                             ("  " + _("(a guess)") if guess else "", label), "\n")
            if answer is not None else Content())
    return said + Content.assemble((cell(_("live"), 10), label), (aligned(live), "bold"))


class VerdictPanel(Vertical, can_focus=True):
    """Shown after a counted answer; focusable so the lesson's letter keys work."""

    status = ""

    def compose(self) -> ComposeResult:
        yield Static(id="verdict-title")
        yield Static(id="verdict-values")
        yield Static(id="verdict-details")
        yield Static(id="verdict-feedback")
        yield Static(id="verdict-explain")
        yield Static(id="verdict-keys", classes="keys")

    def show_answer(self, answer: Answer, explain: str | None, keys: str) -> None:
        """Fill the panel for a counted answer (or a reveal)."""
        status = answer.status
        verdict = answer.verdict
        message = verdict.message.strip() if verdict is not None else ""
        for opening in SAID.get(status, ()):
            message = message.removeprefix(_(opening)).removeprefix(opening)
        self.status = status
        for name in HEADINGS:
            self.set_class(name == status, f"-{name}")
        self.query_one("#verdict-title", Static).update(
            plain(_(HEADINGS[status]) + (f" — {message}" if message else "")))
        self.query_one("#verdict-values", Static).update(
            side_by_side(verdict.answer if verdict is not None else None, answer.live,
                         answer.attempt is not None and answer.attempt.confidence == "guess"))
        details = "\n".join(f"  {d}" for d in verdict.details) if verdict is not None else ""
        self._text("#verdict-details", plain(details) if details else None)
        feedback = verdict.feedback if verdict is not None else None
        self._text("#verdict-feedback", inline(f"» {feedback.strip()}") if feedback else None)
        self._text("#verdict-explain",
                   Content.styled(_("Why: "), "bold") + inline(explain.strip())
                   if explain else None)
        self.set_keys(keys)

    def set_keys(self, keys: str) -> None:
        self.query_one("#verdict-keys", Static).update(keys)

    def _text(self, selector: str, content: Content | None) -> None:
        widget = self.query_one(selector, Static)
        widget.update(content or "")
        widget.display = content is not None

    @property
    def text(self) -> str:
        """Everything the panel says, as plain text (tests, screen readers)."""
        return "\n".join(str(w.render()) for w in self.query(Static) if w.display)


class StepNotes(Vertical):
    """What the step printed and the author's note on it: shown once every question
    of the step is answered (earlier, the output could give an answer away)."""

    def compose(self) -> ComposeResult:
        yield Static(id="step-output")
        yield Static(id="step-explain")

    def show_notes(self, stdout: str, explain: str | None) -> None:
        out = stdout.strip()[:MAX_OUTPUT_CHARS]
        printed = self.query_one("#step-output", Static)
        printed.update(Content.styled(_("The step printed:") + "\n", "bold") + plain(out)
                       if out else "")
        printed.display = bool(out)
        note = self.query_one("#step-explain", Static)
        note.update(inline(explain) if explain else "")
        note.display = bool(explain)
        self.display = bool(out or explain)
