"""What the judge says about one prediction, and what it needs to know about a prompt."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .parts import Msg, Part


class Status(str, Enum):
    """The four verdicts.  `invalid` means the text could not be read as the
    prompt's kind: the learner is asked again and nothing is counted."""

    CORRECT = "correct"
    PARTIAL = "partial"
    INCORRECT = "incorrect"
    INVALID = "invalid"


@dataclass(frozen=True)
class Tolerance:
    """An explicit numeric tolerance for a prompt: |typed - live| <= atol + rtol*|live|."""

    rtol: float = 0.0
    atol: float = 0.0


@dataclass(frozen=True)
class JudgeSpec:
    """Everything the judge needs to know about a prompt."""

    kind: str
    choices: tuple[str, ...] = ()
    tolerance: Tolerance | None = None
    feedback: tuple[tuple[str, str], ...] = ()  # (wrong answer as typed, explanation)
    # foreseen mistakes (a lesson's `wrong:`): with the feedback keys, a typed number that
    # fits one of them at least as well as the live value is judged as that mistake
    wrong: tuple[str, ...] = ()
    # the choices as the learner sees them (a translation's labels), in the order of
    # `choices`: messages name a choice by what was shown; answers are judged by `choices`
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str  # one or two sentences for the learner: what differs, or why invalid
    expected: str  # the live value as shown to a learner (display notation)
    answer: str  # the prediction as typed
    details: tuple[str, ...] = field(default=())  # extra lines: per-part differences
    feedback: str | None = None  # the author's targeted explanation, if one matched

    @property
    def passed(self) -> bool:
        return self.status is Status.CORRECT


@dataclass(frozen=True)
class Outcome:
    """A comparer's finding, before it is shown: never `invalid` (only a reader
    can refuse an answer)."""

    status: Status
    message: Msg
    details: tuple[Msg, ...] = ()


def correct(*message: Part, details: tuple[Msg, ...] = ()) -> Outcome:
    return Outcome(Status.CORRECT, message, details)


def partial(*message: Part, details: tuple[Msg, ...] = ()) -> Outcome:
    return Outcome(Status.PARTIAL, message, details)


def incorrect(*message: Part, details: tuple[Msg, ...] = ()) -> Outcome:
    return Outcome(Status.INCORRECT, message, details)

