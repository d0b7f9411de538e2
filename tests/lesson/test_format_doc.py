"""docs/lesson-format.md says what the format does (issue 30): its first example's
modeline is the one `tutor new` writes, its `requires:` example on prompts validates,
and it states where a pack without `order:` goes in the course."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import yaml

from tutor.authoring.schema import COPY_DIR, lesson_schema
from tutor.lesson import load_catalog

LESSON = "id: {id}\ntitle: T\ntopic: t\nsteps:\n  - code: x = 1\n"
SECOND_PACK = "dtypes/"  # lessons/02-dtypes-numpy: order 2
DOC = Path(__file__).resolve().parents[2] / "docs" / "lesson-format.md"


def _yaml_blocks() -> list[str]:
    return re.findall(r"^```yaml\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_first_example_points_at_a_schema_path_a_user_has():
    """`tutor new` writes `.schema/lesson.schema.json` into a pack; the example must not
    point at a path that exists only inside tutor's own repository."""
    first = _yaml_blocks()[0].splitlines()[0]
    assert first == f"# yaml-language-server: $schema={COPY_DIR}/lesson.schema.json"


def test_the_per_question_requires_example_is_valid():
    block = next(b for b in _yaml_blocks() if "requires: {torch:" in b)
    prompts = yaml.safe_load(block)["predict"]
    lesson = {"id": "a/b", "title": "t", "topic": "t",
              "steps": [{"code": "torch.manual_seed(2**64)", "predict": prompts}]}
    assert not list(jsonschema.Draft7Validator(lesson_schema()).iter_errors(lesson))
    assert [p["requires"]["torch"] for p in prompts] == ["<2.9", ">=2.9"]


def test_the_doc_states_where_a_pack_without_order_goes(tmp_path: Path):
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "A pack **without `order:`** (what `tutor new` writes) comes after every pack " \
        "with one" in text
    # ... and so it does: after the bundled course; `order: 1` puts it at the start
    mine = tmp_path / "a_mine"
    mine.mkdir()
    (mine / "pack.yaml").write_text("title: Mine\n")
    (mine / "one.yaml").write_text(LESSON.format(id="mine/one"))
    course = [x.id for x in load_catalog([tmp_path], with_env=False, with_bundled=True).lessons]
    bundled_last = max(i for i, x in enumerate(course) if not x.startswith("mine/"))
    assert course.index("mine/one") > bundled_last
    (mine / "pack.yaml").write_text("title: Mine\norder: 1\n")
    course = [x.id for x in load_catalog([tmp_path], with_env=False, with_bundled=True).lessons]
    second = next(i for i, x in enumerate(course) if x.startswith(SECOND_PACK))
    assert course.index("mine/one") < second  # (with pack 1: the same order, by path)


def test_the_variant_requires_example_is_valid():
    from tutor.lesson.vary import expand, row_requires

    block = next(b for b in _yaml_blocks() if "requires: {torch:" in b and "vary:" in b)
    spec = yaml.safe_load(block)["vary"]
    assert expand(spec) == ((("dt", "torch.bfloat16"),), (("dt", "torch.float16"),))
    assert row_requires(spec) == [((("dt", "torch.float16"),), {"torch": ">=2.4"})]


def test_the_rule_for_expect_names_every_outcome_kind_and_only_those():
    # the message is one literal (so that it is translated): it must follow the registry
    from tutor.kinds import KINDS, OUTCOME_KINDS
    from tutor.lesson.format import PROMPT_RULES

    message = PROMPT_RULES[0].message
    assert "needs an `expect` expression" in message
    named = {k for k in KINDS if re.search(rf"\b{k}\b", message.split("(only", 1)[1])}
    assert named == set(OUTCOME_KINDS)


def test_a_missing_kind_is_said_briefly_with_every_kind_named(tmp_path: Path):
    # the field's description lists every kind with its own description (the JSON
    # Schema's); the message for a missing `kind:` names them, in one literal
    from tutor.kinds import KINDS
    from tutor.lesson.format import PROMPT
    from tutor.lesson.loader import LessonError, load_lesson

    brief = PROMPT.fields["kind"].brief
    assert {k for k in KINDS if re.search(rf"\b{k}\b", brief)} == set(KINDS)
    path = tmp_path / "l.yaml"
    path.write_text(LESSON.format(id="a/b") + "    predict:\n      - ask: Q?\n"
                    "        expect: x\n", encoding="utf-8")
    try:
        load_lesson(path)
    except LessonError as exc:
        said = str(exc)
    assert "missing required key 'kind': add `kind:` (What kind of prediction: number, " \
        in said and "see docs/judging.md)" in said and "A single number" not in said
