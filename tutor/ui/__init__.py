"""The learner's app (Textual).  Only this package imports textual.

Kept light: importing `tutor.ui` imports neither textual nor torch; `run_app`
does the heavy imports when it is called.
"""

from __future__ import annotations


def run_app() -> int:
    """Open the app: the catalog paints at once, the kernel starts in the background."""
    from tutor.ui.app import TutorApp

    app = TutorApp()
    app.run()
    return int(app.return_code or 0)
