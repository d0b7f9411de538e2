"""The result of comparing one prediction with one observation."""

from __future__ import annotations

from dataclasses import dataclass

from .verdict import Status


@dataclass(frozen=True)
class Outcome:
    status: Status
    message: str
    details: tuple[str, ...] = ()


def correct(message: str, *details: str) -> Outcome:
    return Outcome(Status.CORRECT, message, details)


def partial(message: str, *details: str) -> Outcome:
    return Outcome(Status.PARTIAL, message, details)


def incorrect(message: str, *details: str) -> Outcome:
    return Outcome(Status.INCORRECT, message, details)
