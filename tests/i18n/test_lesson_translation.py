"""Lesson translations (issue 25, docs/translating.md): a file beside the lesson with
only its texts and the fingerprint of the English it translates.  `tutor lint` reports
a missing text, an extra one, a changed source and an orphan; a stale or incomplete
translation is never shown (the lesson is shown in English, marked); choices are
judged as in English whatever label is shown or typed."""

from __future__ import annotations

import io
import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fake_play  # noqa: E402
from translations import korean, write_translation  # noqa: E402

from tutor import i18n  # noqa: E402
from tutor.authoring.lint import lint_paths  # noqa: E402
from tutor.cli import main  # noqa: E402
from tutor.lesson import load_lesson  # noqa: E402
from tutor.lesson.translation import fingerprint, source_texts, translation_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "lessons" / "samples"


def translate(lesson_file: Path) -> Path:
    lesson = load_lesson(lesson_file)
    source = source_texts(lesson)
    return write_translation(translation_path(lesson_file, "ko"), lesson.id,
                             fingerprint(source), korean(source))


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """A copy of the ui fixture pack, its basics lesson translated."""
    pack = tmp_path / "ui"
    shutil.copytree(fake_play.UI_LESSONS, pack)
    translate(pack / "basics.yaml")
    return pack


def lint(path: Path) -> list[str]:
    """The problems lint finds in translations (the fixture lessons have warnings of
    their own: no hints)."""
    return [f"{p.path}: {p.message}" for p in lint_paths([path], with_known=False).problems
            if ".ko." in p.file]


def edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")


# ---------------------------------------------------------------------- the bundled ones
@pytest.mark.parametrize("name", ["accumulate", "memory", "modules"])
def test_the_samples_are_translated_into_korean_and_current(name: str) -> None:
    assert lint(SAMPLES / f"{name}.yaml") == []
    i18n.set_language("ko")
    lesson = load_lesson(SAMPLES / f"{name}.yaml")
    assert lesson.lang == "ko"
    assert any("\uac00" <= c <= "\ud7a3" for c in lesson.title)
    for step in lesson.steps:
        for p in step.prompts:
            assert any("\uac00" <= c <= "\ud7a3" for c in p.ask), p.ask


def test_a_translation_changes_texts_only() -> None:
    english = load_lesson(SAMPLES / "modules.yaml")
    i18n.set_language("ko")
    ko = load_lesson(SAMPLES / "modules.yaml")
    for a, b in zip(english.steps, ko.steps, strict=True):
        assert a.code == b.code
        for p, q in zip(a.prompts, b.prompts, strict=True):
            assert (p.kind, p.expect, p.answer, p.choices, p.wrong, p.spec.feedback[0][0]
                    if p.feedback else None) == (q.kind, q.expect, q.answer, q.choices,
                                                 q.wrong, q.spec.feedback[0][0]
                                                 if q.feedback else None)
    choice = ko.steps[2].prompts[0]
    assert choice.choices == ("updated it", "left it alone", "raised an error")
    assert choice.labels == ("업데이트했다", "그대로 두었다", "에러를 냈다")


# ---------------------------------------------------------------------- lint
def test_a_complete_translation_lints_clean(pack: Path) -> None:
    assert lint(pack / "basics.yaml") == []


def test_a_changed_english_text_makes_the_translation_stale(pack: Path) -> None:
    lesson = pack / "basics.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "Double each element, then add.", "Double each one, then add."), encoding="utf-8")
    problems = lint(lesson)
    assert len(problems) == 1 and problems[0].startswith(
        "source: the English texts changed since this translation was made"), problems
    i18n.set_language("ko")
    shown = load_lesson(lesson)
    assert shown.lang == "en" and shown.title == "UI basics"  # never a stale translation
    assert i18n.untranslated(shown.lang) == "(영어: 아직 번역되지 않음)"


