"""`tutor lint`: one test per rule, on fixture lessons in tests/data/authoring/lint."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.cli import main
from tutor.judge import JudgeSpec
from tutor.judge.api import rounds_onto

from .conftest import DATA, LESSONS

LINT = DATA / "lint"
FORMAT = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<warn>warning: )?"
                    r"(?P<path>[\w\[\].\-/ ]+): (?P<msg>.+)$")

pytestmark = pytest.mark.usefixtures("no_env")


def lint(*names: str, strict: bool = False):  # noqa: ANN201
    report = lint_paths([LINT / n for n in names])
    return report.strict() if strict else report


def found(report, path: str, text: str, severity: str = "error"):  # noqa: ANN001, ANN201
    hits = [p for p in report.problems if p.path == path and text in p.message
            and p.severity == severity]
    assert hits, f"no {severity} at {path} containing {text!r} in:\n" + "\n".join(
        map(str, report.problems))
    return hits[0]


def test_a_good_lesson_has_nothing_to_report():
    assert lint("good.yaml").problems == []


def test_the_bundled_lessons_lint_clean():
    report = lint_paths([LESSONS])
    assert report.errors == [], "\n".join(map(str, report.errors))
    assert report.files > 0


def test_unknown_kind_and_key_with_did_you_mean():
    report = lint("schema.yaml")
    p = found(report, "steps[0].predict[0].kind", "did you mean 'number'?")
    assert (p.line, p.col) == (8, 15)
    p = found(report, "steps[0].predict[1].answr", "did you mean 'answer'?")
    assert str(p).startswith(f"{p.file}:16:9: steps[0].predict[1].answr: unknown key")


def test_yaml_syntax_error_has_a_position():
    # an unclosed `[` is reported where it opens, not at the end of the file
    p = found(lint("syntax.yaml"), "", "YAML syntax error")
    assert (p.line, p.col) == (6, 14) and "this '[' is never closed" in p.message


def test_expect_must_be_a_python_expression():
    p = found(lint("expect.yaml"), "steps[0].predict[0].expect", "not a valid Python expression")
    assert (p.line, p.col) == (9, 17)


def test_answer_the_judge_cannot_read():
    report = lint("answers.yaml")
    p = found(report, "steps[0].predict[0].answer", "cannot read 'banana' as a shape answer")
    assert (p.line, p.col) == (11, 17)
    assert "tutor record" in p.message  # the suggestion


def test_choice_answer_not_among_the_choices():
    p = found(lint("answers.yaml"), "steps[0].predict[3].answer", "'gamma' as a choice answer")
    assert "alpha" in p.message and "beta" in p.message


def test_wrong_answer_the_judge_cannot_read():
    report = lint("answers.yaml")
    p = found(report, "steps[0].predict[1].wrong[1]", "'not-a-dtype'")
    assert (p.line, p.col) == (18, 26)
    assert not [x for x in report.problems if x.path == "steps[0].predict[1].wrong[0]"]


def test_feedback_key_the_judge_cannot_read():
    report = lint("answers.yaml")
    p = found(report, "steps[0].predict[2].feedback.perhaps", "feedback key 'perhaps'")
    assert p.line == 26
    assert not [x for x in report.problems if x.path == "steps[0].predict[2].feedback.no"]


def test_missing_answer_is_a_warning_that_says_how_to_record_it():
    report = lint("missing.yaml")
    p = found(report, "steps[0].predict[0]", "no reference answer", "warning")
    assert f"tutor record {p.file}" in p.message
    p = found(report, "steps[0].predict[1].answer", "no reference answer", "warning")
    assert (p.line, p.col) == (13, 16)  # an empty `answer:` points at the key's value
    assert report.errors == []


def test_missing_hint_and_explain_are_warnings():
    report = lint("missing.yaml")
    found(report, "steps[0].predict[0]", "no `hint:`", "warning")
    found(report, "steps[0].predict[0]", "no `explain:`", "warning")
    # the second prompt has both
    assert not [p for p in report.problems if p.path == "steps[0].predict[1]"]


def test_step_explain_counts_as_the_prompts_explanation():
    report = lint("answers.yaml")
    assert not [p for p in report.problems if "explain" in p.message]


def test_unreachable_prompt_after_an_unconditional_raise():
    report = lint("unreachable.yaml")
    p = found(report, "steps[1].predict[0]", "unreachable")
    assert p.line == 19 and "line 3" in p.message and "kind: exception" in p.message
    # the guarded raise on line 2 does not count; later steps still run
    assert not [x for x in report.problems if x.path.startswith(("steps[0]", "steps[2]"))]


def test_a_step_that_asks_about_its_exception_is_reachable_and_sys_exit_is_not():
    report = lint("asked.yaml")
    assert not [p for p in report.problems if p.path.startswith("steps[0]")]
    found(report, "steps[1].predict[0]", "unreachable")


def test_dead_code_after_a_raise_points_at_the_dead_line():
    p = found(lint("unreachable.yaml"), "steps[3].code", "never runs", "warning")
    assert (p.line, p.col) == (34, 7)


def test_duplicate_ids_within_the_linted_files_and_pack_order():
    report = lint("pack")
    p = found(report, "id", "duplicate lesson id 'authoring/in-pack'")
    assert p.file.endswith("two.yaml") and "one.yaml" in p.message
    p = found(report, "lessons[1]", "'authoring/in-pak' names no lesson", "warning")
    assert "did you mean 'authoring/in-pack'?" in p.message and p.line == 2


def test_duplicate_id_against_the_bundled_lessons():
    p = found(lint("bundled_dup.yaml"), "id", "duplicate lesson id 'samples/accumulate'")
    assert "lessons/samples/accumulate.yaml" in p.message


def test_duplicate_id_against_tutor_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    other = tmp_path / "other"
    other.mkdir()
    (other / "g.yaml").write_text((LINT / "good.yaml").read_text())
    monkeypatch.setenv("TUTOR_PATH", str(other))
    p = found(lint("good.yaml"), "id", "duplicate lesson id 'authoring/good'")
    assert "g.yaml" in p.message


def test_every_message_has_the_file_line_col_path_format(capsys: pytest.CaptureFixture[str]):
    assert main(["lint", str(LINT)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 10
    for line in lines:
        assert FORMAT.match(line), line


def test_exit_codes_errors_warnings_strict(capsys: pytest.CaptureFixture[str]):
    assert main(["lint", str(LINT / "good.yaml")]) == 0
    assert main(["lint", str(LINT / "missing.yaml")]) == 0  # warnings only
    assert main(["lint", "--strict", str(LINT / "missing.yaml")]) == 1
    assert main(["lint", str(LINT / "expect.yaml")]) == 1
    out = capsys.readouterr()
    assert "warning: steps[0].predict[0]" in out.out
    assert "0 errors, 4 warnings" in out.err


def test_missing_path(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    assert main(["lint", str(tmp_path / "nope")]) == 1
    assert "no such file or directory" in capsys.readouterr().out


def test_lint_never_imports_torch():
    code = ("import sys; from tutor.cli import main; rc = main(['lint']); "
            "bad = [m for m in ('torch', 'textual', 'numpy') if m in sys.modules]; "
            "print(bad); sys.exit(rc or (1 if bad else 0))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("[]")


def test_a_pack_order_entry_without_a_close_match_says_how_to_fix(tmp_path: Path):
    (tmp_path / "l.yaml").write_text("id: a/b\ntitle: T\ntopic: t\nsteps:\n  - code: x = 1\n",
                                     encoding="utf-8")
    (tmp_path / "pack.yaml").write_text("title: P\nlessons: [a/b, zzz/qqq]\n", encoding="utf-8")
    report = lint_paths([tmp_path])
    p = found(report, "lessons[1]", "'zzz/qqq' names no lesson in this pack", "warning")
    assert p.message.endswith(": fix the id, or remove it from `lessons:`")


def _momentum(tmp_path: Path, ask: str, vary: bool = False) -> Path:
    """optim/momentum's second question, with the plain-sum mistake listed (issue 24)."""
    p, c = ("{{p}}", "{{c}}") if vary else ("3", "2")
    answer, mistake = ("{{p - 0.29 * c}}", "{{p - 0.3 * c}}") if vary else ("2.42", "2.4")
    path = tmp_path / "momentum.yaml"
    path.write_text(
        "id: t/momentum\ntitle: T\ntopic: t\n"
        + ("vary:\n  - {p: 5, c: 4}\n  - {p: 3, c: 2}\n" if vary else "")
        + f"steps:\n  - code: p = {p} - 0.1 * {c} - 0.1 * 1.9 * {c}\n"
        f"    predict:\n      - ask: {ask}\n        kind: number\n        expect: p\n"
        f"        answer: \"{answer}\"\n        hint: h\n        explain: e\n"
        f"        wrong: [\"{mistake}\", \"{p}\"]\n"
        f"        feedback:\n          \"{mistake}\": That is the buffer as a plain sum.\n",
        encoding="utf-8")
    return path


