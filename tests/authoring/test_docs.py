"""docs/authoring.md is a tutorial that must keep working: run it, block by block,
from an empty directory, in a fresh virtual environment.

In the doc, a ```console block holds commands (`$ ...`) each followed by the output
it must print: every shown line must appear, in order, as part of an output line
(`...` stands for any text; a line that is only `...` stands for lines left out);
`(exit status N)` gives the status (default 0).  A ``` block with `file=PATH` after
its language is written to PATH (a lesson keeps the modeline `tutor new` put on its
first line).

The tutorial's first command makes the virtual environment and installs torch,
tutor and pytest into it; every later command runs with it active.  To stay
offline-safe and fast, the test

* builds a wheel of this checkout and lets pip find it (`PIP_FIND_LINKS`, beside
  this machine's own pip configuration), so `pip install <this distribution>`
  installs the code under test, with its dependencies, as a user's pip would;
* makes torch and numpy, and what they need, importable in the new environment
  from the one running the tests (a `.pth` file, before the doc's first command
  runs), so the doc's `pip install torch==2.13.0 numpy` finds them satisfied
  instead of unpacking a GB of torch again.  Everything else (tutor, textual,
  pytest, the pack's build backend) is installed by the doc's own commands.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from .conftest import ROOT

DOC = ROOT / "docs" / "authoring.md"
FENCE = re.compile(r"^```(\S*)(.*)$")
STATUS = re.compile(r"^\(exit status (\d+)\)$")
DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")
MODELINE = "# yaml-language-server:"


@dataclass
class Command:
    line: int
    text: str
    expected: list[str] = field(default_factory=list)
    status: int = 0


@dataclass
class WriteFile:
    line: int
    path: str
    text: str


def steps(doc: str) -> list[Command | WriteFile]:
    out: list[Command | WriteFile] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        lang, info, start = m.group(1), m.group(2).strip(), i + 1
        j = start
        while not lines[j].startswith("```"):
            j += 1
        body = lines[start:j]
        if lang == "console":
            for n, line in enumerate(body):
                if line.startswith("$ "):
                    out.append(Command(start + n + 1, line[2:]))
                elif (s := STATUS.match(line)) and out and isinstance(out[-1], Command):
                    out[-1].status = int(s.group(1))
                elif out and isinstance(out[-1], Command) and line.strip() != "...":
                    out[-1].expected.append(line)
        elif info.startswith("file="):
            out.append(WriteFile(start, info[len("file="):], "\n".join(body) + "\n"))
        i = j + 1
    return out


def matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in DOTS.split(expected))
    return re.search(pattern, actual) is not None


def distribution_name() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^\[project\]\n(?:.*\n)*?name\s*=\s*"([^"]+)"', text, re.M).group(1)


def version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^\[project\]\n(?:.*\n)*?version\s*=\s*"([^"]+)"', text, re.M).group(1)


def commands() -> list[Command]:
    return [s for s in steps(DOC.read_text(encoding="utf-8")) if isinstance(s, Command)]


def test_the_doc_has_a_tutorial_that_installs_what_it_uses():
    found = commands()
    names = {shlex.split(c.text)[0] for c in found if "=" not in shlex.split(c.text)[0]}
    assert {"tutor", "pytest", "pip", "sed"} <= names
    first = found[0].text
    # the first command makes the environment and installs everything used after it:
    # torch (pinned, first), this distribution (by its name) and pytest
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate"), first
    installs = " ".join(re.findall(r"pip install ([^&]+)", first)).split()
    assert "torch==2.13.0" in installs and "pytest" in installs
    # the CPU build, as the text beside it recommends (PyPI's Linux torch is CUDA's)
    assert "--index-url https://download.pytorch.org/whl/cpu" in first
    # tutor from its repository (a wheel, a checkout, a git URL: `$TUTOR`), never by its
    # name from the package index, where no release exists yet
    assert '"$TUTOR"' in installs, first
    assert distribution_name() not in installs
    # commands that need a tool the tutorial did not install (pytest-xdist, ...) are not run
    assert not any("-n auto" in c.text for c in found)


def test_no_doc_installs_tutor_by_name_from_the_package_index():
    """Until a release exists, `pip install pytorch-tutor` fails for every reader."""
    by_name = re.compile(rf"pip install[^\n`]*\s{re.escape(distribution_name())}(?!\s*@|[\w.-])")
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        if doc.name == "releasing.md":  # (checks a published release: by its name)
            continue
        assert not by_name.search(text), f"{doc.name}: {by_name.search(text).group(0)}"


def ci_job() -> list[str]:
    """The `run:` lines of the GitHub Actions job in docs/authoring.md."""
    blocks = re.findall(r"^```yaml file=\.github/workflows/lessons\.yml\n(.*?)^```",
                        DOC.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) == 1
    return [line.split("- run: ", 1)[1] for line in blocks[0].splitlines()
            if "- run: " in line]


def test_the_ci_job_pins_the_cpu_torch_and_installs_tutor_from_its_repository():
    lines = ci_job()
    assert lines[0] == "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
    assert '"$TUTOR"' in lines[1] and distribution_name() not in lines[1].split()


def _pip_config(key: str) -> list[str]:
    """Values this machine's pip configuration gives `key` (e.g. find-links)."""
    proc = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True,
                          text=True, timeout=60)
    values: list[str] = []
    for line in proc.stdout.splitlines():
        name, _, value = line.partition("=")
        if name.rsplit(".", 1)[-1] == key:
            values += value.strip().strip("'\"").split()
    return values


