"""Find lessons: the bundled packs, `--path` directories, `TUTOR_PATH` and installed packs.

An installed pack is a Python distribution declaring an entry point in the group
`tutor.lessons`; its value is either a module (`mypack.lessons`: the lessons are in
the module's directory, or in a `lessons/` directory inside it; the module is
located, not imported) or a callable (`mypack:lesson_dir`) returning the directory.

A PATH may be a lesson file or a directory searched at any depth for `*.yaml` /
`*.yml` files.  A directory holding a `pack.yaml` manifest is a pack; lessons in a
directory without one belong to a pack named after the directory.  Broken files do
not stop discovery: they are collected as errors beside the lessons that loaded.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tutor.lesson.loader import LessonError, display_name, load_lesson, load_pack
from tutor.lesson.model import Lesson, Pack
from tutor.lesson.validate import Problem

PACK_FILE = "pack.yaml"
SUFFIXES = (".yaml", ".yml")
ENTRY_POINT_GROUP = "tutor.lessons"


def bundled_dir() -> Path:
    """The lessons shipped with tutor (inside the wheel, or the repo's lessons/)."""
    here = Path(__file__).resolve().parent.parent
    installed = here / "_bundled_lessons"
    return installed if installed.is_dir() else here.parent / "lessons"


def env_paths() -> list[Path]:
    raw = os.environ.get("TUTOR_PATH", "")
    return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


def entry_point_paths() -> tuple[list[tuple[Path, str]], list[LessonError]]:
    """Lesson directories of installed packs (entry point group `tutor.lessons`)."""
    import importlib.util
    from importlib.metadata import entry_points

    found: list[tuple[Path, str]] = []
    errors: list[LessonError] = []
    seen: set[str] = set()
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in seen:
            continue
        seen.add(ep.name)
        dist = getattr(ep, "dist", None)
        source = f"entry point {ep.name}" + (f" from {dist.name}" if dist is not None else "")
        try:
            if ep.attr:  # a callable returning the directory
                path = Path(ep.load()())
            else:  # a module: find its directory without importing it
                spec = importlib.util.find_spec(ep.module)
                if spec is None:
                    raise ImportError(f"no module named {ep.module!r}")
                locations = list(spec.submodule_search_locations or ())
                path = Path(locations[0]) if locations else Path(spec.origin or "").parent
                if (path / "lessons").is_dir():
                    path = path / "lessons"
        except Exception as exc:  # noqa: BLE001 - a broken pack must not stop the catalog
            errors.append(
                LessonError.at(
                    source, f"cannot find the lessons of {ep.value!r}: {type(exc).__name__}: {exc}"
                )
            )
            continue
        found.append((path, source))
    return found, errors


def lesson_files(root: Path) -> list[Path]:
    """Every lesson file under `root` (or `root` itself), in a stable order.

    A `root` that is not a directory is returned as it is, whatever it is (a FIFO, a
    device): reading it says what is wrong with it.  Likewise for `*.yaml` entries
    under a directory that are not directories (a FIFO there is reported, not read).
    """
    if not root.is_dir():
        return [root]
    files = [
        p
        for p in root.rglob("*")
        if p.suffix in SUFFIXES
        and p.name != PACK_FILE
        and not p.is_dir()  # (a FIFO or a device named *.yaml is reported, never read)
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    return sorted(files)


@dataclass
class Catalog:
    lessons: list[Lesson] = field(default_factory=list)
    packs: dict[Path, Pack] = field(default_factory=dict)  # directory -> pack
    pack_of: dict[str, Pack] = field(default_factory=dict)  # lesson id -> pack
    errors: list[LessonError] = field(default_factory=list)

    def get(self, lesson_id: str) -> Lesson | None:
        return next((x for x in self.lessons if x.id == lesson_id), None)

    @property
    def problems(self) -> list[Problem]:
        return [p for e in self.errors for p in e.problems]


def _pack_for(path: Path, root: Path, catalog: Catalog, source: str) -> Pack:
    """The nearest pack.yaml between the lesson's directory and the search root."""
    directory = path.parent
    stop = root if root.is_dir() else root.parent
    d = directory
    while True:
        if d in catalog.packs:
            return catalog.packs[d]
        manifest = d / PACK_FILE
        if manifest.is_file():
            try:
                pack = load_pack(manifest, source)
            except LessonError as exc:
                catalog.errors.append(exc)
                pack = Pack(d, d.name.replace("-", " ").replace("_", " "), source=source)
            catalog.packs[d] = pack
            return pack
        if d == stop or d.parent == d:
            break
        d = d.parent
    pack = Pack(directory, directory.name.replace("-", " ").replace("_", " "), source=source)
    catalog.packs[directory] = pack
    return pack


def load_catalog(
    paths: Sequence[Path] | None = None, *, with_env: bool = True, with_bundled: bool | None = None
) -> Catalog:
    """Load lessons from `paths` (default: the bundled lessons) plus, with `with_env`,
    TUTOR_PATH and the packs installed through entry points.

    Ids must be unique: a second lesson with an id already seen is reported as an
    error at its `id:` line and left out.
    """
    roots: list[tuple[Path, str]] = [(Path(p), "path") for p in paths or ()]
    if with_bundled if with_bundled is not None else not paths:
        roots.insert(0, (bundled_dir(), "bundled"))
    catalog = Catalog()
    if with_env:
        roots += [(p, "TUTOR_PATH") for p in env_paths()]
        installed, errors = entry_point_paths()
        roots += installed
        catalog.errors += errors
    seen: dict[str, Lesson] = {}
    loaded: set[Path] = set()  # resolved paths of the files read (was O(n^2): issue #6)
    for root, source in roots:
        if not root.exists():
            catalog.errors.append(LessonError.at(str(root), "no such file or directory"))
            continue
        for file in lesson_files(root):
            resolved = file.resolve()
            if resolved in loaded:
                continue
            loaded.add(resolved)
            try:
                lesson = load_lesson(file)
            except LessonError as exc:
                catalog.errors.append(exc)
                continue
            if lesson.id in seen:
                catalog.errors.append(
                    LessonError.at(
                        display_name(file),
                        f"duplicate lesson id {lesson.id!r}: already used by "
                        f"{display_name(seen[lesson.id].file)}; ids must be unique across "
                        "all packs (rename one, e.g. with a pack prefix)",
                        *_id_pos(file),
                        "id",
                    )
                )
                continue
            seen[lesson.id] = lesson
            catalog.pack_of[lesson.id] = _pack_for(file, root, catalog, source)
            catalog.lessons.append(lesson)
    catalog.lessons = _course_order(catalog)
    return catalog


def _course_order(catalog: Catalog) -> list[Lesson]:
    packs = sorted(
        catalog.packs.values(),
        key=lambda p: (p.order if p.order is not None else 10**6, str(p.directory)),
    )
    rank = {p.directory: i for i, p in enumerate(packs)}

    def key(lesson: Lesson) -> tuple[int, int, int, str]:
        pack = catalog.pack_of[lesson.id]
        listed = pack.lesson_order.index(lesson.id) if lesson.id in pack.lesson_order else 10**6
        order = lesson.order if lesson.order is not None else 10**6
        return (rank[pack.directory], listed, order, str(lesson.file))

    return sorted(catalog.lessons, key=key)


def find_lesson(ref: str, paths: Iterable[Path] = ()) -> Lesson:
    """A lesson by file path or by id (searched in the bundled lessons, paths and TUTOR_PATH)."""
    candidate = Path(ref)
    if candidate.suffix in SUFFIXES and candidate.exists():
        return load_lesson(candidate)
    catalog = load_catalog(list(paths), with_bundled=True)
    lesson = catalog.get(ref)
    if lesson is None:
        import difflib

        close = difflib.get_close_matches(ref, [x.id for x in catalog.lessons], n=3)
        hint = f" Did you mean: {', '.join(close)}?" if close else " `tutor list` shows them all."
        raise LessonError.at(ref, f"no lesson with id or path {ref!r}.{hint}")
    return lesson


def _id_pos(file: Path) -> tuple[int, int]:
    """(line, column) of a lesson file's top-level `id:` value (1, 1 if not found)."""
    import re

    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return 1, 1
    m = re.search(r"^id[ \t]*:[ \t]*", text, re.MULTILINE)
    if m is None:
        return 1, 1
    return text.count("\n", 0, m.start()) + 1, m.end() - m.start() + 1
