"""Which files are lessons, and `check`/`lint`/`record PATH` acting on PATH only.

One rule (tutor.lesson.files) decides what is a lesson file for the catalog, lint,
check, record and the pytest plugin; build/, dist/, hidden and virtualenv
directories are never searched; other packs count only for duplicate ids, and an
installed copy of the pack being worked on is that pack, not a duplicate.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.cli import main
from tutor.lesson import load_catalog
from tutor.lesson.catalog import select
from tutor.lesson.files import is_lesson_file, lesson_files, not_a_lesson
from tutor.pytest_plugin import looks_like_lesson

from .test_packs import LESSON as BARE
from .test_packs import make_dist

pytestmark = pytest.mark.usefixtures("no_env")

LESSON = BARE + """\
    predict:
      - ask: x?
        kind: number
        expect: x
        answer: "{answer}"
        hint: h
        explain: e
"""


def lesson(directory: Path, name: str, lesson_id: str, answer: str = "1") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(LESSON.format(id=lesson_id, answer=answer), encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A pack repository with the usual neighbours of lesson files."""
    root = tmp_path / "repo"
    lesson(root / "my_pack" / "lessons", "one.yaml", "mine/one")
    (root / "my_pack" / "lessons" / "pack.yaml").write_text("title: Mine\n")
    (root / "environment.yml").write_text(
        "name: torch-env\nchannels: [pytorch]\ndependencies:\n  - python=3.11\n")
    (root / "mkdocs.yml").write_text("site_name: Mine\nnav:\n  - index.md\n")
    for skipped in ("build/lib/my_pack/lessons", "dist", ".venv/lib", "venv-x", ".tox/py",
                    "my_pack.egg-info", "node_modules/x"):
        lesson(root / skipped, "copy.yaml", "mine/one")
    (root / "venv-x" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return root


def test_the_rule_keeps_lessons_and_leaves_other_yaml_alone(repo: Path):
    assert [p.relative_to(repo).as_posix() for p in lesson_files(repo)] == [
        "my_pack/lessons/one.yaml"]
    assert not is_lesson_file(repo / "environment.yml")
    assert not is_lesson_file(repo / "my_pack" / "lessons" / "pack.yaml")
    # two of id/title/topic/steps: a misspelled key is still a (broken) lesson
    typo = repo / "typo.yaml"
    typo.write_text("id: a/b\ntitel: T\ntopic: t\nstep:\n  - code: x = 1\n")
    assert is_lesson_file(typo)
    assert "at least two of the top-level keys" in str(not_a_lesson(repo / "environment.yml"))


def test_pytest_uses_the_same_rule(repo: Path):
    for path in [*repo.rglob("*.yaml"), *repo.rglob("*.yml")]:
        assert looks_like_lesson(path) == is_lesson_file(path), path


def test_lint_of_a_repository_lints_its_lessons_only(repo: Path):
    report = lint_paths([repo])
    assert report.errors == [], "\n".join(map(str, report.errors))
    assert report.files == 2  # one.yaml and its pack.yaml: nothing from build/, .venv, ...


def test_a_named_file_that_is_not_a_lesson_is_an_error(repo: Path,
                                                       capsys: pytest.CaptureFixture[str]):
    assert main(["lint", str(repo / "environment.yml")]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "environment.yml:1:1: not a lesson file" in out


@pytest.mark.usefixtures("commands_share_kernel")
def test_check_path_runs_path_only_and_ignores_other_packs_problems(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    mine = tmp_path / "mine"
    lesson(mine, "a.yaml", "mine/a")
    other = tmp_path / "other"
    lesson(other, "wrong.yaml", "other/wrong", answer="2")  # fails when run
    (other / "broken.yaml").write_text("id: other/broken\ntitle: [\n")
    monkeypatch.setenv("TUTOR_PATH", str(other))
    assert main(["check", str(mine), "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "tutor check: 1 lessons" in out and "mine/a" in out
    assert "other/" not in out and "broken" not in out
    assert main(["lint", str(mine)]) == 0
    assert "other" not in capsys.readouterr().out


def test_other_packs_still_count_for_duplicate_ids(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch):
    mine = lesson(tmp_path / "mine", "a.yaml", "same/id")
    lesson(tmp_path / "other", "b.yaml", "same/id")
    monkeypatch.setenv("TUTOR_PATH", str(tmp_path / "other"))
    chosen = select([tmp_path / "mine"])
    assert chosen.lessons == []
    [problem] = chosen.problems
    assert problem.file.endswith("a.yaml") and "duplicate lesson id 'same/id'" in problem.message
    assert "other/b.yaml" in problem.message
    # the same pack reached twice (PATH and TUTOR_PATH) is no duplicate
    monkeypatch.setenv("TUTOR_PATH", str(tmp_path / "mine"))
    assert [x.file for x in select([mine]).lessons] == [mine]


def install_copy(site: Path, source: Path, dist: str, *, direct_url: str | None) -> Path:
    """What `pip install .` leaves: the package copied into site-packages, a dist-info
    declaring the entry point and, for a local directory, direct_url.json."""
    package = site / "my_pack"
    lesson(package / "lessons", "one.yaml", "mine/one", answer="1")  # an older copy
    (package / "__init__.py").write_text("")
    make_dist(site, dist, "mine = my_pack")
    if direct_url is not None:
        info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
        (info / "direct_url.json").write_text(json.dumps({"url": direct_url, "dir_info": {}}))
    importlib.invalidate_caches()
    return package


@pytest.mark.parametrize("how", ["direct_url", "project_name"])
def test_an_installed_copy_of_the_pack_is_the_same_pack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str):
    source = tmp_path / "repo"
    lesson(source / "my_pack" / "lessons", "one.yaml", "mine/one", answer="1")
    (source / "pyproject.toml").write_text('[project]\nname = "my-pack"\nversion = "1"\n')
    site = tmp_path / "site-packages"
    install_copy(site, source, "my-pack" if how == "project_name" else "renamed",
                 direct_url=source.as_uri() if how == "direct_url" else None)
    monkeypatch.syspath_prepend(str(site))
    report = lint_paths([source])
    assert report.errors == [], "\n".join(map(str, report.errors))
    chosen = select([source])
    assert not chosen.errors and [x.id for x in chosen.lessons] == ["mine/one"]
    # the catalog (tutor list, the app) shows the pack once: the source shadows the copy
    catalog = load_catalog([source], with_bundled=True)
    assert not catalog.errors
    assert catalog.get("mine/one").file.resolve() == (
        source / "my_pack" / "lessons" / "one.yaml").resolve()


def test_another_installed_pack_with_the_same_id_is_a_duplicate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    source = tmp_path / "repo"
    lesson(source, "one.yaml", "mine/one")
    (source / "pyproject.toml").write_text('[project]\nname = "my-pack"\n')
    site = tmp_path / "site-packages"
    install_copy(site, tmp_path / "elsewhere", "their-pack",
                 direct_url=(tmp_path / "elsewhere").as_uri())
    monkeypatch.syspath_prepend(str(site))
    [problem] = lint_paths([source]).errors
    assert "duplicate lesson id 'mine/one'" in problem.message
    assert "site-packages/my_pack/lessons/one.yaml" in problem.message


def test_an_installed_pack_without_lessons_is_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    site = tmp_path / "site"
    (site / "empty_pack").mkdir(parents=True)
    (site / "empty_pack" / "__init__.py").write_text("")
    make_dist(site, "empty-pack", "empty = empty_pack")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    assert main(["list"]) == 0
    err = capsys.readouterr().err
    assert "entry point empty from empty-pack:1:1: warning: holds no lessons" in err
    assert "package data" in err
    mine = lesson(tmp_path / "mine", "a.yaml", "mine/a")
    report = lint_paths([mine])
    [warning] = report.warnings
    assert "holds no lessons" in warning.message and report.errors == []
    assert main(["lint", "--strict", str(mine)]) == 1


def test_check_and_record_refuse_a_named_file_that_is_not_a_lesson(
        repo: Path, capsys: pytest.CaptureFixture[str]):
    [problem] = select([repo / "mkdocs.yml"]).problems
    assert problem.file.endswith("mkdocs.yml") and "not a lesson file" in problem.message
    assert main(["record", str(repo / "environment.yml")]) == 2
    assert "environment.yml: not a lesson file" in capsys.readouterr().err


def test_an_editable_install_of_the_pack_is_the_same_files(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch):
    """`pip install -e .`: the entry point leads into the source itself."""
    source = tmp_path / "repo"
    lesson(source / "my_pack", "one.yaml", "mine/one")
    site = tmp_path / "site-packages"
    make_dist(site, "my-pack", "mine = my_pack")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(source))  # what the editable install's .pth adds
    importlib.invalidate_caches()
    assert lint_paths([source]).errors == []
    assert [x.id for x in select([source]).lessons] == ["mine/one"]
    catalog = load_catalog(with_bundled=True)
    assert catalog.pack_of["mine/one"].source == "entry point mine from my-pack"
