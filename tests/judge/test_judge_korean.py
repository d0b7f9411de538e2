"""Korean answers (issue 25): read as their English forms, whatever language tutor
speaks; hedges in Korean are asked again; values and printed Korean are left as typed."""

from __future__ import annotations

import pytest
from judge_obs import INV, NONE, C, X, b, exc, f, s, seq, status

from tutor import i18n
from tutor.judge import JudgeSpec, judge


@pytest.mark.parametrize("text", ["네", "예", "맞아요", "맞습니다", "네.", "네, 맞아요"])
def test_yes(text: str) -> None:
    assert status("bool", text, b(True)) is C, text
    assert status("bool", text, b(False)) is X, text


@pytest.mark.parametrize("text", ["아니요", "아니오", "아니에요", "아뇨", "아니요, 아니에요"])
def test_no(text: str) -> None:
    assert status("bool", text, b(False)) is C, text
    assert status("bool", text, b(True)) is X, text


@pytest.mark.parametrize("text", ["네", "공유해요", "공유 함", "같은 메모리"])
def test_shares_memory(text: str) -> None:
    assert status("same_storage", text, b(True)) is C, text
    assert status("same_storage", text, b(False)) is X, text


@pytest.mark.parametrize("text", ["아니요", "공유 안 해요", "공유하지 않음", "다른 메모리"])
def test_does_not_share_memory(text: str) -> None:
    assert status("same_storage", text, b(False)) is C, text


@pytest.mark.parametrize("text", ["에러", "오류", "에러 발생", "예외"])
def test_it_raises(text: str) -> None:
    err = exc("RuntimeError", "a leaf Variable that requires grad", ["RuntimeError"])
    # as "it raises": partly right (the class named gets full credit)
    assert status("exception", text, err) is status("exception", "it raises", err) is not X
    assert status("exception", text, {"type": "none"}) is X, text


@pytest.mark.parametrize("text", ["에러 없음", "오류 없음", "에러 안 남", "에러 없어요"])
def test_no_error(text: str) -> None:
    assert status("exception", text, {"type": "none"}) is C, text
    assert status("exception", text, exc("RuntimeError", "", ["RuntimeError"])) is X, text


def test_a_named_exception_with_korean_words() -> None:
    err = exc("RuntimeError", "boom", ["RuntimeError"])
    assert status("exception", "RuntimeError 에러", err) is C
    assert status("exception", "RuntimeError가 발생해요", err) is C
    assert status("exception", "ValueError 에러", err) is X


def test_none_and_empty() -> None:
    assert status("number", "없음", NONE) is C
    assert status("text", "없음", NONE) is C
    assert status("set", "비어 있음", seq("list")) is C
    assert status("number", "없음", f(0.5)) is X


@pytest.mark.parametrize("text", ["모르겠어요", "잘 모르겠어요", "글쎄요", "아마",
                                  "네, 모르겠어요"])
def test_hedges_are_asked_again(text: str) -> None:
    assert status("bool", text, b(True)) is INV, text
    assert status("exception", text, {"type": "none"}) is INV, text


def test_printed_korean_and_choices_are_left_as_typed() -> None:
    assert status("stdout", "네", s("네")) is C  # a lesson printing Korean: as printed
    assert status("stdout", "출력 없음", s("")) is C
    # a program that prints the words for "nothing printed" printed them (CI, stop 33)
    assert status("stdout", "아무것도안나옴", s("아무것도안나옴")) is C
    assert status("stdout", "출력 없음", s("출력 없음\n")) is C
    assert status("stdout", "아무것도 안 나옴", s("hi")) is not C
    assert status("choice", "네", NONE, choices=("네", "아니요")) is not INV


def test_korean_answers_do_not_depend_on_the_language() -> None:
    for lang in ("en", "ko"):
        i18n.set_language(lang)
        assert judge(JudgeSpec("bool"), "네", b(True)).status is C
        assert judge(JudgeSpec("exception"), "에러 없음", {"type": "none"}).status is C


def test_messages_in_korean() -> None:
    i18n.set_language("ko")
    v = judge(JudgeSpec("bool"), "yes", b(False))
    assert v.message == "입력한 답은 예, 실제로는 아니요입니다 (실제 값은 False)."
    v = judge(JudgeSpec("number"), "0.5", f(0.25))
    assert v.message == "입력한 답은 0.5, 실제 값은 0.2500입니다."
    v = judge(JudgeSpec("bool"), "모르겠어요", b(True))
    assert v.message == ("확신이 없어 보이네요: 추측이라도 해 보세요. "
                         "틀리면 왜 틀렸는지 보여 드립니다.")
    v = judge(JudgeSpec("shape"), "(2, 3)", {"type": "size", "value": [3, 2]})
    assert v.message == "입력한 답은 (2, 3), 실제 shape는 (3, 2)입니다."
    assert v.details == ("크기는 같지만 순서가 다릅니다.",)
    v = judge(JudgeSpec("number"), "x y", f(0.25))  # unreadable: what is wrong, then how
    assert v.status is INV and "숫자 하나를 입력하세요" in v.message, v.message