def test_a_missing_and_an_extra_text_are_reported(pack: Path) -> None:
    path = translation_path(pack / "basics.yaml", "ko")

    def change(data: dict) -> None:
        del data["text"]["steps"][0]["predict"][0]["hint"]
        data["text"]["steps"][1]["predict"][0]["hint"] = "힌트가 없는 문제의 힌트"
        data["text"]["steps"][1]["predict"][1]["choices"].append("세 번째")

    edit(path, change)
    assert lint(pack / "basics.yaml") == [
        "text.steps[0].predict[0].hint: missing: the translation of "
        "'Double each element, then add.'",
        "text.steps[1].predict[0].hint: extra: the lesson has no `hint` here",
        "text.steps[1].predict[1].choices: 3 entries, the lesson has 2",
    ]
    i18n.set_language("ko")
    assert load_lesson(pack / "basics.yaml").lang == "en"  # incomplete: English, marked


def test_a_wrong_lesson_or_language_and_an_orphan_are_reported(pack: Path) -> None:
    path = translation_path(pack / "basics.yaml", "ko")
    edit(path, lambda d: d.update(translates="ui/other", lang="en"))
    problems = lint(pack / "basics.yaml")
    assert "translates: `translates:` must be the lesson's id `ui/basics`, not 'ui/other'" \
        in problems
    assert "lang: `lang:` must be `ko` (the file name's language), not 'en'" in problems
    shutil.copy(path, pack / "gone.ko.yaml")
    assert any("a translation into ko of gone.yaml, which is not here" in p
               for p in lint(pack))


def test_lint_on_the_cli_reports_a_stale_translation(pack: Path, capsys) -> None:
    assert main(["lint", str(pack)]) == 0  # (warnings of the fixture lessons: no hints)
    lesson = pack / "basics.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("UI basics", "UI basic"),
                      encoding="utf-8")
    assert main(["lint", str(pack)]) == 1
    assert "basics.ko.yaml" in capsys.readouterr().out


