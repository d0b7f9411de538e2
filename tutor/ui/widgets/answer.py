"""The answer entry, suited to the question's kind.

* bool, same_storage: Yes / No buttons (keys y / n)
* choice: a list of the choices (keys 1-9, or arrows and enter)
* stdout: a multi-line box (ctrl+s submits)
* set, list: a text field that previews the items as you type
* everything else: a text field with a kind-specific placeholder and examples
"""

from __future__ import annotations

import re
import time

from textual import on
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tutor.lesson.model import Prompt
from tutor.ui.text import plain

# Format examples only: deliberately values no bundled lesson has as its answer
# (tests/ui/test_widgets.py checks), and hidden when one is this question's answer.
PLACEHOLDERS = {
    "number": "a number",
    "tensor": "a tensor's values",
    "text": "an exact name",
    "set": "items in any order, separated by commas",
    "list": "items in order, separated by commas",
    "shape": "a shape",
    "dtype": "a dtype",
    "exception": "an exception name, or: no error",
}
EXAMPLES = {
    "number": "e.g. 3.5, -0.25, 1e-3 or tensor(3.5)",
    "tensor": "e.g. tensor([7., 9.]), [[1, 0], [0, 1]] or [True, False]",
    "text": "case is ignored, e.g. SinBackward0",
    "shape": "e.g. (4, 5), torch.Size([4, 5]), 4x5 or () for a scalar",
    "dtype": "e.g. torch.int16, int16, short, uint8",
    "exception": "e.g. IndexError, raises, or: no error",
}
YES_NO = ("bool", "same_storage")


def items_preview(text: str) -> str:
    """How a set/list answer is being read, item by item."""
    inner = text.strip()
    if len(inner) >= 2 and inner[0] + inner[-1] in ("[]", "()", "{}"):
        inner = inner[1:-1]
    parts = [p.strip().strip("'\"") for p in re.split(r"[,\n]", inner) if p.strip()]
    if not parts:
        return "separate items with commas; brackets and quotes are optional"
    shown = " · ".join(parts[:12]) + (" …" if len(parts) > 12 else "")
    return f"{len(parts)} item{'s' * (len(parts) != 1)}: {shown}"


class StdoutArea(TextArea):
    BINDINGS = [Binding("ctrl+s", "submit", "Submit")]

    class Submit(Message):
        pass

    def action_submit(self) -> None:
        self.post_message(self.Submit())


class _Entry(Vertical):
    """The entry for one question; focuses itself as soon as it is mounted."""

    def on_mount(self) -> None:
        box = self.parent
        if isinstance(box, AnswerBox) and box.body is self and box.autofocus:
            box.focus_input()


class AnswerBox(Vertical, can_focus=True):
    """Posts `AnswerBox.Submitted(text)`; never judges anything itself.

    For yes/no and choice questions the box itself takes the focus (keys y/n and
    1-9 answer), so an `enter` pressed twice to move on cannot answer by accident;
    and those keys do nothing for a moment after the question appears, so an `n`
    (next) pressed twice does not answer "no".
    """

    SETTLE = 0.4  # seconds after a question appears during which y/n/1-9 are ignored

    BINDINGS = [
        Binding("y", "say('yes')", "Yes", show=False),
        Binding("n", "say('no')", "No", show=False),
        *[Binding(str(i), f"choose({i})", show=False) for i in range(1, 10)],
    ]

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.prompt: Prompt | None = None
        self.body: Vertical | None = None
        self.autofocus = True
        self.examples: list[Static] = []  # the current entry's notation examples
        self.shown_at = 0.0

    def show_prompt(self, prompt: Prompt, text: str = "", focus: bool = True) -> None:
        """Replace the entry with one for `prompt`, pre-filled with `text` (a retry).

        With `focus`, the entry takes the focus the moment it is mounted, so keys
        typed right away are not lost."""
        self.prompt = prompt
        self.autofocus = focus
        self.shown_at = time.monotonic()
        if self.body is not None:
            self.body.remove()
        self.examples = []
        self.body = _Entry(*self._entry(prompt, text), classes="answer-body")
        self.mount(self.body)

    def _entry(self, prompt: Prompt, text: str):
        kind = prompt.kind
        if kind in YES_NO:
            yield Horizontal(Button("Yes  (y)", id="yes", variant="primary"),
                             Button("No  (n)", id="no", variant="primary"), id="yes-no")
            yield self._examples(Static("press y or n", classes="examples"))
        elif kind == "choice":
            yield OptionList(*[Option(plain(f"{i}. {c}"), id=str(i))
                               for i, c in enumerate(prompt.choices, 1)], id="choices")
            yield self._examples(Static("press a number (or tab to the list, ↑/↓ and enter)",
                                        classes="examples"))
        elif kind == "stdout":
            area = StdoutArea(text, id="stdout-entry", soft_wrap=True, show_line_numbers=False)
            yield area
            yield self._examples(Static("type the printed lines exactly; ctrl+s submits",
                                        classes="examples"))
        else:
            yield Input(text, placeholder=PLACEHOLDERS.get(kind, "your prediction"),
                        id="text-entry", select_on_focus=False)
            hint = items_preview(text) if kind in ("set", "list") else EXAMPLES.get(kind, "")
            yield self._examples(Static(hint, id="preview", classes="examples"))

    def _examples(self, widget: Static) -> Static:
        self.examples.append(widget)
        return widget

    def hide_examples(self) -> None:
        """The examples would give this question's answer away: not shown."""
        for examples in self.examples:  # kept by reference: maybe not mounted yet
            examples.display = False

    def focus_input(self) -> None:
        if self.body is None:
            return
        if self.prompt is not None and (self.prompt.kind in YES_NO or self.prompt.kind == "choice"):
            self.focus()
            return
        for selector in ("#text-entry", "#stdout-entry"):
            found = self.body.query(selector)
            if found:
                found.first().focus()
                return

    # ------------------------------------------------------------------ events
    @on(Input.Changed, "#text-entry")
    def _changed(self, event: Input.Changed) -> None:
        if self.prompt is not None and self.prompt.kind in ("set", "list"):
            if self.body is not None:
                self.body.query_one("#preview", Static).update(plain(items_preview(event.value)))

    @on(Input.Submitted, "#text-entry")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Submitted(event.value.strip()))

    @on(StdoutArea.Submit)
    def _stdout(self, event: StdoutArea.Submit) -> None:
        event.stop()
        assert self.body is not None
        text = self.body.query_one("#stdout-entry", TextArea).text
        if text.strip():
            self.post_message(self.Submitted(text))

    @on(Button.Pressed, "#yes-no Button")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Submitted(event.button.id or ""))

    @on(OptionList.OptionSelected, "#choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(int(event.option.id or "0"))

    def settled(self) -> bool:
        return time.monotonic() - self.shown_at >= self.SETTLE

    def action_say(self, word: str) -> None:
        if self.prompt is not None and self.prompt.kind in YES_NO and self.settled():
            self.post_message(self.Submitted(word))

    def action_choose(self, number: int) -> None:
        prompt = self.prompt
        if (prompt is not None and prompt.kind == "choice" and self.settled()
                and 1 <= number <= len(prompt.choices)):
            self.post_message(self.Submitted(prompt.choices[number - 1]))
