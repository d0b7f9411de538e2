"""`tutor play`'s input and output (issue 28, classes 1 and 2), with a fake kernel
(tests/fake_play.py: no torch): at a terminal, line editing, and a key code never
reaches an answer; with standard input closed, output to a full device or an output
encoding without tutor's symbols (cp1252, ASCII), it ends cleanly, with a clear
message and exit code, and the answer being saved is never lost."""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import fake_play
import pytest

from tutor.cli import main
from tutor.progress import ProgressStore

LESSONS = str(fake_play.UI_LESSONS)
FAKE = str(Path(fake_play.__file__))


@pytest.fixture
def home(fake_play_home: Path) -> Path:
    return fake_play_home


def answers(home: Path) -> list[tuple[str, str]]:
    with ProgressStore(home) as store:
        return [(a.answer, a.verdict) for a in store.attempts()]


class Terminal(io.StringIO):
    """Lines typed at a terminal that does not edit them (no readline): keys arrive
    as their codes."""

    def isatty(self) -> bool:
        return True


# ---------------------------------------------------------------------- class 1
@pytest.mark.parametrize("key", ["\x1b[D", "\x1b[5~", "\x1bOA", "\x9b6~", "\x08", "\x7f"])
@pytest.mark.parametrize("stdin_kind", ["pipe", "terminal"])
def test_a_key_code_in_a_line_is_refused_never_judged(
        key: str, stdin_kind: str, home: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    typed = f"12\n{key}a, b, c\na, b, c\n"  # Q2's answer first with a key in it, then clean
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed) if stdin_kind == "pipe"
                        else Terminal(typed))
    assert main(["play", "ui/basics", "--path", LESSONS, "--json"]) == 0
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["answer"], r["verdict"]) for r in records] == [
        ("12", "correct"), ("a, b, c", "correct")]  # the line with the key: not an answer
    assert "That line holds a terminal key code" in " ".join(err.split())
    assert "not quite" not in err and "\x1b" not in err
    assert answers(home) == [("12", "correct"), ("a, b, c", "correct")]


def test_key_codes_are_found_and_text_is_not() -> None:
    from tutor.commands.console import key_codes

    for line in ("\x1b[D12", "12\x1b[C", "a\x1b[5~b", "\x1bOB", "x\x00", "\x9b5~", "ab\x7f"):
        assert key_codes(line), line
    for line in ("12", "a, b, c", "tensor([1., 2.])", "naïve · é", "a\tb", "0.5?", ""):
        assert not key_codes(line), line


TMUX = shutil.which("tmux")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(name: str, text: str, seconds: float = 60) -> str:
    """The screen once it shows `text` (a prompt, "> " or "  : ", once it is the last
    line: capture-pane drops the space after it)."""
    end = time.monotonic() + seconds  # (a bound on waiting, not a timing assertion)
    prompt = text.endswith(" ")
    while time.monotonic() < end:
        shown = screen(name)
        last = shown.rstrip().rsplit("\n", 1)[-1]
        if (last == text.rstrip() if prompt else text in shown):
            return shown
        time.sleep(0.1)
    raise AssertionError(f"never saw {text!r}:\n{screen(name)}")


