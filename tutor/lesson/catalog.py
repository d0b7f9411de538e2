"""Find lessons: the bundled packs, `--path` directories, `TUTOR_PATH` and installed packs.

Which files are lessons is decided by one rule (`tutor.lesson.files`); installed
packs are found through entry points (`tutor.lesson.installed`).  A directory
holding a `pack.yaml` manifest is a pack; lessons in a directory without one belong
to a pack named after the directory.  Broken files do not stop discovery: they are
collected as errors beside the lessons that loaded.

With an `index` (the app's, `tutor.lesson.index`), lessons and packs whose files are
unchanged since the index was written are taken from it instead of being read again;
the loader (YAML, the schema, the judge) is imported only when a file must be read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.i18n import _
from tutor.lesson.files import PACK_FILE, SUFFIXES, lesson_files, not_a_lesson, pack_manifest
from tutor.lesson.index import LessonIndex, stamp
from tutor.lesson.installed import ENTRY_POINT_GROUP, InstalledPack, installed_packs, same_pack
from tutor.lesson.model import Lesson, Pack

if TYPE_CHECKING:
    from tutor.lesson.loader import LessonError
    from tutor.lesson.validate import Problem

__all__ = ["ENTRY_POINT_GROUP", "PACK_FILE", "SUFFIXES", "Catalog", "bundled_dir", "env_paths",
           "find_lesson", "lesson_files", "load_catalog", "select"]


def bundled_dir() -> Path:
    """The lessons shipped with tutor (inside the wheel, or the repo's lessons/)."""
    here = Path(__file__).resolve().parent.parent
    installed = here / "_bundled_lessons"
    return installed if installed.is_dir() else here.parent / "lessons"


def env_paths() -> list[Path]:
    raw = os.environ.get("TUTOR_PATH", "")
    return [Path(p).expanduser() for p in raw.split(os.pathsep) if p.strip()]


@dataclass
class Catalog:
    lessons: list[Lesson] = field(default_factory=list)
    packs: dict[Path, Pack] = field(default_factory=dict)  # directory -> pack
    pack_of: dict[str, Pack] = field(default_factory=dict)  # lesson id -> pack
    errors: list[LessonError] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # e.g. an installed pack without lessons
    installed_of: dict[str, InstalledPack] = field(default_factory=dict)  # lesson id -> its pack
    from_index: set[str] = field(default_factory=set)  # lesson ids taken from the index

    def get(self, lesson_id: str) -> Lesson | None:
        return next((x for x in self.lessons if x.id == lesson_id), None)

    def opened(self, lesson_id: str) -> Lesson | None:
        """The lesson to open: for one taken from the index, its file read and validated
        again (and kept in the catalog in its place).  Raises LessonError when the file
        no longer loads, or no longer holds this lesson."""
        lesson = self.get(lesson_id)
        if lesson is None or lesson_id not in self.from_index:
            return lesson
        from tutor.lesson.loader import LessonError, display_name, load_lesson

        fresh = load_lesson(lesson.file)
        if fresh.id != lesson_id:
            raise LessonError.at(display_name(lesson.file), _(
                "the file now holds lesson {found}, not {wanted}: reopen the catalog").format(
                    found=repr(fresh.id), wanted=repr(lesson_id)))
        self.lessons[self.lessons.index(lesson)] = fresh
        self.from_index.discard(lesson_id)
        return fresh

    @property
    def problems(self) -> list[Problem]:
        return [p for e in self.errors for p in e.problems]


def _pack_for(path: Path, catalog: Catalog, source: str, index: LessonIndex | None,
              manifests: dict[Path, Path | None]) -> Pack:
    """The pack of a lesson file: its pack.yaml (`pack_manifest`), else its directory.
    `manifests`: the pack.yaml found so far for each directory, during one load (the
    search stats several files per directory above the lesson)."""
    if path.parent not in manifests:
        manifests[path.parent] = pack_manifest(path)
    manifest = manifests[path.parent]
    directory = manifest.parent if manifest is not None else path.parent
    if directory in catalog.packs:
        return catalog.packs[directory]
    pack = Pack(directory, directory.name.replace("-", " ").replace("_", " "), source=source)
    known = index.pack(manifest, source) if index is not None and manifest else None
    if isinstance(known, Pack):
        pack = known
    elif manifest is not None:
        from tutor.lesson.loader import LessonError, load_pack

        before = stamp(manifest)
        try:
            pack = load_pack(manifest, source)
        except LessonError as exc:
            catalog.errors.append(exc)
        else:
            if index is not None:
                index.keep_pack(manifest, source, pack, before)
    catalog.packs[directory] = pack
    return pack


@dataclass(frozen=True)
class _Root:
    path: Path
    source: str
    installed: InstalledPack | None = None


def _roots(paths: Sequence[Path], with_env: bool, with_bundled: bool,
           catalog: Catalog) -> list[_Root]:
    roots = [_Root(Path(p), "path") for p in paths]
    if with_bundled:
        roots.insert(0, _Root(bundled_dir(), "bundled"))
    if with_env:
        roots += [_Root(p, "TUTOR_PATH") for p in env_paths()]
        installed, broken = installed_packs()
        roots += [_Root(pack.path, pack.source, pack) for pack in installed]
        catalog.errors += [_error(b.source, b.message) for b in broken]
    return roots


def _error(where: str | Path, message: str) -> LessonError:
    """An error at the top of a file (a Path is named as everywhere: `display_name`)."""
    from tutor.lesson.loader import LessonError, display_name

    return LessonError.at(display_name(where) if isinstance(where, Path) else where, message)


def _duplicate(file: Path, lesson_id: str, other: Path) -> LessonError:
    from tutor.lesson.loader import LessonError, display_name

    return LessonError.at(
        display_name(file),
        _("duplicate lesson id {id}: already used by {other}; ids must be unique across all "
          "packs (rename one, e.g. with a pack prefix)").format(
              id=repr(lesson_id), other=display_name(other)),
        *_id_pos(file),
        "id",
    )


def _empty_pack(pack: InstalledPack) -> Problem:
    from tutor.lesson.validate import Problem

    return Problem(
        pack.source, 1, 1, "",
        _("holds no lessons: no lesson file in {path}; a package built with setuptools "
          "ships YAML files only when they are declared as package data (see \"Ship it as a "
          "Python package\" in docs/authoring.md)").format(path=pack.path), "warning")


def load_catalog(
    paths: Sequence[Path] | None = None, *, with_env: bool = True, with_bundled: bool | None = None,
    index: LessonIndex | None = None,
) -> Catalog:
    """Load lessons from `paths` (default: the bundled lessons) plus, with `with_env`,
    TUTOR_PATH and the packs installed through entry points.  With `index`, unchanged
    files are taken from it (their ids in `Catalog.from_index`), and it is written back.

    Ids must be unique: a second lesson with an id already seen is reported as an
    error at its `id:` line and left out, unless it is an installed copy of the pack
    the first one is in (`pip install .` of a pack's repository): then the copy is
    shadowed, silently.
    """
    catalog = Catalog()
    bundled = with_bundled if with_bundled is not None else not paths
    seen: dict[str, Lesson] = {}
    loaded: set[Path] = set()  # resolved paths of the files read (was O(n^2): issue #6)
    manifests: dict[Path, Path | None] = {}  # each directory's pack.yaml, looked up once
    for root in _roots(list(paths or ()), with_env, bundled, catalog):
        if not root.path.exists():
            catalog.errors.append(_error(str(root.path), _("no such file or directory")))
            continue
        files = lesson_files(root.path)
        if root.path.is_file() and not_a_lesson(root.path):
            catalog.errors.append(_error(root.path, str(not_a_lesson(root.path))))
            continue
        if root.installed is not None and not files:
            catalog.warnings.append(_empty_pack(root.installed))
        for file in files:
            resolved = file.resolve()
            if resolved in loaded:
                continue
            loaded.add(resolved)
            known = index.lesson(file, resolved) if index is not None else None
            if isinstance(known, Lesson):
                lesson = known
                catalog.from_index.add(lesson.id)
            else:
                read = _read_lesson(file, index)
                if not isinstance(read, Lesson):
                    catalog.errors.append(read)
                    continue
                lesson = read
            first = seen.get(lesson.id)
            if first is not None:
                if root.installed is None or not same_pack(first.file, root.installed):
                    catalog.errors.append(_duplicate(file, lesson.id, first.file))
                continue
            seen[lesson.id] = lesson
            catalog.pack_of[lesson.id] = _pack_for(file, catalog, root.source, index, manifests)
            if root.installed is not None:
                catalog.installed_of[lesson.id] = root.installed
            catalog.lessons.append(lesson)
    catalog.errors = _unique(catalog.errors)
    catalog.lessons = _course_order(catalog)
    if index is not None:
        index.save()
    return catalog


def _read_lesson(file: Path, index: LessonIndex | None) -> Lesson | LessonError:
    """Read (and validate) a lesson file, or say why it does not load; remember it in
    `index`, or forget a file that no longer loads."""
    from tutor.lesson.loader import LessonError, load_lesson

    before = stamp(file)
    try:
        lesson = load_lesson(file)
    except LessonError as exc:
        if index is not None:
            index.forget_lesson(file)
        return exc
    if index is not None:
        index.keep_lesson(file, pack_manifest(file), lesson, before)
    return lesson


def _unique(errors: list[LessonError]) -> list[LessonError]:
    """Each error once (a broken pack.yaml is reported by every lesson of its pack)."""
    seen: set[str] = set()
    out = []
    for error in errors:
        if str(error) not in seen:
            seen.add(str(error))
            out.append(error)
    return out


def select(paths: Sequence[Path], others: Sequence[Path] = (),
           known: Catalog | None = None) -> Catalog:
    """The lessons under `paths` only (what `check`, `lint` and `record` act on), with
    their ids checked against every other pack tutor knows: the bundled ones, `others`
    (`--path`), TUTOR_PATH and installed packs (`known`, when the caller has loaded them
    already).  An installed copy of the same pack is the same pack, not a duplicate;
    problems of the other packs are not reported."""
    chosen = load_catalog(paths, with_env=False, with_bundled=False)
    if known is None:
        known = load_catalog(others, with_env=True, with_bundled=True)
    chosen.warnings += known.warnings
    for lesson in list(chosen.lessons):
        other = known.get(lesson.id)
        if other is None or other.file.resolve() == lesson.file.resolve():
            continue
        installed = known.installed_of.get(lesson.id)
        if installed is not None and same_pack(lesson.file, installed):
            continue
        chosen.errors.append(_duplicate(lesson.file, lesson.id, other.file))
        chosen.lessons.remove(lesson)
        del chosen.pack_of[lesson.id]
    return chosen


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
    from tutor.lesson.loader import LessonError, load_lesson

    candidate = Path(ref)
    if candidate.suffix in SUFFIXES and candidate.exists():
        return load_lesson(candidate)
    catalog = load_catalog(list(paths), with_bundled=True)
    lesson = catalog.get(ref)
    if lesson is None:
        import difflib

        close = difflib.get_close_matches(ref, [x.id for x in catalog.lessons], n=3)
        message = (_("no lesson with id or path {ref}. Did you mean: {close}?") if close else
                   _("no lesson with id or path {ref}. `tutor list` shows them all."))
        raise LessonError.at(ref, message.format(ref=repr(ref), close=", ".join(close)))
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
