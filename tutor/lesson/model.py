"""The lesson model: frozen dataclasses built by the loader.  Pure data."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the catalog's index builds lessons without loading the judge)
    from tutor.judge import JudgeSpec, Tolerance

if TYPE_CHECKING:
    from tutor.kernel.wire import PromptWire

DEFAULT_TIMEOUT = 10.0

Variant = tuple[tuple[str, str], ...]  # a lesson's drawn values: (name, value as written)


@dataclass(frozen=True)
class Pos:
    line: int
    col: int


@dataclass(frozen=True)
class Requires:
    torch: str | None = None
    python: str | None = None
    cuda: bool = False
    numpy: bool = False  # a working torch-NumPy bridge


@dataclass(frozen=True)
class Prompt:
    index: int  # 0-based within its step
    ask: str
    kind: str
    expect: str | tuple[str, str] | None
    answer: str | None
    pos: Pos
    answer_pos: Pos | None = None
    choices: tuple[str, ...] = ()
    tolerance: Tolerance | None = None
    hint: str | None = None
    explain: str | None = None
    feedback: tuple[tuple[str, str], ...] = ()
    wrong: tuple[str, ...] = ()
    show: str | None = None
    match: str | None = None  # exception prompts: a regular expression the message must match
    requires: Requires | None = None  # what this question needs (skipped where unmet)
    labels: tuple[str, ...] = ()  # choices as shown, translated (judged: `choices`)

    @property
    def spec(self) -> JudgeSpec:
        from tutor.judge import JudgeSpec

        return JudgeSpec(self.kind, self.choices, self.tolerance, self.feedback, self.wrong,
                         self.labels)

    @property
    def wire(self) -> PromptWire:
        """What the kernel needs to observe this prompt's live value."""
        return {
            "kind": self.kind,
            "expect": list(self.expect) if isinstance(self.expect, tuple) else self.expect,
        }


@dataclass(frozen=True)
class Step:
    index: int  # 0-based
    code: str
    prompts: tuple[Prompt, ...]
    pos: Pos
    explain: str | None = None


@dataclass(frozen=True)
class Setup:
    """A pack's shared setup code (`setup:` in pack.yaml), run before each of its
    lessons' first step, in the lesson's namespace."""

    code: str
    file: Path  # the pack.yaml it is written in
    line: int  # the file line of the code's first line (1-based)
    col: int = 1
    problem: str | None = None  # the pack.yaml has a `setup:` but does not load: why

    def file_line(self, code_line: int) -> int:
        """The line of `file` holding line `code_line` (1-based) of the code."""
        return self.line + max(code_line, 1) - 1


@dataclass(frozen=True)
class Module:
    """One of a lesson's (or its pack's) own Python modules (`modules:`), written as
    NAME.py where the run's code, and the processes it starts, can import it."""

    name: str
    source: str
    file: Path  # the lesson file or pack.yaml it is written in
    line: int  # the file line of the source's first line (1-based)


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    topic: str
    file: Path
    steps: tuple[Step, ...]
    level: int = 1
    intro: str = ""
    requires: Requires = field(default_factory=Requires)
    tags: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    seed: int = 0
    order: int | None = None
    setup: Setup | None = None  # its pack's shared setup code, run before step 1
    # its own modules and its pack's (one per name: the lesson's replaces the pack's),
    # importable before the setup runs
    modules: tuple[Module, ...] = ()
    # `vary:` (see tutor.lesson.vary): every variant, and the one filled in here; a
    # lesson with variants is loaded filled in with the first, and keeps its template
    variants: tuple[Variant, ...] = ()
    variant: Variant = ()
    # rows of `vary:` that say what they need: (the variant, its requirements)
    variant_requires: tuple[tuple[Variant, Requires], ...] = ()
    template: Lesson | None = field(default=None, compare=False, repr=False)
    lang: str = "en"  # the language of its texts (tutor.lesson.translation)

    @property
    def prompts(self) -> list[tuple[Step, Prompt]]:
        return [(s, p) for s in self.steps for p in s.prompts]


@dataclass(frozen=True)
class Pack:
    """A directory of lessons with an optional pack.yaml manifest."""

    directory: Path
    title: str
    description: str = ""
    order: int | None = None
    lesson_order: tuple[str, ...] = ()
    source: str = "bundled"  # "bundled", "path", "TUTOR_PATH", or "entry point NAME"
    setup: Setup | None = None
    modules: tuple[Module, ...] = ()  # `modules:`, for every lesson of the pack
    lang: str = "en"  # the language of its title and description (pack.ko.yaml)
    # its lessons' topics as said in `lang` (pack.ko.yaml's `topics:`), (topic, name)
    topics: tuple[tuple[str, str], ...] = ()

    def topic_name(self, topic: str) -> str:
        """How `topic` (a lesson's `topic:`) is shown: its name in the pack's language
        where the pack's translation gives one, else as written."""
        return dict(self.topics).get(topic, topic)
