"""Whether the lessons a kernel is started for need its optimizers' warm-up.

A fork-mode kernel warms the optimizers up at its start (tutor/kernel/warm.py): an
optimizer's first use imports `torch._dynamo`, about as long as `import torch` again,
and a forked run's imports die with it, so every run that makes an optimizer would pay
it.  The app warms them always (the learner has not chosen a lesson yet).  A command
started for lessons it knows (`tutor check`, `play`, `show`, `record`, the pytest
plugin) passes `Kernel(optimizers=needs_optimizers(files))`: most lessons never import
`torch._dynamo`, and a small check of them need not pay for it.

Read from the files' text, generously: any mention of what imports `torch._dynamo`
(`torch.optim.`, `torch.compile`, checkpointing, `torch.func`, ...: `DYNAMO_WORDS`) in a
lesson file or its pack's pack.yaml (shared setup code, modules) counts, in prose too;
so does a path that is not there (a lesson id: the caller did not look it up).  What
the loader refuses (no regular file, unreadable, over its size limit) never runs and
counts for nothing.  A word that only looks like such code costs the warm-up, as
before; a lesson that
imports `torch._dynamo` another way pays the import in its run: slower, never a
different result.  Pure: no torch.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from tutor.lesson.files import lesson_files, pack_manifest
from tutor.lesson.loader import MAX_FILE_BYTES

# What imports torch._dynamo, as a lesson's code names it (torch 2.x: an optimizer's
# and a scheduler's methods, the compilers, checkpointing, custom ops, deterministic
# mode, torch.func's transforms, the AMP grad scaler, DDP, dispatch modes).  Of the
# bundled lessons run without the warm-up (2026-11-28, torch 2.13) the 35 that imported
# it all match, and 21 of the 162 that did not (tests/lesson/test_warmth.py).
DYNAMO_WORDS = re.compile(
    r"optim\.|\.optim\b|lr_scheduler|compile|_dynamo|inductor|torch\.export|checkpoint\."
    r"|\bcheckpoint\(|custom_op|torch\.library|deterministic_algorithms|torch\.func"
    r"|functional_call|vmap|jacrev|jacfwd|hessian|GradScaler|DistributedDataParallel"
    r"|make_fx|TorchDispatchMode|_python_dispatch|distributed"
)


def mentions_dynamo(text: str) -> bool:
    """Whether `text` names something that imports `torch._dynamo` (see the module)."""
    return DYNAMO_WORDS.search(text) is not None


def needs_optimizers(paths: Iterable[Path]) -> bool:
    """Whether the lessons in `paths` (lesson files, or directories of them) may import
    `torch._dynamo`: any of them, or its pack.yaml, mentions it, or is not there (see
    the module; nothing here waits on a FIFO or reads a device)."""
    seen: set[Path] = set()
    for root in paths:
        for file in lesson_files(root):
            manifest = pack_manifest(file)
            for path in (file, manifest):
                if path is None or path in seen:
                    continue
                seen.add(path)
                text = _text(path)
                if text is None or mentions_dynamo(text):
                    return True
    return False


def _text(path: Path) -> str | None:
    """The file's text; None where there is no such file; "" where the loader would
    refuse it (no regular file, unreadable, over MAX_FILE_BYTES): opened without
    blocking, since a FIFO would wait for a writer."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return ""
            data = f.read(MAX_FILE_BYTES + 1)
        except OSError:
            return ""
    return "" if len(data) > MAX_FILE_BYTES else data.decode("utf-8", "replace")
