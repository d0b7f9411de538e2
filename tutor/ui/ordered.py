"""Writes from worker threads, applied in the order the UI asked for them (pure: stdlib)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class InOrder:
    """Take a ticket on the UI thread; a worker waits for its turn before writing.

    Each progress write runs in its own worker thread, and threads may start in
    any order; the first attempt at a question must still be stored first.
    """

    def __init__(self) -> None:
        self._next = 0
        self._serving = 0
        self._changed = threading.Condition()

    def ticket(self) -> int:
        with self._changed:
            ticket = self._next
            self._next += 1
            return ticket

    @contextmanager
    def turn(self, ticket: int, timeout: float = 30.0) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: self._serving >= ticket, timeout)
        try:
            yield
        finally:
            with self._changed:
                self._serving = max(self._serving, ticket + 1)
                self._changed.notify_all()
