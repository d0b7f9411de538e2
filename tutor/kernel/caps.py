"""Size caps on what a lesson run sends back: one table for both sides.

The kernel (`observe.py`, `session.py`) cuts live values and output to these caps;
the tutor (`replies.py`) refuses a reply that exceeds them, since only a run that
writes its own replies can.  No torch here: both sides import it.
"""

from __future__ import annotations

# one observed value (docs/observations.md)
MAX_ELEMENTS = 10_000  # values of one tensor
MAX_TOTAL_ELEMENTS = 100_000  # tensor values in one observed value, all tensors together
MAX_ITEMS = 1_000  # items of one container
MAX_STR = 100_000  # characters of one string
MAX_TEXT = 200_000  # characters of strings and reprs in one observed value, all together
MAX_DEPTH = 8  # container nesting
MAX_REPR = 2_000  # characters of one repr
MAX_NODES = 20_000  # observations in one observed value (nested containers)

# one request's output
STDOUT_CAP = 1 << 20  # characters kept per stream and request
STDOUT_KILL = 64 << 20  # characters written before the code is stopped
MAX_TRACEBACK = 20_000
MAX_REPL_VALUE = 200_000  # characters of the REPL's repr of its last value
MAX_ERROR = 20_000  # characters of an `ok: false` reply's error

# pictures (tutor/kernel/inspect.py): bounds on the plain data, not its meaning
MAX_PICTURE_NODES = 1_000_000  # JSON values in one picture (a storage map lists cells)
MAX_PICTURE_TEXT = 2_000_000  # characters of its strings, all together
