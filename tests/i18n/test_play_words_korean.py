"""What `tutor play --lang ko` says around an answer (issue 25, K1's review): a
same_storage live value in the prompt's words, a translated choice's label without its
backquotes, a hedge asked again once in the hedge's words, the commands named as the
first prompt names them.  Records and JSON keep the judge's notation."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fake_play  # noqa: E402
from translations import korean, write_translation  # noqa: E402

from tutor import i18n  # noqa: E402
from tutor.cli import main  # noqa: E402
from tutor.engine import spoken  # noqa: E402
from tutor.judge import REGISTRY, JudgeSpec, Status, judge  # noqa: E402
from tutor.lesson import load_lesson  # noqa: E402
from tutor.lesson.translation import fingerprint, source_texts, translation_path  # noqa: E402


@pytest.fixture
def home(fake_play_home: Path) -> Path:
    return fake_play_home


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """The ui fixture pack, basics translated with a backquoted tag on every text:
    the choices' labels are `` `한국어` floats``, `` `한국어` integers``."""
    pack = tmp_path / "ui"
    shutil.copytree(fake_play.UI_LESSONS, pack)
    lesson_file = pack / "basics.yaml"
    lesson = load_lesson(lesson_file)
    source = source_texts(lesson)
    write_translation(translation_path(lesson_file, "ko"), lesson.id, fingerprint(source),
                      korean(source, "`한국어` "))
    return pack


def play(monkeypatch, capsys, typed: str, *args: str,
         path: str = str(fake_play.UI_LESSONS)) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", "ui/basics", "--path", path, *args])
    out, _ = capsys.readouterr()
    return code, out


def lines(out: str) -> str:
    return " ".join(out.split())


def test_a_same_storage_live_value_reads_as_the_prompt_words_it(home, monkeypatch,
                                                                capsys) -> None:
    code, out = play(monkeypatch, capsys, "6\na, b, c\n아니요\nfloats\n", "--lang", "ko")
    assert code == 0
    text = lines(out)
    assert "실제 값: 예 (같은 메모리)" in text, text
    assert "실제 값: yes" not in text
    code, out = play(monkeypatch, capsys, "6\na, b, c\n네\n정답\n", "--lang", "ko")
    assert "실제 값: 예 (같은 메모리)" in lines(out)  # (a right answer shows it too)


def test_records_and_english_keep_the_judges_notation(home, monkeypatch, capsys) -> None:
    code, out = play(monkeypatch, capsys, "6\na, b, c\n아니요\nfloats\n", "--lang", "ko",
                     "--json", "--no-progress")
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [r["expected"] for r in records if r["prompt"] == 1 and r["step"] == 2] == ["yes"]
    code, out = play(monkeypatch, capsys, "6\na, b, c\nno\nfloats\n", "--lang", "en")
    assert "live:     yes" in out, out


def test_spoken_words_only_where_a_person_reads_them() -> None:
    assert spoken("no", "same_storage") == "no"  # English
    i18n.set_language("ko")
    try:
        assert spoken("no", "same_storage") == "아니요 (서로 다른 메모리)"
        assert spoken("no error", "exception") == "에러 없음"
        assert spoken("no", "choice") == "no"  # a choice named `no` is lesson text
    finally:
        i18n.set_language(i18n.ENGLISH)


def test_a_revealed_translated_choice_shows_no_backquotes(home, pack, monkeypatch,
                                                          capsys) -> None:
    code, out = play(monkeypatch, capsys, "6\na, b, c\n네\n정답\n", "--lang", "ko",
                     path=str(pack))
    assert code == 0
    text = lines(out)
    assert "실제 값: 한국어 floats" in text, text
    assert "`" not in text.split("정답 보기")[-1].split("실제 값:")[-1].split("이유")[0]


