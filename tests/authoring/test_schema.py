"""`tutor schema`: generated from the lesson format; the packaged copy must not drift."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from tutor.authoring.lint import lint_paths
from tutor.authoring.schema import (
    PACKAGED,
    PACKAGED_PACK,
    lesson_schema,
    modeline,
    pack_schema,
    schema_text,
)
from tutor.cli import main
from tutor.lesson.catalog import lesson_files
from tutor.lesson.files import manifests

from .conftest import LESSONS, ROOT


def test_packaged_schema_equals_the_generator_output():
    assert PACKAGED.read_text(encoding="utf-8") == schema_text(), (
        "tutor/lesson/lesson.schema.json is stale: regenerate it with "
        "`tutor schema --output tutor/lesson/lesson.schema.json`")
    assert PACKAGED_PACK.read_text(encoding="utf-8") == schema_text(pack=True), (
        "tutor/lesson/pack.schema.json is stale: regenerate it with "
        "`tutor schema --pack --output tutor/lesson/pack.schema.json`")


def test_schema_is_valid_draft7():
    jsonschema.Draft7Validator.check_schema(lesson_schema())
    jsonschema.Draft7Validator.check_schema(pack_schema())


def test_the_schema_text_is_the_same_in_every_process():
    """(Sets have no order: a rule built from one once made the schema vary per run.)"""
    texts = {subprocess.run([sys.executable, "-m", "tutor", "schema"], capture_output=True,
                            text=True, timeout=60, env={**os.environ, "PYTHONHASHSEED": seed}
                            ).stdout for seed in ("1", "2", "3")}
    assert texts == {schema_text()}


@pytest.mark.parametrize("path", manifests(LESSONS), ids=lambda p: p.parent.name)
def test_every_bundled_pack_yaml_validates_against_the_pack_schema(path: Path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft7Validator(pack_schema()).iter_errors(data))
    assert not errors, [e.message for e in errors]


PROMPT = {"ask": "?", "kind": "number", "expect": "x", "answer": "1"}


@pytest.mark.parametrize(("change", "loader_says"), [
    ({"kind": "choice"}, "kind choice needs `choices:`"),
    ({"choices": ["a", "b"]}, "`choices` is only for kind choice"),
    ({"kind": "same_storage", "answer": "yes"}, "needs `expect: [a, b]`"),
    ({"kind": "same_storage", "expect": ["a"], "answer": "yes"}, "for same_storage a list of two"),
    ({"expect": ["a", "b"]}, "a list of two expressions is only for kind same_storage"),
    ({"expect": None}, "kind 'number' needs an `expect` expression"),
    ({"match": "boom"}, "`match` is only for kind exception"),
])
def test_schema_states_the_cross_field_rules_lint_enforces(tmp_path: Path, change: dict,
                                                           loader_says: str):
    from tutor.lesson import LessonError, load_lesson

    prompt = {k: v for k, v in {**PROMPT, **change}.items() if v is not None}
    data = {"id": "a/b", "title": "t", "topic": "t",
            "steps": [{"code": "x = a = b = torch.ones(1)", "predict": [prompt]}]}
    errors = list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(data))
    assert errors, f"the schema accepts {prompt}"
    path = tmp_path / "l.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(LessonError, match=re.escape(loader_says)):
        load_lesson(path)
    # and the prompt without the change is valid for both
    good = {**data, "steps": [{"code": "x = 1", "predict": [PROMPT]}]}
    assert not list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(good))


def test_exception_prompts_may_have_match_and_no_expect():
    prompt = {"ask": "?", "kind": "exception", "match": "boom", "answer": "ValueError"}
    data = {"id": "a/b", "title": "t", "topic": "t",
            "steps": [{"code": "raise ValueError('boom')", "predict": [prompt]}]}
    assert not list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(data))


def test_pack_schema_rejects_what_the_loader_rejects():
    v = jsonschema.Draft7Validator(pack_schema())
    assert not list(v.iter_errors({"title": "T", "setup": "import torch", "order": 1}))
    assert list(v.iter_errors({"titel": "T"}))
    assert list(v.iter_errors({"title": "T", "order": "first"}))


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
    assert main(["schema", "--pack"]) == 0
    assert json.loads(capsys.readouterr().out) == pack_schema()
    assert main(["schema", "--pack", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == PACKAGED_PACK


def test_sample_modelines_point_at_the_packaged_schema():
    for path in lesson_files(LESSONS):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first.startswith("# yaml-language-server:"):
            target = first.split("$schema=", 1)[1]
            assert (path.parent / target).resolve() == PACKAGED, path


def test_modeline_is_relative_everywhere(tmp_path: Path):
    """Inside tutor's tree, to the packaged schema; elsewhere, to the pack's own copy:
    never an absolute path that exists only on the author's machine."""
    assert modeline(ROOT / "lessons" / "mine" / "x.yaml") == (
        "# yaml-language-server: $schema=../../tutor/lesson/lesson.schema.json")
    assert modeline(tmp_path / "x.yaml") == (
        "# yaml-language-server: $schema=.schema/lesson.schema.json")
    assert modeline(tmp_path / "deeper" / "x.yaml", tmp_path) == (
        "# yaml-language-server: $schema=../.schema/lesson.schema.json")
    assert modeline(tmp_path / "pack.yaml", pack=True) == (
        "# yaml-language-server: $schema=.schema/pack.schema.json")


