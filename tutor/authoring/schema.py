"""The JSON Schemas of lesson files and pack.yaml, generated from `tutor.lesson.format`.

The loader validates with the same spec objects (cross-field rules included, as
`if`/`then`), so the schema an editor uses and the checks `tutor lint` runs cannot
drift apart.  Copies are packaged next to the format (`tutor/lesson/*.schema.json`);
a test keeps them equal to the generator's output (regenerate with
`tutor schema --output tutor/lesson/lesson.schema.json` and
`tutor schema --pack --output tutor/lesson/pack.schema.json`).

`tutor new` points a lesson's modeline at a copy of the schema inside the pack
(`.schema/lesson.schema.json`, by a relative path), so the reference works on every
machine the pack is checked out on, not only where tutor was installed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tutor.i18n import _
from tutor.lesson import format as fmt
from tutor.lesson.spec import to_json_schema

SCHEMA_ID = "https://tutor.invalid/schema/lesson-v1.json"
SCHEMA_TITLE = "tutor lesson (format v1)"
PACK_SCHEMA_ID = "https://tutor.invalid/schema/pack-v1.json"
PACK_SCHEMA_TITLE = "tutor pack manifest (pack.yaml, format v1)"
PACKAGED = Path(fmt.__file__).resolve().with_name("lesson.schema.json")
PACKAGED_PACK = Path(fmt.__file__).resolve().with_name("pack.schema.json")
MODELINE_PREFIX = "# yaml-language-server: $schema="
COPY_DIR = ".schema"  # inside a pack: where `tutor new` puts the schemas' copies


def lesson_schema() -> dict[str, Any]:
    return to_json_schema(fmt.LESSON, title=SCHEMA_TITLE, schema_id=SCHEMA_ID)


def pack_schema() -> dict[str, Any]:
    return to_json_schema(fmt.PACK, title=PACK_SCHEMA_TITLE, schema_id=PACK_SCHEMA_ID)


def schema_text(pack: bool = False) -> str:
    """A schema as written to its packaged file (stable: 2-space indent, key order kept)."""
    return json.dumps(pack_schema() if pack else lesson_schema(), indent=2,
                      ensure_ascii=False) + "\n"


def in_tutor_tree(directory: Path) -> bool:
    """Is `directory` inside the tree tutor itself is installed from (its repository)?"""
    try:
        common = Path(os.path.commonpath([directory, PACKAGED.parent]))
    except ValueError:  # different drives
        return False
    return common != Path(common.anchor) and (common / "pyproject.toml").exists()


def schema_copy(pack_dir: Path, pack: bool = False) -> Path:
    """Where the pack's copy of a schema lives (it may not exist yet)."""
    return pack_dir / COPY_DIR / ("pack.schema.json" if pack else "lesson.schema.json")


def write_schema_copies(pack_dir: Path) -> list[Path]:
    """Write the pack's schema copies that are missing or out of date; the paths written.
    Nothing is written for a pack inside tutor's own tree (it uses the packaged files)."""
    if in_tutor_tree(pack_dir.resolve()):
        return []
    written = []
    for pack in (False, True):
        target = schema_copy(pack_dir, pack)
        text = schema_text(pack)
        try:
            if target.read_text(encoding="utf-8") == text:
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def modeline_target(file: Path, pack_dir: Path | None = None, pack: bool = False) -> str:
    """What a lesson's (or, with `pack`, a pack.yaml's) modeline points at: a path
    relative to the file, to the packaged schema inside tutor's own tree, else to the
    copy in `pack_dir` (default: the file's directory)."""
    directory = file.resolve().parent
    if in_tutor_tree(directory):
        target = PACKAGED_PACK if pack else PACKAGED
    else:
        target = schema_copy((pack_dir or file.parent).resolve(), pack)
    return os.path.relpath(target, directory).replace(os.sep, "/")


def modeline(file: Path, pack_dir: Path | None = None, pack: bool = False) -> str:
    return MODELINE_PREFIX + modeline_target(file, pack_dir, pack)


def stale_modeline(file: Path, first_line: str) -> str | None:
    """Why a file's modeline points at no schema, or at a copy that is out of date."""
    if not first_line.startswith(MODELINE_PREFIX):
        return None
    target = first_line[len(MODELINE_PREFIX):].strip()
    if "://" in target and not target.startswith("file://"):
        return None  # a URL: not ours to check
    if target.startswith("file://"):
        from urllib.parse import unquote, urlparse

        path = Path(unquote(urlparse(target).path))
    else:
        path = file.parent / target
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        option = "--pack " if "pack" in Path(target).name else ""
        return _("the modeline's schema {target} does not exist: write it there with "
                 "`tutor schema {option}--output {path}`, or delete the file's first "
                 "line").format(target=target, option=option, path=os.path.normpath(path))
    if path.resolve() in (PACKAGED, PACKAGED_PACK):
        return None
    for pack in (False, True):
        if text == schema_text(pack):
            return None
    if "pack" in path.name:
        return _("the schema copy {target} is out of date (tutor's pack format changed): "
                 "refresh it with `tutor schema --pack --output {path}`").format(target=target,
                                                                                 path=path)
    return _("the schema copy {target} is out of date (tutor's lesson format changed): "
             "refresh it with `tutor schema --output {path}`").format(target=target, path=path)