def test_a_translated_choice_typed_is_shown_without_backquotes(home, pack, monkeypatch,
                                                               capsys) -> None:
    code, out = play(monkeypatch, capsys, "6\na, b, c\n네\n한국어 integers\n", "--lang", "ko",
                     path=str(pack))
    text = lines(out)
    assert "내 답: 한국어 integers" in text, text
    assert "실제 값: 한국어 floats" in text, text


HEDGE = "확신이 없어 보이네요: 추측이라도 해 보세요. 틀리면 왜 틀렸는지 보여 드립니다."


@pytest.fixture
def ko():
    i18n.set_language("ko")
    try:
        yield
    finally:
        i18n.set_language(i18n.ENGLISH)


@pytest.mark.parametrize("kind", [k for k, v in REGISTRY.items() if not v.verbatim])
@pytest.mark.parametrize("typed", ["모르겠어요", "잘 모르겠습니다", "글쎄요", "몰라요?"])
def test_a_korean_hedge_gets_the_hedge_message_on_every_kind(ko, kind: str, typed: str) -> None:
    spec = JudgeSpec(kind=kind, choices=("a", "b") if kind == "choice" else ())
    live = {"type": "tensor", "dtype": "float32", "shape": [2], "values": [1.0, 2.0]}
    verdict = judge(spec, typed, live)
    assert (verdict.status, verdict.message) == (Status.INVALID, HEDGE)


def test_a_hedge_in_play_is_asked_again_once_in_its_words(home, monkeypatch, capsys) -> None:
    code, out = play(monkeypatch, capsys, "모르겠어요\n6\na, b, c\n네\nfloats\n", "--lang", "ko")
    text = lines(out)
    assert f"? {HEDGE} 다시 입력하세요" in text, text
    assert text.count("다시 입력하세요") == 1


@pytest.mark.parametrize(("typed", "said"), [
    ("[1, 2", "답이 너무 일찍 끝납니다: ']'이(가) 와야 합니다."),
    ("[1 2]", "'2' 부분에서 답을 읽을 수 없습니다 (']'이(가) 와야 합니다)."),
    ("+-1", "'-' 부분에서 답을 읽을 수 없습니다 (부호는 하나면 됩니다)."),
])
def test_an_unreadable_tensor_is_told_in_korean_once(ko, typed: str, said: str) -> None:
    live = {"type": "tensor", "dtype": "float32", "shape": [2], "values": [1.0, 2.0]}
    message = judge(JudgeSpec(kind="tensor"), typed, live).message
    assert message.startswith(said + " 텐서를 값으로 적어 주세요. 예:"), message
    assert message.count("적어 주세요") == 1
    i18n.set_language(i18n.ENGLISH)
    assert "expected ']'" in judge(JudgeSpec(kind="tensor"), "[1, 2", live).message


def test_nothing_printed_is_said_in_korean(ko) -> None:
    spec = JudgeSpec(kind="stdout")
    assert judge(spec, "hello", {"type": "str", "value": ""}).message == \
        "입력한 답은 'hello', 실제 출력은 '출력 없음'입니다."
    assert judge(spec, "출력 없음", {"type": "str", "value": "hi\n"}).message == \
        "입력한 답은 '출력 없음', 실제 출력은 'hi'입니다."
    i18n.set_language(i18n.ENGLISH)
    assert judge(spec, "hello", {"type": "str", "value": ""}).message == \
        "You said 'hello'; it printed 'nothing'."


def test_the_printed_output_prompt_names_the_korean_word(ko) -> None:
    said = i18n._("type the printed lines, one per line or separated by commas, then an "
                  "empty line (or: nothing); or hint, reveal, quit")
    assert "(출력이 없으면: 출력 없음)" in said and "nothing" not in said


def test_tutor_list_names_where_a_pack_comes_from_in_korean(home, monkeypatch,
                                                           capsys) -> None:
    assert main(["--lang", "ko", "list"]) == 0
    out = capsys.readouterr().out
    assert "(기본 제공: " in out and "(bundled: " not in out