def test_lint_warns_about_a_stale_or_missing_schema_copy(tmp_path: Path):
    assert main(["new", "a/b", "--pack", str(tmp_path)]) == 0
    assert not [p for p in lint_paths([tmp_path]).warnings if "schema" in p.message]
    copy = tmp_path / ".schema" / "lesson.schema.json"
    copy.write_text("{}", encoding="utf-8")
    [warning] = [p for p in lint_paths([tmp_path]).warnings if "schema" in p.message]
    assert (warning.file.endswith("b.yaml"), warning.line) == (True, 1)
    assert f"refresh it with `tutor schema --output {copy}`" in warning.message
    copy.unlink()
    [warning] = [p for p in lint_paths([tmp_path]).warnings if "schema" in p.message]
    assert "does not exist" in warning.message
    assert f"write it there with `tutor schema --output {copy}`" in warning.message


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


PYTHON_ONLY_MATCH = """\
id: t/pinned
title: Pinned by its message
topic: t
steps:
  - code: |
      x = torch.zeros(2)
      y = x.view(3)
    predict:
      - ask: Which error?
        kind: exception
        answer: RuntimeError
        match: (?i)shape '\\[3\\]' is (?P<what>invalid)
        hint: Count the elements.
"""


def _python_only_lesson(tmp_path: Path) -> Path:
    path = tmp_path / "pinned.yaml"
    path.write_text(PYTHON_ONLY_MATCH, encoding="utf-8")
    assert lint_paths([path]).errors == []  # lint accepts it
    return path


def test_a_python_only_match_pattern_passes_jsonschema_with_format_checking(tmp_path: Path):
    """`match:` is a Python pattern (`(?i)`, `(?P<name>...)`): the schema must not call it
    a JSON Schema `regex` (ECMA-262), or validators that check formats reject it."""
    data = yaml.safe_load(_python_only_lesson(tmp_path).read_text(encoding="utf-8"))
    prompt = lesson_schema()["properties"]["steps"]["items"]["properties"]["predict"]["items"]
    match_schema = prompt["properties"]["match"]
    assert "format" not in match_schema
    v = jsonschema.Draft7Validator(lesson_schema(),
                                   format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert [e.message for e in v.iter_errors(data)] == []


def test_a_python_only_match_pattern_passes_check_jsonschema(tmp_path: Path):
    """check-jsonschema (the pre-commit hook) checks formats as ECMA-262 by default."""
    pytest.importorskip("check_jsonschema")
    path = _python_only_lesson(tmp_path)
    schema = tmp_path / "lesson.schema.json"
    schema.write_text(schema_text(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema),
                           str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
