"""`tutor record`: answers from the live value, everything else byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tutor.authoring.record import Change, apply_changes, record_file
from tutor.engine import check_lesson
from tutor.lesson import load_lesson

from .conftest import DATA

LAYOUT = DATA / "record" / "layout.yaml"
RECORDED = DATA / "record" / "layout.recorded.yaml"

pytestmark = pytest.mark.kernel


@pytest.fixture
def record_here(commands_share_kernel, capsys):  # noqa: ANN001, ANN201
    """`tutor record ARGS` in this process, on the session's kernel (the command as a
    process, with a kernel of its own: test_record_check_cli_exits_1_on_drift)."""
    from tutor.cli import main

    def record(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main(["record", *args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["tutor", "record", *args], code, out, err)

    return record


def test_record_fills_and_fixes_answers_byte_for_byte(kernel, copy_data):
    path = copy_data("record/layout.yaml")
    result = record_file(kernel, path, fix=True)
    assert result.problems == [] and result.written
    assert [(c.step, c.prompt, c.old) for c in result.changes] == [
        (0, 0, None), (0, 1, "7"), (0, 2, None), (0, 3, None), (1, 0, "wrong\ntext\n"),
        (1, 1, None), (1, 2, "xyz")]
    # the golden file differs from the input only in the answers (reviewed by hand)
    assert path.read_bytes() == RECORDED.read_bytes()
    # the recorded lesson checks clean, and a second record changes nothing
    assert check_lesson(kernel, load_lesson(path)).status == "passed"
    again = record_file(kernel, path)
    assert again.changes == [] and not again.written
    assert path.read_bytes() == RECORDED.read_bytes()


def test_a_wrong_answer_is_a_problem_not_an_overwrite_unless_fix(kernel, copy_data, record_here):
    """The author wrote an answer and it fails: maybe the code is what is wrong, so
    record fills only the missing answers and reports the failing ones."""
    path = copy_data("record/layout.yaml")
    result = record_file(kernel, path)
    assert [(c.step, c.prompt, c.old) for c in result.changes] == [
        (0, 0, None), (0, 2, None), (0, 3, None), (1, 1, None)]
    assert result.written
    refused = {(p.path, p.line) for p in result.problems}
    assert refused == {("steps[0].predict[1].answer", 23), ("steps[1].predict[0].answer", 38),
                       ("steps[1].predict[2].answer", 50)}, result.problems
    first = min(result.problems, key=lambda p: p.line)
    assert first.message.startswith("the answer '7' is judged wrong: the live value is '9.0'")
    assert f"`tutor record --fix {result.file}`" in first.message
    text = path.read_text(encoding="utf-8")
    assert 'answer: "7"' in text and "answer: 'xyz'" in text  # left as the author wrote them
    # with --fix they are replaced, and reported as such
    proc = record_here("--fix", str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "steps[0].predict[1].answer: 9.0  (was 7, judged wrong)" in proc.stdout
    assert path.read_bytes() == RECORDED.read_bytes()


def test_record_cli_exits_1_on_a_wrong_answer(copy_data, record_here):
    path = copy_data("record/layout.yaml")
    proc = record_here(str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "3 problems" in proc.stderr and "is judged wrong" in proc.stdout


def test_golden_file_differs_only_on_answer_lines():
    before = LAYOUT.read_text(encoding="utf-8").splitlines()
    after = RECORDED.read_text(encoding="utf-8").splitlines()
    assert [line for line in after if line not in before] == [
        "        answer: tensor([3., 3.])",
        '        answer: "9.0"    # drifted; the double quotes are kept',
        '      - {ask: shape?, kind: shape, expect: x.shape, answer: "(2,)"}',
        "        answer: torch.float32 # empty: filled, this comment stays",
        "          a",
        "        answer: Tensor",
        "        answer: 'abc'  # single quotes are kept"]
    assert [line for line in before if line not in after] == [
        '        answer: "7"    # drifted; the double quotes are kept',
        "      - {ask: shape?, kind: shape, expect: x.shape}",
        "        answer:        # empty: filled, this comment stays",
        "          wrong", "          text",
        "        answer: 'xyz'  # single quotes are kept"]


def test_check_reports_drift_without_writing(kernel, copy_data):
    path = copy_data("record/layout.yaml")
    result = record_file(kernel, path, check=True)
    assert len(result.changes) == 7 and not result.written
    assert path.read_bytes() == LAYOUT.read_bytes()


def test_an_exception_whose_message_no_longer_matches_is_not_recorded(kernel, tmp_path: Path):
    path = tmp_path / "m.yaml"
    text = HEAD.replace("x = 1", "x = int('a')") + (
        "      - ask: a\n        kind: exception\n        match: division by zero\n")
    path.write_text(text, encoding="utf-8")
    result = record_file(kernel, path)
    assert not result.written and path.read_text(encoding="utf-8") == text
    [problem] = result.problems
    assert problem.path == "steps[0].predict[0]" and problem.line == 7
    assert "raised ValueError with another message" in problem.message
    assert "does not match `match: division by zero`" in problem.message


def test_force_rewrites_correct_answers_in_canonical_notation(kernel, copy_data):
    path = copy_data("record/layout.recorded.yaml")
    result = record_file(kernel, path, force=True)
    assert [(c.old, c.new) for c in result.changes] == [("1.50", "1.5")]


def test_a_prompt_that_cannot_run_is_reported_and_left_alone(kernel, tmp_path: Path):
    path = tmp_path / "broken.yaml"
    text = ("id: t/broken\ntitle: B\ntopic: t\nsteps:\n  - code: x = 1\n    predict:\n"
            "      - ask: y?\n        kind: number\n        expect: y\n")
    path.write_text(text, encoding="utf-8")
    result = record_file(kernel, path)
    assert not result.written and path.read_text(encoding="utf-8") == text
    assert "NameError" in result.problems[0].message
    assert result.problems[0].line == 7


def change(step: int, prompt: int, new: str, old: str | None = None) -> Change:
    return Change(step, prompt, old, new, 1, 1)


HEAD = "id: t/x\ntitle: T\ntopic: t\nsteps:\n  - code: x = 1\n    predict:\n"


@pytest.mark.parametrize("prompt, new, expected", [
    # inserted after expect, keeping the comment on expect's line
    ("      - ask: a\n        kind: number\n        expect: x  # c\n        hint: h\n", "1",
     "      - ask: a\n        kind: number\n        expect: x  # c\n        answer: 1\n"
     "        hint: h\n"),
    # no expect: after kind; a value that needs quotes
    ("      - ask: a\n        kind: exception\n", "no error",
     "      - ask: a\n        kind: exception\n        answer: no error\n"),
    ("      - ask: a\n        kind: text\n        expect: x\n", "a: b",
     "      - ask: a\n        kind: text\n        expect: x\n        answer: \"a: b\"\n"),
    # values YAML would read as something else are quoted
    ("      - ask: a\n        kind: text\n        expect: x\n        answer: q\n", "null",
     "      - ask: a\n        kind: text\n        expect: x\n        answer: \"null\"\n"),
    # the file does not end with a newline
    ("      - ask: a\n        kind: number\n        expect: x", "1",
     "      - ask: a\n        kind: number\n        expect: x\n        answer: 1\n"),
    # flow mapping
    ("      - {ask: a, kind: shape, expect: x}\n", "(2, 3)",
     "      - {ask: a, kind: shape, expect: x, answer: \"(2, 3)\"}\n"),
    # multi-line text on a fresh line becomes a block
    ("      - ask: a\n        kind: stdout\n", "one\ntwo\n",
     "      - ask: a\n        kind: stdout\n        answer: |\n          one\n          two\n"),
    # ...and, replacing a one-line scalar, a double-quoted string
    ("      - ask: a\n        kind: stdout\n        answer: x  # c\n", "one\ntwo",
     "      - ask: a\n        kind: stdout\n        answer: \"one\\ntwo\"  # c\n"),
])
def test_apply_changes_edits_only_the_answer(prompt: str, new: str, expected: str):
    assert apply_changes(HEAD + prompt, [change(0, 0, new)]) == HEAD + expected


def test_record_keeps_crlf_and_bom(kernel, tmp_path: Path):
    path = tmp_path / "crlf.yaml"
    text = HEAD + "      - ask: a  # é\n        kind: number\n        expect: x + 1\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    result = record_file(kernel, path)
    assert result.written, result.problems
    expected = text.replace("expect: x + 1\n", "expect: x + 1\n        answer: 2\n")
    assert path.read_bytes() == b"\xef\xbb\xbf" + expected.replace("\n", "\r\n").encode()


def test_record_check_cli_exits_1_on_drift(copy_data):
    path = copy_data("record/layout.yaml")
    proc = subprocess.run([sys.executable, "-m", "tutor", "record", "--check", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{path}:23:17: steps[0].predict[1].answer: drift: 7 is not judged correct; " \
           "the live value is 9.0" in proc.stdout
    assert "7 to record" in proc.stderr
    assert path.read_bytes() == LAYOUT.read_bytes()


def test_a_value_with_no_typeable_answer_is_a_problem_not_a_crash(kernel, tmp_path: Path):
    # a 20,000-element tensor is truncated in the observation: no answer can be written;
    # the other prompts of the file are still recorded
    path = tmp_path / "big.yaml"
    path.write_text(HEAD.replace("x = 1", "x = torch.arange(20_000.)") +
                    "      - ask: a\n        kind: tensor\n        expect: x\n"
                    "      - ask: b\n        kind: number\n        expect: x[1]\n",
                    encoding="utf-8")
    result = record_file(kernel, path)
    [problem] = result.problems
    assert (problem.line, problem.path) == (7, "steps[0].predict[0]")
    assert "no tensor answer a learner could type" in problem.message
    assert "write `answer:` by hand" in problem.message and "\n" not in problem.message
    assert result.written and "answer: 1.0" in path.read_text(encoding="utf-8")


def test_a_choice_outside_the_choices_is_not_written(kernel, tmp_path: Path):
    path = tmp_path / "choice.yaml"
    text = HEAD + ("      - ask: a\n        kind: choice\n        choices: [yes, no]\n"
                   "        expect: \"'maybe'\"\n")
    path.write_text(text, encoding="utf-8")
    result = record_file(kernel, path)
    assert not result.written and path.read_text(encoding="utf-8") == text
    [problem] = result.problems
    assert "is not one of the choices (yes, no): fix `expect`" in problem.message


def test_a_tight_tolerance_gets_every_digit(kernel, tmp_path: Path):
    path = tmp_path / "tol.yaml"
    path.write_text(HEAD.replace("x = 1", "x = torch.tensor(1.) / 3") +
                    "      - ask: a\n        kind: number\n        expect: x\n"
                    "        tolerance: {rtol: 0.0000001}\n", encoding="utf-8")
    result = record_file(kernel, path)
    assert result.written and result.problems == []
    assert "answer: 0.3333333432674408" in path.read_text(encoding="utf-8")
    assert check_lesson(kernel, load_lesson(path)).status == "passed"


@pytest.mark.usefixtures("commands_share_kernel")
def test_record_leaves_out_questions_and_variants_whose_requires_are_unmet(
        tmp_path, capsys) -> None:
    """A question (or a row of `vary:`) that needs another torch is not recorded here:
    its answer is for that torch, and this kernel's live value would be the wrong one."""
    import shutil
    from pathlib import Path

    from tutor.cli import main

    faults = Path(__file__).resolve().parents[1] / "data" / "faults"
    for name in ("per_prompt_requires.yaml", "variant_requires.yaml"):
        shutil.copy(faults / name, tmp_path / name)
        assert main(["record", "--check", str(tmp_path / name)]) == 0, capsys.readouterr()
        assert "0 to record, 0 problems" in capsys.readouterr().err