@pytest.mark.tmux
@pytest.mark.skipif(TMUX is None, reason="needs tmux")
def test_at_a_real_terminal_lines_are_edited_with_arrow_keys_and_page_up(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    name = f"tutor-play-{os.getpid()}"
    env = (f"TUTOR_HOME={home} PYTHONPATH={fake_play.ROOT} TERM=xterm-256color "
           f"{sys.executable} {FAKE} play ui/basics --path {LESSONS}; echo exit=$?; sleep 60")
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", env)
    try:
        wait_for(name, "Q1 of 4")
        wait_for(name, "> ")
        # "2", Left, "1": the arrow moves the cursor, so the line is "12"
        tmux("send-keys", "-t", name, "2", "Left", "1", "Enter")
        wait_for(name, "Q2 of 4")
        wait_for(name, "> ")
        # PageUp, PageDown, Home, End and F1 in the middle of an answer: nothing typed
        tmux("send-keys", "-t", name, "a, b", "PPage", "NPage", "Home", "End", "F1", ", c",
             "Enter")
        wait_for(name, "  : ")  # step 1's pictures: Enter goes on
        tmux("send-keys", "-t", name, "Enter")
        wait_for(name, "Q3 of 4")
        wait_for(name, "> ")
        # Up recalls the last answer (history), ctrl+u clears it; Right at the end: nothing
        tmux("send-keys", "-t", name, "Up")
        wait_for(name, "> a, b, c ")  # (as the last line: the recalled answer)
        tmux("send-keys", "-t", name, "C-u", "ye", "Right", "s", "Enter")
        wait_for(name, "Q4 of 4")
        wait_for(name, "> ")
        tmux("send-keys", "-t", name, "C-d")
        shown = wait_for(name, "exit=")
    finally:
        tmux("kill-session", "-t", name)
    assert "exit=0" in shown
    assert "not quite" not in shown and "key code" not in shown
    assert answers(home) == [("12", "correct"), ("a, b, c", "correct"), ("yes", "correct")]


# ---------------------------------------------------------------------- class 2
def test_closed_standard_input_ends_with_a_message_not_a_traceback(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python makes of `<&-`
    assert main(["play", "ui/basics", "--path", LESSONS]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "standard input is closed, so no answer can be read" in err
    assert "printf '12\\n' | tutor play LESSON" in err


def test_input_that_fails_mid_lesson_ends_it_and_says_why(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class HungUp(io.StringIO):
        def readline(self, *args: object) -> str:
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(sys, "stdin", HungUp())
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(the end of input: input could not be read (Input/output error))" in out
    assert "stopped: 0 of 4 right" in out
    monkeypatch.setattr(sys, "stdin", HungUp())  # in Korean, wholly (issue 25)
    assert main(["play", "ui/basics", "--path", LESSONS, "--lang", "ko"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "입력을 읽을 수 없습니다 (Input/output error))" in out, out[-300:]


class FillsUp(io.StringIO):
    """An output that is full from the first verdict on (ENOSPC, as /dev/full)."""

    def write(self, text: str) -> int:
        if "correct" in text or self.closed_for_good:
            self.closed_for_good = True
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)

    closed_for_good = False


def test_output_that_fills_up_stops_the_lesson_and_keeps_the_answer(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    full = FillsUp()
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\na, b, c\n"))
    monkeypatch.setattr(sys, "stdout", full)
    assert main(["play", "ui/basics", "--path", LESSONS]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert ("tutor play: stopped: the output could not be written (No space left on "
            "device); every answer given before it is saved in your progress.") in err
    assert "Traceback" not in err
    assert answers(home) == [("12", "correct")]  # judged, saved, then the output failed


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_an_output_encoding_without_the_symbols_gets_stand_ins(
        encoding: str, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\nreveal\n"))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding=encoding,
                                                        write_through=True))
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0
    text = raw.getvalue().decode(encoding)
    assert "  v correct: The live value is 12.0." in text
    assert "stopped: 1 of 4 right, 1 revealed; 2 not answered (ui/basics)" in text
    assert answers(home) == [("12", "correct"), ("", "revealed")]


def fake(home: Path, shell: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`tutor play` (fake kernel) as its own process, its streams set up by `shell`."""
    environment = {**os.environ, "TUTOR_HOME": str(home), "PYTHONPATH": str(fake_play.ROOT),
                   **env}
    environment.pop("TUTOR_PATH", None)
    command = f"exec {sys.executable} {FAKE} play ui/basics --path {LESSONS} {shell}"
    return subprocess.run(["sh", "-c", command], capture_output=True, env=environment,
                          encoding=env.get("PYTHONIOENCODING", "utf-8"), timeout=120)


def test_real_streams_closed_full_and_cp1252(tmp_path: Path) -> None:
    home = tmp_path / "home"
    closed = fake(home, "<&-")
    assert closed.returncode == 2
    assert closed.stderr.startswith("tutor play: standard input is closed")
    if Path("/dev/full").exists():
        full = fake(home, "< /dev/null > /dev/full")
        assert full.returncode == 1, full.stderr
        assert "the output could not be written (No space left on device)" in full.stderr
        assert "Traceback" not in full.stderr and "Exception ignored" not in full.stderr
    feed = tmp_path / "answers"
    feed.write_text("12\n", encoding="utf-8")
    cp = fake(home, f"< {feed}", PYTHONIOENCODING="cp1252")
    assert cp.returncode == 0 and not cp.stderr, cp.stderr
    assert "v correct: The live value is 12.0." in cp.stdout
    assert answers(home) == [("12", "correct")]


# ---------------------------------------------------------------------- class 3, in play
def test_play_goes_on_past_bad_rows_saves_every_answer_and_says_so(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    monkeypatch.setattr(sys, "stdin", io.StringIO("6\n"))
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0  # a mistake: a review card
    db = sqlite3.connect(home / "progress.db")
    db.execute("UPDATE lessons SET status = 'mastered', step = 'x'")
    db.execute("UPDATE reviews SET card = '{bad json', reviews = 'many', due = 'soon'")
    db.execute("UPDATE attempts SET hints = 'lots'")
    db.commit()
    db.close()
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\nreveal\nyes\nfloats\n"))
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "finished: 3 of 4 right, 1 revealed (ui/basics)" in out
    assert "could not be read as written" in out and "the status 'mastered'" in out
    assert "a new card was started" in out and "Traceback" not in out
    assert [v for _, v in answers(home)] == ["incorrect", "correct", "revealed", "correct",
                                             "correct"]
    with ProgressStore(home) as store:
        assert store.lesson("ui/basics").status == "done"


def can_mount() -> bool:
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not can_mount(), reason="needs user namespaces (unshare -rm)")
def test_play_on_a_read_only_file_system_says_once_that_answers_are_not_saved(
        home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("6\n"))
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0  # one mistake saved
    feed = tmp_path / "answers"
    feed.write_text("12\na, b, c\n", encoding="utf-8")
    script = (f"mount --bind {home} {home} && mount -o remount,ro,bind {home} && exec "
              f"{sys.executable} {FAKE} play ui/basics --path {LESSONS} < {feed}")
    env = {**os.environ, "TUTOR_HOME": str(home), "PYTHONPATH": str(fake_play.ROOT)}
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert out.startswith("note: Progress is not being saved: the progress database")
    assert "(the file system it is on is read-only); your progress so far is shown, but new " \
           "answers are not saved." in out
    assert out.count("not being saved") == 1 and "(not saved" not in out  # said once
    assert "finished" not in out and "stopped: 2 of 4 right" in out
    assert "waiting for review, over all your lessons: 1 question" in out  # still read
    assert [v for _, v in answers(home)] == ["incorrect"]


def test_a_lesson_that_deletes_the_database_mid_lesson_loses_no_answer(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = fake_play.FakeRun.run_through

    def deleting(self: fake_play.FakeRun, upto: int) -> object:
        if upto == 1:  # step 2's code removes the learner's progress database
            os.remove(home / "progress.db")
        return real(self, upto)

    monkeypatch.setattr(fake_play.FakeRun, "run_through", deleting)
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\nc, b, a\n\nyes\nfloats\n"))
    assert main(["play", "ui/basics", "--path", LESSONS]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "note: The progress database" in out and "was deleted while tutor was running" in out
    assert out.count("was deleted while") == 1
    assert [v for _, v in answers(home)] == ["correct", "partial", "correct", "correct"]


DELETING = """\
id: t/deletes-progress
title: Deletes progress
topic: testing
steps:
  - code: |
      a = 2
    predict:
      - ask: What is a?
        kind: number
        expect: a
        answer: "2"
  - code: |
      import os, pathlib
      home = pathlib.Path(os.environ["TUTOR_HOME"])
      for name in ("progress.db", "progress.db-wal", "progress.db-shm"):
          if (home / name).exists():
              os.remove(home / name)
      b = 3
    predict:
      - ask: What is b?
        kind: number
        expect: b
        answer: "3"
"""


@pytest.mark.kernel
def test_a_real_lesson_that_deletes_the_database_loses_no_answer(tmp_path: Path) -> None:
    home = tmp_path / "home"
    lesson = tmp_path / "deletes.yaml"
    lesson.write_text(DELETING, encoding="utf-8")
    env = {**os.environ, "TUTOR_HOME": str(home)}
    env.pop("TUTOR_PATH", None)
    proc = subprocess.run([sys.executable, "-m", "tutor", "play", str(lesson)], input="2\n\n3\n",
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "note: The progress database" in out and "was deleted while tutor was running" in out
    assert "finished: 2 of 2 right" in out
    assert answers(home) == [("2", "correct"), ("3", "correct")]
    with ProgressStore(home) as store:
        assert store.lesson("t/deletes-progress").status == "perfect"
