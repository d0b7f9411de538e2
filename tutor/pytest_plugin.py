"""pytest plugin: `pytest lessons/` checks every lesson, one test item per prompt.

Registered through the `pytest11` entry point, so any project with tutor installed
can run its lesson packs in CI with the pytest options it already uses (`-k`, `-x`,
`--lf`, `--junitxml`, `-n` from pytest-xdist).

* A file is collected when it is a lesson file by the one rule `tutor lint` and
  `tutor check` use (`tutor.lesson.files`): `.yaml`/`.yml`, not `pack.yaml`, with at
  least two of the top-level keys `id:`, `title:`, `topic:`, `steps:` (so a
  misspelled key fails instead of vanishing).  Which directories pytest enters is
  its own `norecursedirs`, whose default skips build/, dist/, hidden directories and
  virtual environments, as tutor does.  A lesson file that does not load becomes one
  failing item with the loader's `file:line:col: key.path: message` problems.
* Each prompt is one item, named `step<S>-prompt<P>` (numbered from 1, as in
  `tutor check` and the app);
  its ask is a keyword too, so `-k grad` selects prompts whose question mentions
  grad.  A lesson without prompts is one item, `run`, that passes if every step runs.
* One kernel per pytest process, started lazily (in the background as soon as
  collection found a lesson), and one live run per lesson file: the first item of a
  file runs the whole lesson through the engine's `check_lesson` (the same code as
  `tutor check`), and every item reports its own prompt's check.
* Opt out with `-p no:tutor`, or `tutor_collect = false` in the ini file.

Light at import time: no torch, no textual, no judge (those are imported on first
use, inside the kernel process for torch).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tutor.safetext import sanitize

if TYPE_CHECKING:  # pragma: no cover
    from _pytest._code.code import TerminalRepr, TracebackStyle

    from tutor.engine import LessonCheck, PromptCheck
    from tutor.kernel import Kernel
    from tutor.lesson.model import Lesson


_kernel_key = pytest.StashKey["Kernel | None"]()
_borrowed_key = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tutor", "tutor lessons")
    group.addoption("--tutor-timeout", type=float, default=None, metavar="SECONDS",
                    help="time allowed per lesson step (default: the lesson's, else 10)")
    parser.addini("tutor_collect", type="bool", default=True,
                  help="collect tutor lesson files (*.yaml with two of the top-level keys "
                  "id, title, topic, steps)")


YAML_SUFFIXES = (".yaml", ".yml")  # (tutor.lesson.files.SUFFIXES, without importing it)


def looks_like_lesson(path: Path) -> bool:
    """Is `path` a lesson file?  The rule `tutor lint` and `tutor check` use (cheap:
    a look at the text's top-level keys, no parsing)."""
    if path.suffix not in YAML_SUFFIXES or not path.is_file():
        return False  # every other file pytest sees: no import; a FIFO is never read
    from tutor.lesson.files import is_lesson_file

    return is_lesson_file(path)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if not parent.config.getini("tutor_collect"):
        return None
    if looks_like_lesson(file_path):
        return LessonFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the kernel in the background (torch loads) if any prompt will run; its
    zygote warms the optimizers up only if a lesson that will run may make one."""
    if session.config.option.collectonly:
        return
    if any(isinstance(item, PromptItem) for item in session.items):
        from tutor.lesson.warmth import needs_optimizers

        files = {item.path for item in session.items if isinstance(item, (PromptItem, RunItem))}
        _kernel(session.config, wait=False, optimizers=needs_optimizers(sorted(files)))


def pytest_unconfigure(config: pytest.Config) -> None:
    kernel = config.stash.get(_kernel_key, None)
    if kernel is not None and not config.stash.get(_borrowed_key, False):
        kernel.shutdown()
    config.stash[_kernel_key] = None


def use_kernel(config: pytest.Config, kernel: Kernel) -> None:
    """Run lessons in `kernel` (already started, owned by the caller) instead of a new one.

    For embedding, e.g. tests that run pytest in-process with a kernel they share.
    """
    config.stash[_kernel_key] = kernel
    config.stash[_borrowed_key] = True


def _kernel(config: pytest.Config, *, wait: bool = True, optimizers: bool = True) -> Kernel:
    kernel = config.stash.get(_kernel_key, None)
    if kernel is None:
        from tutor.kernel import Kernel

        kernel = Kernel(batch=True, optimizers=optimizers)
        kernel.start()
        config.stash[_kernel_key] = kernel
    if wait:
        kernel.wait_ready()
    return kernel


def _skip(reason: str) -> None:
    """Skip, reported at the lesson file (not at this plugin's line)."""
    try:
        raise pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:  # a pytest without the (private) keyword
        pytest.skip(reason)


class LessonLoadError(Exception):
    """The lesson file does not load."""


class PromptFailed(Exception):
    """A prompt's check failed; carries the engine's PromptCheck (or a lesson-level reason)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class LessonFile(pytest.File):
    """One lesson file: loads it, yields one item per prompt, runs the lesson once."""

    lesson: Lesson | None = None
    _check: LessonCheck | None = None

    def collect(self):  # noqa: ANN201
        from tutor.lesson import LessonError, load_lesson

        try:
            self.lesson = load_lesson(self.path)
        except LessonError as exc:
            yield LoadErrorItem.from_parent(self, name="load", problems=str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a loader bug is this file's failure, not CI's
            yield LoadErrorItem.from_parent(
                self, name="load", problems=f"{self.path}:1:1: the loader failed on this file "
                f"({type(exc).__name__}: {exc}); please report it")
            return
        for step in self.lesson.steps:
            for prompt in step.prompts:
                name = f"step{step.index + 1}-prompt{prompt.index + 1}"
                item = PromptItem.from_parent(self, name=name,
                                              step_index=step.index, prompt_index=prompt.index)
                item.extra_keyword_matches.add(prompt.ask)
                yield item
        if not self.lesson.prompts:  # nothing to ask: still check that every step runs
            yield RunItem.from_parent(self, name="run")

    def result(self) -> LessonCheck:
        """The lesson's check, run on first use (one live run per file per process)."""
        if self._check is None:
            from tutor.engine import check_lesson

            assert self.lesson is not None
            kernel = _kernel(self.config)
            self._check = check_lesson(kernel, self.lesson,
                                       timeout=self.config.getoption("tutor_timeout"))
        return self._check


class LoadErrorItem(pytest.Item):
    def __init__(self, *, problems: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise LessonLoadError(self.problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, LessonLoadError):
            return sanitize(f"the lesson file does not load:\n{self.problems}")
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.path.name}: load"


class PromptItem(pytest.Item):
    def __init__(self, *, step_index: int, prompt_index: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.step_index = step_index
        self.prompt_index = prompt_index

    @property
    def lesson_file(self) -> LessonFile:
        assert isinstance(self.parent, LessonFile)
        return self.parent

    @property
    def prompt(self):  # noqa: ANN201
        lesson = self.lesson_file.lesson
        assert lesson is not None
        return lesson.steps[self.step_index].prompts[self.prompt_index]

    def _mine(self, check: LessonCheck) -> PromptCheck | None:
        """This prompt's check (a failing one first: a lesson with `vary:` has one per
        variant, and a failure names its values)."""
        mine = [p for p in check.prompts
                if p.step == self.step_index and p.prompt == self.prompt_index]
        return next((p for p in mine if not p.passed), mine[0] if mine else None)

    def runtest(self) -> None:
        check = self.lesson_file.result()
        if check.status == "skipped":
            _skip(f"{check.lesson}: {check.reason}")
        mine = self._mine(check)
        if mine is None:
            from tutor.lesson.loader import display_name

            where = f"{display_name(Path(check.file))}:{check.line}"
            raise PromptFailed(f"{where}: {check.lesson}: this prompt was not checked: "
                               f"{check.reason or 'the lesson stopped before it'}")
        if mine.passed and mine.verdict == "skipped":  # its own `requires:` is unmet
            _skip(f"{check.lesson}: {mine.message}")
        if not mine.passed:
            from tutor.lesson.loader import display_name

            lines = [f"{display_name(Path(mine.file))}:{mine.line}: {mine.lesson} step "
                     f"{mine.step + 1} prompt "
                     f"{mine.prompt + 1}: {mine.ask.strip()}",
                     f"  answer: {mine.answer if mine.answer is not None else '(none)'}"]
            if mine.expected is not None:
                lines.append(f"  live:   {mine.expected}")
            lines.append(f"  {mine.message}")
            raise PromptFailed("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, PromptFailed):
            return sanitize(excinfo.value.text)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        # 0-based line: pytest prints it 1-based, at the prompt's `- ask:` line
        return (self.path, self.prompt.pos.line - 1,
                sanitize(f"{self.name}: {self.prompt.ask.strip()}"))


class RunItem(pytest.Item):
    """A lesson without prompts: passes when every step runs."""

    @property
    def lesson_file(self) -> LessonFile:
        assert isinstance(self.parent, LessonFile)
        return self.parent

    def runtest(self) -> None:
        check = self.lesson_file.result()
        if check.status == "skipped":
            _skip(f"{check.lesson}: {check.reason}")
        if check.status == "error":
            from tutor.lesson.loader import display_name

            raise PromptFailed(f"{display_name(Path(check.file))}:{check.line}: "
                               f"{check.lesson}: {check.reason}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, PromptFailed):
            return sanitize(excinfo.value.text)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.path.name}: run"
