"""The learner's app (Textual).  Only this package imports textual.

Kept light: importing `tutor.ui` imports neither textual nor torch; `run_app`
does the heavy imports when it is called.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def run_app(paths: Sequence[Path] = ()) -> int:
    """Open the app: the catalog paints at once, the kernel starts in the background.

    `paths` are lesson files or directories shown beside the bundled lessons (and
    TUTOR_PATH's).
    """
    from tutor.ui.app import TutorApp

    app = TutorApp(paths=paths)
    app.run()
    return int(app.return_code or 0)
