"""Whether the lessons a kernel is started for need its optimizers' warm-up.

A fork-mode kernel warms the optimizers up at its start (tutor/kernel/warm.py): an
optimizer's first use imports `torch._dynamo`, about as long as `import torch` again,
and a forked run's imports die with it, so every run that makes an optimizer would pay
it.  The app warms them always (the learner has not chosen a lesson yet).  A command
started for lessons it knows (`tutor check`, `play`, `show`, `record`, the pytest
plugin) passes `Kernel(optimizers=needs_optimizers(files))`: most lessons never import
`torch._dynamo`, and a small check of them need not pay for it.

Read from the files' text, generously: any mention of what imports `torch._dynamo`
(an optimizer, `torch.compile`, `torch.export`, activation checkpointing, custom ops,
`torch.distributed`, dispatch modes, `make_fx`) in a lesson file or its pack's
pack.yaml (shared setup code, modules) counts, in prose too; so does a file that
cannot be read.  A word that only looks like such code costs the warm-up, as before;
a lesson that imports `torch._dynamo` another way pays the import in its run: slower,
never a different result.  Pure: no torch.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tutor.lesson.files import lesson_files, pack_manifest

# what imports torch._dynamo (torch 2.x: the functions wrapped in `_disable_dynamo`,
# and the compilers), as a lesson's code would name it
DYNAMO_WORDS = re.compile(
    r"optim|compile|dynamo|inductor|export|checkpoint|custom_op|library|distributed"
    r"|DataParallel|dispatch|make_fx|functional_call|torch\.func|vmap|_prims",
    re.IGNORECASE,
)


def mentions_dynamo(text: str) -> bool:
    """Whether `text` names something that imports `torch._dynamo` (see the module)."""
    return DYNAMO_WORDS.search(text) is not None


def needs_optimizers(paths: Iterable[Path]) -> bool:
    """Whether the lessons in `paths` (lesson files, or directories of them) may import
    `torch._dynamo`: any of them, or its pack.yaml, mentions it, or cannot be read."""
    seen: set[Path] = set()
    for root in paths:
        for file in lesson_files(root):
            manifest = pack_manifest(file)
            for path in (file, manifest):
                if path is None or path in seen:
                    continue
                seen.add(path)
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    return True
                if mentions_dynamo(text):
                    return True
    return False
