"""Packs outside the repo: --path, TUTOR_PATH and installed distributions (entry points)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.lesson import load_catalog

LESSON = """\
id: {id}
title: T
topic: t
steps:
  - code: x = 1
"""


def make_dist(site: Path, dist: str, entry_points: str) -> None:
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"  # as installers name it
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tutor.lessons]\n{entry_points}\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site directory on sys.path with three fake distributions declaring lesson packs."""
    monkeypatch.delenv("TUTOR_PATH", raising=False)
    site = tmp_path / "site"
    # a module whose directory has a lessons/ directory
    pkg = site / "fake_pack"
    (pkg / "lessons").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise RuntimeError('located, never imported')\n")
    (pkg / "lessons" / "one.yaml").write_text(LESSON.format(id="fake/one"))
    (pkg / "lessons" / "pack.yaml").write_text("title: Fake pack\n")
    make_dist(site, "fake-pack", "fake = fake_pack")
    # a callable returning the directory
    (site / "fake_call.py").write_text(
        "from pathlib import Path\n"
        "def lessons():\n    return Path(__file__).parent / 'call_lessons'\n")
    (site / "call_lessons").mkdir()
    (site / "call_lessons" / "two.yaml").write_text(LESSON.format(id="fake/two"))
    make_dist(site, "fake-call", "called = fake_call:lessons")
    # a broken one
    make_dist(site, "fake-broken", "broken = no_such_module_here")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    return site


def test_installed_packs_are_in_the_catalog_with_their_source(site: Path):
    catalog = load_catalog()
    one, two = catalog.get("fake/one"), catalog.get("fake/two")
    assert one is not None and two is not None
    assert catalog.pack_of["fake/one"].source == "entry point fake from fake-pack"
    assert catalog.pack_of["fake/one"].title == "Fake pack"
    assert catalog.pack_of["fake/two"].source == "entry point called from fake-call"
    assert catalog.get("samples/accumulate") is not None  # the bundled ones are still there
    [broken] = [p for p in catalog.problems if "broken" in p.file]
    assert "no_such_module_here" in broken.message


def test_installed_packs_can_be_left_out(site: Path):
    assert load_catalog(with_env=False).get("fake/one") is None


def test_list_shows_where_each_pack_comes_from(site: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]):
    env = tmp_path / "env-pack"
    env.mkdir()
    (env / "e.yaml").write_text(LESSON.format(id="env/e"))
    flag = tmp_path / "flag-pack"
    flag.mkdir()
    (flag / "f.yaml").write_text(LESSON.format(id="flag/f"))
    monkeypatch.setenv("TUTOR_PATH", str(env))
    main(["list", "--path", str(flag)])
    out = capsys.readouterr().out
    assert "(bundled: " in out
    assert f"(path: {flag})" in out
    assert f"(TUTOR_PATH: {env})" in out
    assert "(entry point fake from fake-pack: " in out
    assert "(entry point called from fake-call: " in out