# ---------------------------------------------------------------------- shown, judged
@pytest.fixture
def fake(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TUTOR_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TUTOR_PATH", raising=False)
    fake_play.install(monkeypatch.setattr)


def test_play_shows_the_translation_and_judges_a_typed_label_as_the_choice(
        pack: Path, fake, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\na, b, c\n네\n한국어 floats\n"))
    assert main(["play", "ui/basics", "--path", str(pack), "--lang", "ko",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "== 한국어 UI basics ==" in out and "(영어: 아직 번역되지 않음)" not in out
    assert "1. 한국어 floats" in out  # the label shown
    assert out.count("✓ 정답") == 4  # the typed label is the choice `floats`


def test_a_translated_choice_is_said_by_its_label_and_recorded_as_the_choice(
        pack: Path, fake, monkeypatch, capsys) -> None:
    # the verdict's sentence, `you said:` and `live:` name the choices as shown; progress
    # keeps the English choice (answers never depend on the language)
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\na, b, c\n네\n한국어 integers\n"))
    assert main(["play", "ui/basics", "--path", str(pack), "--lang", "ko"]) == 0
    out = capsys.readouterr().out
    assert "한국어 integers을(를) 골랐지만 답은 한국어 floats입니다." in out
    assert "내 답:    한국어 integers" in out and "실제 값:  한국어 floats" in out
    assert "You chose" not in out and "integers을" not in out.replace("한국어 integers", "")
    from tutor.progress import ProgressStore

    with ProgressStore(Path(os.environ["TUTOR_HOME"])) as store:
        last = store.attempts()[-1]
    assert (last.answer, last.expected) == ("integers", "floats")


@pytest.mark.parametrize(("typed", "lang", "said"), [("2", "ko", "내 답:    한국어 integers"),
                                                    ("b", "ko", "내 답:    한국어 integers"),
                                                    ("2", "en", "you said: integers")])
def test_a_choice_answered_by_its_mark_is_said_back_as_the_choice(
        pack: Path, fake, monkeypatch, capsys, typed: str, lang: str, said: str) -> None:
    # issue 25: `내 답: 2` named nothing a learner could check against `실제 값`
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"12\na, b, c\nyes\n{typed}\n"))
    assert main(["play", "ui/basics", "--path", str(pack), "--lang", lang,
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert said in out, out[-600:]


def test_a_label_is_read_as_shown_and_an_unreadable_answer_lists_the_labels() -> None:
    # play and the app show `code` without its backquotes: a label typed as shown is the
    # choice; an answer that is none of them is asked again with the labels, not English
    from dataclasses import replace

    from tutor.flow import as_judged
    from tutor.judge import JudgeSpec, Status, judge

    lesson = load_lesson(fake_play.UI_LESSONS / "basics.yaml")
    prompt = next(p for _, p in lesson.prompts if p.choices)
    shown = replace(prompt, labels=("`floats` 실수", "`integers` 정수"))
    assert as_judged(shown, "floats 실수") == "floats"
    assert as_judged(shown, "  `INTEGERS`   정수 ") == "integers"
    assert as_judged(shown, "floats") == "floats"  # (the English choice: judged as typed)
    v = judge(JudgeSpec("choice", ("floats", "integers"), labels=("실수", "정수")), "complex",
              {"type": "str", "value": "floats"})
    assert v.status is Status.INVALID and "1) 실수; 2) 정수" in v.message, v.message


def test_play_marks_a_lesson_without_a_translation(fake, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    main(["play", "ui/basics", "--path", str(fake_play.UI_LESSONS), "--lang", "ko",
          "--no-progress"])
    out = capsys.readouterr().out
    assert "== UI basics ==" in out and "(영어: 아직 번역되지 않음)" in out
    capsys.readouterr()
    main(["play", "ui/basics", "--path", str(fake_play.UI_LESSONS), "--lang", "en",
          "--no-progress"])
    assert "not translated" not in capsys.readouterr().out  # (English: nothing to mark)


@pytest.mark.kernel
@pytest.mark.usefixtures("commands_share_kernel")
def test_check_in_korean_runs_and_judges_exactly_as_in_english(capsys) -> None:
    said = {}
    total = {"en": "prompts: 15 of 15 passed", "ko": "문제: 15개 중 15개 통과"}  # (check speaks
    ok = {"en": "ok", "ko": "통과"}  # the language too: tests/i18n/test_tools_korean.py)
    for lang in ("en", "ko"):
        assert main(["--lang", lang, "check", str(SAMPLES)]) == 0
        out = capsys.readouterr().out
        said[lang] = [line.split("(")[0].replace(f" {ok[lang]} ", " OK ")
                      for line in out.splitlines() if "..." in line]
        assert total[lang] in out
    assert said["en"] == said["ko"] and len(said["ko"]) == 3


def test_the_translation_schema_accepts_the_samples_and_refuses_a_bad_file() -> None:
    import json

    import jsonschema

    schema = json.loads((ROOT / "tutor" / "lesson" / "translation.schema.json").read_text())
    for path in sorted(SAMPLES.glob("*.ko.yaml")):
        if path.name == "pack.ko.yaml":  # (a pack's: pack-translation.schema.json)
            continue
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)
    bad = {"translates": "samples/memory", "lang": "ko", "source": "xyz",
           "text": {"title": "제목", "steps": [{"predict": [{"asks": "?"}]}]}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_the_catalog_index_keeps_a_lesson_per_language_and_translation(tmp_path: Path) -> None:
    """A lesson indexed in English is not served in Korean (it was built from the English
    texts), and an edited translation is read again (the app's language switch reloaded
    the catalog from the index: the lessons stayed in English)."""
    from tutor import i18n
    from tutor.lesson.index import LessonIndex, stamp

    lesson = tmp_path / "x.yaml"
    lesson.write_text("id: t/x\n", encoding="utf-8")
    ko = tmp_path / "x.ko.yaml"
    ko.write_text("lang: ko\n", encoding="utf-8")
    index = LessonIndex(None)
    index.keep_lesson(lesson, None, "english", stamp(lesson))
    assert index.lesson(lesson) == "english"
    i18n.set_language("ko")
    assert index.lesson(lesson) is None
    index.keep_lesson(lesson, None, "korean", stamp(lesson))
    assert index.lesson(lesson) == "korean"
    ko.write_text("lang: ko\ntranslates: t/x\n", encoding="utf-8")
    assert index.lesson(lesson) is None
    i18n.set_language(i18n.ENGLISH)
    assert index.lesson(lesson) == "english"
