"""The JSON Schema of lesson files, generated from `tutor.lesson.format`.

The loader validates with the same spec objects, so the schema an editor uses and
the checks `tutor lint` runs cannot drift apart.  A copy is packaged next to the
format (`tutor/lesson/lesson.schema.json`) for editors' `$schema` modelines; a test
keeps it equal to the generator's output (regenerate with
`tutor schema --output tutor/lesson/lesson.schema.json`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tutor.lesson import format as fmt
from tutor.lesson.spec import to_json_schema

SCHEMA_ID = "https://tutor.invalid/schema/lesson-v1.json"
SCHEMA_TITLE = "tutor lesson (format v1)"
PACKAGED = Path(fmt.__file__).resolve().with_name("lesson.schema.json")
MODELINE_PREFIX = "# yaml-language-server: $schema="


def lesson_schema() -> dict[str, Any]:
    return to_json_schema(fmt.LESSON, title=SCHEMA_TITLE, schema_id=SCHEMA_ID)


def schema_text() -> str:
    """The schema as written to the packaged file (stable: sorted nowhere, 2-space indent)."""
    return json.dumps(lesson_schema(), indent=2, ensure_ascii=False) + "\n"


def modeline_target(lesson_file: Path) -> str:
    """What a lesson file's modeline should point at: a relative path to the packaged
    schema when both live in one tree (the repo), else the schema's file URL."""
    import os

    lesson_dir = lesson_file.resolve().parent
    schema = PACKAGED
    try:
        common = Path(os.path.commonpath([lesson_dir, schema.parent]))
    except ValueError:  # different drives
        return schema.as_uri()
    if common != Path(common.anchor) and (common / "pyproject.toml").exists():
        return os.path.relpath(schema, lesson_dir).replace(os.sep, "/")
    return schema.as_uri()


def modeline(lesson_file: Path) -> str:
    return MODELINE_PREFIX + modeline_target(lesson_file)