def test_a_foreseen_mistake_that_rounds_onto_the_answer_is_reported(tmp_path: Path):
    report = lint_paths([_momentum(tmp_path, "What is p?")], with_known=False)
    p = found(report, "steps[0].predict[0].ask", "is taken for the foreseen mistake '2.4'",
              "warning")
    assert p.message.startswith("the answer '2.42' written as '2.4', at the precision this "
                                "question asks")
    assert '(2 decimals, e.g. "to two decimal places")' in p.message
    assert report.errors == [] and report.strict().errors != []  # --strict fails


@pytest.mark.parametrize("ask", ["What is p, to two decimal places?",
                                 "What is p (to 2 decimals)?",
                                 "What is p, to 3 significant digits?"])
def test_a_question_that_asks_the_precision_that_tells_them_apart_is_fine(tmp_path: Path,
                                                                        ask: str):
    report = lint_paths([_momentum(tmp_path, ask)], with_known=False)
    assert report.problems == [], "\n".join(map(str, report.problems))
    spec = JudgeSpec("number", wrong=("2.4",))
    assert rounds_onto(spec, "2.42", ask) == []
    assert rounds_onto(spec, "2.42", "What is p?") == [("2.4", "2.4", "2 decimals")]


def test_whole_numbers_are_written_whole(tmp_path: Path):
    # 256 beside the mistake 256.5 (amp/in-place): nobody writes 256 as 2.6e2, and
    # `256` is not taken for 256.5, so there is nothing to report
    spec = JudgeSpec("number", wrong=("256.5", "258"))
    assert rounds_onto(spec, "256.0", "What is m.item()?") == []
    assert rounds_onto(JudgeSpec("number", wrong=("230",)), "236", "How many?") == []


