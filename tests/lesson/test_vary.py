"""Variants (`vary:`): declaring, filling in, drawing, loading and the loader's checks."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest

from tutor.lesson import LessonError, load_lesson
from tutor.lesson.vary import (
    MAX_VARIANTS,
    VaryError,
    describe,
    draw,
    expand,
    for_run,
    names_in,
    render,
    variants_of,
    with_variant,
)

GOOD = Path(__file__).resolve().parent.parent / "data" / "vary" / "good.yaml"


def write(tmp_path: Path, body: str, title: str = "T") -> Path:
    path = tmp_path / "l.yaml"
    path.write_text(f"id: t/vary\ntitle: {title}\ntopic: t\n" + textwrap.dedent(body),
                    encoding="utf-8")
    return path


def problems(tmp_path: Path, body: str, title: str = "T") -> list[str]:
    with pytest.raises(LessonError) as info:
        load_lesson(write(tmp_path, body, title))
    return [str(p).removeprefix(f"{tmp_path}/") for p in info.value.problems]


# ------------------------------------------------------------------ declaring


def test_lists_combine_every_way_in_a_fixed_order() -> None:
    got = expand({"x": ["2.0", "3.0"], "n": ["1", "2"]})
    assert got == ((("x", "2.0"), ("n", "1")), (("x", "2.0"), ("n", "2")),
                   (("x", "3.0"), ("n", "1")), (("x", "3.0"), ("n", "2")))
    assert describe(got[1]) == "x = 2.0, n = 2"


def test_rows_are_the_variants_as_written() -> None:
    rows = [{"x": "2.0", "d": "torch.float16"}, {"d": "float64", "x": "-1e-3"}]
    assert expand(rows) == ((("x", "2.0"), ("d", "torch.float16")),
                            (("x", "-1e-3"), ("d", "float64")))


@pytest.mark.parametrize(("spec", "message"), [
    ({"x": ["1", "a b"]}, "'a b' is not a value a lesson can vary"),
    ({"x": ["1", "'q'"]}, "is not a value a lesson can vary"),
    ({"2x": ["1"]}, "'2x' is not a usable name"),
    ({"for": ["1"]}, "Python keyword"),
    ({"sqrt": ["1"]}, "the name of a function"),
    ({"x": []}, "give at least one value"),
    ({"x": ["1", "1"]}, "x = 1 is declared twice"),
    ({"a": ["1", "2", "3", "4", "5"], "b": ["1", "2", "3", "4"]}, "20 variants"),
    ([{"x": "1"}, {"y": "2"}], "row 2 names y; every row must name the same values"),
])
def test_declarations_that_cannot_be_used(spec: object, message: str) -> None:
    with pytest.raises(VaryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        expand(spec)  # type: ignore[arg-type]


def test_at_most_max_variants() -> None:
    assert len(expand({"x": [str(i) for i in range(MAX_VARIANTS)]})) == MAX_VARIANTS


# ------------------------------------------------------------------ filling in


@pytest.mark.parametrize(("text", "expected"), [
    ("{{x}}", "2.0"),  # a value alone: as the author wrote it
    ("{{ n }}", "3"),
    ("{{3 / x}}", "1.5"),
    ("{{6 / n}}", "2.0"),  # true division: a float, with its point
    ("{{n * 2}}", "6"),
    ("{{x ** 2 + 1}}", "5.0"),
    ("{{1 / n}}", "0.333333"),  # 6 significant digits
    ("{{sqrt(x):.3f}}", "1.414"),
    ("{{ln(x)}}", "0.693147"),
    ("{{-x}}", "-2.0"),
    ("{{max(n, 4) // 2}}", "2"),
    ("torch.tensor({{x}}) * {{n}}", "torch.tensor(2.0) * 3"),
    ("{{d}}", "torch.float64"),
    ("no placeholder {x} or { {x} }", "no placeholder {x} or { {x} }"),
])
def test_render(text: str, expected: str) -> None:
    assert render(text, (("x", "2.0"), ("n", "3"), ("d", "torch.float64"))) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("{{y}}", "'y' is not declared under `vary:` (declared: x, d)"),
    ("{{x / 0}}", "with x = 2.0, d = float32: division by zero"),
    ("{{d * 2}}", "d is float32, a name, not a number"),
    ("{{x.real}}", "only numbers"),
    ("{{__import__('os')}}", "only numbers"),
    ("{{2 ** 100}}", "a power above 64"),
    ("{{}}", "not an expression"),
    ("{{x:q}}", "Unknown format code"),
])
def test_render_errors_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(VaryError) as info:
        render(text, (("x", "2.0"), ("d", "float32")))
    assert message in str(info.value) and str(info.value).startswith(text)


def test_names_in() -> None:
    assert names_in("{{x}} and {{sqrt(n) + x}} but not sqrt") == {"x", "n"}
    with pytest.raises(VaryError, match="is empty"):
        names_in("{{ }}")


# ------------------------------------------------------------------ loading


def test_a_lesson_loads_filled_in_with_its_first_variant() -> None:
    lesson = load_lesson(GOOD)
    assert lesson.variant == (("x", "2.0"),) and len(lesson.variants) == 3
    step = lesson.steps[0]
    assert "torch.tensor(2.0, requires_grad=True)" in step.code
    p = step.prompts[0]
    assert (p.ask, p.answer, p.wrong) == ("What is `x.grad`, with x = 2.0?", "1.5", ("0.5", "6.0"))
    assert p.feedback[0][0] == "0.5" and p.explain and "3/x = 1.5 at x = 2.0" in p.explain
    assert lesson.template is not None and "{{x}}" in lesson.template.steps[0].code


def test_every_variant_and_a_chosen_one() -> None:
    lesson = load_lesson(GOOD)
    answers = [v.steps[0].prompts[0].answer for v in variants_of(lesson)]
    assert answers == ["1.5", "1.0", "0.6"]
    five = with_variant(lesson, (("x", "5.0"),))
    assert five.variant == (("x", "5.0"),) and five.template is lesson.template
    assert with_variant(five, (("x", "2.0"),)) == lesson
    with pytest.raises(VaryError, match="has no variant x = 4.0"):
        with_variant(lesson, (("x", "4.0"),))


def test_a_run_draws_its_values_from_its_id() -> None:
    lesson = load_lesson(GOOD)
    assert draw(lesson, "run-1") == draw(lesson, "run-1")  # a resumed run: the same values
    seen = Counter(draw(lesson, f"run-{i}") for i in range(300))
    assert set(seen) == set(lesson.variants) and min(seen.values()) > 50
    for i in range(50):  # a redo never repeats the values being redone
        assert draw(lesson, f"r{i}", avoid=(("x", "3.0"),)) != (("x", "3.0"),)
    assert for_run(lesson, "run-7").variant == draw(lesson, "run-7")


def test_a_lesson_without_vary_is_untouched(tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, """\
        steps:
          - code: 's = f"{{x}}"'
            predict:
              - ask: What is {{x}}?
                expect: s
                kind: text
                answer: "{x}"
        """))
    assert lesson.template is None and lesson.variants == () and lesson.variant == ()
    assert lesson.steps[0].prompts[0].ask == "What is {{x}}?"
    assert draw(lesson, "r") == () and variants_of(lesson) == [lesson]


PLACEHOLDER_ERRORS = """\
    vary: {x: [1.0, 0.0]}
    steps:
      - code: |
          a = {{x}}
          b = {{y}}
        predict:
          - ask: What is a?
            expect: a
            kind: number
            answer: "{{1 / x}}"
    """


def test_loader_errors_point_at_the_placeholder(tmp_path: Path) -> None:
    got = problems(tmp_path, PLACEHOLDER_ERRORS)
    assert got == [
        "l.yaml:6:11: steps[0].code: {{y}}: 'y' is not declared under `vary:` (declared: x)",
        "l.yaml:13:17: steps[0].predict[0].answer: {{1 / x}} with x = 0.0: division by zero",
    ]


def test_loader_checks_the_code_once_filled_in(tmp_path: Path) -> None:
    got = problems(tmp_path, """\
        vary: {x: [1, "-"]}
        steps:
          - code: a = {{x}}
        """)
    assert "vary: '-' is not a value a lesson can vary" in got[0]
    got = problems(tmp_path, """\
        vary: {op: [sum, "mean"], n: [2]}
        steps:
          - code: a = torch.ones({{n}}).{{op}}(
            predict:
              - ask: What is it?
                expect: a.{{op}}
                kind: text
        """, title="With {{n}}")
    assert any("title: `{{...}}` is not filled in in the title" in p for p in got)
    assert any("steps[0].code: with op = sum, n = 2: Python syntax error at line 1" in p
               for p in got)


def test_vary_must_be_a_mapping_of_lists_or_rows(tmp_path: Path) -> None:
    got = problems(tmp_path, """\
        vary: {x: 2.0}
        steps:
          - code: a = {{x}}
        """)
    assert got == ["l.yaml:4:7: vary: `vary:` is a mapping from names to lists of values "
                   "({x: [2.0, 3.0]}: every combination), or a list of rows "
                   "([{x: 2.0, n: 3}, ...])"]


def test_the_json_schema_accepts_both_forms_and_refuses_others() -> None:
    import jsonschema

    from tutor.authoring.schema import lesson_schema

    base = {"id": "a/b", "title": "T", "topic": "t", "steps": [{"code": "x = 1"}]}
    schema = lesson_schema()
    assert "vary" in schema["properties"]
    for vary in ({"x": [2.0, 3.0]}, [{"x": 2.0, "n": 3}, {"x": 1, "n": 2}]):
        jsonschema.validate({**base, "vary": vary}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**base, "vary": {"x": 2.0}}, schema)


def test_vary_s_checks_are_told_in_korean(tmp_path: Path) -> None:
    # issue 25: `vary:`'s messages (tutor/lesson/vary.py, vary_rules.py) were English
    from tutor import i18n

    i18n.set_language("ko")
    try:
        said = problems(tmp_path, PLACEHOLDER_ERRORS, title="With {{x}}")
        bad_value = problems(tmp_path, 'vary: {x: [1, "-"]}\nsteps:\n  - code: a = {{x}}\n')
    finally:
        i18n.set_language("en")
    assert any("제목 안의 `{{...}}` 자리표시자는 채워지지 않습니다" in p for p in said), said
    assert any("{{y}}: `vary:` 아래에 선언되지 않은 이름 'y'입니다 (선언된 것: x)" in p
               for p in said), said
    assert any("x = 0.0일 때 {{1 / x}}: 0으로 나눔" in p for p in said), said
    assert any("'-': 레슨이 바꿔 넣을 수 있는 값이 아닙니다. 숫자(2, -1.5, 1e-3), True나 False, "
               "또는 float64나 torch.float16 같은 이름을 쓰세요" in p for p in bad_value), bad_value
