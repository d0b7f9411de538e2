"""`tutor play`, `review` and `progress` in Korean (issue 25), with the fake kernel of
tests/fake_play.py (no torch): `--lang ko`, TUTOR_LANG=ko and a ko_KR locale speak
Korean; the answers, the verdicts and the records are the same as in English."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fake_play  # noqa: E402

from tutor import i18n  # noqa: E402
from tutor.cli import main  # noqa: E402

LESSONS = str(fake_play.UI_LESSONS)
TYPED = "6\nhint\na, b, c\n네\nreveal\n"


@pytest.fixture
def home(fake_play_home: Path) -> Path:
    return fake_play_home


def play(monkeypatch, capsys, *args: str, typed: str = TYPED) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", "ui/basics", "--path", LESSONS, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_in_korean_says_everything_in_korean(home, monkeypatch, capsys) -> None:
    code, out, _ = play(monkeypatch, capsys, "--lang", "ko")
    assert code == 0
    text = " ".join(out.split())
    for said in ("testing · 레벨 1 · 2단계, 4문제 · torch 2.13.0에서 실행",
                 "-- 1/2단계 --", "Q1/4.",
                 "✗ 오답: 입력한 답은 6, 실제 값은 12.0입니다.",
                 "내 답: 6", "실제 값: 12.0", "이유:",
                 "(이 문제에는 힌트가 없습니다)",  # Q2: the hint asked for
                 "✓ 정답: 3개 항목 모두, 순서까지 맞습니다.",
                 "✓ 정답: 메모리를 공유합니다 (같은 스토리지).",  # 네: yes
                 "실제 값: floats",  # revealed
                 "완료: 4문제 중 2문제 정답, 오답 1, 정답 봄 1 (ui/basics)"):
        assert said in text, said
    for english in ("level 1", "step 1 of 2", "not quite", "you said", "why:", "finished"):
        assert english not in text, english


def test_answers_and_records_do_not_depend_on_the_language(home, monkeypatch,
                                                           capsys) -> None:
    records = {}
    for lang in ("en", "ko"):
        code, out, _ = play(monkeypatch, capsys, "--lang", lang, "--json", "--no-progress")
        assert code == 0
        records[lang] = [{k: r[k] for k in ("step", "prompt", "answer", "verdict", "expected")}
                         for r in map(json.loads, out.splitlines())]
    assert records["en"] == records["ko"]
    assert [r["verdict"] for r in records["ko"]] == ["incorrect", "correct", "correct",
                                                     "revealed"]


@pytest.mark.parametrize("env", [{"TUTOR_LANG": "ko"}, {"TUTOR_LANG": "", "LC_ALL": "",
                                                        "LANG": "ko_KR.UTF-8"}])
def test_the_language_comes_from_the_environment(env, home, monkeypatch, capsys) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, _ = play(monkeypatch, capsys)
    assert code == 0 and "-- 1/2단계 --" in out


def test_the_apps_remembered_language_is_used_and_the_option_wins(home, monkeypatch,
                                                                  capsys) -> None:
    from tutor.ui import settings

    monkeypatch.delenv("TUTOR_LANG")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    settings.save(home, lang="ko")
    assert "-- 1/2단계 --" in play(monkeypatch, capsys)[1]
    assert "-- step 1 of 2 --" in play(monkeypatch, capsys, "--lang", "en")[1]
    monkeypatch.setenv("TUTOR_LANG", "en")
    assert "-- step 1 of 2 --" in play(monkeypatch, capsys)[1]


def test_an_unknown_language_is_refused_before_anything_runs(home, monkeypatch,
                                                             capsys) -> None:
    code, out, err = play(monkeypatch, capsys, "--lang", "fr")
    assert code == 2 and out == ""
    assert "--lang 'fr': not a language tutor speaks (one of: en, ko)" in err


def test_korean_words_for_hint_reveal_and_quit(home, monkeypatch, capsys) -> None:
    code, out, _ = play(monkeypatch, capsys, "--lang", "ko", typed="힌트\n정답\n종료\n")
    assert "힌트: " in out  # Q1's hint
    assert "실제 값: 12" in out  # revealed
    assert "중단: 4문제 중 0문제 정답, 정답 봄 1 · 답하지 않음 3 (ui/basics)" in " ".join(
        out.split())


def test_progress_and_review_in_korean(home, monkeypatch, capsys) -> None:
    play(monkeypatch, capsys, "--lang", "ko")
    i18n.set_language("en")
    assert main(["--lang", "ko", "progress", "--path", LESSONS]) == 0
    out = capsys.readouterr().out
    assert "✓ ui/basics" in out and "완료" in out and "진행 기록 데이터베이스:" in out, out
    # each count a phrase of its own, the number where Korean puts it (was `4 답 50% 정답`)
    row = next(line for line in out.splitlines() if "✓ ui/basics" in line)
    assert re.search(r"답 \d+개 +정답률 \d+% +힌트 \d+개", row), row
    columns = [i18n.width(line[:line.index("정답률")]) for line in out.splitlines()
               if line.startswith("  ") and "정답률" in line]  # (in terminal cells)
    assert len(columns) > 3 and len(set(columns)) == 1, out  # (the same width in every row)
    assert main(["review", "--lang", "ko", "--path", LESSONS]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "다시 풀 문제 2개 (틀렸거나 정답을 봤고, 그 뒤로 맞히지 못한 문제):" in out, out
    assert "ui/basics, 1단계, 1번 문제" in out
    assert "다시 풀기: tutor play --review" in out
