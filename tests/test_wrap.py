"""Prose wrapped for a plain terminal (tutor.wrap), and `tutor play`'s text at a narrow
terminal: never a word split by the terminal, values kept line by line."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.markup import blocks, plain_text
from tutor.wrap import fill, terminal_width, title_line


def test_fill_breaks_between_words_and_keeps_examples_whole() -> None:
    text = "type a tensor's values, or None · e.g. tensor([7., 9.]) · [[1, 0], [0, 1]]"
    out = fill(text, 40, "  ", "    ", keep=("tensor([7., 9.])", "[[1, 0], [0, 1]]"))
    assert out.splitlines() == ["  type a tensor's values, or None · e.g.",
                                "    tensor([7., 9.]) · [[1, 0], [0, 1]]"]
    assert "\u00a0" not in out
    # a word longer than the line stays whole; line breaks in the text are kept
    assert fill("a " + "x" * 50 + " b", 20).splitlines() == ["a", "x" * 50, "b"]
    assert fill("one\ntwo", 20, "» ", "  ") == "» one\n  two"


def test_a_long_heading_never_leaves_its_closing_mark_alone() -> None:
    title = "A residual block: identity = feature or feature.clone()?"
    for width in range(40, 70):
        lines = title_line(title, width).splitlines()
        assert all(len(line) <= width for line in lines), width
        assert lines[0].startswith("== ") and lines[-1].endswith(" ==")
        assert all(line.strip() != "==" for line in lines)
        assert " ".join(" ".join(lines).split())[3:-3] == title
    assert title_line("Short", 80) == "== Short =="


def test_terminal_width_reads_columns_and_stays_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert terminal_width(io.StringIO()) == 60
    monkeypatch.setenv("COLUMNS", "300")
    assert terminal_width(io.StringIO()) == 100
    monkeypatch.setenv("COLUMNS", "12")
    assert terminal_width(io.StringIO()) == 40
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(io.StringIO()) == 80  # not a terminal


def test_a_text_starting_with_a_number_is_not_a_list() -> None:
    (block,) = blocks("1. That is one call: hooks run in `__call__`,\nnot in `forward`.")
    assert (block.kind, block.text) == ("para", "1. That is one call: hooks run in `__call__`, "
                                                "not in `forward`.")
    # a wrapped line that happens to start with "6." goes on with its sentence
    (block,) = blocks("The sum is 3 + 3 =\n6. Both paths add.")
    assert block.kind == "para" and block.text == "The sum is 3 + 3 = 6. Both paths add."
    # a real numbered list stays one, numbered as written
    items = blocks("Steps:\n\n1. run\n2. look")
    assert [(b.kind, b.marker) for b in items] == [("para", ""), ("item", "1."), ("item", "2.")]
    assert plain_text("0. Nothing ran: the hook sat on the other module, so\nno call was "
                      "counted.", 30, "  ").splitlines() == [
        "  0. Nothing ran: the hook sat",
        "  on the other module, so no",
        "  call was counted."]


def test_plain_text_can_mark_its_first_line() -> None:
    out = plain_text("Not `forward`: **`__call__`** runs the hooks, around your forward.",
                     30, "    ", "  » ")
    assert out.splitlines() == ["  » Not forward: __call__ runs",
                                "    the hooks, around your",
                                "    forward."]


WRAPPING = """\
id: t/wrapping
title: A title long enough that it has to wrap over two lines at fifty columns
topic: t
steps:
  - code: |
      print("first")
      print("    indented")
      n = 1
    predict:
      - ask: What does this step print?
        kind: stdout
        answer: "first\\n    indented"
      - ask: >-
          A question with so many words that at fifty columns it goes on
          over **several** lines. What is `n`?
        kind: number
        expect: n
        answer: "1"
        hint: A hint long enough to need wrapping at fifty columns, with `code` in it.
        explain: |
          1. That is the one call: this explanation starts with a number
          and stays a paragraph.
        feedback:
          "2": >-
            A feedback line long enough that a terminal of fifty columns
            would cut the word memory in two.
        wrong: ["2"]
