"""A non-editable install finds the bundled lessons and the lesson schema."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tutor.lesson.translation import is_translation_file

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
    # the Korean catalog (read at run time: no .mo, no Babel) and the translation schema
    assert "tutor/locale/ko/LC_MESSAGES/tutor.po" in names
    assert "tutor/lesson/translation.schema.json" in names
    assert "tutor/lesson/pack-translation.schema.json" in names
    assert "samples/pack.ko.yaml" in shipped  # (a pack's translation ships with it)
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
            "print(bundled_dir()); print(len(c.lessons), len(c.errors))\n"
            "from tutor import i18n; i18n.set_language('ko'); print(i18n._('Review'))")
    proc = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    where, counts, review = proc.stdout.splitlines()
    assert Path(where) == site / "tutor" / "_bundled_lessons"
    lessons = len([p for p in (ROOT / "lessons").rglob("*.yaml") if p.name != "pack.yaml"
                   and not is_translation_file(p)])  # (x.ko.yaml: a lesson's translation)
    assert counts == f"{lessons} 0"
    assert review == "복습"  # the installed copy speaks Korean


RELEASING = ROOT / "docs" / "releasing.md"


def _console(doc: Path) -> list[tuple[str, list[str]]]:
    """The `$ ` commands of a doc's console blocks, each with the lines it must print
    (`...` stands for any text; a line of only `...` for lines left out)."""
    out: list[tuple[str, list[str]]] = []
    inside = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text.startswith("```"):
            inside = text == "```console"
        elif inside and text.startswith("$ "):
            out.append((text[2:], []))
        elif inside and out and text and text != "...":
            out[-1][1].append(text)
    return out


def _shown(expected: str, line: str) -> bool:
    import re

    return re.search(".*".join(map(re.escape, expected.split("..."))), line) is not None


@pytest.mark.venv
def test_the_release_commands_build_and_check(tmp_path: Path) -> None:
    """docs/releasing.md step 4, as written, on a copy of this checkout in a fresh
    virtual environment: `python -m build` makes a wheel and an sdist, `twine check
    --strict` passes them (docs/authoring.md's test installs such a wheel and uses it)."""
    import os
    import re
    import shutil

    commands = _console(RELEASING)
    assert [c for c, _ in commands][1:] == ["python -m build", "twine check --strict dist/*"]
    copy = tmp_path / "tutor"
    skip = shutil.ignore_patterns(
        ".git", "dist", "build", "*.egg-info", "__pycache__", ".*_cache", ".tutor*")

    def ignore(folder: str, names: list[str]) -> set[str]:
        # a checkout holds no virtual environment: not .venv, not CI's .ci-venv (torch,
        # 1 GB: copying it and walking it in `python -m build` took this test 3 minutes)
        return skip(folder, names) | {n for n in names if (Path(folder, n, "pyvenv.cfg")).exists()}

    shutil.copytree(ROOT, copy, ignore=ignore)
    venv = tmp_path / "venv"
    base = Path(sys._base_executable).parent  # noqa: SLF001 - the Python this venv came from
    subprocess.run([str(base / "python3"), "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "TUTOR_PATH")}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    for command, expected in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=copy, env=env, text=True,
                              capture_output=True, timeout=600)
        output = [re.sub(r"\x1b\[[0-9;]*m", "", line)  # (twine colours PASSED)
                  for line in (proc.stdout + proc.stderr).splitlines()]
        assert proc.returncode == 0, f"`{command}`:\n" + "\n".join(output[-40:])
        at = 0
        for want in expected:
            while at < len(output) and not _shown(want, output[at]):
                at += 1
            assert at < len(output), f"`{command}` did not print {want!r}:\n" + "\n".join(output)
            at += 1
    sdist, wheel = sorted((copy / "dist").glob("pytorch_tutor-*"), key=lambda p: p.suffix)
    assert wheel.suffix == ".whl" and sdist.name.endswith(".tar.gz")
    assert "tutor/_bundled_lessons/samples/accumulate.yaml" in zipfile.ZipFile(wheel).namelist()


def test_virtual_environments_in_a_checkout_stay_out_of_the_sdist() -> None:
    """`python -m build` packs every file git does not ignore into the sdist: the
    environments the README and .ci/run make in the checkout (torch, 1 GB) must be ignored."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for venv in (".venv", ".ci-venv"):
        proc = subprocess.run(["git", "check-ignore", "-q", f"{venv}/torch.py"], cwd=ROOT)
        assert proc.returncode == 0, f"{venv}/ is not git-ignored: an sdist built here packs it"


def test_the_release_workflow_uses_trusted_publishing_and_checks_first() -> None:
    import yaml

    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())
    build, publish = flow["jobs"]["build"], flow["jobs"]["publish"]
    runs = " ".join(s.get("run", "") for s in build["steps"])
    assert "python -m build" in runs and "twine check --strict dist/*" in runs
    assert "CHANGELOG.md" in runs and "GITHUB_REF_NAME" in runs
    assert publish["permissions"] == {"id-token": "write"} and publish["needs"] == "build"
    uses = [s.get("uses", "") for s in publish["steps"]]
    assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
    assert not any("with" in s and ("password" in s["with"] or "user" in s["with"])
                   for s in publish["steps"])  # no token: trusted publishing
    version = next(line.split('"')[1] for line in (ROOT / "pyproject.toml").read_text()
                   .splitlines() if line.startswith("version = "))
    assert f"## [{version}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
