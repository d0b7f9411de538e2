"""One sanitiser for every door to a terminal (issue 12): whatever a lesson file holds
or its code prints or raises — OSC 52 clipboard writes, OSC 0 titles, CSI 2J, bidi
overrides — no command writes it to the terminal, and JSON reports keep it exact."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.safetext import json_dumps, sanitize, shorten

pytestmark = pytest.mark.kernel

# what a terminal would act on: C0 but \t and \n, DEL, C1, bidi controls
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
HOSTILE = Path(__file__).resolve().parent / "data" / "hostile" / "lesson.yaml"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    shutil.copy(HOSTILE, directory / "one.yaml")
    (directory / "broken.yaml").write_text(
        'id: hostile/two\ntitle: x\ntopic: x\nsteps: 5\n"\\e]0;PWNED\\akey": 1\n',
        encoding="utf-8")
    return directory


def tutor(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    return subprocess.run([sys.executable, "-m", "tutor", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=300)


def assert_clean(text: str) -> None:
    bad = UNSAFE.search(text)
    assert bad is None, f"{bad.group()!r}: {text[max(0, bad.start() - 80):][:200]!r}"


def test_check_list_lint_show_and_play_print_nothing_a_terminal_acts_on(hostile: Path) -> None:
    one = str(hostile / "one.yaml")
    runs = {
        "check": tutor("check", str(hostile)),
        "list": tutor("list", "--path", str(hostile)),
        "lint": tutor("lint", str(hostile)),
        "show": tutor("show", one, "storage"),
        "play": tutor("play", one, stdin="hint\n4\nreveal\n"),
    }
    for name, proc in runs.items():
        assert_clean(proc.stdout)
        assert_clean(proc.stderr)
        assert "PWNED" not in proc.stdout + proc.stderr or name in ("lint", "play", "show") \
            or "\x1b" not in proc.stdout, name
    check = runs["check"].stdout
    assert "hostile/one" in check and "raised ValueError" in check and "raised" in check
    assert "broken.yaml:4:8: steps: expected a list" in check
    assert "Hostile" in runs["list"].stdout and "title" in runs["list"].stdout
    play = runs["play"].stdout
    assert "printed" in play and "Hint" in play and "Feedback" in play


def test_json_reports_are_safe_and_exact(hostile: Path) -> None:
    proc = tutor("check", "--json", str(hostile))
    assert_clean(proc.stdout)
    report = json.loads(proc.stdout)
    reasons = " ".join(r.get("reason") or "" for r in report["records"])
    assert "raised ValueError: \x1b]52;c;ZXZpbA==\x07" in reasons  # exact, as data
    listing = tutor("list", "--json", "--path", str(hostile))
    assert_clean(listing.stdout)
    [row] = [r for r in json.loads(listing.stdout) if r["id"] == "hostile/one"]
    assert row["title"].startswith("Hostile ") and row["title"].endswith(" title")
    data = {"text": "\x1b]52;c;x\x07 \x9b31m \u202e \x7f ok 한국", "lone": "\udc80"}
    text = json_dumps(data)
    assert sanitize(text) == text and json.loads(text) == data


def test_pytest_reports_are_clean(hostile: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "no:randomly", "-q", str(hostile)],
                          capture_output=True, text=True, env=env, timeout=300,
                          cwd=hostile)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "broken.yaml::load" in out and "failed" in out
    # pytest's own summary may colour; the lesson's text must not reach it raw
    assert "PWNED\x07" not in out and "\x1b]52" not in out and "\x1b]0;" not in out
    assert "\u202e" not in out and "\x1b[2J" not in out


def test_the_lesson_model_holds_only_clean_text(hostile: Path) -> None:
    from tutor.lesson import load_lesson

    lesson = load_lesson(hostile / "one.yaml")
    step = lesson.steps[0]
    prompt = step.prompts[0]
    for text in (lesson.title, lesson.topic, lesson.intro, *lesson.tags, step.explain or "",
                 prompt.ask, prompt.hint or "", prompt.explain or "",
                 *(m for _, m in prompt.feedback)):
        assert_clean(text)
    assert "chr(27)" in step.code  # code runs as written


def test_shorten_bounds_what_is_shown() -> None:
    assert shorten("short") == "short"
    long = shorten("x" * 100_000)
    assert len(long) < 2_100 and long.endswith("(98,000 more characters)")
    lines = shorten("line\n" * 1000)
    assert lines.count("\n") <= 40 and "more lines" in lines
