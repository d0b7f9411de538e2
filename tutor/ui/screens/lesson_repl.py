"""The lesson screen's REPL pane: opened once the step's questions are answered.

Mixed into `LessonScreen`; the code runs in `LessonKernelMixin.run_repl`, and
lines starting with `:` are picture commands (`LessonPictures.repl_picture`).
"""

from __future__ import annotations

from textual.widgets import Footer

from tutor.ui.messages import ReplDone
from tutor.ui.widgets.repl import Repl


class LessonReplMixin:
    repl_open = False
    repl_running = False
    repl_dirty = False  # the REPL changed the namespace: rebuild before the next step

    def action_leave_repl(self) -> None:
        self.hide_repl(keep_open=True)

    @property
    def repl(self) -> Repl | None:
        found = self.query("#repl")
        return found.first(Repl) if found else None

    async def action_repl(self) -> None:
        repl = self.repl
        if repl is None:  # mounted on first use: a TextArea is costly to build
            repl = Repl(id="repl")
            await self.mount(repl, before=self.query_one(Footer))
        repl.display = True
        self.repl_open = True
        repl.focus_input()
        self.refresh_bindings()

    def hide_repl(self, keep_open: bool = False) -> None:
        repl = self.repl
        if repl is not None and not keep_open:
            repl.display = False
            self.repl_open = False
        target = self.query_one("#verdict") if self.mode == "judged" else None
        if target is not None and target.display:
            target.focus()
        self.refresh_bindings()

    def on_repl_run(self, event: Repl.Run) -> None:
        repl = self.repl
        assert repl is not None
        if not self.flow.step_answered:  # never run code before the questions are answered
            repl.show_problem("Answer this step's questions first.")
            return
        if self.rebuilding:
            repl.show_problem("The namespace is being rebuilt; run it again in a moment.")
            return
        if event.code.lstrip().startswith(":"):  # :graph z, :storage, :tree net
            self.repl_picture(event.code)
            return
        self.repl_running = True
        self.repl_dirty = True
        self.refresh_bindings()
        self.run_repl(event.code)

    def on_repl_done(self, event: ReplDone) -> None:
        self.repl_running = False
        self.refresh_bindings()
        repl = self.repl
        if repl is None:
            return
        if event.reply is not None:
            repl.show_reply(event.reply)
        else:
            repl.show_problem(event.failure or "the code could not run")
        if event.dead:
            self.rebuild(quiet=True)
