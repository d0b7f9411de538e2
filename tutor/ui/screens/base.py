"""What every screen of the app shares: worker errors go to one place (the app)."""

from __future__ import annotations

from textual.screen import Screen
from textual.worker import Worker, WorkerState


class TutorScreen(Screen):
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.app.worker_failed(event.worker)  # type: ignore[attr-defined]
