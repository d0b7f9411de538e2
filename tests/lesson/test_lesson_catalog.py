"""The catalog: PATHs, packs, course order, TUTOR_PATH, duplicates, broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.lesson import LessonError, find_lesson, load_catalog

LESSON = """\
id: {id}
title: {title}
topic: t
steps:
  - code: x = 1
"""


def lesson(directory: Path, name: str, lesson_id: str, title: str = "T") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(LESSON.format(id=lesson_id, title=title))
    return path


def test_directories_are_searched_at_any_depth_and_packs_order_lessons(tmp_path: Path) -> None:
    pack = tmp_path / "packs" / "basics"
    lesson(pack, "a.yaml", "basics/a")
    lesson(pack / "deeper", "b.yml", "basics/b")
    lesson(pack, "c.yaml", "basics/c")
    (pack / "pack.yaml").write_text("title: Basics\norder: 1\nlessons: [basics/c, basics/a]\n")
    other = tmp_path / "packs" / "zz-loose"
    lesson(other, "z.yaml", "loose/z")
    catalog = load_catalog([tmp_path / "packs"], with_env=False)
    assert [x.id for x in catalog.lessons] == ["basics/c", "basics/a", "basics/b", "loose/z"]
    assert catalog.pack_of["basics/b"].title == "Basics"
    assert catalog.pack_of["loose/z"].title == "zz loose"
    assert not catalog.errors


def test_a_broken_file_is_reported_and_the_rest_still_load(tmp_path: Path) -> None:
    lesson(tmp_path, "good.yaml", "ok/good")
    (tmp_path / "bad.yaml").write_text("id: ok/bad\ntitle: [\n")
    catalog = load_catalog([tmp_path], with_env=False)
    assert [x.id for x in catalog.lessons] == ["ok/good"]
    assert len(catalog.problems) == 1 and "bad.yaml:" in str(catalog.problems[0])


def test_duplicate_ids_are_errors(tmp_path: Path) -> None:
    lesson(tmp_path, "one.yaml", "same/id")
    lesson(tmp_path, "two.yaml", "same/id")
    catalog = load_catalog([tmp_path], with_env=False)
    assert len(catalog.lessons) == 1
    (problem,) = catalog.problems
    assert "two.yaml:1:5: id: duplicate lesson id 'same/id': already used by" in str(problem)
    assert "rename one" in str(problem)


def test_a_duplicate_id_is_reported_at_its_line(tmp_path: Path) -> None:
    lesson(tmp_path / "a", "one.yaml", "same/id")
    path = lesson(tmp_path / "b", "two.yaml", "same/id")
    path.write_text("# a comment first\n" + path.read_text())
    (problem,) = load_catalog([tmp_path], with_env=False).problems
    assert "two.yaml:2:5: id: duplicate lesson id 'same/id'" in str(problem)


def test_tutor_path_adds_lessons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lesson(tmp_path / "extra", "e.yaml", "extra/e")
    monkeypatch.setenv("TUTOR_PATH", str(tmp_path / "extra"))
    catalog = load_catalog()
    assert catalog.get("extra/e") is not None
    assert catalog.pack_of["extra/e"].source == "TUTOR_PATH"
    assert catalog.get("samples/accumulate") is not None  # bundled ones too


def test_find_lesson_by_id_or_path_with_suggestions(tmp_path: Path) -> None:
    path = lesson(tmp_path, "x.yaml", "find/me")
    assert find_lesson(str(path)).id == "find/me"
    assert find_lesson("samples/memory").title
    with pytest.raises(LessonError, match="Did you mean: samples/memory"):
        find_lesson("samples/memroy")


def test_a_missing_path_is_an_error(tmp_path: Path) -> None:
    catalog = load_catalog([tmp_path / "nope"], with_env=False)
    assert "no such file or directory" in str(catalog.problems[0])
