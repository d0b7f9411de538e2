"""The help screen (? or F1): every key, and what the marks mean."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from tutor.i18n import N_, _
from tutor.ui.text import translate_bindings, translated

if TYPE_CHECKING:
    from textual.binding import ActiveBinding

HELP = N_("""\
# tutor — keys

**Everywhere, whatever has the focus**: `F1` help (`?` when not typing) ·
`ctrl+p` find a lesson (by name or topic) · `ctrl+k` restart the kernel · `ctrl+q` quit

## Catalog

| key | does |
| --- | --- |
| `↑` `↓` | move between lessons (mouse: click) |
| `enter` | open the lesson (resumes where you left off) |
| `c` | continue where you left off |
| `s` | start the highlighted lesson (named on the right) over; asks first mid-lesson |
| `q` | quit |

Marks: `·` new · `◐` tried · `✓` done · `★` perfect (every question right first time, no hints),
then the best score (`3/4`: questions right in your best sitting). Packs marked "not part
of the course" (the samples) can be played but are not counted.

## Lesson

The step's code runs in the kernel as soon as the step is shown; you predict
before you see anything it produced. The earlier steps' code stays above it, dimmed.

| key | does |
| --- | --- |
| `enter` | submit your prediction; on a verdict: next question |
| `y` / `n`, `1`–`9` | answer a yes/no or a choice question |
| `enter` on an empty line, `ctrl+s` | submit printed output (one line per printed line) |
| `ctrl+t` | a hint (counted; a perfect lesson uses none) |
| `ctrl+r` | reveal the live value (counts as given up) |
| `r` | retry the question after a verdict (your last answer is selected: type to replace it) |
| `n` | next question, step or lesson |
| `ctrl+o` | open the REPL (once the step's questions are answered) |
| `p` | after a verdict: the picture behind it (graph, storage map, module tree) |
| `f2` | fold the earlier steps' code away, or back |
| `esc` | leave the REPL; otherwise back to the catalog |

An answer the judge cannot read (`invalid`) is explained and asked again; it
is never counted.

## REPL

Python in the lesson's live namespace. `enter` runs a complete statement (an
incomplete one, like `for i in x:`, continues on the next line; an empty line
ends a block), `ctrl+s` runs what is there, `↑`/`↓` walk the history,
`ctrl+c` interrupts long-running code (code that ignores the interrupt is
stopped a second later and the namespace rebuilt). Long output is cut; the full value stays
in `_`. What you change in the REPL is discarded before the next step runs.
`:graph EXPR`, `:storage` (or `:storage EXPR`) and `:tree EXPR` draw the autograd
graph of a tensor, which names share memory, and what a module registered.

## When the kernel dies

If the lesson's process crashes or hangs, tutor says so, restarts it and
re-runs the lesson's steps to rebuild the namespace; you continue where you
were. Your progress is saved after every answer.
""")


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", N_("Close"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(_(HELP))
        yield Footer()  # its own keys: the screen's below do nothing while it is open
