"""What every screen of the app shares: a typed `app`, and worker errors routed to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState

from tutor.ui.messages import WorkerChanged
from tutor.ui.text import translate_bindings, translated

if TYPE_CHECKING:
    from textual import getters
    from textual.binding import ActiveBinding

    from tutor.ui.host import TutorHost

R = TypeVar("R")


class TutorScreen(Screen[R], Generic[R]):
    if TYPE_CHECKING:  # the screens of this package run in a TutorApp (see ui/host.py)
        app = getters.app(TutorHost)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        translate_bindings(self)  # (in the language of the moment the screen opens)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings)  # (Textual's widgets' keys too)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.app.worker_failed(event.worker)
        self.post_message(WorkerChanged(event.worker))  # (busy or idle: the app shows it)


class TutorModal(ModalScreen[R], Generic[R]):
    if TYPE_CHECKING:
        app = getters.app(TutorHost)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        translate_bindings(self)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings)  # (Textual's widgets' keys too)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.app.worker_failed(event.worker)
