"""The kind registry: one record per kind, the data the lesson schema and the answer
entry read, and what the judge needs to know of each kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from judge_obs import NONE, exc, f, keys, s, seq, t

from tutor.judge import REGISTRY, JudgeSpec, entry_examples, gives_away, judge
from tutor.kinds import ENTRIES, KINDS, OUTCOME_KINDS


def test_one_record_per_kind_feeds_the_schema_and_the_outcome_kinds() -> None:
    assert list(KINDS) == list(REGISTRY)
    assert KINDS == {name: kind.description for name, kind in REGISTRY.items()}
    assert OUTCOME_KINDS == {"exception", "stdout"}


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_kind_says_what_its_entry_shows(name: str) -> None:
    kind = REGISTRY[name]
    assert kind.name == name and kind.description and kind.label and kind.how
    assert kind.entry in ENTRIES
    assert kind.examples or kind.entry in ("yes_no", "choice", "lines")
    for example in kind.examples:  # each example reads as an answer of its kind
        spec = JudgeSpec(name)
        assert judge(spec, example, NONE).status.value != "invalid", example


@pytest.mark.parametrize("name", [n for n, k in REGISTRY.items() if k.entry == "items"])
def test_an_items_entry_says_how_to_type_an_empty_one(name: str) -> None:
    """A learner who knows there are no items must be told how to say so: the label
    (shown by the app, `tutor play` and the flow alike) says `[]`, and `[]` is read
    as the empty collection."""
    kind = REGISTRY[name]
    assert "[] for none" in kind.label
    assert judge(JudgeSpec(name), "[]", keys()).status.value == "correct"


@pytest.mark.parametrize(
    ("kind", "live", "hidden"),
    [("number", f(3.5), {"3.5", "tensor(3.5)"}), ("number", f(-0.25), {"-0.25"}),
     ("dtype", {"type": "dtype", "value": "float16"}, {"torch.float16", "float16", "half"}),
     ("exception", exc("TypeError"), {"TypeError"}), ("set", keys(), {"[]"}),
     # a set/list example sharing an item with the answer is left out too
     # ... and so are examples of numbers where the items are names
     ("set", keys("w"), {"['w', 'v']", "[7, 1]", "0.5, 4", "6, 8"}),
     ("list", seq("list", s("b")), {"'a', 'b'", "[7, 1]", "0.5, 4", "(3, 2)", "(8, 5)"}),
     ("shape", {"type": "size", "value": []}, {"()"}),
     ("tensor", t([[1, 0], [0, 1]], [2, 2], dtype="int64"), {"[[1, 0], [0, 1]]"})],
)
def test_entry_examples_leave_out_this_questions_answer(kind: str, live: dict,
                                                        hidden: set[str]) -> None:
    spec = JudgeSpec(kind)
    shown = entry_examples(spec, live)
    assert set(REGISTRY[kind].examples) - set(shown) == hidden
    assert entry_examples(spec) == list(REGISTRY[kind].examples)  # before the step has run
    assert not gives_away(spec, live, ", ".join(shown))
    assert gives_away(spec, live, "e.g. " + ", ".join(REGISTRY[kind].examples))


def test_items_examples_are_numbers_for_numbers_and_names_for_names() -> None:
    """A stride tuple is not typed like a list of keys: its examples are numbers."""
    stride = seq("tuple", {"type": "int", "value": 5})
    shown = entry_examples(JudgeSpec("list"), stride)
    assert shown == ["[7, 1]", "(3, 2)", "[]"]  # whole numbers, as strides are; none with 5
    assert all(not any(c.isalpha() for c in e) for e in shown)
    names = entry_examples(JudgeSpec("set"), keys("fc.weight"))
    assert names == ["['w', 'v']", "x, y", "'a', 'b'", "['m', 'n']", '"s", "t"', "[]"]
    # a mixed or unknown value keeps every example that is not right
    mixed = seq("list", s("a"), {"type": "int", "value": 9})
    assert len(entry_examples(JudgeSpec("list"), mixed)) == len(REGISTRY["list"].examples) - 1


def test_gives_away_finds_a_right_phrase_in_a_sentence() -> None:
    spec = JudgeSpec("text")
    live = {"type": "grad_fn", "name": "SinBackward0"}
    assert gives_away(spec, live, "case counts, e.g. SinBackward0")
    assert not gives_away(spec, live, "e.g. float16, Linear")
    assert not gives_away(JudgeSpec("nonsense"), s("x"), "x")


def test_a_pick_of_examples_is_stable_and_not_always_the_first() -> None:
    spec, live = JudgeSpec("number"), f(3.5)
    pool = entry_examples(spec, live)
    picks = {tuple(entry_examples(spec, live, 3, seed=str(i))) for i in range(40)}
    assert all(len(p) == 3 and set(p) <= set(pool) for p in picks)
    assert len(picks) > 1 and all(list(p) == [e for e in pool if e in p] for p in picks)
    assert entry_examples(spec, live, 3, seed="q") == entry_examples(spec, live, 3, seed="q")


@pytest.mark.parametrize("value", [0.25, -3.5, 7.0])
def test_number_examples_never_show_the_answer_with_its_sign_flipped(value: float) -> None:
    """-0.25 under a question whose answer is 0.25 is nearly the answer (reader r16)."""
    shown = entry_examples(JudgeSpec("number"), f(value))
    assert shown and all(judge(JudgeSpec("number"), e, f(-value)).status.value != "correct"
                         for e in shown), shown


def test_text_examples_are_node_names_only_for_a_node_name() -> None:
    """`SinBackward0 · float16 · Linear` under "what is the name of z.grad_fn?" mixes
    sorts (reader r19): a node's name gets node names, anything else the others."""
    node = entry_examples(JudgeSpec("text"), {"type": "grad_fn", "name": "SubBackward1"})
    assert len(node) >= 2 and all(e.endswith(("Backward0", "Grad", "Slices")) for e in node)
    other = entry_examples(JudgeSpec("text"), {"type": "str", "value": "weight"})
    assert other and not any(e.endswith(("Backward0", "Backward1", "Grad", "Slices"))
                             for e in other)