def test_a_precision_that_still_cannot_tell_them_apart_is_reported(tmp_path: Path):
    report = lint_paths([_momentum(tmp_path, "What is p, to one decimal place?")],
                        with_known=False)
    found(report, "steps[0].predict[0].ask", "the answer '2.42' written as '2.4'", "warning")


def test_a_foreseen_mistake_is_looked_for_in_every_variant(tmp_path: Path):
    path = tmp_path / "v.yaml"
    path.write_text(
        "id: t/v\ntitle: T\ntopic: t\nvary: {d: [0.5, 0.03]}\nsteps:\n"
        "  - code: p = 2.42 + 0 * {{d}}\n    predict:\n      - ask: What is p?\n"
        "        kind: number\n        expect: p\n        answer: \"2.42\"\n        hint: h\n"
        "        explain: e\n        wrong: [\"{{2.42 - d}}\"]\n", encoding="utf-8")
    report = lint_paths([path], with_known=False)
    hits = [p for p in report.problems if p.path == "steps[0].predict[0].ask"]
    assert len(hits) == 1, "\n".join(map(str, report.problems))
    assert hits[0].message.startswith("with d = 0.03: the answer '2.42' written as '2.4', ")
    assert "the foreseen mistake '2.39'" in hits[0].message


def test_a_lesson_that_does_not_load_gets_no_misleading_pack_warning(tmp_path):
    """pack.yaml lists a lesson whose file has a YAML error: that file's error is the
    news, not a `names no lesson` warning with a did-you-mean at another, real lesson."""
    from tutor.authoring.lint import lint_paths

    pack = tmp_path / "amp_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "title: AMP\nlessons: [amp/autocast-basics, amp/autocast-grads]\n")
    good = ("id: amp/autocast-basics\ntitle: T\ntopic: amp\nsteps:\n  - code: x = 1\n")
    (pack / "basics.yaml").write_text(good)
    (pack / "grads.yaml").write_text(good.replace("autocast-basics", "autocast-grads")
                                     .replace("title: T", "title: T\nexplain: a: b"))
    report = lint_paths([pack])
    messages = [p.message for p in report.problems]
    assert any("grads.yaml" in p.file for p in report.errors), messages
    assert not any("names no lesson" in m for m in messages), messages


def test_a_power_written_in_prose_is_reported_where_it_would_turn_bold(tmp_path: Path):
    """`2**16 = 65536 and 2**17` in a hint showed "216 = 65536 and 217" (a fresh read of the
    floating-point pack): Markdown pairs the stars. Backticks, or a single `**`, are fine."""
    from tutor.markup import plain_inline

    shown = "70000 lies between 2**16 = 65536 and 2**17"
    assert plain_inline(shown) == "70000 lies between 216 = 65536 and 217"  # the defect
    path = tmp_path / "power.yaml"
    path.write_text(
        "id: t/power\ntitle: T\ntopic: t\nsteps:\n  - code: x = 70000\n    predict:\n"
        "      - ask: What is x?\n        kind: number\n        expect: x\n"
        "        answer: '70000'\n"
        f"        hint: '{shown}'\n"
        "        explain: 'In backticks `2**16` and `2**17` are code; 2**20 alone stays.'\n",
        encoding="utf-8")
    report = lint_paths([path], with_known=False)
    hits = [p for p in report.problems if "writes a power" in p.message]
    assert [p.path for p in hits] == ["steps[0].predict[0].hint"]
    assert hits[0].severity == "warning" and "backticks" in hits[0].message
    assert report.strict().errors != []
