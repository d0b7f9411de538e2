"""`modules:` (a lesson's or a pack's own Python modules): loading, lint errors, schema,
and a sample pack run through `tutor check` in both kernel modes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from tutor.authoring.schema import lesson_schema, pack_schema
from tutor.lesson import LessonError, load_lesson
from tutor.lesson.model import Module

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "procs"

LESSON = """\
id: t/mods
title: Modules
topic: test
{modules}steps:
  - code: |
      x = 1
"""


def write(tmp_path: Path, modules: str, name: str = "l.yaml") -> Path:
    path = tmp_path / name
    path.write_text(LESSON.format(modules=textwrap.dedent(modules)))
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    return [str(p) for p in info.value.problems]


def test_a_lesson_loads_its_modules_with_where_they_are_written(tmp_path: Path) -> None:
    path = write(tmp_path, """\
        modules:
          loaders: |
            class SquareDataset:
                pass
          ranks: "def work(rank): return rank"
    """)
    lesson = load_lesson(path)
    assert lesson.modules == (
        Module("loaders", "class SquareDataset:\n    pass\n", path, 6),
        Module("ranks", "def work(rank): return rank", path, 8),
    )


def test_a_pack_module_is_every_lessons_and_a_lessons_own_replaces_it(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text(textwrap.dedent("""\
        title: P
        modules:
          shared: "A = 1"
          ranks: "B = 1"
    """))
    path = write(tmp_path, """\
        modules:
          ranks: "B = 2"
    """)
    mods = {m.name: (m.source, m.file.name) for m in load_lesson(path).modules}
    assert mods == {"shared": ("A = 1", "pack.yaml"), "ranks": ("B = 2", "l.yaml")}


def test_a_module_name_that_is_not_an_identifier_is_an_error_at_its_key(
        tmp_path: Path) -> None:
    path = write(tmp_path, """\
        modules:
          my-loaders: "x = 1"
    """)
    (p,) = problems(path)
    assert p.startswith(f"{path}:5:3: modules.my-loaders: 'my-loaders' is not a valid name")
    assert "a Python identifier" in p and "e.g. `loaders`" in p


@pytest.mark.parametrize(("name", "why"), [
    ("queue", "the standard library has a module of that name"),
    ("torch", "lesson code imports a module of that name already"),
    ("class", "a Python keyword cannot be imported"),
])
def test_a_module_name_that_hides_another_module_is_an_error(
        tmp_path: Path, name: str, why: str) -> None:
    path = write(tmp_path, f"""\
        modules:
          {name}: "x = 1"
    """)
    (p,) = problems(path)
    assert p.startswith(f"{path}:5:3: modules.{name}: module name '{name}' cannot be used")
    assert why in p and f"rename it (e.g. `lesson_{name}`)" in p


def test_a_module_that_does_not_compile_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, """\
        modules:
          ranks: |
            import os

            def work(rank)
                return rank
    """)
    (p,) = problems(path)
    assert p.startswith(f"{path}:8:")
    assert "modules.ranks: Python syntax error" in p and "line 3 of module ranks.py" in p


def test_a_pack_module_with_a_bad_name_is_an_error_in_the_manifest(tmp_path: Path) -> None:
    from tutor.lesson.loader import load_pack

    (tmp_path / "pack.yaml").write_text("title: P\nmodules:\n  os: 'x = 1'\n")
    with pytest.raises(LessonError) as info:
        load_pack(tmp_path / "pack.yaml")
    assert "pack.yaml:3:3: modules.os: module name 'os' cannot be used" in str(info.value)


def test_the_schemas_take_modules_and_refuse_a_bad_name() -> None:
    lesson = {"id": "a/b", "title": "t", "topic": "t", "steps": [{"code": "x = 1"}],
              "modules": {"loaders": "x = 1"}}
    jsonschema.validate(lesson, lesson_schema())
    jsonschema.validate({"title": "p", "modules": {"ranks": "x = 1"}}, pack_schema())
    for schema, doc in ((lesson_schema(), lesson), (pack_schema(), {"title": "p"})):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**doc, "modules": {"my-mod": "x = 1"}}, schema)


@pytest.mark.parametrize("mode", ["fork", "spawn"])
def test_the_sample_pack_passes_tutor_check(mode: str) -> None:
    """Two gloo ranks started from a pack's module run a lesson's module's function;
    their all_reduce is the value predicted."""
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    env["TUTOR_KERNEL"] = mode
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", str(SAMPLE)],
                          text=True, capture_output=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"kernel: {mode} mode" in proc.stderr and "procs/allreduce" in proc.stderr
    report = json.loads(proc.stdout)
    assert report["lessons"] == {"passed": 1, "failed": 0, "skipped": 0, "error": 0}
    if mode == "spawn":  # torch imported twice: the first worker (it says what torch and
        # CUDA are here) and the lesson's own (its modules change its process); none
        # for runs that will not come (tutor check plans its runs)
        assert report["kernel"]["workers"]["workers"] == 2


DOC = Path(__file__).resolve().parents[2] / "docs" / "lesson-format.md"


def test_the_docs_two_ranks_recipe_is_the_sample_pack_checked_here() -> None:
    import yaml

    text = DOC.read_text(encoding="utf-8")
    recipe = text[text.index("### Running a function on two ranks"):]
    pack_block, lesson_block = re.findall(r"```yaml\n(# .*?)```", recipe, re.S)[:2]
    pack = yaml.safe_load((SAMPLE / "pack.yaml").read_text(encoding="utf-8"))
    lesson = yaml.safe_load((SAMPLE / "allreduce.yaml").read_text(encoding="utf-8"))
    assert yaml.safe_load(pack_block)["modules"] == pack["modules"]
    documented = yaml.safe_load(lesson_block)
    assert documented["modules"] == lesson["modules"]
    assert documented["steps"][0]["code"] == lesson["steps"][0]["code"]
    assert documented["timeout"] == lesson["timeout"]


def test_the_docs_bad_name_example_is_what_lint_says(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"^l\.yaml:5:3: (modules\.queue: .*)$", text, re.M)
    assert example is not None
    (p,) = problems(write(tmp_path, """\
        modules:
          queue: "x = 1"
    """))
    assert p == f"{tmp_path / 'l.yaml'}:5:3: {example.group(1)}"


def test_a_lesson_whose_packs_modules_do_not_load_cannot_run_and_says_why(
        tmp_path: Path) -> None:
    """Not an ImportError at the first step: the manifest's problem, before the run."""
    (tmp_path / "pack.yaml").write_text("title: P\nmodules:\n  ranks: 'x = 1'\nbad: 1\n")
    lesson = load_lesson(write(tmp_path, ""))
    assert lesson.setup is not None and lesson.setup.problem is not None
    assert "pack.yaml:4:1: bad: unknown key 'bad'" in lesson.setup.problem
    assert "so its `modules:` cannot be given to its lessons" in lesson.setup.problem