def test_node_name_examples_do_not_show_the_answers_number() -> None:
    """Under "what does torch print, LogBackward or LogBackward0?", examples such as
    `SinBackward0 · ExpBackward0` answer it (reader r30); they never end as the answer does."""
    for name in ("LogBackward0", "SumBackward1"):
        shown = entry_examples(JudgeSpec("text"), {"type": "grad_fn", "name": name})
        assert len(shown) >= 2 and not any(e.endswith(name[-9:]) for e in shown), shown


def test_no_node_name_example_is_a_bundled_lessons_answer() -> None:
    """A node name shown as an example on one screen must not be the answer a few
    screens on (reader r34 saw `SumBackward1` under grad-fn-names Q1, Q2's answer)."""
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    answers = set()
    for file in lessons.rglob("*.yaml"):
        answers |= set(re.findall(r"answer: \"?([A-Za-z]+Backward\d+)", file.read_text("utf-8")))
    assert answers and not answers & set(REGISTRY["text"].examples)


def test_examples_are_never_a_foreseen_mistake() -> None:
    """An example that is one of the prompt's feedback keys (a likely wrong answer)
    nudges toward it (reader r33 saw `3.5`, the very mistake asked about)."""
    plain = entry_examples(JudgeSpec("number"), {"type": "float", "value": 99.0})
    assert "0.125" in plain
    spec = JudgeSpec("number", feedback=(("0.125", "That is the mean of one batch."),))
    shown = entry_examples(spec, {"type": "float", "value": 99.0})
    assert shown and "0.125" not in shown
    # so is a `wrong:` answer without feedback (issue 27: foreseen mistakes)
    shown = entry_examples(JudgeSpec("number", wrong=("1/8",)), {"type": "float", "value": 99.0})
    assert shown and "0.125" not in shown


def test_examples_for_whole_numbers_are_whole_numbers() -> None:
    """A stride is a whole number: `0.5, 4` under `m.stride()` suggests it need not be
    (reader r30)."""
    strides = {"type": "tuple", "items": [{"type": "int", "value": 3}, {"type": "int", "value": 1}]}
    for kind in ("list", "set"):
        shown = entry_examples(JudgeSpec(kind), strides)
        assert len(shown) >= 2 and not any("." in e or "'" in e for e in shown), (kind, shown)


def test_exception_examples_do_not_betray_the_answer_by_their_number() -> None:
    """Three examples whether or not the answer is one of the pool's names: with a pool of
    four, the one left out of `IndexError · KeyError` was the answer (reader r40)."""
    for name in ("TypeError", "RuntimeError", "KeyError"):
        shown = entry_examples(JudgeSpec("exception"), exc(name), 3, seed="s")
        assert len(shown) == 3 and name not in shown, (name, shown)
