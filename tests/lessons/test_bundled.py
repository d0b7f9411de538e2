"""The bundled lesson library: it loads, every lesson passes `tutor check` live, every
prompt teaches (hint + explanation), and the digest coverage table in
lessons/README.md is in sync with the lessons that exist.

One kernel for the whole session (the `kernel` fixture in tests/conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tutor.engine import check_lesson
from tutor.lesson.catalog import PACK_FILE, load_catalog
from tutor.lesson.model import Lesson

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
README = LESSONS / "README.md"
SCHEMA = ROOT / "tutor" / "lesson" / "lesson.schema.json"
# The Samples pack is maintained separately and is not part of the course table.
NOT_IN_COURSE = {LESSONS / "samples"}

CATALOG = load_catalog([LESSONS], with_env=False)
ALL = sorted(CATALOG.lessons, key=lambda lesson: lesson.id)
COURSE = [x for x in ALL if not any(p in x.file.resolve().parents for p in NOT_IN_COURSE)]
IDS = {x.id for x in ALL}


def lesson_params(lessons: list[Lesson]) -> list[object]:
    return [pytest.param(x, id=x.id) for x in lessons]


def coverage_rows() -> list[tuple[str, list[str]]]:
    """(item, lesson ids) for every row of the coverage table."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Coverage of the digest", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"\d{3}\.\d+", cells[0]):
            continue
        rows.append((cells[0], re.findall(r"`([^`]+)`", cells[2])))
    return rows


