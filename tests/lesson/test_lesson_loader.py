"""The loader: safe YAML, exact positions, every problem reported with its key path."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.lesson import LessonError, load_lesson
from tutor.lesson.loader import MAX_FILE_BYTES

GOOD = """\
id: demo/one
title: One
topic: autograd
steps:
  - code: |
      x = torch.tensor(5.0, requires_grad=True)
    predict:
      - ask: What is x?
        expect: x
        kind: number
        answer: 0.60
"""


def write(tmp_path: Path, text: str, name: str = "lesson.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    return [str(p) for p in info.value.problems]


def test_a_good_lesson_loads_with_positions(tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, GOOD))
    assert lesson.id == "demo/one" and lesson.level == 1 and lesson.timeout == 10.0
    (step, prompt), = lesson.prompts
    assert step.index == 0 and prompt.index == 0
    assert prompt.pos.line == 8 and prompt.pos.col == 9
    assert prompt.answer_pos is not None and prompt.answer_pos.line == 11


def test_scalars_are_kept_as_the_text_written(tmp_path: Path) -> None:
    prompt = load_lesson(write(tmp_path, GOOD)).steps[0].prompts[0]
    assert prompt.answer == "0.60"  # not the float 0.6
    text = GOOD.replace("answer: 0.60", "answer: no")
    assert load_lesson(write(tmp_path, text)).steps[0].prompts[0].answer == "no"  # not False
    text = GOOD.replace("answer: 0.60", "answer: None")
    assert load_lesson(write(tmp_path, text)).steps[0].prompts[0].answer == "None"


def test_unknown_kind_says_where_and_suggests(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("kind: number", "kind: numbr"))
    (msg,) = problems(path)
    assert msg.startswith(f"{path}:10:15: steps[0].predict[0].kind: unknown value 'numbr'")
    assert "did you mean 'number'?" in msg


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("title: One\n", "").replace("expect: x", "expect: x +").replace(
        "topic: autograd", "topic: autograd\nlevl: 2")
    msgs = problems(write(tmp_path, text))
    assert any("levl: unknown key 'levl' (did you mean 'level'?)" in m for m in msgs)
    assert any("missing required key 'title'" in m for m in msgs)
    assert any("steps[0].predict[0].expect: 'x +' is not a valid Python expression" in m
               for m in msgs)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("level: 1", "level: 7"), "level: must be between 1 and 3, got 7"),
        (("id: demo/one", "id: Demo One"), "id: 'Demo One' is not valid"),
        (("x = torch", "x = = torch"), "6:11: steps[0].code: Python syntax error: invalid syntax"),
        (("kind: number", "kind: choice"), "kind choice needs `choices:`"),
        (("        expect: x\n", ""), "kind 'number' needs an `expect` expression"),
        (("kind: number", "kind: same_storage"), "needs `expect: [a, b]`"),
        (("answer: 0.60", "answer: 1\n        answer: 2"), "duplicate key 'answer'"),
        (("topic: autograd", "topic: [a, b]"), "topic: expected text, got a list"),
    ],
)
def test_validation_errors_name_the_key_path(tmp_path: Path, change: tuple[str, str],
                                             expected: str) -> None:
    text = GOOD.replace("level: 1", "") if "level" not in change[0] else GOOD.replace(
        "topic: autograd", "topic: autograd\nlevel: 1")
    text = text.replace(*change, 1)
    msgs = problems(write(tmp_path, text))
    assert any(expected in m for m in msgs), msgs


def test_yaml_syntax_errors_have_a_position(tmp_path: Path) -> None:
    (msg,) = problems(write(tmp_path, "id: x\ntitle: [unclosed\n"))
    assert "YAML syntax error" in msg and ":3:1:" in msg or ":2:" in msg


def test_aliases_are_refused_before_expansion(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    (msg,) = problems(write(tmp_path, bomb))
    assert ":1:4:" in msg and "anchors and aliases" in msg


def test_deep_nesting_is_refused_without_recursion(tmp_path: Path) -> None:
    (msg,) = problems(write(tmp_path, "id: " + "[" * 10_000 + "]" * 10_000 + "\n"))
    assert "nested more than 32 levels" in msg  # (libyaml may stop it first, at 1,000)
    (msg,) = problems(write(tmp_path, "id: " + "[" * 40 + "]" * 40 + "\n"))
    assert "nested more than 32 levels" in msg and ":1:36:" in msg  # tutor's own limit


def test_custom_tags_multiple_documents_and_empty_files(tmp_path: Path) -> None:
    assert "custom YAML tag" in problems(write(tmp_path, "id: !!python/object:os.system x\n"))[0]
    assert "only one YAML document" in problems(write(tmp_path, GOOD + "---\nid: y\n"))[0]
    assert "the file is empty" in problems(write(tmp_path, "# nothing\n"))[0]


def test_bad_bytes_and_huge_files(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"id: x\ntitle: caf\xe9\n")
    assert problems(path) == [f"{path}:2:1: not valid UTF-8: save the file as UTF-8"]
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * MAX_FILE_BYTES)
    assert "file too large" in problems(big)[0]


def test_a_byte_order_mark_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load_lesson(path).id == "demo/one"


@pytest.mark.parametrize("old, new, where, advice", [
    # a tab used to indent
    ("        kind: number", "\t\tkind: number", ":10:1:", "replace the tab with spaces"),
    # an unclosed quote: reported where it opens, not at the end of the file
    ("expect: x", 'expect: "x', ":9:17:", "never closed: add the closing quote"),
    # an unclosed flow list
    ("answer: 0.60", 'answer: 0.60\n        wrong: ["a", "b"', ":12:16:",
     "add the missing ']' or ','"),
    # an unquoted value with ': ' in it
    ("ask: What is x?", "ask: Note: what is x?", ":8:18:", "put the whole value in quotes"),
    # a key less indented than its siblings
    ("        kind: number", "      kind: number", ":10:7:",
     "does not line up with the list that starts at line 8, column 7"),
    # text after a quoted value
    ("answer: 0.60", 'answer: "0.6" or so', ":11:23:", "does not line up with the mapping"),
    # a value starting with a backquote
    ("ask: What is x?", "ask: `x`?", ":8:14:", "a value cannot start with '`'"),
    # a key without its colon: said where the key is, not on the next line
    ("title: One", "title One", ":2:1:", "this line has no ': ' after its key"),
    # a backslash in double quotes: an escape, not a quote left open (it said so)
    ("expect: x", 'expect: "\\d+"', ":9:18:",
     "a backslash in a double-quoted value starts an escape (\\n, \\t, \\\\), and `\\d` is "
     "none: write \\\\ for a backslash, or put the value in single quotes"),
])
def test_yaml_syntax_errors_say_how_to_fix_them(tmp_path: Path, old: str, new: str,
                                                where: str, advice: str) -> None:
    assert old in GOOD
    (msg,) = problems(write(tmp_path, GOOD.replace(old, new)))
    assert "YAML syntax error" in msg and where in msg and advice in msg, msg


@pytest.mark.parametrize(("old", "new", "said"), [
    ("        kind: number", "\t\tkind: number", "탭 문자입니다: YAML은 공백으로만 들여씁니다"),
    ("expect: x", 'expect: "x', "따옴표로 시작한 이 값이 닫히지 않았습니다"),
    ("answer: 0.60", 'answer: 0.60\n        wrong: ["a", "b"',
     "'[' 괄호가 닫히지 않았거나 항목 사이에 쉼표가 없습니다: 빠진 ']'나 ','를 넣으세요"),
    ("answer: 0.60", 'answer: 0.60\n        wrong: [tensor([1.]), "b"',
     "그 항목을 따옴표로 감싸세요 (YAML은 [ ] { }와 ,를 자기 문법으로 읽습니다)"),
    ("ask: What is x?", "ask: Note: what is x?", "여기에 뜻밖의 ': '가 있습니다"),
    ("        kind: number", "      kind: number",
     "이 줄이 8번째 줄 7번째 칸에서 시작하는 리스트와 들여쓰기가 맞지 않습니다"),
    ("answer: 0.60", 'answer: "0.6" or so', "시작하는 매핑과 들여쓰기가 맞지 않습니다"),
    ("ask: What is x?", "ask: `x`?", "값은 '`' 문자로 시작할 수 없습니다"),
    ("title: One", "title One", "이 줄의 키 뒤에 ': '가 없습니다"),
    ("expect: x", 'expect: "\\d+"', "`\\d` 같은 이스케이프는 없습니다"),
    ("topic: autograd\n", 'topic: "autograd\nlevel: 1\nintro: "x"\n',
     "다음 따옴표가 나오는 5번째 줄까지 이어집니다. 3번째 줄에 닫는 따옴표를 넣으세요"),
])
def test_yaml_syntax_errors_are_told_in_korean(tmp_path: Path, old: str, new: str,
                                               said: str) -> None:
    # issue 25: the loader's advice on the usual YAML mistakes was English in Korean
    from tutor import i18n

    i18n.set_language("ko")
    try:
        (message,) = problems(write(tmp_path, GOOD.replace(old, new)))
    finally:
        i18n.set_language("en")
    assert said in message, message
    assert not any(word in message for word in ("quote", "indent", "never closed")), message


def test_a_quote_left_open_is_said_where_it_opens_not_where_it_fails(tmp_path: Path) -> None:
    # K4 (issue 25): `title: "Broken: unclosed` was reported 15 lines later as a line
    # out of line with its mapping (pyyaml reads on to the next quote, and fails there)
    text = GOOD.replace("title: One", 'title: "One: unclosed').replace(
        "answer: 0.60", 'answer: "0.60"')
    (msg,) = problems(write(tmp_path, text))
    assert ":2:8: YAML syntax error: this quoted value is not closed on its line: it runs " \
        "on to line 11, where the next quote ends it; add the closing quote on line 2" in msg
    # a value quoted over several lines on purpose, and fine, is no error at all
    fine = GOOD.replace("title: One", 'title: "One\n  two"')
    assert load_lesson(write(tmp_path, fine)).title == "One two"


def test_a_missing_key_says_what_to_add(tmp_path: Path) -> None:
    msgs = problems(write(tmp_path, GOOD.replace("steps:", "step:")))
    assert any(":1:1: missing required key 'steps': add `steps:` (The steps, a list of "
               "`- code: ...` items" in m for m in msgs), msgs
    assert any("unknown key 'step' (did you mean 'steps'?)" in m for m in msgs), msgs


@pytest.mark.parametrize("spec", [">=2.x", "2.1", "latest"])
def test_an_invalid_requires_specifier_is_an_error_not_a_skip(tmp_path: Path, spec: str) -> None:
    text = GOOD.replace("topic: autograd", f'topic: autograd\nrequires: {{torch: "{spec}"}}')
    (msg,) = problems(write(tmp_path, text))
    assert f":4:19: requires.torch: '{spec}' is not a version specifier: write e.g. '>=2.1'" \
        in msg
    ok = GOOD.replace("topic: autograd", 'topic: autograd\nrequires: {torch: ">=99,<100"}')
    assert load_lesson(write(tmp_path, ok)).requires.torch == ">=99,<100"


def test_a_misspelled_expect_is_reported_once(tmp_path: Path) -> None:
    msgs = problems(write(tmp_path, GOOD.replace("expect: x", "expcet: x")))
    assert len(msgs) == 1 and "unknown key 'expcet' (did you mean 'expect'?)" in msgs[0]


RETYPED = """\
id: demo/retyped
title: Retyped
topic: t
steps:
  - code: |
      x = torch.ones(4, 1)

      if x.sum() > 0
          y = 1
    predict:
      - ask: shape?
        kind: shape
        expect: x.shape
        answer: [4, 1]
        wrong: [(1, 4), (4, 1, 0)]
      - ask: printed?
        kind: stdout
        answer:
          - a
          - b
      - ask: keys?
        kind: set
        expect: "{'a': 1}"
        answer: {a: 1}
