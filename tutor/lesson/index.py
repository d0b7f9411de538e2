"""The catalog index: lessons and packs as loaded last time, kept in the user's cache
directory, so that the app shows the lesson titles without reading unchanged files again.

An entry is keyed by the file's resolved path and holds what the loader built from it,
with the file's size and modification time (a lesson's entry also holds its pack.yaml's,
since the lesson carries the pack's `setup:`; in a language other than English, the key
of a lesson or a pack also holds the language and its translation file's stamp,
`x.ko.yaml` or `pack.ko.yaml`: `lesson_key`, `pack_key`).  An entry is
used only while all of them are unchanged; a changed file is read (and validated) again,
a deleted one is dropped.
The whole index is thrown away when tutor's version, the Python version or the code that
builds lessons changes (tutor/lesson/*.py and the judge's verdict types, by size and
modification time).  Files that do not load are never indexed: their errors are found
again each time.

Only the app reads the index (`load_catalog(..., cached=True)`); `tutor check`, `lint`,
`record` and `play` read every file.  The app reads a lesson's file again, with full
validation, when the lesson is opened (`Catalog.opened`).

The file is `catalog-index.pickle` in `cache_dir()`, written whole to a temporary file
and renamed over the old one.  It is read with an unpickler that builds only the
lesson model's own classes (and tuples, paths, strings and numbers): anything else makes
the file count as corrupt.  A corrupt, unreadable or unwritable index is ignored (the
catalog is read from the files, as without an index); the learner is told nothing.
Pure: stdlib and `platformdirs` only; imports neither the loader nor the judge.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

import tutor

FILE_NAME = "catalog-index.pickle"
FORMAT = 1  # bump when the layout of the file changes

Stamp = tuple[int, int]  # (st_mtime_ns, st_size); (0, -1): no such file
MISSING: Stamp = (0, -1)

# the classes an index may hold: (module, name)
ALLOWED = {
    ("tutor.lesson.model", name) for name in
    ("Lesson", "Step", "Prompt", "Pos", "Requires", "Setup", "Module", "Pack")
} | {
    ("tutor.judge.base.verdict", "Tolerance"),
    ("pathlib", "PosixPath"), ("pathlib", "WindowsPath"), ("pathlib", "Path"),
    ("pathlib", "PurePosixPath"), ("pathlib", "PureWindowsPath"),
    ("builtins", "frozenset"), ("builtins", "set"), ("builtins", "tuple"),
    ("copyreg", "_reconstructor"), ("builtins", "object"),
}


def cache_dir() -> Path:
    """The user's cache directory for tutor (platformdirs: $XDG_CACHE_HOME/tutor or
    ~/.cache/tutor on Linux, ~/Library/Caches/tutor on macOS, %LOCALAPPDATA%\\tutor\\Cache
    on Windows)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("tutor", appauthor=False))


def stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:
        return MISSING
    return st.st_mtime_ns, st.st_size


def code_stamp() -> tuple[object, ...]:
    """What the index was built with: tutor's version, Python's, the format, and the
    stamps of the modules that build lessons (so that a changed model, loader or
    checkout rebuilds it even before the version changes)."""
    here = Path(__file__).resolve().parent
    modules = sorted(here.glob("*.py")) + [here.parent / "judge" / "base" / "verdict.py"]
    return (FORMAT, tutor.__version__, sys.version_info[:2],
            tuple((p.name, *stamp(p)) for p in modules))


def lesson_key(file: Path, resolved: Path | None = None) -> str:
    """`file`'s entry: a lesson is built in the current language (from its translation
    beside it, where one matches: tutor.lesson.translation), so in another language the
    key holds the language and the translation file's stamp (an edited, added or
    removed translation is read again).  `resolved`: `file.resolve()`, when the caller
    has it already (resolving costs a system call per directory of the path)."""
    from tutor.i18n import ENGLISH, language

    key, lang = str(resolved or file.resolve()), language()
    if lang == ENGLISH:
        return key
    return f"{key}|{lang}|{stamp(file.with_name(f'{file.stem}.{lang}{file.suffix}'))}"


def pack_key(manifest: Path, source: str) -> str:
    """A pack.yaml's entry: as `lesson_key` (its title and description are read from
    `pack.LANG.yaml` in another language), with where the pack was found."""
    return f"{lesson_key(manifest)}|{source}"


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the index")
        return super().find_class(module, name)


