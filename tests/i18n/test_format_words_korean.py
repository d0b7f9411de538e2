"""The lesson format's own words (tutor/lesson/format.py: each field's description, each
rule's message) in Korean where the loader and `tutor lint` show them (issue 25); they
are in the catalog (scripts/i18n_catalog.py finds them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tutor.lesson import load_lesson
from tutor.lesson.loader import LessonError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import i18n_catalog  # noqa: E402

NO_TITLE = "id: a/b\ntopic: t\nsteps:\n  - code: x = 1\n"
TWO_EXPECTS = ("id: a/b\ntitle: T\ntopic: t\nsteps:\n  - code: x = 1\n    predict:\n"
               "      - ask: q\n        kind: number\n        expect: [a, b]\n        answer: 1\n")



def _problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "lesson.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LessonError) as bad:
        load_lesson(path)
    return str(bad.value)


def test_a_missing_keys_description_in_korean(tmp_path: Path, korean: None) -> None:
    assert "필수 키가 없습니다: 'title'. `title:` 줄을 추가하세요 (짧은 제목)" \
        in _problem(tmp_path, NO_TITLE)


def test_a_rules_message_in_korean(tmp_path: Path, korean: None) -> None:
    assert "steps[0].predict[0].expect: 표현식 두 개의 리스트는 kind same_storage에만 씁니다" \
        in _problem(tmp_path, TWO_EXPECTS)


def test_english_unchanged(tmp_path: Path) -> None:
    assert "missing required key 'title': add `title:` (Short title)" \
        in _problem(tmp_path, NO_TITLE)
    assert "steps[0].predict[0].expect: a list of two expressions is only for kind " \
        "same_storage" in _problem(tmp_path, TWO_EXPECTS)


def test_the_catalog_script_finds_the_formats_words() -> None:
    texts = i18n_catalog.schema_texts()
    assert "Short title." in texts and "`choices` is only for kind choice" in texts
    assert ("Short title.", None) in i18n_catalog.messages()