"""


CODE_LINE = re.compile(r"^ +\d+ \| ")


@pytest.fixture
def play50(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           commands_share_kernel: object) -> Callable[[str, str], str]:
    """`tutor play` of a lesson's YAML at 50 columns with these lines typed: what it
    printed, after checking that no line but code is wider than the terminal."""
    def play(yaml: str, typed: str) -> str:
        lesson = tmp_path / "lesson.yaml"
        lesson.write_text(yaml, encoding="utf-8")
        monkeypatch.setenv("COLUMNS", "50")
        monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
        assert main(["play", str(lesson)]) == 0
        out = capsys.readouterr().out
        wide = [line for line in out.splitlines() if len(line) > 50 and not CODE_LINE.match(line)]
        assert wide == []
        return out

    return play


@pytest.mark.kernel
def test_play_wraps_its_words_to_a_narrow_terminal(play50: Callable[[str, str], str]) -> None:
    out = play50(WRAPPING, "reveal\nhint\n2\n")
    lines = out.splitlines()
    # the title: its closing mark ends its last line of words
    assert lines[:2] == ["== A title long enough that it has to wrap over",
                         "   two lines at fifty columns =="]
    # printed output revealed: every line under the first, its own indentation kept
    assert ("  The live value: first\n"
            "                      indented\n") in out
    # the question goes on under its own words; Markdown marks are gone
    q = lines.index(next(line for line in lines if line.startswith("Q2 of 2. ")))
    assert lines[q + 1].startswith(" " * len("Q2 of 2. ")) and lines[q + 1][9] != " "
    assert "**" not in out and "`" not in out
    # hint and feedback: marked on their first line, then wrapped under it
    assert "  hint: A hint long enough to need wrapping at\n        fifty columns" in out
    feedback = out[out.index("  » "):]
    assert feedback.splitlines()[1].startswith("    ") and "»" not in feedback.splitlines()[1]
    words = " ".join(feedback.split())
    assert ("» A feedback line long enough that a terminal of fifty columns would cut the word "
            "memory in two.") in words
    assert any(re.search(r"\bmemory\b", line) for line in feedback.splitlines())
    # an explanation starting "1." is a paragraph: its second line is not hung under a marker
    why = lines.index("    1. That is the one call: this explanation")
    assert re.match(r"^    \S", lines[why + 1])
    assert "finished: 0 of 2 right, 1 wrong, 1 revealed" in out


RAISING = """\
id: t/raising
title: A long message
topic: testing
steps:
  - code: |
      def f():
          raise ValueError("a message long enough that a terminal of fifty columns "
                           "would cut it somewhere in the middle of a word")
    predict:
      - ask: What does f() do?
        kind: exception
        expect: f()
        answer: ValueError
        hint: Read f.
        explain: It raises.
        wrong: ["TypeError"]