class LessonIndex:
    """Entries by resolved file path: lessons with (file stamp, pack.yaml stamp), packs
    with their pack.yaml's stamp.  `used` and `changed` say whether to write it back."""

    def __init__(self, path: Path | None) -> None:
        self.path = path  # None: no index (nothing read, nothing written)
        self.lessons: dict[str, tuple[Stamp, str, Stamp, Any]] = {}
        self.packs: dict[str, tuple[Stamp, str, Any]] = {}
        self.seen: set[str] = set()  # entries looked up this time (the rest are dropped)
        self.changed = False
        # pack.yaml stamps taken during this load: a pack's lessons share one (an index
        # is opened for one load; a manifest edited during it is seen at the next)
        self.manifest_stamps: dict[str, Stamp] = {}

    @classmethod
    def open(cls, directory: Path | None = None) -> LessonIndex:
        """The index in `directory` (default `cache_dir()`), or an empty one if there is
        none, or it is corrupt, unreadable or was built by other code."""
        try:
            path = (directory if directory is not None else cache_dir()) / FILE_NAME
        except Exception:  # noqa: BLE001 (no home directory, ...): no index
            return cls(None)
        index = cls(path)
        try:
            with open(path, "rb") as f:
                data = _Unpickler(io.BytesIO(f.read())).load()
            if not (isinstance(data, dict) and data.get("code") == code_stamp()):
                return index
            lessons, packs = data["lessons"], data["packs"]
            if isinstance(lessons, dict) and isinstance(packs, dict):
                index.lessons, index.packs = lessons, packs
        except Exception:  # noqa: BLE001 (missing, unreadable, corrupt: start afresh)
            pass
        return index

    # ------------------------------------------------------------------ lookups
    def lesson(self, file: Path, resolved: Path | None = None) -> Any:
        """The lesson built from `file` last time, if `file` and its pack.yaml (if any)
        are unchanged since; else None.  `resolved`: as for `lesson_key`."""
        key = lesson_key(file, resolved)
        self.seen.add(key)
        entry = self.lessons.get(key)
        if entry is None:
            return None
        file_stamp, manifest, manifest_stamp, lesson = entry
        if file_stamp != stamp(file) or manifest_stamp != self.manifest_stamp(manifest):
            return None
        return lesson

    def manifest_stamp(self, manifest: str) -> Stamp:
        """The stamp of a lesson's pack.yaml (`""`: none), taken once per load."""
        if not manifest:
            return MISSING
        known = self.manifest_stamps.get(manifest)
        if known is None:
            known = self.manifest_stamps[manifest] = stamp(Path(manifest))
        return known

    def keep_lesson(self, file: Path, manifest: Path | None, lesson: Any,
                    before: Stamp) -> None:
        """Remember `lesson`, built from `file` as it was at `before` (its stamp taken
        before reading: a file edited while it was read is read again next time)."""
        key = lesson_key(file)
        self.seen.add(key)
        self.lessons[key] = (before, str(manifest) if manifest else "",
                             stamp(manifest) if manifest else MISSING, lesson)
        self.changed = True

    def forget_lesson(self, file: Path) -> None:
        if self.lessons.pop(lesson_key(file), None) is not None:
            self.changed = True

    def pack(self, manifest: Path, source: str) -> Any:
        key = pack_key(manifest, source)
        self.seen.add(key)
        entry = self.packs.get(key)
        if entry is None or entry[0] != stamp(manifest):
            return None
        return entry[2]

    def keep_pack(self, manifest: Path, source: str, pack: Any, before: Stamp) -> None:
        key = pack_key(manifest, source)
        self.seen.add(key)
        self.packs[key] = (before, source, pack)
        self.changed = True

    # ------------------------------------------------------------------ writing
    def save(self) -> None:
        """Write the index back if anything changed or was not looked up (a deleted or
        moved file's entry is dropped).  Never raises."""
        stale_lessons = set(self.lessons) - self.seen
        stale_packs = set(self.packs) - self.seen
        if self.path is None or not (self.changed or stale_lessons or stale_packs):
            return
        for key in stale_lessons:
            del self.lessons[key]
        for key in stale_packs:
            del self.packs[key]
        data = {"code": code_stamp(), "lessons": self.lessons, "packs": self.packs}
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".catalog-index-", dir=self.path.parent)
            with os.fdopen(fd, "wb") as f:
                pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
            tmp = None
            self.changed = False
        except Exception:  # noqa: BLE001 (read-only, full, gone: the next start reads files)
            pass
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
