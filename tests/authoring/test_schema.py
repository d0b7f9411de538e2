"""`tutor schema`: generated from the lesson format; the packaged copy must not drift."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from tutor.authoring.schema import PACKAGED, lesson_schema, modeline, schema_text
from tutor.cli import main
from tutor.lesson.catalog import lesson_files

from .conftest import LESSONS, ROOT


def test_packaged_schema_equals_the_generator_output():
    assert PACKAGED.read_text(encoding="utf-8") == schema_text(), (
        "tutor/lesson/lesson.schema.json is stale: regenerate it with "
        "`tutor schema --output tutor/lesson/lesson.schema.json`")


def test_schema_is_valid_draft7():
    jsonschema.Draft7Validator.check_schema(lesson_schema())


@pytest.mark.parametrize("path", lesson_files(LESSONS), ids=lambda p: str(p.relative_to(LESSONS)))
def test_every_bundled_lesson_validates_against_the_schema(path: Path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft7Validator(lesson_schema()).iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_schema_rejects_what_the_loader_rejects():
    v = jsonschema.Draft7Validator(lesson_schema())
    good = {"id": "a/b", "title": "t", "topic": "t", "steps": [{"code": "x = 1"}]}
    assert not list(v.iter_errors(good))
    assert list(v.iter_errors({**good, "id": "Bad ID"}))  # the pattern is anchored
    assert list(v.iter_errors({**good, "id": "ok/and then junk!"}))
    assert list(v.iter_errors({**good, "steps": [{"code": "x", "predict": [
        {"ask": "?", "kind": "numbr"}]}]}))
    assert list(v.iter_errors({**good, "titel": "typo"}))


def test_schema_command_prints_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == lesson_schema()
    out = tmp_path / "s.json"
    assert main(["schema", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == schema_text()
    assert main(["schema", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == PACKAGED


def test_sample_modelines_point_at_the_packaged_schema():
    for path in lesson_files(LESSONS):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first.startswith("# yaml-language-server:"):
            target = first.split("$schema=", 1)[1]
            assert (path.parent / target).resolve() == PACKAGED, path


def test_modeline_is_relative_inside_the_repo_and_a_file_url_outside(tmp_path: Path):
    assert modeline(ROOT / "lessons" / "mine" / "x.yaml") == (
        "# yaml-language-server: $schema=../../tutor/lesson/lesson.schema.json")
    assert modeline(tmp_path / "x.yaml") == (
        "# yaml-language-server: $schema=" + PACKAGED.as_uri())


@pytest.mark.parametrize("line", ["title: 5", "title: yes", "topic: 1.5", "id: a/5",
                                  "title: null", "level: '2'", "kind: Number"])
def test_schema_and_loader_agree_on_yaml_typed_scalars(tmp_path: Path, line: str):
    """Scalars are text to the loader; the schema (fed what PyYAML makes of the file,
    as yaml-language-server and `jsonschema` users do) must agree on every case."""
    from tutor.lesson import LessonError, load_lesson

    key = line.split(":")[0]
    base = {"id": "id: a/b", "title": "title: T", "topic": "topic: t", "level": "level: 1",
            "kind": "kind: number"}
    base[key] = line
    text = (f"{base['id']}\n{base['title']}\n{base['topic']}\n{base['level']}\nsteps:\n"
            f"  - code: x = 1\n    predict:\n      - ask: x?\n        {base['kind']}\n"
            "        expect: x\n")
    path = tmp_path / "l.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_lesson(path)
        loads = True
    except LessonError:
        loads = False
    errors = list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(yaml.safe_load(text)))
    assert loads == (not errors), (line, [e.message for e in errors])
