"""What to ask again now: the reviews that are due and the mistakes to redo, as one list
of `Question`s (`tutor.redo.ask_again` makes the flow that asks one).

Its own module, beside the store it reads, so that the app's catalog can say how many
questions wait without importing the lesson engine and the judge.  Pure: stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutor.i18n import _
from tutor.progress.records import Variant
from tutor.progress.review import first_answers, mistakes
from tutor.progress.store import ProgressStore

Reason = Literal["due", "mistake"]


@dataclass(frozen=True)
class Question:
    """One question to ask again (step and prompt 0-based, like everything stored)."""

    lesson: str
    step: int
    prompt: int
    reason: Reason  # due: the review schedule brings it back; mistake: not right since
    avoid: Variant = ()  # the values of the answer being redone

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.lesson, self.step, self.prompt)

    def where(self) -> str:
        """`autograd/retain-graph, step 1, question 2` (numbered from 1)."""
        return _("{lesson}, step {step}, question {question}").format(
            lesson=self.lesson, step=self.step + 1, question=self.prompt + 1)


def queue(store: ProgressStore, *, due_only: bool = False) -> list[Question]:
    """What to ask again now: the reviews due (longest due first), then the mistakes
    that are not due (oldest first); each question once."""
    attempts = store.attempts()
    last = {a.key: a for a in first_answers(attempts)}  # (later answers win)
    found: dict[tuple[str, int, int], Question] = {}
    for item in store.due():
        answer = last.get(item.key)
        found[item.key] = Question(*item.key, "due", answer.variant if answer else ())
    if not due_only:
        for m in mistakes(attempts):
            found.setdefault(m.key, Question(*m.key, "mistake", m.last.variant))
    return list(found.values())
