"""Saving a lesson file as an editor does, for the tests of `tutor dev`'s live reload
(tests/authoring/test_dev.py, tests/ui/test_korean_screens.py; tests/ is on sys.path:
its conftest is there)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def save(path: Path, text: str) -> None:
    """Save like an editor (a new file moved into place), the mtime moved forward so a
    coarse clock cannot hide a quick edit."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    later = time.time_ns() + 2_000_000_000
    os.utime(tmp, ns=(later, later))
    tmp.replace(path)
