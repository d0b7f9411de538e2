"""docs/authoring.md is a tutorial that must keep working: run it, block by block.

In the doc, a ```console block holds commands (`$ ...`) each followed by the output
it must print: every shown line must appear, in order, as part of an output line
(`...` stands for any text; a line that is only `...` stands for lines left out);
`(exit status N)` gives the status (default 0).  A ```yaml file=PATH block is
written to PATH, keeping the modeline `tutor new` put on the file's first line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import ROOT

DOC = ROOT / "docs" / "authoring.md"
FENCE = re.compile(r"^```(\S*)(.*)$")
STATUS = re.compile(r"^\(exit status (\d+)\)$")
DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")


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
        elif lang == "yaml" and info.startswith("file="):
            out.append(WriteFile(start, info[len("file="):], "\n".join(body) + "\n"))
        i = j + 1
    return out


def matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in DOTS.split(expected))
    return re.search(pattern, actual) is not None


def test_the_doc_has_a_tutorial():
    found = steps(DOC.read_text(encoding="utf-8"))
    commands = [s.text.split()[0 if not s.text.startswith("TUTOR_PATH") else 1]
                for s in found if isinstance(s, Command)]
    for needed in ("tutor", "pytest"):
        assert needed in commands
    assert any(isinstance(s, WriteFile) for s in found)


@pytest.mark.kernel
def test_the_authoring_tutorial_runs_as_written(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["TUTOR_HOME"] = str(tmp_path / ".tutor-home")
    env["PYTEST_ADDOPTS"] = "-p no:randomly -p no:cacheprovider"
    work = tmp_path / "work"
    work.mkdir()
    for step in steps(DOC.read_text(encoding="utf-8")):
        where = f"docs/authoring.md:{step.line}"
        if isinstance(step, WriteFile):
            target = work / step.path
            old = target.read_text(encoding="utf-8").splitlines() if target.exists() else []
            keep = old[0] + "\n" if old and old[0].startswith("# yaml-language-server:") else ""
            target.write_text(keep + step.text, encoding="utf-8")
            continue
        proc = subprocess.run(["bash", "-c", step.text], cwd=work, env=env, text=True,
                              capture_output=True, timeout=300)
        output = (proc.stdout + proc.stderr).splitlines()
        assert proc.returncode == step.status, (
            f"{where}: `{step.text}` exited {proc.returncode}, the doc says {step.status}:\n"
            + proc.stdout + proc.stderr)
        at = 0
        for want in step.expected:
            while at < len(output) and not matches(want, output[at]):
                at += 1
            assert at < len(output), (
                f"{where}: `{step.text}` did not print (in order) {want!r}; it printed:\n"
                + "\n".join(output))
            at += 1
