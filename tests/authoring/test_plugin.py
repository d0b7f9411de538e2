"""The pytest plugin: `pytest lessons/` with -k, -x, --lf, --junitxml and -n (xdist)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import tutor.engine  # noqa: F401 - imported here, before pytester snapshots sys.modules:
import tutor.lesson  # noqa: F401 - an in-process run must not re-import yaml's C parser
from tutor.pytest_plugin import use_kernel

from .conftest import DATA

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.kernel
# plugins of our own test environment that have nothing to do with lesson packs (the
# snapshot plugin keeps module-level state that an in-process run would clean up)
QUIET = ("-p", "no:textual-snapshot", "-p", "no:randomly")


class Borrow:
    """Lend the session's kernel to an in-process pytest run (saves a torch start)."""

    def __init__(self, kernel):  # noqa: ANN001
        self.kernel = kernel

    def pytest_configure(self, config: pytest.Config) -> None:
        use_kernel(config, self.kernel)


@pytest.fixture
def lessons(pytester: pytest.Pytester):  # noqa: ANN201
    for src in (DATA / "plugin").iterdir():
        shutil.copy2(src, pytester.path / src.name)
    return pytester


@pytest.fixture
def run(lessons: pytest.Pytester, kernel):  # noqa: ANN001, ANN201
    def run(*args: str) -> pytest.RunResult:
        return lessons.runpytest(*QUIET, *args, plugins=[Borrow(kernel)])

    return run


def test_items_failures_junitxml_and_last_failed(run, lessons: pytest.Pytester):
    xml = lessons.path / "report.xml"
    result = run("-v", f"--junitxml={xml}", "-o", "junit_family=xunit1")
    result.assert_outcomes(passed=3, failed=2)
    out = result.stdout.str()
    for line in ("broken.yaml::load FAILED", "drift.yaml::step1-prompt1 FAILED",
                 "drift.yaml::step1-prompt2 PASSED", "good.yaml::step1-prompt1 PASSED",
                 "good.yaml::step1-prompt2 PASSED"):
        assert line in out
    # the failure points at the prompt's YAML line, with the answer and the live value
    assert ("the lesson file does not load:\nbroken.yaml:8:15: steps[0].predict[0].kind: "
            "unknown value 'numbr' (did you mean 'number'?)") in out
    result.stdout.fnmatch_lines([
        "drift.yaml:9: plugin/drift step 1 prompt 1: What is `w.grad`?",
        "  answer: 11",
        "  live:   10.0",
        "  the reference answer is judged incorrect*",
    ])
    assert "settings.yaml" not in out and "pack.yaml" not in out  # not lessons
    # junitxml: one testcase per prompt, at the prompt's line
    cases = list(ET.parse(xml).getroot().iter("testcase"))
    assert len(cases) == 5
    drift = next(c for c in cases
                 if "drift" in (c.get("classname") or "") and c.get("name") == "step1-prompt1")
    assert drift.get("file") == "drift.yaml" and drift.get("line") == "8"  # 0-based: line 9
    failure = drift.find("failure")
    assert failure is not None and "drift.yaml:9:" in (failure.text or "")
    assert "live:   10.0" in (failure.text or "")
    # --lf reruns only the two failures
    result = run("--lf", "-v")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*run-last-failure: rerun previous 2 failures*"])


def test_k_selects_by_name_and_by_the_question(run):
    # "leaf" is only in a question; step1-prompt2 is a name in both lesson files
    result = run("-k", "leaf or (step1-prompt2 and good)", "-v")
    result.assert_outcomes(passed=2)
    assert "drift.yaml::step1-prompt2 PASSED" in result.stdout.str()
    assert "good.yaml::step1-prompt2 PASSED" in result.stdout.str()


def test_x_stops_at_the_first_failure(run):
    result = run("-x", "drift.yaml", "good.yaml")
    result.assert_outcomes(failed=1)


def test_xdist_runs_lessons_in_two_workers(lessons: pytest.Pytester):
    result = lessons.runpytest_subprocess("-n", "2", *QUIET, timeout=180)
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(["*drift.yaml:9: plugin/drift step 1 prompt 1*"])


def test_collection_can_be_switched_off(lessons: pytest.Pytester):
    lessons.makeini("[pytest]\ntutor_collect = false\n")
    result = lessons.runpytest(*QUIET, "--co")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_skipped_lesson_is_skipped_and_a_lesson_without_prompts_still_runs(
        run, lessons: pytest.Pytester):
    for name in ("good.yaml", "drift.yaml", "broken.yaml"):
        (lessons.path / name).unlink()
    (lessons.path / "future.yaml").write_text(
        "id: plugin/future\ntitle: F\ntopic: t\nrequires: {torch: '>=99'}\nsteps:\n"
        "  - code: x = 1\n    predict:\n      - {ask: x?, kind: number, expect: x, answer: '1'}\n")
    (lessons.path / "noprompt.yaml").write_text(
        "id: plugin/noprompt\ntitle: N\ntopic: t\nsteps:\n  - code: x = 1\n"
        "  - code: raise ValueError('boom')\n")
    result = run("-rs")
    result.assert_outcomes(skipped=1, failed=1)
    result.stdout.fnmatch_lines(["noprompt.yaml:6: plugin/noprompt: step 2 raised ValueError: boom",
                                 "SKIPPED [[]1] future.yaml:8: plugin/future: needs torch >=99*"])


def test_the_plugin_is_light_at_import():
    code = ("import sys, tutor.pytest_plugin; "
            "print([m for m in sys.modules if m.split('.')[0] in ('torch', 'textual', 'numpy') "
            "or m.startswith('tutor.judge')])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_a_lesson_with_a_misspelled_steps_key_fails_instead_of_vanishing(tmp_path):
    from tutor.pytest_plugin import looks_like_lesson

    typo = tmp_path / "typo.yaml"
    typo.write_text("id: a/b\ntitle: T\ntopic: t\nstep:\n  - code: x = 1\n", encoding="utf-8")
    assert looks_like_lesson(typo)
    other = tmp_path / "other.yaml"  # some other YAML with an id is still left alone
    other.write_text("id: 3\nname: build\nsteps: {}\n".replace("steps", "jobs"),
                     encoding="utf-8")
    assert not looks_like_lesson(other)
    proc = subprocess.run([sys.executable, "-m", "pytest", str(typo), "-q", "-p",
                           "no:cacheprovider"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert "missing required key 'steps'" in proc.stdout
    assert "did you mean 'steps'?" in proc.stdout
