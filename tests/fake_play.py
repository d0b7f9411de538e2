"""`tutor play` without a kernel, for tests of its input and output (no torch import):
`Kernel` and `LessonRun` are replaced by fakes that hand each step of the fixture
lesson ui/basics the live values the real kernel observes (as tests/test_flow.py).

In-process: `with fake_kernel(monkeypatch): main([...])`.  As a program (under a
pty or tmux, or with its streams closed or full): `python tests/fake_play.py play
ui/basics ...` runs `tutor.cli.main` with the fakes in place.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
UI_LESSONS = ROOT / "tests" / "data" / "ui" / "lessons"


def s(v: str) -> dict[str, Any]:
    return {"type": "str", "value": v}


# ui/basics, step by step: what its prompts' `expect:` evaluate to
LIVE = [
    [{"type": "float", "value": 12.0}, {"type": "list", "items": [s("a"), s("b"), s("c")]}],
    [{"type": "bool", "value": True}, s("floats")],
]


class FakeKernel:
    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def start(self) -> None:
        pass

    def wait_ready(self, *args: object, **kwargs: object) -> dict[str, Any]:
        return {"torch": "2.13.0", "python": "3.11.7", "cuda": False}

    def shutdown(self) -> None:
        pass


class FakeRun:
    session = None  # (no pictures)

    def __init__(self, kernel: object, lesson: Any, *, timeout: float | None = None):
        self.lesson = lesson

    def run_through(self, upto: int) -> Any:
        from tutor.engine import StepOutcome

        step = self.lesson.steps[upto]
        return StepOutcome(step, stdout="step one ran\n" if upto == 0 else "",
                           observations=LIVE[upto])

    def __enter__(self) -> FakeRun:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def install(setattr: Any) -> None:
    """Put the fakes in place with `setattr(module, name, value)` (a monkeypatch's)."""
    from tutor.commands import play

    setattr(play, "Kernel", FakeKernel)
    setattr(play, "LessonRun", FakeRun)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    install(setattr)
    from tutor.cli import main

    raise SystemExit(main(sys.argv[1:]))
