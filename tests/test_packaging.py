"""A non-editable install finds the bundled lessons and the lesson schema."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (path,) = out.glob("pytorch_tutor-*.whl")  # our distribution name (see pyproject.toml)
    return path


def test_the_wheel_ships_every_lesson_and_the_schema(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {n.removeprefix("tutor/_bundled_lessons/") for n in names
               if n.startswith("tutor/_bundled_lessons/")}
    in_repo = {str(p.relative_to(ROOT / "lessons")) for p in (ROOT / "lessons").rglob("*")
               if p.is_file()}
    assert shipped == in_repo and "samples/accumulate.yaml" in shipped
    assert "tutor/lesson/lesson.schema.json" in names and "tutor/ui/tutor.tcss" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert "\nName: pytorch-tutor\n" in zipfile.ZipFile(wheel).read(metadata).decode()
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "tutor = tutor.cli:main" in text and "tutor = tutor.pytest_plugin" in text


def test_an_installed_copy_finds_its_lessons(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from tutor.lesson import load_catalog\n"
            "from tutor.lesson.catalog import bundled_dir\n"
            "c = load_catalog(with_env=False)\n"
            "print(bundled_dir()); print(len(c.lessons), len(c.errors))")
    proc = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    where, counts = proc.stdout.splitlines()
    assert Path(where) == site / "tutor" / "_bundled_lessons"
    lessons = len([p for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml"])
    assert counts == f"{lessons} 0"
