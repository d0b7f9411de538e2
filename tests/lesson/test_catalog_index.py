"""The catalog index (tutor.lesson.index): unchanged files are not read again; a changed
file is, a deleted one disappears; a corrupt, foreign or unwritable index is ignored;
a lesson opened from the index is read and validated again."""

from __future__ import annotations

import os
import pickle
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import tutor
from tutor.lesson import LessonError, load_catalog
from tutor.lesson import loader as loader_module
from tutor.lesson.catalog import Catalog
from tutor.lesson.index import FILE_NAME, LessonIndex, cache_dir

SAMPLES = Path(__file__).resolve().parents[2] / "lessons" / "samples"
ALL = {"accumulate.yaml", "memory.yaml", "modules.yaml", "pack.yaml"}  # (what it holds)


@pytest.fixture()
def pack(tmp_path: Path) -> Path:
    """A copy of the samples pack (pack.yaml with three lessons)."""
    return Path(shutil.copytree(SAMPLES, tmp_path / "samples"))


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lesson and pack files read from disk (by the loader), by name (a pack.yaml
    may be read twice: for the pack, and for its lessons' `setup:`)."""
    seen: list[str] = []
    load_lesson, load_pack = loader_module.load_lesson, loader_module.load_pack

    def counting(real: Callable, path: str | Path, *args: object) -> object:
        seen.append(Path(path).name)
        return real(path, *args)

    monkeypatch.setattr(loader_module, "load_lesson", lambda p: counting(load_lesson, p))
    monkeypatch.setattr(loader_module, "load_pack", lambda p, *a: counting(load_pack, p, *a))
    return seen


def load(pack: Path, cache: Path) -> Catalog:
    return load_catalog([pack], with_env=False, with_bundled=False,
                        index=LessonIndex.open(cache))


def titles(catalog: Catalog) -> dict[str, str]:
    return {x.id: x.title for x in catalog.lessons}


def edit(path: Path, old: str, new: str) -> None:
    stat = path.stat()
    path.write_text(path.read_text().replace(old, new, 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # (coarse clocks)


def test_unchanged_files_are_not_read_again(pack: Path, tmp_path: Path,
                                            reads: list[str]) -> None:
    first = load(pack, tmp_path / "cache")
    assert set(reads) == ALL
    assert first.from_index == set() and (tmp_path / "cache" / FILE_NAME).is_file()
    reads.clear()
    again = load(pack, tmp_path / "cache")
    assert reads == []
    assert again.from_index == {x.id for x in first.lessons}
    assert again.lessons == first.lessons  # the same lessons, steps and prompts included
    assert again.pack_of == first.pack_of and again.packs == first.packs


def test_a_changed_file_is_read_again(pack: Path, tmp_path: Path, reads: list[str]) -> None:
    first = load(pack, tmp_path / "cache")
    lesson = next(x for x in first.lessons if x.file.name == "memory.yaml")
    edit(pack / "memory.yaml", f"title: {lesson.title}", "title: A new title")
    reads.clear()
    again = load(pack, tmp_path / "cache")
    assert reads == ["memory.yaml"]
    assert titles(again)[lesson.id] == "A new title"
    assert lesson.id not in again.from_index


def test_a_changed_pack_manifest_reloads_the_pack_and_its_lessons(
        pack: Path, tmp_path: Path, reads: list[str]) -> None:
    load(pack, tmp_path / "cache")
    manifest = pack / "pack.yaml"
    edit(manifest, "title:", "title: Renamed #")  # (a comment: the title stays valid YAML)
    reads.clear()
    again = load(pack, tmp_path / "cache")
    # each lesson carries its pack's `setup:`: all are read again with the manifest
    assert set(reads) == ALL
    assert next(iter(again.packs.values())).title.startswith("Renamed")


def test_a_deleted_file_disappears(pack: Path, tmp_path: Path, reads: list[str]) -> None:
    first = load(pack, tmp_path / "cache")
    gone = next(x for x in first.lessons if x.file.name == "modules.yaml")
    (pack / "modules.yaml").unlink()
    again = load(pack, tmp_path / "cache")
    assert gone.id not in titles(again) and len(again.lessons) == len(first.lessons) - 1
    # and its entry is dropped from the index file
    index = LessonIndex.open(tmp_path / "cache")
    assert not any(key.endswith("modules.yaml") for key in index.lessons)


def test_a_file_that_stops_loading_is_an_error_not_its_old_lesson(
        pack: Path, tmp_path: Path) -> None:
    load(pack, tmp_path / "cache")
    edit(pack / "memory.yaml", "steps:", "stepz:")
    again = load(pack, tmp_path / "cache")
    assert "memory.yaml" not in {x.file.name for x in again.lessons}
    assert any("memory.yaml" in str(e) for e in again.errors)


@pytest.mark.parametrize("garbage", [b"", b"not a pickle at all", pickle.dumps([1, 2, 3]),
                                     pickle.dumps({"code": None, "lessons": 1, "packs": 2})])
def test_a_corrupt_index_is_rebuilt(pack: Path, tmp_path: Path, reads: list[str],
                                    garbage: bytes) -> None:
    expected = titles(load(pack, tmp_path / "cache"))
    (tmp_path / "cache" / FILE_NAME).write_bytes(garbage)
    reads.clear()
    again = load(pack, tmp_path / "cache")
    assert titles(again) == expected and set(reads) == ALL  # read from the files, no error
    reads.clear()
    assert titles(load(pack, tmp_path / "cache")) == expected and reads == []  # rebuilt


def test_an_index_holding_anything_but_lessons_is_not_unpickled(
        pack: Path, tmp_path: Path, reads: list[str]) -> None:
    class Boom:
        def __reduce__(self) -> tuple:
            return (os.mkdir, (str(tmp_path / "pwned"),))

    expected = titles(load(pack, tmp_path / "cache"))
    (tmp_path / "cache" / FILE_NAME).write_bytes(pickle.dumps({"code": Boom()}))
    reads.clear()
    assert titles(load(pack, tmp_path / "cache")) == expected and set(reads) == ALL
    assert not (tmp_path / "pwned").exists()


def test_another_tutor_version_rebuilds_the_index(pack: Path, tmp_path: Path,
                                                  reads: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    load(pack, tmp_path / "cache")
    monkeypatch.setattr(tutor, "__version__", "999.0")
    reads.clear()
    load(pack, tmp_path / "cache")
    assert set(reads) == ALL
    reads.clear()
    load(pack, tmp_path / "cache")
    assert reads == []


def test_an_unwritable_cache_directory_is_ignored(pack: Path, tmp_path: Path,
                                                  reads: list[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cache = blocker / "cache"  # (its parent is a file: nothing can be made there, even by root)
    expected = titles(load_catalog([pack], with_env=False, with_bundled=False))
    for _ in range(2):
        reads.clear()
        assert titles(load(pack, cache)) == expected and set(reads) == ALL


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes into a read-only directory")
def test_a_read_only_cache_directory_is_ignored(pack: Path, tmp_path: Path,
                                                reads: list[str]) -> None:
    cache = tmp_path / "cache"
    load(pack, cache)
    (cache / FILE_NAME).unlink()
    cache.chmod(0o500)
    try:
        for _ in range(2):
            reads.clear()
            assert len(load(pack, cache).lessons) == 3 and set(reads) == ALL
    finally:
        cache.chmod(0o700)


def test_a_lesson_opened_from_the_index_is_read_and_validated_again(
        pack: Path, tmp_path: Path, reads: list[str]) -> None:
    load(pack, tmp_path / "cache")
    catalog = load(pack, tmp_path / "cache")
    accumulate = next(x for x in catalog.lessons if x.file.name == "accumulate.yaml")
    memory = next(x for x in catalog.lessons if x.file.name == "memory.yaml")
    reads.clear()
    assert catalog.opened(accumulate.id) == accumulate and reads == ["accumulate.yaml"]
    assert accumulate.id not in catalog.from_index
    reads.clear()
    assert catalog.opened(accumulate.id) == accumulate and reads == []  # (read once)
    # a file broken after the catalog was read: opening it says why, with the position
    stat = memory.file.stat()
    memory.file.write_text(memory.file.read_text().replace("steps:", "stepz:", 1))
    os.utime(memory.file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(LessonError, match="memory.yaml"):
        catalog.opened(memory.id)


def test_without_an_index_every_file_is_read(pack: Path, tmp_path: Path,
                                             reads: list[str]) -> None:
    load(pack, tmp_path / "cache")
    reads.clear()
    catalog = load_catalog([pack], with_env=False, with_bundled=False)  # (check, lint, ...)
    assert set(reads) == ALL and catalog.from_index == set()
    assert catalog.opened(catalog.lessons[0].id) is catalog.lessons[0]


def test_the_cache_directory_is_the_users(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    if sys.platform != "linux":
        pytest.skip("XDG_CACHE_HOME is the Linux rule")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "tutor"


def test_lessons_with_modules_come_from_the_index_too(tmp_path: Path,
                                                     reads: list[str]) -> None:
    """A lesson or pack with `modules:` (the data-loading and distributed packs) was
    refused by the index's unpickler, so every start re-read the whole course."""
    procs = Path(shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "procs",
                                 tmp_path / "procs"))
    first = load(procs, tmp_path / "cache")
    assert first.lessons and any(x.modules for x in first.lessons)
    reads.clear()
    again = load(procs, tmp_path / "cache")
    assert reads == [] and again.lessons == first.lessons