"""


def test_yaml_retyping_is_explained_with_the_fix(tmp_path: Path) -> None:
    """What YAML made of unquoted text is said in words, with the quoted form."""
    msgs = problems(write(tmp_path, RETYPED))
    assert ("lesson.yaml:14:17: steps[0].predict[0].answer: expected text, got a list: YAML "
            "read this as a list because it starts with '['; to mean the text, quote it: "
            '"[4, 1]"') in [m.split("/")[-1] for m in msgs]
    [split] = [m for m in msgs if ".wrong" in m]  # one error, not one per piece
    assert split.endswith("15:16: steps[0].predict[0].wrong: YAML split '(1, 4)' at its "
                          "commas: inside [...] a comma separates items, so '(1' and '4)' "
                          'became separate items; quote each item: ["(1, 4)", "(4, 1, 0)"]')
    assert any("19:11: steps[0].predict[1].answer: expected text, got a list: YAML read the "
               "lines starting with '- ' as a list" in m for m in msgs)
    assert any("steps[0].predict[2].answer: expected text, got a mapping: YAML read this as a "
               "mapping because it starts with '{'; to mean the text, quote it: \"{a: 1}\""
               in m for m in msgs)


def test_a_python_syntax_error_is_reported_at_its_line_in_the_file(tmp_path: Path) -> None:
    [msg] = [m for m in problems(write(tmp_path, RETYPED)) if "Python syntax" in m]
    # line 3 of the code is line 8 of the file; the column is where Python stopped
    assert msg.endswith("lesson.yaml:8:21: steps[0].code: Python syntax error: expected ':' "
                        "(line 3 of the code)")
    one_line = GOOD.replace("  - code: |\n      x = torch.tensor(5.0, requires_grad=True)",
                            "  - code: x = = 1")
    [msg] = problems(write(tmp_path, one_line))
    assert ":5:15: steps[0].code: Python syntax error: invalid syntax" in msg


def test_a_quoted_number_is_explained(tmp_path: Path) -> None:
    [msg] = problems(write(tmp_path, GOOD.replace("topic: autograd", "topic: t\nlevel: '2'")))
    assert msg.endswith("level: expected a whole number, got '2': the quotes make it text; "
                        "remove them")


def test_brackets_inside_a_flow_list_say_to_quote_the_item(tmp_path: Path) -> None:
    text = GOOD.replace("answer: 0.60", 'answer: "0.6"\n        wrong: [tensor([1., 2.]), 0.5]')
    [msg] = problems(write(tmp_path, text))
    assert "this '[' is never closed" in msg
    assert 'if an item has brackets, parentheses or commas inside, quote it' in msg
