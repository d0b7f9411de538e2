"""`tutor new`: a commented skeleton with the schema modeline, valid under lint."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.authoring.schema import PACKAGED, PACKAGED_PACK
from tutor.cli import main
from tutor.lesson import load_catalog, load_lesson

pytestmark = pytest.mark.usefixtures("no_env")


def test_new_writes_a_skeleton_that_loads_and_lints_with_only_the_record_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    pack = tmp_path / "my-pack"
    assert main(["new", "autograd/leaf-grad", "--pack", str(pack)]) == 0
    out = capsys.readouterr().out
    lesson_file = pack / "leaf-grad.yaml"
    assert f"wrote {lesson_file}" in out and "tutor record" in out
    text = lesson_file.read_text(encoding="utf-8")
    # a relative modeline to the pack's own copy of the schema: it works wherever the
    # pack is checked out, not only where tutor was installed
    assert text.splitlines()[0] == "# yaml-language-server: $schema=.schema/lesson.schema.json"
    assert (pack / ".schema" / "lesson.schema.json").read_text() == PACKAGED.read_text()
    assert (pack / ".schema" / "pack.schema.json").read_text() == PACKAGED_PACK.read_text()
    assert f"wrote {pack / '.schema' / 'lesson.schema.json'}" in out
    manifest = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert manifest.startswith("# yaml-language-server: $schema=.schema/pack.schema.json\n")
    assert text.count("#") > 10  # commented for the author
    lesson = load_lesson(lesson_file)
    assert lesson.id == "autograd/leaf-grad" and lesson.title == "Leaf grad"
    assert lesson.topic == "autograd"
    report = lint_paths([pack])
    assert report.errors == []
    assert [p.message.split(":")[0] for p in report.warnings] == ["no reference answer yet"]
    assert f"tutor record {report.warnings[0].file}" in report.warnings[0].message
    # a pack.yaml was added, and the catalog reads the pack
    assert (pack / "pack.yaml").is_file()
    catalog = load_catalog([pack])
    assert not catalog.errors and catalog.pack_of["autograd/leaf-grad"].title == "My pack"


def test_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["new", "a/b", "--pack", str(tmp_path)]) == 0
    (tmp_path / "b.yaml").write_text("mine", encoding="utf-8")
    assert main(["new", "a/b", "--pack", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "b.yaml").read_text(encoding="utf-8") == "mine"


def test_new_keeps_an_existing_pack_manifest_and_schema_copy(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture):
    (tmp_path / "pack.yaml").write_text("title: Mine\n", encoding="utf-8")
    assert main(["new", "x", "--pack", str(tmp_path)]) == 0
    assert (tmp_path / "pack.yaml").read_text(encoding="utf-8") == "title: Mine\n"
    capsys.readouterr()
    assert main(["new", "y", "--pack", str(tmp_path)]) == 0
    assert ".schema" not in capsys.readouterr().out  # up to date: not written again


def test_new_rejects_a_bad_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["new", "Bad Id", "--pack", str(tmp_path)]) == 1
    assert "not a valid lesson id" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
