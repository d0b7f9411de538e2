"""Messages the workers post (results travel up; widgets get attributes down)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.worker import Worker

    from tutor.engine import StepOutcome
    from tutor.lesson import Catalog


class CatalogLoaded(Message):
    """The lessons are loaded (they load after the first paint)."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog


class KernelChanged(Message):
    """The kernel's status changed (posted from the kernel's threads: `Kernel.subscribe`)."""

    def __init__(self, status: str) -> None:
        super().__init__()
        self.status = status


class WorkerChanged(Message):
    """A worker of a screen or widget started or ended (Textual's own message does not
    bubble): this one reaches the app, which shows the kernel busy or idle."""

    def __init__(self, worker: Worker[Any]) -> None:
        super().__init__()
        self.worker = worker


class StepRan(Message):
    """A step ran in the kernel (or failed to): its outcome, for the lesson screen."""

    def __init__(self, outcome: StepOutcome, rebuilt: bool = False, fatal: bool = False) -> None:
        super().__init__()
        self.outcome = outcome
        self.rebuilt = rebuilt
        self.fatal = fatal  # the lesson cannot run here (unmet requirements)


class ReplDone(Message):
    """The REPL's code finished: the kernel's reply, or why there is none."""

    def __init__(self, code: str, reply: dict[str, Any] | None, failure: str | None = None,
                 dead: bool = False) -> None:
        super().__init__()
        self.code = code
        self.reply = reply
        self.failure = failure
        self.dead = dead  # the lesson's process is gone: the namespace must be rebuilt


class ProgressProblem(Message):
    """Progress could not be saved (read-only, locked, damaged): tell the learner."""

    def __init__(self, notice: str) -> None:
        super().__init__()
        self.notice = notice


class OpenLesson(Message):
    """Open a lesson (from the catalog, the command palette or 'next lesson')."""

    def __init__(self, lesson_id: str, fresh: bool = False) -> None:
        super().__init__()
        self.lesson_id = lesson_id
        self.fresh = fresh  # start over instead of resuming
