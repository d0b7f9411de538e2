"""Which files are lesson files: one rule for the catalog, lint, check, record and pytest.

A file is a lesson file when

1. its name ends in `.yaml` or `.yml` and is not `pack.yaml` (a pack's manifest);
2. its top level has at least two of the lesson keys `id:`, `title:`, `topic:` and
   `steps:` (read from the text, without parsing it, so a file with a YAML error
   or a misspelled key is still a lesson that fails to load, not a file that
   silently vanishes; `environment.yml` or `mkdocs.yml` are not lessons);
3. when found by searching a directory: no directory between the searched one and
   the file is skipped.  Skipped are hidden directories (`.git`, `.venv`, `.tox`),
   `build`, `dist`, `node_modules`, `__pycache__`, `site-packages`, `*.egg-info`,
   and virtual environments (any directory holding `pyvenv.cfg` or `conda-meta`).

A file named explicitly (`tutor lint path/to/file.yaml`) is read even inside a
skipped directory, but must pass rules 1 and 2.  pytest applies rules 1 and 2 to
the files it collects; which directories it enters is its own `norecursedirs`
setting, whose default skips the same directories.

A `*.yaml` entry that is not a regular file (a FIFO, a device) is never opened here:
it counts as a lesson file, so that the loader reports what it is (and never reads
it); so does anything named explicitly that is not a regular file or a directory.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from tutor.i18n import _

PACK_FILE = "pack.yaml"
SUFFIXES = (".yaml", ".yml")
LESSON_KEYS = ("id", "title", "topic", "steps")
SNIFF_BYTES = 512 * 1024
SKIPPED_NAMES = frozenset({"build", "dist", "node_modules", "__pycache__", "site-packages"})
ENV_MARKERS = ("pyvenv.cfg", "conda-meta")

_TOP_KEY = re.compile(r"^(id|title|topic|steps)[ \t]*:", re.MULTILINE)


def _special(path: Path) -> bool:
    """Is `path` something other than a regular file or a directory (a FIFO, a device,
    a socket)?  Only stat'ed: opening a FIFO could wait forever."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def lesson_keys(path: Path) -> set[str]:
    """The lesson keys found at the top level of `path`'s text (empty if unreadable or
    not a regular file)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return set()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return set()
        head = os.read(fd, SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return set()
    finally:
        os.close(fd)
    return set(_TOP_KEY.findall(head.removeprefix("\ufeff")))


def not_a_lesson(path: Path) -> str | None:
    """Why `path` is not a lesson file by rules 1 and 2, or None if it is one."""
    if path.suffix not in SUFFIXES:
        return _("not a lesson file: lesson files end in .yaml or .yml")
    if path.name == PACK_FILE:
        return _("a pack manifest, not a lesson file")
    if _special(path):
        return None  # the loader says what it is, without reading it
    found = lesson_keys(path)
    if len(found) == 1:
        return _("not a lesson file: a lesson has at least two of the top-level keys "
                 "id, title, topic and steps (it has only `{key}:`)").format(
                     key=next(iter(found)))
    if not found:
        return _("not a lesson file: a lesson has at least two of the top-level keys "
                 "id, title, topic and steps")
    return None


def is_lesson_file(path: Path) -> bool:
    return not_a_lesson(path) is None


def skipped_dir(directory: Path) -> bool:
    """Is `directory` one a search for lessons does not enter (rule 3)?"""
    name = directory.name
    if name.startswith(".") or name in SKIPPED_NAMES or name.endswith(".egg-info"):
        return True
    return any((directory / marker).exists() for marker in ENV_MARKERS)


def lesson_files(root: Path) -> list[Path]:
    """Every lesson file under `root`, in a stable order; `root` itself if it is not a
    directory (callers that need rule 2 for a named file ask `not_a_lesson`)."""
    if not root.is_dir():
        return [root]
    found: list[Path] = []
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = sorted(d for d in dirs if not skipped_dir(here / d))
        found += (here / f for f in files if is_lesson_file(here / f))
    return sorted(found)


def manifests(root: Path) -> list[Path]:
    """Every pack.yaml under `root` (by the same walk), or `root` if it is one."""
    if root.is_file():
        return [root] if root.name == PACK_FILE else []
    found: list[Path] = []
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = sorted(d for d in dirs if not skipped_dir(here / d))
        if PACK_FILE in files:
            found.append(here / PACK_FILE)
    return sorted(found)


PROJECT_MARKERS = (".git", "pyproject.toml", "setup.cfg", "setup.py")


def ancestors(directory: Path) -> Iterator[Path]:
    """`directory` and every directory above it, spelled as given (relative stays
    relative while inside the current directory)."""
    d = directory
    while True:
        yield d
        parent = d.parent
        if parent == d:
            if d.is_absolute() or Path.cwd().parent == Path.cwd():
                return
            parent = Path.cwd().parent  # above '.', on in absolute paths
        d = parent


def pack_manifest(lesson_file: Path) -> Path | None:
    """The pack.yaml of the pack `lesson_file` belongs to: the nearest one in its
    directory or above, not looking above a project's root (a directory holding
    `.git`, `pyproject.toml`, `setup.cfg` or `setup.py`) or out of `site-packages`."""
    for d in ancestors(lesson_file.parent):
        if (d / PACK_FILE).is_file():
            return d / PACK_FILE
        if d.name == "site-packages" or any((d / m).exists() for m in PROJECT_MARKERS):
            return None
    return None
