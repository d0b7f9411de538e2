"""Korean particles picked for the value before them (issue 25: `두 항 모두을(를)`)."""

from __future__ import annotations

import pytest

from tutor import i18n
from tutor.i18n import particles
from tutor.judge.base.parts import Fill
from tutor.judge.showing.render import render


@pytest.mark.parametrize(("text", "want"), [
    ("두 항 모두을(를)", "두 항 모두를"),        # no final consonant
    ("텐서 값이(가)", "텐서 값이"),              # a final consonant
    ("레슨은(는)", "레슨은"),
    ("메모리와(과)", "메모리와"),
    ("값와(과)", "값과"),
    ("서울(으)로", "서울로"),                    # ㄹ takes 로
    ("값(으)로", "값으로"),
    ("모두(으)로", "모두로"),
    ("'출력 없음'은(는)", "'출력 없음'은"),      # through a closing quote
    ("“텐서”을(를)", "“텐서”를"),
    ("3이(가)", "3이"),                          # 삼
    ("2이(가)", "2가"),                          # 이
    ("1(으)로", "1로"),                          # 일: ㄹ
    ("6을(를)", "6을"),                          # 육
    ("10(으)로", "10으로"),                      # 십
    ("100은(는)", "100은"),                      # 백
    ("2,000을(를)", "2,000을"),                  # 이천
    ("0은(는)", "0은"),                          # 영
    ("0.5이(가)", "0.5가"),                      # 영 점 오
    ("1.10을(를)", "1.10을"),                    # digit by digit: ...영
])
def test_the_particle_fits_a_hangul_word_or_a_number(text: str, want: str) -> None:
    assert particles(text) == want


@pytest.mark.parametrize("text", ["tensor을(를)", "grad_fn이(가)", "x(으)로", "`a`은(는)",
                                  "1.(으)로", "shape (3,)"])
def test_after_a_latin_word_or_a_sign_it_stays_as_written(text: str) -> None:
    assert particles(text) == text  # `tensor`: 텐서 or 텐서어? read both ways


def test_every_translated_sentence_picks_its_particles_once_filled(korean: None) -> None:
    # the catalog writes 은(는) (the value is not known there); the screen does not
    said = i18n._("{id} is skipped here: it {why}.").format(id="두 항 모두", why="x")
    assert said.startswith("두 항 모두는 ")
    kept = i18n._("{id} is skipped here: it {why}.").format(id="tensors/view", why="x")
    assert kept.startswith("tensors/view은(는) ")
    # the judge's sentences too: their values are filled in by position
    def right_value(live: str, said: str) -> str:
        return render(("Right value, but the live value is ", Fill(live), ", not ",
                       Fill(said), ": ", Fill("x"), "."))
    assert right_value("3", "2").startswith("값은 맞지만, 실제 값은 2가 아니라 3입니다")
    assert right_value("2", "3").startswith("값은 맞지만, 실제 값은 3이 아니라 2입니다")


def test_english_is_left_alone() -> None:
    i18n.set_language("en")
    assert i18n._("{id} is skipped here: it {why}.").format(id="a", why="b") == \
        "a is skipped here: it b."
