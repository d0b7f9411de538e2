"""The answer entry, suited to the question's kind, and the question pane around it.

* bool, same_storage: Yes / No buttons (keys y / n)
* choice: a list of the choices (keys 1-9, or arrows and enter)
* stdout: a multi-line box: enter starts a new line, enter on an empty line (or
  ctrl+s) submits, as `tutor play` reads printed lines up to an empty one
* set, list: a text field that previews the items as you type
* everything else: a text field

Under the entry a line says what it reads (the kind's `label` in the kind registry,
`tutor.kinds.REGISTRY`: the notation, and that None is an answer too) with examples
that are wrong for this question, and how sure the learner says they are: sure by
default, ctrl+g marks the prediction as a guess (and back) before it is submitted;
a typed answer ending in `?` is a guess too.  The entry posts
`AnswerBox.Submitted(text, confidence)`; it never judges anything itself.
"""

from __future__ import annotations

import re
import time

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Key
from textual.message import Message
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tutor.flow import GUESS_MARK, choice_labels, entry_text
from tutor.i18n import N_, _, ngettext
from tutor.lesson.model import Prompt
from tutor.ui.text import plain, translate_bindings
from tutor.ui.widgets.inline import inline, title

YES_NO = ("bool", "same_storage")
KEYED = (*YES_NO, "choice")  # answered by keys on the box itself
PLACEHOLDERS = {"set": "a, b, …", "list": "a, b, …", "stdout": ""}


def items_preview(text: str) -> str:
    """How a set/list answer is being read, item by item."""
    inner = text.strip()
    if len(inner) >= 2 and inner[0] + inner[-1] in ("[]", "()", "{}"):
        inner = inner[1:-1]
    parts = [p.strip().strip("'\"") for p in re.split(r"[,\n]", inner) if p.strip()]
    if not parts:
        return _("separate items with commas; brackets and quotes are optional")
    shown = " · ".join(parts[:12]) + (" …" if len(parts) > 12 else "")
    return ngettext("{n} item: {shown}", "{n} items: {shown}", len(parts)).format(
        n=len(parts), shown=shown)


def entry_label(prompt: Prompt, examples: list[str]) -> str:
    """The line under the entry: what it reads, and the keys that answer."""
    if prompt.kind in YES_NO:
        return f"{entry_text(prompt.kind)}: " + _("press y or n")
    if prompt.kind == "choice":
        return _("press a number (or tab to the list, ↑/↓ and enter)")
    said = entry_text(prompt.kind, examples)
    return said + " · " + _("enter on an empty line or ctrl+s submits") \
        if prompt.kind == "stdout" else said


class StdoutArea(TextArea):
    """Printed lines: enter on an empty last line (or ctrl+s) submits."""

    # (not in the footer: the entry's own line says "enter on an empty line or ctrl+s
    # submits", and the lesson's footer must fit 80 columns; the key panel lists it)
    BINDINGS = [Binding("ctrl+s", "submit", N_("Submit"), show=False)]

    class Submit(Message):
        pass

    def on_mount(self) -> None:
        translate_bindings(self)  # (a widget's keys, shown in the footer: ctrl+s)

    def action_submit(self) -> None:
        self.post_message(self.Submit())

    async def _on_key(self, event: Key) -> None:
        row, _ = self.cursor_location
        if (event.key == "enter" and row == self.document.line_count - 1
                and not self.document[row].strip() and self.text.strip()):
            event.stop()
            event.prevent_default()
            self.action_submit()
            return
        await super()._on_key(event)


