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
    import gc

    # The imports build a few hundred thousand objects that live as long as the app;
    # the collector would walk them again and again on the way to the first screen
    # (about 20 ms, and a full collection of 30-60 ms soon after: docs/performance.md,
    # "Lesson titles").  Paused for the imports, then those objects are moved out of its
    # sight (`gc.freeze`: it never walks them again; they are still freed by reference
    # counting).  The app does the same for the catalog once its titles are on screen.
    gc.disable()
    try:
        from tutor.ui.app import TutorApp
    finally:
        gc.freeze()
        gc.enable()
    app = TutorApp(paths=paths)
    app.run()
    return int(app.return_code or 0)