def beyond_rows() -> list[tuple[str, list[str]]]:
    """(pack directory, lesson ids) for every row of the "Beyond the seeds" table: the
    packs that go past the seed posts, which the digest coverage table does not list."""
    text = README.read_text(encoding="utf-8")
    if "## Beyond the seeds" not in text:
        return []
    section = text.split("## Beyond the seeds", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\d{2}-[a-z0-9-]+)`", cells[0]) if len(cells) == 4 else None
        if match:
            rows.append((match.group(1), re.findall(r"`([^`]+)`", cells[2])))
    return rows


# ------------------------------------------------------------------ loading


def test_every_bundled_lesson_loads() -> None:
    problems = "\n".join(str(p) for p in CATALOG.problems)
    assert not CATALOG.errors, f"lesson files that do not load:\n{problems}"
    assert len(COURSE) >= 40


@pytest.mark.parametrize("lesson", lesson_params(COURSE))
def test_lesson_shape(lesson: Lesson) -> None:
    """1-4 steps and 1-4 prompts; the schema modeline points at the real schema."""
    assert 1 <= len(lesson.steps) <= 4, f"{lesson.id}: {len(lesson.steps)} steps"
    assert 1 <= len(lesson.prompts) <= 4, f"{lesson.id}: {len(lesson.prompts)} prompts"
    first = lesson.file.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert match, f"{lesson.file}: first line must be the yaml-language-server modeline"
    assert (lesson.file.parent / match.group(1)).resolve() == SCHEMA.resolve()


@pytest.mark.parametrize("lesson", lesson_params(ALL))
def test_every_prompt_has_a_hint_and_an_explanation(lesson: Lesson) -> None:
    for step, prompt in lesson.prompts:
        where = f"{lesson.file}:{prompt.pos.line} (step {step.index}, prompt {prompt.index})"
        assert prompt.hint and prompt.hint.strip(), f"{where}: no hint"
        assert prompt.explain and prompt.explain.strip(), f"{where}: no explain"
        assert prompt.answer is not None, f"{where}: no reference answer"


@pytest.mark.parametrize("lesson", lesson_params(COURSE))
def test_feedback_is_for_answers_proven_wrong(lesson: Lesson) -> None:
    """Every course prompt has targeted feedback, and each feedback key is also listed
    under `wrong:`, so `tutor check` proves the judge really calls it wrong."""
    for step, prompt in lesson.prompts:
        where = f"{lesson.file}:{prompt.pos.line} (step {step.index}, prompt {prompt.index})"
        assert prompt.feedback, f"{where}: no feedback for typical wrong answers"
        assert prompt.wrong, f"{where}: no `wrong:` answers"
        unproven = [k for k, _ in prompt.feedback if k not in prompt.wrong]
        assert not unproven, f"{where}: feedback keys not listed under `wrong:`: {unproven}"


@pytest.mark.parametrize("lesson", lesson_params(COURSE))
def test_no_prompt_asks_for_a_raw_address(lesson: Lesson) -> None:
    """Addresses differ on every run: only differences of data_ptr() may be asked."""
    for _, prompt in lesson.prompts:
        exprs = prompt.expect if isinstance(prompt.expect, tuple) else (prompt.expect or "",)
        for expr in exprs:
            if "data_ptr()" in expr or "id(" in expr:
                assert re.search(r"data_ptr\(\)\s*-", expr), f"{lesson.id}: raw address in {expr!r}"


# ------------------------------------------------------------------ live check


@pytest.mark.kernel
@pytest.mark.parametrize("lesson", lesson_params(ALL))
def test_lesson_passes_check(kernel, lesson: Lesson) -> None:
    result = check_lesson(kernel, lesson)
    failures = "\n".join(
        f"  {p.file}:{p.line} step {p.step} prompt {p.prompt}: {p.message} "
        f"(answer {p.answer!r}, live {p.expected!r})"
        for p in result.prompts if not p.passed
    )
    assert result.passed, f"{lesson.id}: {result.status} {result.reason}\n{failures}"
    if result.status == "skipped":
        pytest.skip(result.reason)


# ------------------------------------------------------------------ course structure


def test_coverage_table_names_existing_lessons() -> None:
    rows = coverage_rows()
    assert rows, "no coverage table found in lessons/README.md"
    for item, ids in rows:
        assert ids, f"digest item {item} has no lesson"
        unknown = [i for i in ids if i not in IDS]
        assert not unknown, f"digest item {item} names unknown lessons {unknown}"


def test_every_course_lesson_is_in_the_coverage_table() -> None:
    named = {i for _, ids in coverage_rows() for i in ids}
    named |= {i for _, ids in beyond_rows() for i in ids}
    missing = sorted(x.id for x in COURSE if x.id not in named)
    assert not missing, (
        "lessons missing from lessons/README.md (the digest coverage table, or the "
        f"'Beyond the seeds' table for packs past the seed posts): {missing}"
    )


def test_beyond_the_seeds_rows_list_their_pack_in_course_order() -> None:
    """Each row of "Beyond the seeds" names an existing pack and exactly its lessons, in
    the order of the pack's manifest."""
    for pack, ids in beyond_rows():
        manifest = LESSONS / pack / PACK_FILE
        assert manifest.is_file(), f"'Beyond the seeds' names {pack!r}, which has no {PACK_FILE}"
        listed = yaml.safe_load(manifest.read_text(encoding="utf-8")).get("lessons") or []
        assert ids == listed, f"'Beyond the seeds' row for {pack}: {ids} != manifest {listed}"


def test_coverage_table_items_are_unique_and_complete() -> None:
    items = [item for item, _ in coverage_rows()]
    assert len(items) == len(set(items)), "duplicate digest items in the coverage table"
    for post in ("000", "001", "002", "003", "004"):
        assert any(i.startswith(post + ".") for i in items), f"no row for seed post {post}"


def manifests() -> list[Path]:
    return sorted(LESSONS.rglob(PACK_FILE))


@pytest.mark.parametrize("manifest", manifests(), ids=lambda p: p.parent.name)
def test_pack_manifest_lists_existing_lessons_of_its_own_pack(manifest: Path) -> None:
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    listed = data.get("lessons") or []
    assert len(listed) == len(set(listed)), f"{manifest}: a lesson is listed twice"
    here = {x.id for x in ALL if manifest.parent in x.file.resolve().parents}
    unknown = [i for i in listed if i not in IDS]
    assert not unknown, f"{manifest}: unknown lesson ids {unknown}"
    elsewhere = [i for i in listed if i not in here]
    assert not elsewhere, f"{manifest}: lists lessons of another pack {elsewhere}"
    if manifest.parent not in NOT_IN_COURSE:
        assert set(listed) == here, f"{manifest}: not listed: {sorted(here - set(listed))}"


def test_pack_orders_are_unique() -> None:
    orders = [yaml.safe_load(m.read_text(encoding="utf-8")).get("order") for m in manifests()]
    assert len(orders) == len(set(orders)), f"two packs share an order: {orders}"
