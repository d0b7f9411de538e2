"""Shared fixtures.  One real kernel per test session (each costs a torch import)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.kernel import Kernel

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
DATA = Path(__file__).resolve().parent / "data"

# tests/data holds lesson fixtures, some broken on purpose: the tutor pytest plugin
# (which collects lesson files as tests) must not turn them into failing items.
collect_ignore = ["data"]


@pytest.fixture(scope="session", autouse=True)
def no_real_progress(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`tutor play` records progress: no test (nor a `tutor` it starts) may write the
    progress of the person running the tests.  Tests that look at it set their own."""
    import os

    before = os.environ.get("TUTOR_HOME")
    os.environ["TUTOR_HOME"] = str(tmp_path_factory.mktemp("tutor-home"))
    # nor write the app's catalog index into their cache directory (platformdirs reads
    # XDG_CACHE_HOME on Linux; tests of the index pass their own directory)
    cache_before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache-home"))
    yield
    if cache_before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = cache_before
    if before is None:
        os.environ.pop("TUTOR_HOME", None)
    else:
        os.environ["TUTOR_HOME"] = before


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests speak English unless they choose otherwise (whatever the locale of the person
    running them), and a test that switches the language (`tutor --lang ko` in process,
    the app's switch) leaves English behind it."""
    from tutor import i18n

    monkeypatch.setenv("TUTOR_LANG", "en")
    yield
    i18n.set_language(i18n.ENGLISH)


@pytest.fixture(autouse=True)
def torch_stays_out() -> Iterator[None]:
    """The tutor never imports torch outside its kernel, and neither may a test: one
    that does would hide that promise's breach from every later test in its process
    (tests/kernel/test_kernel.py asserts it); this names the test that did."""
    import sys

    before = "torch" in sys.modules
    yield
    assert before or "torch" not in sys.modules, (
        "this test imported torch into the test process; ask a kernel or a subprocess")


@pytest.fixture(scope="session")
def kernel() -> Iterator[Kernel]:
    """A started kernel shared by the whole test session (tests must not kill it)."""
    k = Kernel()
    k.start()
    k.wait_ready()
    yield k
    k.shutdown()


class Borrowed:
    """What an in-process command gets for `Kernel(...)` under `commands_share_kernel`:
    the session's kernel, which it may neither start again nor shut down."""

    shared: Kernel

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __getattr__(self, name: str) -> object:
        return getattr(self.shared, name)

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        pass


@pytest.fixture
def commands_share_kernel(kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> Kernel:
    """In-process `tutor play`, `show`, `check` and `record` run their lessons in the session's
    kernel instead of starting one each (a torch import per command), for tests of
    what the commands print and record.  Their own kernel's start and shutdown are
    tested end to end, a process per command (tests/test_cli.py, tests/kernel)."""
    monkeypatch.setattr(Borrowed, "shared", kernel, raising=False)
    for command in ("play", "show", "check", "record"):
        monkeypatch.setattr(f"tutor.commands.{command}.Kernel", Borrowed)
    return kernel


@pytest.fixture
def own_kernel() -> Iterator[Kernel]:
    """A kernel of the test's own, for tests that kill or restart it.  Its zygote, and
    every zygote it restarts, leaves out the optimizers' warm-up (`optimizers=False`,
    1.2-1.4 s of CPU each): the tests that use it run no lesson that makes an optimizer,
    and the warm-up itself is tested in tests/kernel (test_platform.py,
    test_warm_up_choice.py)."""
    k = Kernel(optimizers=False)
    k.start()
    k.wait_ready()
    yield k
    k.shutdown()


@pytest.fixture
def tutor_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated TUTOR_HOME (progress database etc.) and no TUTOR_PATH."""
    home = tmp_path / "tutor-home"
    monkeypatch.setenv("TUTOR_HOME", str(home))
    monkeypatch.delenv("TUTOR_PATH", raising=False)
    return home


@pytest.fixture
def fake_play_home(tutor_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`tutor_home`, with `tutor play` running lessons on tests/fake_play.py's scripted
    runs (no kernel, no torch) in this process."""
    import fake_play

    fake_play.install(monkeypatch.setattr)
    return tutor_home
