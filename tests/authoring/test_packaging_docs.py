"""The packaging recipes in docs/authoring.md ("Ship it as a Python package") work:
a wheel built with either pyproject.toml (hatchling, setuptools) carries the lesson
files and the entry point, and tutor finds the pack once it is installed.  Without
setuptools' `package-data`, the wheel carries no lessons, and tutor says so.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tutor.lesson import load_catalog

from .conftest import ROOT

DOC = ROOT / "docs" / "authoring.md"
LESSON = "id: views/one\ntitle: One\ntopic: memory\nsteps:\n  - code: x = 1\n"


def recipes() -> dict[str, str]:
    """The doc's pyproject.toml examples, by build backend."""
    blocks = re.findall(r"^```toml[^\n]*\n(.*?)^```", DOC.read_text(encoding="utf-8"),
                        re.S | re.M)
    found = {}
    for block in blocks:
        backend = re.search(r'build-backend = "(\w+)', block)
        if backend:
            found[backend.group(1)] = block
    return found


def test_the_doc_shows_both_backends():
    assert set(recipes()) == {"hatchling", "setuptools"}


def build(tmp_path: Path, pyproject: str, init: bool = False) -> Path:
    """A pack project as the tutorial leaves it (with `init`: the package has an
    `__init__.py`), built into a wheel (no network)."""
    project = tmp_path / "project"
    (project / "my_pack" / "basics").mkdir(parents=True)
    if init:
        (project / "my_pack" / "__init__.py").write_text("")
    (project / "my_pack" / "pack.yaml").write_text("title: My pack\n")
    (project / "my_pack" / "one.yaml").write_text(LESSON)
    (project / "my_pack" / "basics" / "two.yaml").write_text(LESSON.replace("one", "two"))
    (project / "pyproject.toml").write_text(pyproject)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                           "--no-build-isolation", "-w", str(tmp_path / "dist"), str(project)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [wheel] = (tmp_path / "dist").glob("*.whl")
    return wheel


def install(tmp_path: Path, wheel: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:  # what `pip install` puts in site-packages
        zf.extractall(site)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("TUTOR_PATH", raising=False)
    importlib.invalidate_caches()
    return site


@pytest.mark.parametrize("backend", ["hatchling", "setuptools"])
def test_the_recipe_ships_the_lessons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      backend: str):
    pytest.importorskip("setuptools" if backend == "setuptools" else "hatchling")
    wheel = build(tmp_path, recipes()[backend])
    names = zipfile.ZipFile(wheel).namelist()
    assert {"my_pack/one.yaml", "my_pack/basics/two.yaml", "my_pack/pack.yaml"} <= set(names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "[tutor.lessons]\nmy-pack = my_pack" in zipfile.ZipFile(wheel).read(
        entry_points).decode()
    install(tmp_path, wheel, monkeypatch)
    catalog = load_catalog()
    assert catalog.get("views/one") is not None and catalog.get("views/two") is not None
    assert catalog.pack_of["views/one"].source == "entry point my-pack from my-pack"
    assert catalog.pack_of["views/two"].title == "My pack"
    assert not catalog.warnings


def test_setuptools_without_package_data_ships_nothing_and_tutor_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("setuptools")
    recipe = recipes()["setuptools"]
    bare = recipe[:recipe.index("[tool.setuptools.package-data]")]
    wheel = build(tmp_path, bare, init=True)
    names = zipfile.ZipFile(wheel).namelist()
    assert "my_pack/__init__.py" in names and not [n for n in names if n.endswith(".yaml")]
    install(tmp_path, wheel, monkeypatch)
    catalog = load_catalog()
    [warning] = catalog.warnings
    assert warning.file == "entry point my-pack from my-pack"
    assert "holds no lessons" in warning.message and "package data" in warning.message