def _closure(names: list[str]) -> list[str]:
    """The installed distributions `names` need (their requirements, recursively)."""
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop()
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        key = dist.metadata["Name"].lower()
        if key in seen or key in ("setuptools", "pip"):  # (pip keeps the venv's own)
            continue
        seen.append(key)
        for raw in dist.requires or ():
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def _share_torch(venv: Path, shim: Path) -> None:
    """Make this environment's torch and numpy (and what they need) importable in
    `venv`, through one .pth file: the doc's own pip then finds them installed."""
    shim.mkdir()
    for name in _closure(["torch", "numpy"]):
        dist = distribution(name)
        base = Path(str(dist.locate_file("")))
        for top in sorted({f.parts[0] for f in dist.files or () if f.parts[0] != ".."}):
            if (base / top).exists() and not (shim / top).exists():
                (shim / top).symlink_to(base / top)
    site = Path(subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
         "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    (site / "zz_tutor_test_torch.pth").write_text(f"{shim}\n", encoding="utf-8")


@pytest.mark.kernel
@pytest.mark.venv
def test_the_authoring_tutorial_runs_as_written(tmp_path: Path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels), str(ROOT)], check=True,
                   capture_output=True, timeout=300)
    work = tmp_path / "work"
    work.mkdir()
    base = Path(sys._base_executable).parent  # noqa: SLF001 - the Python this venv came from
    subprocess.run([str(base / "python3"), "-m", "venv", str(work / ".venv")], check=True,
                   timeout=300)
    _share_torch(work / ".venv", tmp_path / "shared-torch")
    outer = {str(Path(sys.executable).parent), os.environ.get("VIRTUAL_ENV", "") + "/bin"}
    path = [str(base)] + [p for p in os.environ.get("PATH", "").split(os.pathsep)
                          if p and p not in outer]
    env = {k: v for k, v in os.environ.items()
           if k not in ("TUTOR_PATH", "PYTHONPATH", "VIRTUAL_ENV", "PYTEST_XDIST_WORKER")
           and not k.startswith(("PYTEST_", "COV_"))}
    [wheel] = wheels.glob("*.whl")
    # the doc installs tutor as `"$TUTOR"`: here, the wheel of this checkout (pip finds
    # no `pytorch-tutor` on any index: nothing here offers it by name)
    env.update(PATH=os.pathsep.join(path), TUTOR_HOME=str(tmp_path / ".tutor-home"),
               TUTOR=str(wheel), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PYTEST_ADDOPTS="-p no:randomly -p no:cacheprovider")
    _run_doc(work, env)
    # the environment really is the fresh one: tutor and pytest came from the doc's pip
    venv_bin = work / ".venv" / "bin"
    assert (venv_bin / "tutor").exists() and (venv_bin / "pytest").exists()
    assert sysconfig.get_paths()["purelib"] not in (work / ".venv" / "pyvenv.cfg").read_text()
    # the CI job, as GitHub would run it: a fresh environment (the runner's Python), the
    # pack repository as the tutorial left it
    job = tmp_path / "job"
    subprocess.run([str(base / "python3"), "-m", "venv", str(job)], check=True, timeout=300)
    _share_torch(job, tmp_path / "shared-torch-job")
    for line in ci_job():
        script = f". {job}/bin/activate\n{line}"
        proc = subprocess.run(["bash", "-c", script], cwd=work, env=env, text=True,
                              capture_output=True, timeout=600)
        assert proc.returncode == 0, f"CI job: `{line}` exited {proc.returncode}:\n" + \
            proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (work / "lessons.xml").exists() and (job / "bin" / "tutor").exists()


def _run_doc(work: Path, env: dict[str, str]) -> None:
    for step in steps(DOC.read_text(encoding="utf-8")):
        where = f"docs/authoring.md:{step.line}"
        if isinstance(step, WriteFile):
            target = work / step.path
            old = target.read_text(encoding="utf-8").splitlines() if target.exists() else []
            keep = old[0] + "\n" if old and old[0].startswith(MODELINE) else ""
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(keep + step.text, encoding="utf-8")
            continue
        script = f"[ -f .venv/bin/activate ] && . .venv/bin/activate\n{step.text}"
        started = time.monotonic()
        proc = subprocess.run(["bash", "-c", script], cwd=work, env=env, text=True,
                              capture_output=True, timeout=600)
        print(f"{where}: {time.monotonic() - started:5.1f} s  $ {step.text}")
        output = [line for line in (proc.stdout + proc.stderr).splitlines()
                  if "is ignored: it is neither a file nor a directory" not in line]
        assert proc.returncode == step.status, (
            f"{where}: `{step.text}` exited {proc.returncode}, the doc says {step.status}:\n"
            + "\n".join(output))
        at = 0
        for want in step.expected:
            while at < len(output) and not matches(want, output[at]):
                at += 1
            assert at < len(output), (
                f"{where}: `{step.text}` did not print (in order) {want!r}; it printed:\n"
                + "\n".join(output))
            at += 1


def test_the_readme_says_what_python_the_python_option_needs():
    """The kernel refuses an interpreter older than 3.10; the README says so where it
    explains `--python` (torch 2.1-2.4 also run on 3.8 and 3.9)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    item = text[text.index("**Lessons on your project's torch**"):]
    item = " ".join(item[:item.index("\n- ")].split())
    assert "Python 3.10 or newer" in item and "NumPy" in item