"""


@pytest.mark.kernel
def test_play_wraps_an_exception_message_and_shows_it_once(
        play50: Callable[[str, str], str]) -> None:
    out = play50(RAISING, "TypeError\n")
    live = out[out.index("  live:     "):out.index("  why:")].splitlines()
    assert live[0].startswith("  live:     ValueError: a message")
    assert all(line.startswith(" " * 12) and line[12] != " " for line in live[1:])
    assert "would cut it somewhere in the middle of a word" in " ".join(" ".join(live).split())
    verdict = out[out.index("> TypeError"):]
    assert verdict.count("a message long enough") == 1  # not quoted above the live line again


def test_korean_prose_is_wrapped_by_terminal_columns_not_characters() -> None:
    from tutor.wrap import cells

    text = ("출력될 줄을 한 줄에 하나씩 또는 쉼표로 구분해 입력하고, 빈 줄을 입력하세요 "
            "(출력이 없으면: nothing). 또는 hint(힌트), reveal(정답), quit(종료)")
    lines = fill(text, 40, "  ", "    ").split("\n")
    assert len(lines) > 2 and all(cells(line) <= 40 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # nothing lost
    assert cells("정답 ok") == 7 and cells("abc") == 3


def test_italic_may_touch_a_korean_particle_but_never_an_ascii_word() -> None:
    # `*타입*에만`: Korean writes its particles right after the word (issue 25)
    assert plain_text("인자들의 *타입*에만 달려 있습니다: `x ** c`도 같습니다.", 80) == (
        "인자들의 타입에만 달려 있습니다: x ** c도 같습니다.")
    assert plain_text("밑과 지수 **둘 다**에 보냅니다.", 80) == "밑과 지수 둘 다에 보냅니다."
    assert plain_text("a*b*c and 2*3*4 stay as typed", 80) == "a*b*c and 2*3*4 stay as typed"


# ---------------------------------------------------------------------- Korean (issue 25)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def test_a_korean_example_kept_whole_is_not_broken_at_its_spaces() -> None:
    from tutor.wrap import cells

    text = "텐서의 값을 입력하거나 None을 입력하세요 · 예: tensor([7., 9.]) · [[1, 0], [0, 1]]"
    keep = ("tensor([7., 9.])", "[[1, 0], [0, 1]]")
    for width in range(40, 81):
        lines = fill(text, width, "  ", "    ", keep=keep).splitlines()
        assert all(cells(line) <= width for line in lines), (width, lines)
        assert any("[[1, 0], [0, 1]]" in line for line in lines), (width, lines)
        assert any("tensor([7., 9.])" in line for line in lines), (width, lines)
    assert "\u00a0" not in fill(text, 40, keep=keep)


def test_a_korean_label_continues_under_itself_and_an_indented_line_keeps_its_indent() -> None:
    from tutor.wrap import cells

    out = fill("실제 값: " + "아주 긴 설명 " * 12, 40, "  힌트: ").splitlines()
    assert all(cells(line) <= 40 for line in out), out
    # the later lines start where the first line's text starts (in cells, not characters)
    assert all(line.startswith(" " * cells("  힌트: ")) and line[cells("  힌트: ")] != " "
               for line in out[1:]), out
    assert fill("    들여쓴 줄", 40) == "    들여쓴 줄"  # as textwrap keeps "    indented"


def test_an_english_text_after_a_korean_label_is_wrapped_by_cells() -> None:
    # `실제 값:  UFuncTypeError: Cannot cast ...` in `tutor play --lang ko`: the text is
    # ASCII but its label is Hangul (2 cells a syllable), so its first line was 83 cells
    from tutor.wrap import cells

    message = ("UFuncTypeError: Cannot cast ufunc 'add' output from dtype('float64') "
               "to dtype('int64') with casting rule 'same_kind'")
    for width in range(40, 81):
        lines = fill(message, width, "  실제 값:  ").splitlines()
        assert all(cells(line) <= width for line in lines), (width, lines)
        assert all(line.startswith(" " * cells("  실제 값:  ")) for line in lines[1:]), lines
        assert " ".join(" ".join(lines).split()) == "실제 값: " + message


def test_a_korean_title_line_fits_the_terminal() -> None:
    from tutor.wrap import cells

    title = ("네트워크 중간에서 detach하면 어떤 레이어가 그래디언트를 받고 "
             "어떤 레이어가 받지 못하는가")
    for width in range(40, 81):
        lines = title_line(title, width).splitlines()
        assert all(cells(line) <= width for line in lines), (width, lines)
        assert lines[0].startswith("== ") and lines[-1].endswith(" ==")
        assert " ".join(" ".join(lines).split())[3:-3] == title


def test_korean_markdown_is_wrapped_by_terminal_columns_between_words() -> None:
    from tutor.wrap import cells

    text = ("전치는 *뷰*입니다: `t`는 `m`의 숫자 여섯 개를 제자리에서 열 단위로 읽습니다. "
            "stride가 `(1, 3)`이라 행들이 메모리에 차례로 놓여 있지 않고, "
            "`is_contiguous()`가 묻는 것이 바로 이것입니다.\n\n- 첫째 항목: 리프 텐서의 "
            "`.grad`에 그래디언트가 쌓입니다, backward를 부를 때마다 더해집니다.")
    for width in range(40, 81):
        out = plain_text(text, width, "  ")
        assert all(cells(line) <= width for line in out.splitlines()), (width, out)
        words = " ".join(out.split())
        # every word whole: the text read back is the text without its marks
        assert words == ("전치는 뷰입니다: t는 m의 숫자 여섯 개를 제자리에서 열 단위로 읽습니다. "
                         "stride가 (1, 3)이라 행들이 메모리에 차례로 놓여 있지 않고, "
                         "is_contiguous()가 묻는 것이 바로 이것입니다. • 첫째 항목: 리프 텐서의 "
                         ".grad에 그래디언트가 쌓입니다, backward를 부를 때마다 더해집니다."), words


def test_emphasis_may_be_followed_by_a_korean_particle() -> None:
    from tutor.markup import runs

    assert runs("clone은 *값*은 같지만") == [("clone은 ", ""), ("값", "italic"),
                                          ("은 같지만", "")]
    assert runs("2*3*4 and x*y*z") == [("2*3*4 and x*y*z", "")]  # still arithmetic


@pytest.mark.kernel
@pytest.mark.usefixtures("commands_share_kernel")
@pytest.mark.parametrize("name", ["memory", "accumulate", "modules"])
def test_play_in_korean_fits_80_columns(name: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`tutor play --lang ko` of a translated sample at 80 columns, every question
    revealed: no line but code wider than the terminal, in cells (Hangul: two)."""
    from tutor.wrap import cells

    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdin", io.StringIO("정답\n\n" * 12))
    main(["play", f"samples/{name}", "--lang", "ko", "--no-progress"])
    out = capsys.readouterr().out
    assert HANGUL.search(out) and "정답" in out
    wide = [line for line in out.splitlines() if cells(line) > 80 and not CODE_LINE.match(line)]
    assert wide == [], "\n".join(wide)
