"""The lesson's code up to the current step: what a question can be answered from.

Earlier steps stay on screen, dimmed, in a collapsible block (their names are
still in the namespace); the current step is marked and highlighted.  Each step's
lines are numbered from 1, as in `tutor play`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Collapsible, Static

from tutor.i18n import _
from tutor.lesson.model import Step
from tutor.safetext import sanitize


def numbered(code: str, dim: bool = False) -> Content:
    """`code` with line numbers: highlighted for the theme, or all muted (`dim`)."""
    source = sanitize(code.rstrip("\n"))
    if dim:
        lines = [Content.styled(line, "$text-muted") for line in source.split("\n")]
    else:
        lines = highlight(source, language="python").split("\n")
    width = len(str(len(lines)))
    out = [Content.styled(f"{n:>{width}} │ ", "$text-muted") + line
           for n, line in enumerate(lines, 1)]
    return Content("\n").join(out)


class Fold(Collapsible):
    """A collapsible that does not scroll itself into view when it folds or unfolds:
    the lesson screen keeps what matters in view (a Collapsible would scroll to itself,
    taking the question off screen)."""

    def scroll_visible(self, *args: Any, **kwargs: Any) -> None:
        return


def earlier_title(count: int) -> str:
    return _("Step 1 (ran before)") if count == 1 else _("Steps 1–{n} (ran before)").format(
        n=count)


class CodePane(Vertical):
    """Attributes down: `show(steps, index)`; it posts nothing."""

    index = 0  # the current step
    total = 0  # steps in the lesson

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # held, not queried: a Fold composes its children only when it mounts itself,
        # which may come after the first show()
        self.earlier_code = Static(id="earlier-code")

    def compose(self) -> ComposeResult:
        with Fold(title=_("Earlier steps"), id="earlier", collapsed=False):
            yield self.earlier_code
        yield Static(id="step-label", classes="label")
        yield Static(id="code", classes="code")

    def show(self, steps: Sequence[Step], index: int, running: bool = False) -> None:
        """Show steps[0..index], `index` as the current step."""
        self.index, self.total = index, len(steps)
        earlier = self.query_one("#earlier", Collapsible)
        earlier.display = index > 0
        if index > 0:
            earlier.title = earlier_title(index)
            parts = []
            for step in steps[:index]:
                if index > 1:  # (one step: the block's title names it)
                    parts.append(Content.styled(_("Step {n}").format(n=step.index + 1),
                                                "bold $text-muted"))
                parts.append(numbered(step.code, dim=True))
            self.earlier_code.update(Content("\n").join(parts))
        self.query_one("#code", Static).update(numbered(steps[index].code))
        self.set_running(running)

    def set_running(self, running: bool) -> None:
        label = Content.assemble(("▶ ", "$text-accent"),
                                 _("Step {n} of {count}").format(n=self.index + 1,
                                                                 count=self.total),
                                 ("  · " + _("running…") if running else "", "$text-muted"))
        self.query_one("#step-label", Static).update(label)

    def toggle_earlier(self) -> None:
        earlier = self.query_one("#earlier", Collapsible)
        if earlier.display:
            earlier.collapsed = not earlier.collapsed

    @property
    def code_text(self) -> str:
        """The current step's code as shown (for tests and screen readers)."""
        return str(self.query_one("#code", Static).render())
