"""What crosses the kernel boundary, as types: every message and observation.

The JSON lines of docs/kernel.md ("Protocol") and docs/observations.md, written as
`TypedDict`s so that mypy can tell a run's reply from an observation from the
kernel's description of itself.  `tutor/kernel/replies.py` checks each message
against its schema at run time and returns it as its type: what a caller reads
from a `Session` or a `Kernel` has been checked, and its type says what it holds.

Failures are typed too: `FailureKind` names what went wrong in a lesson run (a
timeout, a crash, a kernel that died under the run...).  Every `KernelError`
carries one (`exc.kind`), the engine keeps it beside the learner's sentence, and
no caller finds out what happened by searching a message's text.

Pure: the standard library's `typing` only, so the kernel side (which runs with
torch and nothing else of tutor) may use these types too; it does so only for
type checking (`if TYPE_CHECKING`), so no process imports anything new.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

# ----------------------------------------------------------------- failures

FailureKind = Literal[
    "timeout",  # the code ran longer than allowed (StepTimeout)
    "crashed",  # the run's own process ended, or was stopped for what it did (SessionDied)
    "kernel_died",  # the kernel process died under the run (SessionDied)
    "kernel_stopped",  # the run's code stopped the kernel process: charged to it (SessionDied)
    "kernel_dead",  # the kernel could not start, or will not be restarted (KernelDead)
    "not_started",  # the kernel could not start this lesson run (KernelError)
    "kernel_error",  # the kernel reported an error while serving a request (KernelError)
]
FAILURE_KINDS: tuple[FailureKind, ...] = (
    "timeout", "crashed", "kernel_died", "kernel_stopped", "kernel_dead", "not_started",
    "kernel_error",
)
# A failure that says nothing about the lesson's own code: the kernel under it broke
# (perhaps through another lesson running beside it), or no run could be started.
KERNEL_FAILURES: frozenset[FailureKind] = frozenset(
    {"kernel_died", "kernel_stopped", "kernel_dead", "not_started"})

FaultKind = Literal["kernel_stopped"]  # what a reply's `fault` says the code did
FAULT_KINDS: tuple[FaultKind, ...] = ("kernel_stopped",)

# ------------------------------------------------------------- observations


class Words(TypedDict):
    """A message made in the lesson's process, for tutor's process to translate
    (tutor/kernel/words.py, `translated`): the msgid (marked with N_ where it is written)
    and its values: strings, or (what a lesson's code broke) words, or a list of words,
    translated in their turn.  Sent beside the English text, which stays as it was."""

    msgid: str
    args: dict[str, str | Words | list[Words]]


ObservationType = Literal[
    "none", "bool", "int", "float", "complex", "str", "tensor", "size", "dtype", "device",
    "grad_fn", "exception", "module", "object", "list", "tuple", "set", "dict",
]

# One live value as plain data (docs/observations.md).  `type` decides which of the
# other keys are present: one TypedDict for all kinds, since the judge reads them
# defensively (a malformed observation from a lesson's process is refused before).
# `value` is a bool, an int, a float (or "nan", "inf", "-inf"), a str or a list of
# ints by `type`; `items` holds observations, or [key, value] pairs of them (`dict`).
Observation = TypedDict("Observation", {
    "type": ObservationType,
    "truncated": bool,
    "value": Any,
    "real": Any,  # complex: floats as `value`
    "imag": Any,
    "name": str,  # exception, grad_fn
    "message": str,  # exception
    "words": Words,  # exception: the kernel's own (an interrupt, an output flood)
    "mro": list[str],
    "traceback": str,
    "class": str,  # module, object
    "repr": str,  # tensor, module, object
    "items": list[Any],  # list, tuple, set: observations; dict: [key, value] pairs
    # tensor
    "dtype": str,
    "shape": list[int],
    "stride": list[int],
    "requires_grad": bool,
    "is_leaf": bool,
    "is_parameter": bool,
    "grad_fn": str | None,
    "device": str,
    "storage": str | None,
    "storage_offset": int,
    "values": Any,  # nested lists of numbers, booleans or [re, im] pairs
    "stats": dict[str, Any],
}, total=False)

# A picture's plain data (docs/pictures.md): `graph` (`nodes`), `storage`
# (`storages`), `tree` (`root`), or an `exception` observation's keys.
class Picture(TypedDict, total=False):
    type: str
    expr: str | None
    nodes: list[dict[str, Any]]
    edges: list[Any]
    storages: list[dict[str, Any]]
    tensors: list[dict[str, Any]]
    root: dict[str, Any]
    name: str
    message: str
    mro: list[str]
    traceback: str
    truncated: bool


class PromptWire(TypedDict, total=False):
    """A prompt as a `run` request carries it: what to observe after the step."""

    kind: str
    expect: str | list[str] | None


# ---------------------------------------------------------- kernel's own info


class KernelInfo(TypedDict, total=False):
    """What a zygote's `ready` and a worker's `hello` say of the kernel, and what
    `Kernel.info` holds (with `mode` and `mode_reason` added by the client)."""

    torch: str
    torch_full: str
    python: str
    pid: int | None  # the zygote's; None in spawn mode (every run is its own)
    threads: int  # (the zygote's, after importing torch; the client pops it)
    cuda: bool
    cuda_devices: int
    cuda_error: str
    cuda_names: list[str]
    cuda_fake: bool
    gpu_memory: str
    numpy: str
    numpy_error: str
    numpy_missing: bool
    limits: dict[str, Any]  # which limits hold and how (docs/security.md)
    mode: str  # fork or spawn
    mode_reason: str


class RunLimits(TypedDict, total=False):
    """What a lesson run may use (`open_session(limits=...)`); unset: the kernel's
    defaults (tutor/kernel/limits.py, procs.py)."""

    cpu_seconds: float | None  # CPU time per request (None or 0: no limit)
    processes: int  # processes and threads the run may start
    memory_bytes: int  # address space above what the run has at its start
    file_bytes: int  # the largest file it may write


# ----------------------------------------------------------- control channel


class SpawnRequest(TypedDict):
    """tutor -> zygote: fork a lesson run."""

    id: int
    op: Literal["spawn"]
    seed: int
    limits: RunLimits


class PingRequest(TypedDict):
    op: Literal["ping"]
    seq: int


class ByeRequest(TypedDict):
    op: Literal["bye"]


class StartRequest(TypedDict):
    """tutor -> a spawned worker: become this lesson run."""

    op: Literal["start"]
    seed: int
    limits: RunLimits
    workdir: str


class SpawnReply(TypedDict, total=False):
    """zygote -> tutor: the answer to `spawn` (+ the run's socket as `fd`, added by
    the client from the passed descriptor)."""

    id: int
    ok: bool
    pid: int
    error: str | None
    fatal: bool
    fd: int | None


class ExitEvent(TypedDict, total=False):
    """zygote -> tutor: a run's process ended."""

    event: Literal["exit"]
    pid: int
    code: int | None
    signal: int | None
    reason: str | None  # set when the zygote stopped the run itself


# ----------------------------------------------------------- session channel


class RunRequest(TypedDict, total=False):
    id: int
    op: Literal["run"]
    code: str
    step: int
    prompts: list[PromptWire]
    label: str  # the file name tracebacks show (e.g. "<pack setup>")


class ReplyBase(TypedDict, total=False):
    """What every session reply has: its request's `id`, `ok`, and, when the lesson's
    code hurt the kernel around it, `fault` (the learner's sentence) and `fault_kind`."""

    id: int
    ok: bool
    fault: str
    fault_kind: FaultKind
    fault_words: Words  # `fault` as words to translate


class FailedReply(ReplyBase, total=False):
    """`ok: false`: the kernel's code could not serve the request."""

    error: str | None
    words: Words  # `error` as words to translate, where the kernel's code made it


class RunReply(ReplyBase, total=False):
    stdout: str
    stderr: str
    stdout_note: Words  # the note that ends `stdout` (output truncated), to translate
    stderr_note: Words
    error: Observation | None  # an exception observation with `traceback`
    observations: list[Observation]  # one per prompt
    interrupted: bool


class ReplReply(ReplyBase, total=False):
    stdout: str
    stderr: str
    stdout_note: Words
    stderr_note: Words
    error: Observation | None
    value: str | None  # the repr of the last expression's value


class ObserveReply(ReplyBase, total=False):
    observation: Observation


class InspectReply(ReplyBase, total=False):
    picture: Picture


class ModulesReply(ReplyBase, total=False):
    """The answer to `modules` {modules: {name: source}}: the names written, sorted."""

    modules: list[str]


SessionReply = RunReply | ReplReply | ObserveReply | InspectReply | ModulesReply
SessionOp = Literal["run", "repl", "observe", "inspect", "modules"]
