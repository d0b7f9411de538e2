"""The app's own settings (the theme), kept as `ui.json` beside the progress database.

Best effort: a missing, damaged or unwritable file means the defaults, never an error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FILE = "ui.json"


def load(directory: Path) -> dict[str, str]:
    try:
        data = json.loads((directory / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(data, dict) else {}


def save(directory: Path, **values: str) -> bool:
    data = {**load(directory), **values}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / f".{FILE}.{os.getpid()}"
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, directory / FILE)
    except OSError:
        return False
    return True
