"""`tutor list`, `tutor check` and `tutor play` end to end, as a user runs them.

How `tutor play` reads what is typed (printed output over lines, one-letter answers,
`nothing`) is tested in this process (`play_here`), its lessons run in the session's
kernel: a process and a kernel per command are tested by the other play tests."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data" / "core"


def tutor(*args: str, stdin: str = "", env: dict[str, str] | None = None,
          timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "TUTOR_PATH"}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "tutor", *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout, env=full_env)


@pytest.fixture
def play_here(commands_share_kernel: object, capsys: pytest.CaptureFixture[str],
              monkeypatch: pytest.MonkeyPatch) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`tutor play ARGS` in this process, `stdin` piped in: what `tutor(...)` returns."""
    from tutor.cli import main

    def play(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(["play", *args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["tutor", "play", *args], code, out, err)

    return play


def test_list_json_has_the_bundled_lessons_and_extra_paths() -> None:
    proc = tutor("list", "--json", "--path", str(DATA / "good"))
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    ids = [r["id"] for r in rows]
    assert "samples/accumulate" in ids and "core/pass" in ids
    row = rows[ids.index("core/pass")]
    assert {"id", "title", "topic", "file"} <= set(row) and row["file"].endswith("pass.yaml")


def test_list_reports_broken_files_and_exits_1() -> None:
    proc = tutor("list", "--path", str(DATA / "bad"))
    assert proc.returncode == 1
    assert "broken.yaml:9:15: steps[0].predict[0].kind: unknown value 'numbr'" in proc.stderr


def test_check_passes_on_good_lessons_and_reports_skips() -> None:
    proc = tutor("check", str(DATA / "good"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "core/pass" in proc.stdout and "ok (2 prompts" in proc.stdout
    assert "skipped (needs torch >=99" in proc.stdout
    assert "lessons: 1 passed, 0 failed, 1 skipped, 0 errors" in proc.stdout


def test_check_takes_a_lesson_id_for_its_file_and_names_what_is_neither() -> None:
    proc = tutor("check", "--path", str(DATA / "good"), "core/pass", "no/such-lesson")
    assert "core/pass" in proc.stdout and "ok (2 prompts" in proc.stdout
    assert "no/such-lesson:1:1: no such file or directory" in proc.stdout + proc.stderr
    assert proc.returncode == 1


def test_an_id_among_the_paths_reads_every_pack_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.commands import common
    from tutor.lesson import catalog as catalog_module

    real = catalog_module.load_catalog
    full_reads: list[object] = []

    def counting(paths=None, **kwargs):  # noqa: ANN001, ANN202
        if kwargs.get("with_bundled"):
            full_reads.append(paths)
        return real(paths, **kwargs)

    monkeypatch.setattr(common, "load_catalog", counting)
    monkeypatch.setattr(catalog_module, "load_catalog", counting)
    chosen = common.catalog_for([Path("core/pass"), DATA / "good" / "pass.yaml"], [DATA / "good"])
    assert [lesson.id for lesson in chosen.lessons] == ["core/pass"]
    assert not chosen.errors
    assert len(full_reads) == 1  # the ids are resolved and duplicates checked in one read


def test_check_json_reports_every_prompt_and_every_broken_thing() -> None:
    proc = tutor("check", "--json", "-j", "2", str(DATA / "bad"), str(DATA / "good"))
    assert proc.returncode == 1
    report = json.loads(proc.stdout)  # stdout holds only the JSON document
    assert "tutor check:" in proc.stderr  # progress went to stderr
    assert report["ok"] is False and report["torch"]
    by = {(r.get("lesson"), r.get("step"), r.get("prompt"), r["type"]): r
          for r in report["records"]}  # steps and prompts numbered from 1
    drift = by[("core/drift", 1, 1, "prompt")]
    assert drift["passed"] is False and drift["verdict"] == "incorrect"
    assert drift["answer"] == "11" and drift["expected"].startswith("10")
    assert drift["file"].endswith("drift.yaml") and drift["line"] == 9
    missing = by[("core/drift", 1, 2, "prompt")]
    assert missing["passed"] is False and "tutor record" in missing["message"]
    raised = by[("core/drift", 2, 1, "prompt")]
    assert "step 2 raised ValueError: boom" in raised["message"]
    assert "`kind: exception` prompt" in raised["message"]
    assert raised["expected"] is None  # not the NameError of evaluating after the crash
    timeout = by[("core/timeout", None, None, "lesson")]
    assert timeout["status"] == "error" and "timed out" in timeout["reason"]
    assert "raise the lesson's `timeout:`" in timeout["reason"]
    skipped = by[("core/skipped", None, None, "lesson")]
    assert skipped["status"] == "skipped"
    load = next(r for r in report["records"] if r["type"] == "load_error")
    assert load["file"].endswith("broken.yaml") and load["line"] == 9 and load["col"] == 15
    assert by[("core/pass", 1, 1, "prompt")]["passed"] is True


def test_check_text_report_points_at_the_yaml_line() -> None:
    proc = tutor("check", str(DATA / "bad" / "drift.yaml"))
    assert proc.returncode == 1
    assert "drift.yaml:9: core/drift step 1 prompt 1: x.grad?" in proc.stdout
    assert "answer: 11" in proc.stdout and "live:   10" in proc.stdout


def test_play_through_a_pipe() -> None:
    answers = "what?\nhint\n0.61\nNone\n1.2\nreveal\n"
    proc = tutor("play", "samples/accumulate", stdin=answers)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "x = torch.tensor(5.0, requires_grad=True)" in out
    assert "hint: Rewrite log(x ** 3) as a multiple of log x first." in out
    assert "> 0.61\n  ✗ not quite: You said 0.61; the live value is 0.6000." in out
    assert "✓ correct" in out and "The live value: RuntimeError" in out
    assert "finished: 2 of 4 right, 1 wrong, 1 revealed" in out  # as the app counts it
    assert "Try again" in " ".join(out.split())  # the invalid answer was asked again (wrapped)
    # one step numbering, lesson Markdown as plain text, no internal kind names
    assert "-- step 1 of 3 --" in out and "Q1 of 4. What is x.grad now?" in out
    # the torch the answers come from (the kernel's), and the id only at the end:
    assert re.search(r"\nautograd · level 1 · 3 steps, 4 questions · on torch \d+\.\d+", out)
    assert "samples/accumulate" not in out.split("finished:")[0]  # (an id can name an answer)
    assert "finished: 2 of 4 right, 1 wrong, 1 revealed (samples/accumulate)" in out
    prose = "\n".join(line for line in out.splitlines() if " | " not in line)  # not code
    assert "`" not in prose and "[number]" not in prose
    assert not re.search(r"\*\*\w[^*]*\*\*", prose)  # (x ** 3 in prose is Python, not bold)
    assert "type a number, or None" in out


def test_play_json_records_and_clean_eof() -> None:
    proc = tutor("play", "samples/accumulate", "--json", stdin="0.61\n1\n")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["verdict"] for r in records] == ["incorrect", "incorrect"]
    assert records[0] | {"expected": None} == {
        "lesson": "samples/accumulate", "step": 1, "prompt": 1, "answer": "0.61",
        "verdict": "incorrect", "expected": None, "message": records[0]["message"],
        "hints": 0, "confidence": "sure"}
    assert records[0]["expected"].startswith("0.6")
    assert "stopped: 0 of 4 right, 2 wrong; 2 not answered" in proc.stderr


def test_play_unknown_lesson_suggests() -> None:
    proc = tutor("play", "samples/acumulate")
    assert proc.returncode == 2 and "Did you mean: samples/accumulate" in proc.stderr


@pytest.mark.parametrize("command", [["check", "--help"], ["play", "--help"], ["--version"]])
def test_help_works(command: list[str]) -> None:
    assert tutor(*command).returncode == 0


def test_version_names_the_distribution() -> None:
    proc = tutor("--version")
    assert proc.stdout.strip().startswith("tutor ")
    assert "pytorch-tutor" in proc.stdout  # what to `pip install` / `pip show`


def test_play_never_writes_escape_sequences_from_lesson_output(
        tmp_path: Path, play_here: Callable[..., Any]) -> None:
    lesson = tmp_path / "escape.yaml"
    lesson.write_text(
        "id: t/escape\ntitle: Escapes\ntopic: t\nsteps:\n"
        "  - code: print('a\\x1b[2Jb\\x1b]0;owned\\x07c')\n"
        "    predict:\n      - ask: printed?\n        kind: stdout\n        answer: abc\n")
    proc = play_here(str(lesson), stdin="reveal\n")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    assert "The live value: abc" in proc.stdout


@pytest.mark.parametrize(("lang", "nothing", "mark"),
                         [("en", "nothing", "correct"), ("ko", "출력 없음", "✓")])
def test_play_takes_nothing_as_a_whole_printed_output_answer(
        tmp_path: Path, lang: str, nothing: str, mark: str, play_here: Callable[..., Any]) -> None:
    """`nothing` (출력 없음 in Korean) ends a printed-output answer at once: it read more
    lines, so the next question's answer, piped after it, was swallowed into it (a
    reader's finding)."""
    lesson = tmp_path / "silent.yaml"
    lesson.write_text(
        "id: t/silent\ntitle: Silent\ntopic: t\nsteps:\n"
        "  - code: x = 5\n"
        "    predict:\n      - ask: printed?\n        kind: stdout\n        answer: nothing\n"
        "      - ask: x?\n        kind: number\n        expect: x\n        answer: '5'\n")
    proc = play_here("--lang", lang, "--no-progress", str(lesson), stdin=f"{nothing}\n5\n")
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert out.count(mark) == 2, out
    assert f"{nothing} 5" not in out


def test_play_never_gives_the_answer_in_a_try_again_message(play_here: Callable[..., Any]) -> None:
    # x.grad is 0.6 here: the judge's usual examples ("like 0.6, -4.0, ...") would give it away
    proc = play_here("samples/accumulate", stdin="what?\n")
    assert proc.returncode == 0, proc.stderr
    words = " ".join(proc.stdout.split())  # the message is wrapped over lines
    start = words.index(" ? ")
    message = words[start:words.index("Try again", start)]
    assert "like" in message and "0.6" not in message


PRINTS = """\
id: t/prints
title: Printing **twice**
topic: t
intro: |
  Two `print` calls:

  - one
  - two
steps:
  - code: |
      print("pre forward")
      print("post")
    predict:
      - ask: What does the step print?
        kind: stdout
        answer: "pre forward\\npost"
        explain: Each `print` ends its **own** line.
      - ask: How many lines?
        kind: number
        expect: "2"
        answer: "2"
"""


def test_play_reads_printed_output_over_several_lines(tmp_path: Path,
                                                      play_here: Callable[..., Any]) -> None:
    """A printed-output answer is the lines up to an empty one, judged as the app
    judges it (line breaks count as spaces); then the next answer follows."""
    lesson = tmp_path / "prints.yaml"
    lesson.write_text(PRINTS)
    proc = play_here(str(lesson), "--json", stdin="pre forward\npost\n\n2\n")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["prompt"], r["answer"], r["verdict"]) for r in records] == [
        (1, "pre forward\npost", "correct"), (2, "2", "correct")]
    text = proc.stderr
    assert ("type the printed lines, one per line or separated by commas, then an empty line"
            in " ".join(text.split()))
    assert "> pre forward\n... post\n... \n" in text
    assert "you said: pre forward\n            post" in text
    assert "finished: 2 of 2 right" in text
    # Markdown as plain text: no ** or backticks, lists as bullets
    assert "== Printing twice ==" in text and "Two print calls:" in text
    assert "• one\n• two" in text and "Each print ends its own line." in text
    # the same output typed on one line is the same answer, as in the app
    one_line = play_here(str(lesson), stdin="pre forward post\n\n2\n")
    assert "✓ correct: It printed pre forward post." in one_line.stdout


LETTERS = """\
id: t/letters
title: Names of one letter
topic: testing
steps:
  - code: |
      q = torch.ones(2)
      h = q.clone()
      s = q
    predict:
      - ask: Which of h and s are the very object q?
        kind: set
        expect: "[n for n, v in (('h', h), ('s', s)) if v is q]"
        answer: "['s']"
        hint: Read the code.
        explain: s = q names the same tensor.
        wrong: ["['h']"]
      - ask: And which is a copy?
        kind: set
        expect: "[n for n, v in (('h', h), ('s', s)) if v is not q]"
        answer: "['h']"
        hint: Read the code.
        explain: clone copies.
        wrong: ["['s']"]
      - ask: Which name did the first line bind?
        kind: text
        expect: "'q'"
        answer: q
        hint: Read the code.
        explain: The first line binds q.
        wrong: ["h"]
"""


def test_play_takes_a_single_letter_as_an_answer_never_a_command(
        tmp_path: Path, play_here: Callable[..., Any]) -> None:
    """`q` and `h` are names in lessons: typed alone they are answers (reader r23 was
    thrown out of a lesson whose answer was `q`); `quit` and `hint` stay commands."""
    lesson = tmp_path / "letters.yaml"
    lesson.write_text(LETTERS)
    proc = play_here(str(lesson), "--json", stdin="s\nh\nq\n")
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["answer"], r["verdict"]) for r in records] == [
        ("s", "correct"), ("h", "correct"), ("q", "correct")]
    assert "finished: 3 of 3 right" in proc.stderr
    words = play_here(str(lesson), stdin="hint\nquit\n")
    assert "hint: Read the code." in words.stdout and "stopped:" in words.stdout
