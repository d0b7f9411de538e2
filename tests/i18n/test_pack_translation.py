"""Pack translations (issue 25, docs/translating.md): `pack.ko.yaml` beside a pack.yaml
carries its title and description with the fingerprint of the English it translates.
Shown (the catalog, `tutor list`, `tutor progress`, the palette) only when it matches
exactly, else the English title marked; `tutor lint` reports a missing text, an extra
one, a changed source, a wrong `translates:`/`lang:` and an orphan; the catalog index
reads a changed pack.ko.yaml again."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fake_play  # noqa: E402
from translations import write_translation as write_file  # noqa: E402

from tutor import i18n  # noqa: E402
from tutor.authoring.lint import lint_paths  # noqa: E402
from tutor.cli import main  # noqa: E402
from tutor.lesson import load_catalog  # noqa: E402
from tutor.lesson.loader import load_pack  # noqa: E402
from tutor.lesson.translation import fingerprint, pack_source_texts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
TRANSLATED = ["samples", "01-tensors-memory", "04-clone-detach", "05-autograd",
              "07-graphs-and-leaves", "11-modules", "12-parameters-buffers",
              "18-detach-in-the-middle"]


def hangul(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


def write_translation(manifest: Path, **text: str) -> Path:
    pack = load_pack(manifest, lang="en")
    source = pack_source_texts(pack)
    text = text or {k: f"한국어 {v}" for k, v in source.items()}
    return write_file(manifest.with_name("pack.ko.yaml"), "pack.yaml", fingerprint(source), text)


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """A copy of the ui fixture pack, its pack.yaml translated."""
    pack = tmp_path / "ui"
    shutil.copytree(fake_play.UI_LESSONS, pack)
    write_translation(pack / "pack.yaml")
    edit(pack / "pack.ko.yaml", lambda data: data["text"].update(topics={"testing": "테스트"}))
    return pack


def lint(path: Path) -> list[str]:
    return [f"{Path(p.file).name}:{p.line}: {p.path}: {p.message}"
            for p in lint_paths([path], with_known=False).problems if ".ko." in p.file]


def edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")


# ---------------------------------------------------------------------- the bundled ones
@pytest.mark.parametrize("name", TRANSLATED)
def test_the_seed_packs_and_the_samples_are_translated_and_current(name: str) -> None:
    manifest = LESSONS / name / "pack.yaml"
    assert lint(manifest.with_name("pack.ko.yaml")) == []
    english = load_pack(manifest, lang="en")
    i18n.set_language("ko")
    pack = load_pack(manifest)
    assert pack.lang == "ko" and hangul(pack.title) and hangul(pack.description)
    # code spans and identifiers stay as they are
    spans = [s for s in english.description.split("`")[1::2]]
    assert all(f"`{s}`" in pack.description for s in spans), spans


def test_the_pack_translation_schema_accepts_the_bundled_ones_and_refuses_a_bad_file() -> None:
    import json

    import jsonschema

    schema = json.loads((ROOT / "tutor" / "lesson" / "pack-translation.schema.json")
                        .read_text(encoding="utf-8"))
    for name in TRANSLATED:
        jsonschema.validate(yaml.safe_load((LESSONS / name / "pack.ko.yaml").read_text(
            encoding="utf-8")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"translates": "pack.yaml", "lang": "ko", "source": "0" * 16,
                             "text": {"title": "제목", "intro": "?"}}, schema)


# ---------------------------------------------------------------------- lint
def test_a_complete_pack_translation_lints_clean_and_is_shown(pack: Path) -> None:
    assert lint(pack) == []
    assert lint(pack / "pack.ko.yaml") == []  # named alone: the pack.yaml it translates
    i18n.set_language("ko")
    shown = load_pack(pack / "pack.yaml")
    assert (shown.title, shown.lang) == ("한국어 UI fixtures", "ko")
    assert shown.description == "한국어 Small lessons the app's tests drive."
    assert i18n.pack_title(shown.title, shown.lang) == "한국어 UI fixtures"
    i18n.set_language("en")
    assert load_pack(pack / "pack.yaml").title == "UI fixtures"  # English: the English


def test_a_changed_english_description_makes_the_pack_translation_stale(pack: Path) -> None:
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "Small lessons", "Tiny lessons"), encoding="utf-8")
    now = fingerprint(pack_source_texts(load_pack(manifest, lang="en")))
    problems = lint(pack)
    assert len(problems) == 1, problems
    assert problems[0].startswith("pack.ko.yaml:3: source: the English texts changed since "
                                  "this translation was made"), problems
    assert problems[0].endswith(f"the pack's texts are now {now}): update the translation, "
                                f"then set `source: {now}`")
    i18n.set_language("ko")
    shown = load_pack(manifest)
    assert (shown.title, shown.lang) == ("UI fixtures", "en")  # never a stale translation
    assert i18n.pack_title(shown.title, shown.lang) == "UI fixtures (영어)"


def test_a_missing_and_an_extra_pack_text_are_reported(pack: Path) -> None:
    def change(data: dict) -> None:
        del data["text"]["description"]
        data["text"]["intro"] = "소개"

    edit(pack / "pack.ko.yaml", change)
    assert lint(pack) == [
        "pack.ko.yaml:4: text.description: missing: the translation of "
        "\"Small lessons the app's tests drive.\"",
        "pack.ko.yaml:8: text.intro: extra: the pack has no `intro` here",
    ]
    i18n.set_language("ko")
    assert load_pack(pack / "pack.yaml").lang == "en"  # incomplete: English


def test_a_wrong_target_or_language_and_an_orphan_pack_translation_are_reported(
        pack: Path, tmp_path: Path) -> None:
    edit(pack / "pack.ko.yaml", lambda d: d.update(translates="ui/basics", lang="en"))
    problems = lint(pack)
    assert ("pack.ko.yaml:1: translates: `translates:` must be the file it translates "
            "`pack.yaml`, not 'ui/basics'") in problems
    assert ("pack.ko.yaml:2: lang: `lang:` must be `ko` (the file name's language), "
            "not 'en'") in problems
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.move(pack / "pack.ko.yaml", alone / "pack.ko.yaml")
    assert lint(alone) == ["pack.ko.yaml:1: : a translation into ko of pack.yaml, which "
                           "is not here (renamed or removed?)"]
    assert lint(alone / "pack.ko.yaml") == lint(alone)


def test_lint_on_the_cli_reports_a_stale_pack_translation(pack: Path, capsys) -> None:
    assert main(["lint", str(pack / "pack.ko.yaml")]) == 0
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "UI fixtures", "UI fixture"), encoding="utf-8")
    assert main(["lint", str(pack / "pack.ko.yaml")]) == 1
    out = capsys.readouterr().out
    assert "pack.ko.yaml:3:1: source: the English texts changed" in out, out


def test_topic_names_are_checked_against_the_pack_s_lessons(pack: Path) -> None:
    # issue 25: the detail pane said `memory · 레벨 1`; a pack translation names its
    # lessons' topics (not fingerprinted: a name is a word, not a text that drifts)
    edit(pack / "pack.ko.yaml", lambda data: data["text"].update(
        topics={"testing": "테스트", "memory": "메모리"}))
    assert lint(pack) == ["pack.ko.yaml:9: text.topics.memory: extra: no lesson of the pack "
                          "has the topic `memory` (renamed?)"]
    edit(pack / "pack.ko.yaml", lambda data: data["text"].update(topics={}))
    problems = [p for p in lint_paths([pack], with_known=False).problems if ".ko." in p.file]
    assert [(p.path, p.severity) for p in problems] == [("text.topics", "warning")]
    assert "the topic `testing`" in problems[0].message
    edit(pack / "pack.ko.yaml", lambda data: data["text"].update(topics=["테스트"]))
    assert lint(pack) == ["pack.ko.yaml:7: text.topics: must be a mapping of each topic, as "
                          "the lessons write it, to its name: `memory: 메모리`"]


# ---------------------------------------------------------------------- shown
def test_the_topic_is_shown_by_its_name_in_list_play_and_the_palette(
        pack: Path, tutor_home: Path, capsys, monkeypatch) -> None:
    import io

    assert main(["--lang", "ko", "list", "--path", str(pack)]) == 0
    out = capsys.readouterr().out
    assert "[테스트, 레벨 1]" in out and "testing" not in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    fake_play.install(monkeypatch.setattr)
    main(["play", "ui/basics", "--path", str(pack), "--lang", "ko", "--no-progress"])
    assert "\n테스트 · 레벨 1 · " in capsys.readouterr().out
    i18n.set_language("ko")
    shown = load_pack(pack / "pack.yaml")
    assert shown.topic_name("testing") == "테스트" and shown.topic_name("other") == "other"
    i18n.set_language("en")
    assert load_pack(pack / "pack.yaml").topic_name("testing") == "testing"
    assert main(["--lang", "en", "list", "--path", str(pack)]) == 0
    assert "[testing, level 1]" in capsys.readouterr().out


def test_list_and_progress_show_the_korean_pack_title_or_mark_the_english(
        pack: Path, tutor_home: Path, capsys) -> None:
    assert main(["--lang", "ko", "list", "--path", str(pack)]) == 0
    assert "\n한국어 UI fixtures  (--path: " in capsys.readouterr().out
    assert main(["--lang", "ko", "progress", "--path", str(pack)]) == 0
    assert "\n한국어 UI fixtures\n" in capsys.readouterr().out
    (pack / "pack.ko.yaml").unlink()
    assert main(["--lang", "ko", "list", "--path", str(pack)]) == 0
    assert "\nUI fixtures (영어)  (--path: " in capsys.readouterr().out
    assert main(["--lang", "en", "list", "--path", str(pack)]) == 0
    assert "\nUI fixtures  (path: " in capsys.readouterr().out


def test_the_catalog_index_reads_a_changed_pack_translation_again(pack: Path,
                                                                  tmp_path: Path) -> None:
    """A pack indexed in English is not served in Korean, nor in Korean after its
    pack.ko.yaml changed (the app's catalog comes from the index)."""
    from tutor.lesson.index import LessonIndex

    cache = tmp_path / "cache"

    def pack_title() -> str:
        catalog = load_catalog([pack], with_env=False, with_bundled=False,
                               index=LessonIndex.open(cache))
        return catalog.pack_of["ui/basics"].title

    assert pack_title() == "UI fixtures"
    i18n.set_language("ko")
    assert pack_title() == "한국어 UI fixtures"
    assert pack_title() == "한국어 UI fixtures"  # (from the index)
    write_translation(pack / "pack.yaml", title="UI 연습 레슨",
                      description="앱 테스트가 쓰는 작은 레슨들입니다.")
    assert pack_title() == "UI 연습 레슨"
    (pack / "pack.ko.yaml").unlink()
    assert pack_title() == "UI fixtures"
    i18n.set_language("en")
    assert pack_title() == "UI fixtures"


def test_the_catalog_counts_translated_lessons_per_pack(pack: Path) -> None:
    from tutor.ui.screens.catalog import translated_counts

    catalog = load_catalog([pack], with_env=False, with_bundled=False)
    assert translated_counts(catalog.lessons, catalog.pack_of) == {}  # English: nothing
    i18n.set_language("ko")
    catalog = load_catalog([pack], with_env=False, with_bundled=False)
    assert translated_counts(catalog.lessons, catalog.pack_of) == {pack: (0, 2)}
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_lesson_translation import translate

    translate(pack / "basics.yaml")
    catalog = load_catalog([pack], with_env=False, with_bundled=False)
    assert translated_counts(catalog.lessons, catalog.pack_of) == {pack: (1, 2)}
