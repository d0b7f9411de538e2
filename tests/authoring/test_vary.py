"""Variants for authors: `tutor check` proves every variant, `tutor lint` and `tutor record`
know `vary:` (fixtures in tests/data/vary)."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from tutor.authoring.lint import lint_paths
from tutor.authoring.record import record_file
from tutor.cli import main
from tutor.engine import check_lesson
from tutor.lesson import load_lesson

VARY = Path(__file__).resolve().parents[1] / "data" / "vary"
pytest_plugins = ["pytester"]


def lesson_file(tmp_path: Path, body: str, name: str = "l.yaml") -> Path:
    path = tmp_path / name
    path.write_text("id: t/vary\ntitle: T\ntopic: t\n" + textwrap.dedent(body), encoding="utf-8")
    return path


# ------------------------------------------------------------------ check


@pytest.mark.kernel
def test_check_runs_every_variant(kernel) -> None:  # noqa: ANN001
    result = check_lesson(kernel, load_lesson(VARY / "good.yaml"))
    assert result.status == "passed" and result.variants == 3
    assert [(p.variant, p.answer, p.expected) for p in result.prompts] == [
        ((("x", "2.0"),), "1.5", "1.5000"), ((("x", "3.0"),), "1.0", "1.0"),
        ((("x", "5.0"),), "0.6", "0.6000")]


@pytest.mark.kernel
def test_check_fails_when_one_variants_answer_is_off(kernel) -> None:  # noqa: ANN001
    result = check_lesson(kernel, load_lesson(VARY / "bad-answer.yaml"))
    assert result.status == "failed"
    (bad,) = [p for p in result.prompts if not p.passed]
    assert bad.variant == (("x", "5.0"), ("k", "2"))
    assert bad.message.startswith("with x = 5.0, k = 2: the reference answer is judged "
                                  "incorrect")
    assert bad.record()["variant"] == {"x": "5.0", "k": "2"}


@pytest.mark.kernel
def test_check_fails_when_a_wrong_answer_is_right_in_one_variant(kernel) -> None:  # noqa: ANN001
    result = check_lesson(kernel, load_lesson(VARY / "bad-wrong.yaml"))
    (bad,) = [p for p in result.prompts if not p.passed]
    assert bad.message == ("with x = 3.0: the wrong answer '1.0' listed under `wrong:` is "
                           "judged correct: the lesson can be passed by it")


@pytest.mark.kernel
@pytest.mark.usefixtures("commands_share_kernel")
def test_check_command_names_the_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(VARY), "-j", "1"]) == 1
    out = capsys.readouterr().out
    assert "vary/log-cube ........................... ok (3 prompts in 3 variants" in out
    assert "vary/bad-answer ......................... FAILED (2/3 prompts in 3 variants" in out
    assert "  with x = 5.0, k = 2: the reference answer is judged incorrect" in out


@pytest.mark.kernel
def test_a_step_that_raises_in_one_variant_is_reported_with_it(kernel,  # noqa: ANN001
                                                                tmp_path: Path) -> None:
    path = lesson_file(tmp_path, """\
        vary: {n: [2, 0]}
        steps:
          - code: a = 6 // {{n}}
            predict:
              - ask: a?
                expect: a
                kind: number
                answer: "3"
          - code: b = 1
        """)
    result = check_lesson(kernel, load_lesson(path))
    assert result.status == "failed"
    (bad,) = [p for p in result.prompts if not p.passed]
    assert bad.variant == (("n", "0"),) and bad.verdict == "error"
    assert bad.message.startswith("with n = 0: step ") and "ZeroDivisionError" in bad.message
    path = lesson_file(tmp_path, """\
        vary: {n: [2, 0]}
        steps:
          - code: a = 6 // {{n}}
        """, "broken.yaml")
    result = check_lesson(kernel, load_lesson(path))
    assert result.status == "error" and result.line == 6
    assert result.reason.startswith("with n = 0: step ") and "ZeroDivisionError" in result.reason


# ------------------------------------------------------------------ lint


def test_lint_a_good_lesson_with_variants() -> None:
    report = lint_paths([VARY / "good.yaml"], with_known=False)
    assert report.problems == []


def test_lint_unused_name_and_one_variant(tmp_path: Path) -> None:
    path = lesson_file(tmp_path, """\
        vary: {x: [2.0], unused: [1, 2]}
        steps:
          - code: a = {{x}}
            predict:
              - ask: What is a?
                expect: a
                kind: number
                answer: "{{x}}"
                hint: h
                explain: e
        """)
    report = lint_paths([path], with_known=False)
    got = [(p.severity, p.path, p.message) for p in report.problems]
    assert ("error", "vary.unused", "'unused' is declared under `vary:` but no `{{...}}` uses "
            "it: write {{unused}} in the code or a prompt, or remove it") in got
    assert len(got) == 1  # two variants (x has one value, unused two): no one-variant warning
    path = lesson_file(tmp_path, """\
        vary: {x: [2.0]}
        steps:
          - code: a = {{x}}
        """)
    (problem,) = lint_paths([path], with_known=False).problems
    assert problem.severity == "warning" and problem.message.startswith("only one variant")


def test_lint_an_answer_unreadable_in_a_later_variant(tmp_path: Path) -> None:
    path = lesson_file(tmp_path, """\
        vary: {v: [2, float64]}
        steps:
          - code: a = "{{v}}"
            predict:
              - ask: What is a?
                expect: a
                kind: number
                answer: "{{v}}"
                wrong: ["{{v}}0"]
                hint: h
                explain: e
        """)
    report = lint_paths([path], with_known=False)
    got = sorted((p.path, p.message.split(":")[0]) for p in report.problems)
    assert got == [("steps[0].predict[0].answer", "with v = float64"),
                   ("steps[0].predict[0].wrong[0]", "with v = float64")]
    assert "the judge cannot read 'float64' as a number answer" in report.problems[0].message


def test_lint_warns_of_placeholders_without_vary(tmp_path: Path) -> None:
    path = lesson_file(tmp_path, """\
        steps:
          - code: a = 1
            predict:
              - ask: What is {{a}}?
                expect: a
                kind: number
                answer: "1"
                hint: h
                explain: e
        """)
    (problem,) = lint_paths([path], with_known=False).problems
    assert (problem.severity, problem.path) == ("warning", "steps[0].predict[0].ask")
    assert problem.message.startswith("{{a}} is shown as written: this lesson declares no")


# ------------------------------------------------------------------ record


@pytest.mark.kernel
def test_record_writes_what_is_the_same_in_every_variant(kernel, tmp_path: Path) -> None:  # noqa: ANN001
    path = lesson_file(tmp_path, """\
        vary: {x: [2.0, 3.0]}
        steps:
          - code: |
              x = torch.tensor({{x}}, requires_grad=True)
              y = x * 2
            predict:
              - ask: Is x a leaf?
                expect: x.is_leaf
                kind: bool
              - ask: What is y?
                expect: y
                kind: number
              - ask: What is y, again?
                expect: y
                kind: number
                answer: "4.0"
              - ask: And with the rule?
                expect: y
                kind: number
                answer: "{{2 * x}}"
        """)
    before = path.read_text(encoding="utf-8")
    result = record_file(kernel, path)
    assert [(c.step, c.prompt, c.old, c.new) for c in result.changes] == [(0, 0, None, "True")]
    assert [(p.path, p.message) for p in result.problems] == [
        ("steps[0].predict[1]", "cannot record: the live value differs between variants "
         "(x = 2.0: 4.0; x = 3.0: 6.0): write `answer:` as a rule that gives each, e.g. "
         "\"{{3 / x}}\" (see docs/lesson-format.md, Variants)"),
        ("steps[0].predict[2]", "the answer '4.0' is judged right with x = 2.0, but not with "
         "x = 3.0: 6.0 (the live value there): fix the rule")]
    after = path.read_text(encoding="utf-8")
    assert after == before.replace("        expect: x.is_leaf\n",
                                   "        expect: x.is_leaf\n        answer: True\n")
    assert load_lesson(path).steps[0].prompts[3].answer == "4.0"  # the rule is kept


@pytest.mark.kernel
def test_record_leaves_a_good_lesson_with_variants_alone(kernel, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "good.yaml"
    shutil.copy2(VARY / "good.yaml", path)
    before = path.read_bytes()
    for force in (False, True):
        result = record_file(kernel, path, force=force)
        assert result.changes == [] and result.problems == [] and result.prompts == 1
    assert path.read_bytes() == before


@pytest.mark.usefixtures("commands_share_kernel")
def test_check_json_records_carry_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(VARY / "good.yaml"), "--json", "-j", "1"]) == 0
    records = json.loads(capsys.readouterr().out)["records"]
    assert [r["variant"] for r in records] == [{"x": "2.0"}, {"x": "3.0"}, {"x": "5.0"}]


@pytest.mark.kernel
def test_the_pytest_plugin_fails_a_prompt_when_one_variant_fails(pytester: pytest.Pytester,
                                                                 kernel) -> None:  # noqa: ANN001
    from tutor.pytest_plugin import use_kernel

    class Borrow:
        def pytest_configure(self, config: pytest.Config) -> None:
            use_kernel(config, kernel)

    for name in ("good.yaml", "bad-answer.yaml"):
        shutil.copy2(VARY / name, pytester.path / name)
    result = pytester.runpytest("-p", "no:textual-snapshot", "-p", "no:randomly", "-v",
                                plugins=[Borrow()])
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "good.yaml::step1-prompt1 PASSED" in out
    assert "bad-answer.yaml::step1-prompt1 FAILED" in out
    assert "with x = 5.0, k = 2: the reference answer is judged incorrect" in out
