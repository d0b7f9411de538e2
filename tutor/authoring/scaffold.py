"""`tutor new`: a commented lesson skeleton that lints clean and records in one go."""

from __future__ import annotations

import re
from pathlib import Path

from tutor.authoring.schema import modeline, write_schema_copies
from tutor.i18n import _
from tutor.lesson.catalog import PACK_FILE
from tutor.lesson.format import ID_HINT, LESSON_ID

SKELETON = """\
{modeline}
# A tutor lesson: the learner reads each step's code, predicts, then the code runs
# live and the prediction is judged by meaning.  Format: docs/lesson-format.md.
#   tutor lint {file}      check it without running torch
#   tutor record {file}    fill every `answer:` from a live run
#   tutor check {file}     run it and judge every answer
id: {id}
title: {title}
{topic_line}# what it is about: autograd, memory, modules, ...
level: 1             # 1 basics .. 3 deep
intro: |
  What the learner should keep in mind before the first step (Markdown).
steps:
  - code: |
      x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
      y = (x * x).sum()
      y.backward()
    predict:
      - ask: What is `x.grad` after `y.backward()`?
        kind: tensor      # number, tensor, bool, text, choice, set, list, shape,
                          # dtype, exception, same_storage or stdout
        expect: x.grad    # a Python expression, evaluated after the step's code
        answer:           # `tutor record` writes the live value here
        hint: The derivative of x² is 2x.
        explain: |
          `y = x₁² + x₂² + x₃²`, so dy/dxᵢ = 2xᵢ: the gradient is `[2., 4., 6.]`.
        wrong: ["[1, 2, 3]"]  # answers a careless learner gives; must be judged wrong
"""


class ScaffoldError(Exception):
    pass


def title_for(lesson_id: str) -> str:
    last = lesson_id.rsplit("/", 1)[-1]
    words = re.split(r"[-_.]+", last)
    return " ".join(w for w in words if w).capitalize() or lesson_id


def new_lesson(lesson_id: str, pack: Path) -> tuple[Path, Path | None, list[Path]]:
    """Write the skeleton for `lesson_id` into `pack`; returns (lesson file, new pack.yaml,
    schema copies written for editors)."""
    if not re.fullmatch(LESSON_ID, lesson_id):
        raise ScaffoldError(_("{id} is not a valid lesson id: {hint}").format(
            id=repr(lesson_id), hint=_(ID_HINT)))
    if pack.exists() and not pack.is_dir():
        raise ScaffoldError(_("{path} is not a directory").format(path=pack))
    target = pack / (lesson_id.rsplit("/", 1)[-1] + ".yaml")
    if target.exists():
        raise ScaffoldError(_("{path} already exists: not overwriting it (choose another id, "
                              "or delete the file first)").format(path=target))
    pack.mkdir(parents=True, exist_ok=True)
    topic = lesson_id.split("/", 1)[0] if "/" in lesson_id else "pytorch"
    text = SKELETON.format(modeline=modeline(target, pack), file=target.name, id=lesson_id,
                           title=title_for(lesson_id),
                           topic_line=f"topic: {topic}".ljust(21))
    with target.open("x", encoding="utf-8") as fh:  # "x": never overwrite, even racing
        fh.write(text)
    manifest = pack / PACK_FILE
    made = None
    if not manifest.exists():
        name = pack.resolve().name.replace("-", " ").replace("_", " ")
        manifest.write_text(
            f"{modeline(manifest, pack, pack=True)}\n"
            f"# A lesson pack: the lessons in this directory, read as one unit.\n"
            f"title: {name.capitalize() or 'My lessons'}\n"
            f"description: What this pack teaches.\n"
            f"# lessons: [{lesson_id}]   # course order (unlisted lessons follow by file name)\n",
            encoding="utf-8")
        made = manifest
    return target, made, write_schema_copies(pack)