class AnswerBox(Vertical, can_focus=True):
    """The entry for one question.  Its fields are built once and shown per kind, so a
    new question's entry is there (and focused) the moment the question shows: keys
    typed right away are not lost.

    For yes/no and choice questions the box itself takes the focus (keys y/n and
    1-9 answer), so an `enter` pressed twice to move on cannot answer by accident;
    and those keys do nothing for a moment after the question appears, so an `n`
    (next) pressed twice does not answer "no"."""

    SETTLE = 0.4  # seconds after a question appears during which y/n/1-9 are ignored

    BINDINGS = [
        Binding("ctrl+g", "toggle_guess", N_("Guess")),
        Binding("y", "say('yes')", N_("Yes"), show=False),
        Binding("n", "say('no')", N_("No"), show=False),
        *[Binding(str(i), f"choose({i})", show=False) for i in range(1, 10)],
    ]

    class Submitted(Message):
        def __init__(self, text: str, confidence: str = "sure") -> None:
            super().__init__()
            self.text = text
            self.confidence = confidence  # sure / guess (a trailing ? is read by the flow)

    prompt: Prompt | None = None
    shown_at = 0.0

    def on_mount(self) -> None:
        translate_bindings(self)  # (its keys are in the footer: ctrl+g, Guess)
    guess = False  # the learner marked this prediction as a guess (ctrl+g)
    examples: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input(id="text-entry", select_on_focus=False)
        yield StdoutArea(id="stdout-entry", soft_wrap=True, show_line_numbers=False)
        with Horizontal(id="yes-no"):
            yield Button(_("Yes") + "  (y)", id="yes", variant="primary")
            yield Button(_("No") + "  (n)", id="no", variant="primary")
        yield OptionList(id="choices")
        yield Static(id="preview", classes="examples")
        yield Static(id="entry-label", classes="examples")

    def show_prompt(self, prompt: Prompt, text: str = "", focus: bool = True) -> None:
        """The entry for `prompt`.  A retry passes the last answer as `text`: it is
        shown selected, so typing replaces it (and arrow keys keep it to edit)."""
        self.prompt = prompt
        self.shown_at = time.monotonic()
        self.guess = False  # every question starts sure
        kind = prompt.kind
        field = self.query_one("#text-entry", Input)
        field.display = kind not in (*KEYED, "stdout")
        field.value = text
        field.placeholder = PLACEHOLDERS.get(kind, "")
        area = self.query_one("#stdout-entry", StdoutArea)
        area.display = kind == "stdout"
        area.text = text
        self.query_one("#yes-no").display = kind in YES_NO
        # a bool question may ask for a value (`What is backward_works(c)?`): say both
        words = ((_("Yes") + " · True", _("No") + " · False") if kind == "bool"
                 else (_("Yes"), _("No")))
        self.query_one("#yes", Button).label = f"{words[0]}  (y)"
        self.query_one("#no", Button).label = f"{words[1]}  (n)"
        choices = self.query_one("#choices", OptionList)
        choices.display = kind == "choice"
        choices.clear_options()
        if kind == "choice":
            marked = zip(choice_labels(prompt), prompt.labels or prompt.choices, strict=True)
            choices.add_options([Option(title(f"{mark}. {c}"), id=str(i))
                                 for i, (mark, c) in enumerate(marked, 1)])
            choices.highlighted = 0
        self.show_preview(text)
        self.set_examples([])
        if focus:
            self.focus_input(select=bool(text))

    def set_examples(self, examples: list[str]) -> None:
        """The notation line, with `examples` (none of them this question's answer),
        and how sure the learner says they are."""
        self.examples = examples
        if self.prompt is None:
            return
        sure = (Content.styled(_("a guess"), "bold $text-warning") + " " + _("(ctrl+g: sure)")
                if self.guess else Content(_("sure (ctrl+g: a guess{more})").format(
                    more=self.suffix_note())))
        self.query_one("#entry-label", Static).update(
            plain(entry_label(self.prompt, examples)) + " · " + _("your prediction: ") + sure)

    def suffix_note(self) -> str:
        """Typed answers (not printed output) may also end in `?` to say it is a guess."""
        kind = self.prompt.kind if self.prompt is not None else "stdout"
        return "" if kind in (*KEYED, "stdout") else _(", or end with {mark}").format(
            mark=GUESS_MARK)

    def action_toggle_guess(self) -> None:
        """ctrl+g: mark the prediction as a guess, or as sure again (before submitting)."""
        if self.prompt is None or not self.display:
            return
        self.guess = not self.guess
        self.set_examples(self.examples)

    @property
    def confidence(self) -> str:
        return "guess" if self.guess else "sure"

    @property
    def field(self) -> Input | TextArea | None:
        """The current question's text field (None for yes/no and choices)."""
        if self.prompt is None or self.prompt.kind in KEYED:
            return None
        if self.prompt.kind == "stdout":
            return self.query_one("#stdout-entry", StdoutArea)
        return self.query_one("#text-entry", Input)

    def focus_input(self, select: bool = False) -> None:
        field = self.field  # (the lesson scrolls what matters into view itself)
        if field is None:
            self.focus(scroll_visible=False)
            return
        field.focus(scroll_visible=False)
        if select:
            field.select_all()
        elif isinstance(field, TextArea):
            field.move_cursor(field.document.end)
        else:
            field.cursor_position = len(field.value)

    # ------------------------------------------------------------------ events
    def show_preview(self, text: str) -> None:
        """For sets and lists: how the items typed so far are read."""
        preview = self.query_one("#preview", Static)
        shown = self.prompt is not None and self.prompt.kind in ("set", "list") and bool(text)
        preview.display = shown
        preview.update(plain(items_preview(text)) if shown else "")

    @on(Input.Changed, "#text-entry")
    def _changed(self, event: Input.Changed) -> None:
        self.show_preview(event.value)

    @on(Input.Submitted, "#text-entry")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Submitted(event.value.strip(), self.confidence))

    @on(StdoutArea.Submit)
    def _stdout(self, event: StdoutArea.Submit) -> None:
        event.stop()
        text = self.query_one("#stdout-entry", StdoutArea).text
        if text.strip():
            self.post_message(self.Submitted(text.strip("\n"), self.confidence))

    @on(Button.Pressed, "#yes-no Button")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Submitted(event.button.id or "", self.confidence))

    @on(OptionList.OptionSelected, "#choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(int(event.option.id or "0"))

    def settled(self) -> bool:
        return time.monotonic() - self.shown_at >= self.SETTLE

    def action_say(self, word: str) -> None:
        if self.prompt is not None and self.prompt.kind in YES_NO and self.settled():
            self.post_message(self.Submitted(word, self.confidence))

    def action_choose(self, number: int) -> None:
        prompt = self.prompt
        if (prompt is not None and prompt.kind == "choice" and self.settled()
                and 1 <= number <= len(prompt.choices)):
            self.post_message(self.Submitted(prompt.choices[number - 1], self.confidence))


class QuestionPane(Vertical):
    """The question, its entry, the hint and notes; after a verdict only the question
    line stays (the verdict panel below it says the rest)."""

    def compose(self) -> ComposeResult:
        yield Static(id="ask")
        yield AnswerBox(id="answer")
        yield Static(id="hint-line")
        yield Static(id="note-line")

    @property
    def box(self) -> AnswerBox:
        return self.query_one(AnswerBox)

    def ask(self, prompt: Prompt, number: int, text: str = "", focus: bool = True) -> None:
        """Show the question; it appears once its entry is there to type into (keys typed
        as soon as the question shows must not go elsewhere)."""
        self.query_one("#ask", Static).update(
            Content.styled(f"Q{number}. ", "bold") + inline(prompt.ask.strip()))
        self.box.display = True
        self.box.show_prompt(prompt, text, focus)
        self.show_hint(None)
        self.note("")

    def answered(self) -> None:
        """The answer counted: keep the question line, drop the entry and notes."""
        self.box.display = False
        self.show_hint(None)
        self.note("")

    def show_hint(self, hint: str | None, asked: bool = False) -> None:
        line = self.query_one("#hint-line", Static)
        if hint:
            line.update(Content.styled(_("Hint: "), "bold") + inline(hint))
        else:
            line.update(_("No hint for this question.") if asked else "")
        line.display = bool(hint) or asked

    def note(self, text: str, tone: str = "") -> None:
        line = self.query_one("#note-line", Static)
        line.update(plain(text))
        line.display = bool(text)
        line.set_classes(tone)
