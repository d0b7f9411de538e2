"""Which lessons need the kernel's optimizer warm-up (tutor/lesson/warmth.py): read from
the lesson files and their pack.yaml, no kernel.  What a kernel started without it
does is tested in tests/kernel/test_warm_up_choice.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.lesson.loader import MAX_FILE_BYTES
from tutor.lesson.warmth import needs_optimizers

LESSONS = Path(__file__).resolve().parents[2] / "lessons"

LESSON = """\
id: t/{name}
title: A lesson
topic: test
steps:
  - code: |
{code}
"""


def lesson(directory: Path, name: str, code: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.yaml"
    body = "\n".join("      " + line for line in code.splitlines())
    path.write_text(LESSON.format(name=name, code=body))
    return path


@pytest.mark.parametrize("code", [
    "opt = torch.optim.SGD([w], lr=0.1)",
    "from torch import optim\nopt = optim.Adam([w])",
    "sched = torch.optim.lr_scheduler.StepLR(opt, 1)",
    "f = torch.compile(lambda x: x + 1)",
    "from torch.utils.checkpoint import checkpoint\ny = checkpoint(f, x, use_reentrant=False)",
    "torch.use_deterministic_algorithms(True)",
    "from torch.func import grad\ng = grad(f)(x)",
    "scaler = torch.amp.GradScaler('cpu')",
])
def test_a_lesson_whose_code_imports_dynamo_needs_the_warm_up(tmp_path: Path, code: str) -> None:
    assert needs_optimizers([lesson(tmp_path, "t", "w = torch.zeros(2)\n" + code)])


def test_a_lesson_without_any_needs_none_and_one_among_many_is_enough(tmp_path: Path) -> None:
    plain = lesson(tmp_path / "pack", "plain", "x = torch.ones(2)\ny = (x * 2).sum()")
    assert not needs_optimizers([plain])
    assert not needs_optimizers([tmp_path / "pack"])  # a directory: every lesson in it
    lesson(tmp_path / "pack", "opt", "opt = torch.optim.SGD([torch.zeros(2)], lr=1)")
    assert needs_optimizers([tmp_path / "pack"])
    assert not needs_optimizers([plain])


def test_a_pack_whose_setup_or_modules_make_an_optimizer_needs_it(tmp_path: Path) -> None:
    plain = lesson(tmp_path / "pack", "plain", "x = torch.ones(2)")
    (tmp_path / "pack" / "pack.yaml").write_text(
        "title: A pack\nsetup: |\n  import torch\n"
        "  opt = torch.optim.SGD([torch.zeros(1)], lr=1)\n")
    assert needs_optimizers([plain])


def test_a_path_that_is_not_there_counts_as_needing_it(tmp_path: Path) -> None:
    """A lesson id stands for a file the caller has not looked up (`tutor check ID`)."""
    assert needs_optimizers([Path("memory/assign")])
    assert needs_optimizers([tmp_path / "gone.yaml"])
    assert not needs_optimizers([])


def test_what_the_loader_refuses_is_not_read_and_needs_nothing(tmp_path: Path) -> None:
    """A FIFO (reading it would block), a device (it would never end), a file over the
    loader's limit: `tutor check` refuses them with the reason; none of them runs."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    big = tmp_path / "big.yaml"
    big.write_text("# torch.optim.SGD\n" + "#" * MAX_FILE_BYTES)
    for path in ("fifo.yaml", "zero.yaml", "big.yaml"):
        assert not needs_optimizers([tmp_path / path]), path
    assert not needs_optimizers([tmp_path])  # (the directory: the same files)
    assert needs_optimizers([tmp_path / "fifo.yaml",
                             lesson(tmp_path / "more", "opt", "torch.optim.SGD")])


# Found by running every bundled lesson in a zygote without the warm-up and asking each
# run whether `torch._dynamo` was imported (2026-11-28, torch 2.13: the 35 that did).
IMPORTS_DYNAMO = """
samples/modules grad-modes/freeze grad-modes/scaled-param modules/plain-dict
saving/best-weights saving/save-and-load optim/sgd-step optim/momentum optim/param-groups
optim/param-count optim/state-dict optim/set-to-none optim/adam-first-step
amp/scaler-basics amp/scaler-skip graph-life/checkpoint graph-life/checkpoint-options
determinism/deterministic-mode sched/step-order sched/warmup sched/per-group sched/resume
decay/adam-vs-adamw func/call-grads func/grad func/per-sample func/per-sample-model
func/jacobians func/what-vmap-refuses compile/first-call compile/graph-break
compile/new-shapes compile/python-values compile/dynamic compile/eager-parts
""".split()


def test_the_bundled_lessons_that_import_dynamo_are_read_as_needing_it() -> None:
    from tutor.lesson.catalog import load_catalog

    catalog = load_catalog(with_env=False)
    files = {lesson.id: lesson.file for lesson in catalog.lessons}
    assert set(IMPORTS_DYNAMO) <= set(files)
    missed = [i for i in IMPORTS_DYNAMO if not needs_optimizers([files[i]])]
    assert not missed
    # and most of the others are not (a small `tutor check` of them skips the warm-up)
    others = [f for i, f in files.items() if i not in IMPORTS_DYNAMO]
    assert sum(not needs_optimizers([f]) for f in others) > len(others) * 3 // 4
