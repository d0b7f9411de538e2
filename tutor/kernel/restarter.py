"""When a kernel that died is started again, and when it is given up on.

jupyter_client's `KernelRestarter` in small: the manager tells the policy each
time its kernel process dies (`died`); the policy counts the deaths since the
last stable start (one that lived `stable_after` seconds) and decides: `restart`
(the kernel is started again when it is next needed) or `dead` (more than
`limit` deaths in a row, or a failure no restart can mend).  Callbacks added
with `add_callback(f, "restart" | "dead")` are called with the reason.  Pure: no
processes, no torch, no clock but `time.monotonic`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

RESTART_LIMIT = 5
STABLE_AFTER = 10.0  # seconds of life after which a start counts as good

RestartEvent = Literal["restart", "dead"]


class RestartPolicy:
    def __init__(self, limit: int = RESTART_LIMIT, stable_after: float = STABLE_AFTER):
        self.limit = limit
        self.stable_after = stable_after
        self.deaths: list[float] = []  # when the kernel died, since its last stable start
        self._callbacks: dict[RestartEvent, list[Callable[[str], None]]] = {
            "restart": [], "dead": []}

    def add_callback(self, f: Callable[[str], None], event: RestartEvent = "restart") -> None:
        self._callbacks[event].append(f)

    def remove_callback(self, f: Callable[[str], None],
                        event: RestartEvent = "restart") -> None:
        if f in self._callbacks[event]:
            self._callbacks[event].remove(f)

    def reset(self) -> None:
        """A restart asked for (not a death): the count starts again."""
        self.deaths.clear()

    def died(self, started_at: float, why: str, *, fatal: bool = False) -> RestartEvent:
        """The kernel process started at `started_at` (time.monotonic) died, for `why`;
        `fatal`: no restart can mend it.  Returns (and calls back) the decision."""
        now = time.monotonic()
        if now - started_at > self.stable_after:
            self.deaths.clear()
        self.deaths.append(now)
        event: RestartEvent = "dead" if fatal or len(self.deaths) > self.limit else "restart"
        for f in list(self._callbacks[event]):
            f(why)
        return event
