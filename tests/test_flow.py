"""The lesson engine behind the app and `tutor play` (`tutor.flow`), and the course
(`tutor.course`), without a kernel: step outcomes are built by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tutor.course import (
    best_scores,
    cannot_run,
    continue_point,
    course_lessons,
    course_progress,
    next_unfinished,
)
from tutor.engine import StepOutcome
from tutor.flow import LessonFlow, Tally, choice_labels, entry_text
from tutor.kinds import KINDS, REGISTRY
from tutor.lesson import load_catalog, load_lesson
from tutor.lesson.model import Lesson
from tutor.markup import plural
from tutor.progress import Attempt, LessonProgress

UI = Path(__file__).resolve().parent / "data" / "ui"
BASICS = UI / "lessons" / "basics.yaml"


def s(v: str) -> dict[str, Any]:
    return {"type": "str", "value": v}


# the live values of the fixture lesson ui/basics, as the kernel observes them
LIVE = [
    [{"type": "float", "value": 12.0}, {"type": "list", "items": [s("a"), s("b"), s("c")]}],
    [{"type": "bool", "value": True}, s("floats")],
]


def ran(flow: LessonFlow) -> None:
    """Hand the flow its current step's outcome, as a front end does after running it."""
    step = flow.step
    flow.outcome = StepOutcome(step, stdout="step one ran\n", observations=LIVE[step.index])


@pytest.fixture
def lesson() -> Lesson:
    return load_lesson(BASICS)


def test_a_whole_lesson_in_order(lesson: Lesson) -> None:
    flow = LessonFlow(lesson)
    assert flow.total_prompts == 4 and flow.position == (0, 0) and flow.question_number == 1
    ran(flow)
    assert flow.judge("abc").status == "invalid" and not flow.state.answered  # not counted
    assert flow.hint() == "Double each element, then add."
    wrong = flow.judge("6")
    assert wrong.status == "incorrect" and wrong.attempt is not None
    assert (wrong.attempt.step, wrong.attempt.prompt, wrong.attempt.hints) == (0, 0, 1)
    assert wrong.verdict is not None and "sum of `x`" in (wrong.verdict.feedback or "")
    assert flow.can_retry and not flow.step_answered
    flow.retry()
    assert flow.judge("12").status == "correct" and not flow.can_retry
    assert flow.more_in_step and flow.advance() == "question"
    assert flow.question_number == 2 and flow.outcome is not None  # same step: same outcome
    assert flow.judge("c, b, a").status == "partial"
    assert flow.step_answered and not flow.more_in_step
    assert flow.resume_point() == (1, 0)
    assert flow.advance() == "step" and flow.outcome is None  # the front end runs step 2
    ran(flow)
    assert flow.judge("yes").status == "correct"
    flow.advance()
    revealed = flow.reveal()
    assert revealed.status == "revealed" and revealed.live == "floats"
    assert revealed.attempt is not None and revealed.attempt.verdict == "revealed"
    assert not flow.can_retry and flow.at_end
    assert flow.resume_point() == (2, 0)  # past the end: the lesson is finished
    assert flow.advance() == "end"
    tally = flow.tally()
    assert tally == Tally(correct=2, partial=1, incorrect=0, revealed=1, answered=4, total=4)
    assert tally.text() == "2 of 4 right, 1 partly right, 1 revealed"


def test_a_resumed_sitting_counts_every_answer_of_the_lesson(lesson: Lesson) -> None:
    """Quit after two answers, come back: the end counts all four questions."""
    history = [Attempt("ui/basics", 0, 0, "6", "incorrect", run="r1"),
               Attempt("ui/basics", 0, 0, "12", "correct", run="r1"),
               Attempt("ui/basics", 0, 1, "a, b, c", "correct", run="r1"),
               Attempt("other/lesson", 0, 0, "1", "correct", run="r1")]
    flow = LessonFlow(lesson, (1, 0), "r1", history)
    assert flow.position == (1, 0) and flow.question_number == 3
    assert flow.states[(0, 0)].attempts == 2 and flow.states[(0, 0)].outcome == "correct"
    ran(flow)
    flow.judge("yes")
    flow.advance()
    flow.judge("integers")
    assert flow.tally().text() == "3 of 4 right, 1 wrong"


def test_a_resume_without_records_still_counts_the_questions_as_answered(
        lesson: Lesson) -> None:
    flow = LessonFlow(lesson, (1, 1))
    assert flow.position == (1, 1) and flow.question_number == 4
    assert flow.states[(0, 0)].answered and flow.states[(1, 0)].answered
    assert not flow.step_answered and flow.resume_point() == (1, 1)
    assert flow.tally().answered == 3
    assert LessonFlow(lesson, (9, 0)).position == (0, 0)  # past the end: from the start


def test_a_stopped_lesson_says_what_is_open(lesson: Lesson) -> None:
    flow = LessonFlow(lesson)
    ran(flow)
    flow.judge("12")
    assert flow.tally().text() == "1 of 4 right; 3 not answered"


def test_ask_one_question_again_after_replaying_the_steps_before_it(lesson: Lesson) -> None:
    """A review asks only some questions; the front end runs the steps before them."""
    flow = LessonFlow(lesson, only=[(1, 1)])
    assert flow.position == (1, 1) and flow.total_prompts == 1 and not flow.whole
    assert flow.question_number == 1
    ran(flow)
    answer = flow.judge("floats")
    assert answer.status == "correct" and answer.attempt is not None
    assert (answer.attempt.step, answer.attempt.prompt) == (1, 1)
    assert flow.step_answered and flow.advance() == "end"
    assert flow.tally().text() == "1 of 1 right"


def test_steps_without_questions_are_stops_of_their_own(tmp_path: Path) -> None:
    path = tmp_path / "quiet.yaml"
    path.write_text("id: t/quiet\ntitle: Quiet\ntopic: t\nsteps:\n  - code: x = 1\n"
                    "  - code: y = x\n    predict:\n      - ask: y?\n        kind: number\n"
                    "        expect: y\n        answer: '1'\n")
    flow = LessonFlow(load_lesson(path))
    assert flow.prompt is None and flow.step_answered and flow.question_number == 0
    assert flow.advance() == "step" and flow.question_number == 1 and flow.total_prompts == 1


def test_the_entry_never_rules_out_an_answer() -> None:
    """Every kind says what it reads, the same for every question of the kind, and
    that None (or for exceptions: no error; for output: nothing; for items: [], which
    None also means there) is an answer too."""
    for kind in KINDS:
        said = REGISTRY[kind].label
        if kind in ("bool", "same_storage", "choice"):
            continue
        other = {"exception": "no error", "stdout": "nothing", "set": "[] for none",
                 "list": "[] for none"}.get(kind, "None")
        assert other in said, kind
        assert "(" + kind + ")" not in entry_text(kind), kind  # no internal kind names
    assert entry_text("number", ["7", "0.125"]) == "a number, or None · e.g. 7 · 0.125"
    # what the label names is not an example again (reader r32: "or: no error · e.g. ...
    # TypeError · no error")
    assert entry_text("exception", ["TypeError", "no error"]) == \
        "the exception's name, or: no error · e.g. TypeError"


@pytest.mark.parametrize(("live", "kind"), [
    ({"type": "float", "value": 3.5}, "number"),
    ({"type": "float", "value": 7.0}, "number"),
    ({"type": "none"}, "number"),
    ({"type": "str", "value": "float16"}, "dtype"),
    ({"type": "exception", "name": "IndexError", "message": "", "mro": ["IndexError"]},
     "exception"),
])
def test_examples_under_the_entry_are_never_this_questions_answer(
        tmp_path: Path, live: dict[str, Any], kind: str) -> None:
    path = tmp_path / "one.yaml"
    expect = "" if kind == "exception" else "\n        expect: v"
    path.write_text(f"id: t/one\ntitle: One\ntopic: t\nsteps:\n  - code: v = 1\n    predict:\n"
                    f"      - ask: v?\n        kind: {kind}{expect}\n        answer: x\n")
    flow = LessonFlow(load_lesson(path))
    flow.outcome = StepOutcome(flow.step, observations=[live])
    shown = flow.entry_examples()
    assert shown and len(shown) <= 3 and set(shown) <= set(REGISTRY[kind].examples)
    assert not any(flow.gives_away(e) for e in shown)
    assert shown == flow.entry_examples()  # stable for the question


@pytest.mark.parametrize(("kind", "live"), [
    ("set", {"type": "set", "items": [s("w")]}),
    ("list", {"type": "list", "items": [s("b")]}),
    ("exception", {"type": "exception", "name": "IndexError", "message": "",
                   "mro": ["IndexError"]}),
])
def test_the_entry_shows_three_examples_the_label_does_not_name(
        tmp_path: Path, kind: str, live: dict[str, Any]) -> None:
    """`[]` (or `no error`) is in the label; dropped after the pick, it left two examples
    on some questions and three on others."""
    label = REGISTRY[kind].label
    expect = "" if kind == "exception" else "\n        expect: v"
    for n in range(12):  # twelve questions, twelve picks
        path = tmp_path / f"q{n}.yaml"
        path.write_text(f"id: t/q{n}\ntitle: Q\ntopic: t\nsteps:\n  - code: v = 1\n"
                        f"    predict:\n      - ask: v?\n        kind: {kind}{expect}\n"
                        f"        answer: x\n")
        flow = LessonFlow(load_lesson(path))
        flow.outcome = StepOutcome(flow.step, observations=[live])
        shown = flow.entry_examples()
        assert len(shown) == 3 and not any(e in label for e in shown), shown


def test_plurals() -> None:
    assert plural(1, "step") == "1 step" and plural(2, "step") == "2 steps"
    assert plural(0, "question") == "0 questions"


# ---------------------------------------------------------------- the course
def catalog_with_samples():
    # the bundled catalog: `samples` (order 0) is outside the course
    return load_catalog([], with_env=False, with_bundled=True)


def test_samples_are_outside_the_course_but_still_in_the_catalog() -> None:
    catalog = catalog_with_samples()
    course = course_lessons(catalog)
    ids = [x.id for x in course]
    assert "samples/accumulate" in [x.id for x in catalog.lessons]
    assert not any(i.startswith("samples/") for i in ids)
    first, where = continue_point(catalog, {}, None)
    assert first is course[0] and where == (0, 0)  # a first-time learner: the course
    # a sample played last is not where "continue" goes
    tried = {"samples/memory": LessonProgress("samples/memory", "tried", 1, 0)}
    assert continue_point(catalog, tried, "samples/memory")[0] is course[0]
    assert course_progress(catalog, {}).text() == f"0 of {len(course)} lessons done"


def test_continue_and_next_unfinished() -> None:
    catalog = catalog_with_samples()
    course = course_lessons(catalog)
    a, b, c = course[0], course[1], course[2]
    where = (len(b.steps) - 1, 0)
    progress = {a.id: LessonProgress(a.id, "done", len(a.steps), 0),
                b.id: LessonProgress(b.id, "tried", *where)}
    assert continue_point(catalog, progress, a.id) == (b, where)
    assert next_unfinished(catalog, progress, a.id) is b
    progress[b.id] = LessonProgress(b.id, "perfect", len(b.steps), 0)
    assert next_unfinished(catalog, progress, a.id) is c  # finished ones are skipped
    # mid-course, never "the last lesson": wraps round to an earlier unfinished one
    last = course[-1]
    assert next_unfinished(catalog, {}, last.id) is course[0]
    everything = {x.id: LessonProgress(x.id, "done") for x in course}
    assert next_unfinished(catalog, everything, last.id) is None
    assert course_progress(catalog, everything).text() == \
        f"{len(course)} of {len(course)} lessons done"
    # after a sample: the rest of the samples, then the course
    samples = [x for x in catalog.lessons if x.id.startswith("samples/")]
    assert next_unfinished(catalog, {}, samples[0].id) is samples[1]
    assert next_unfinished(catalog, {}, samples[-1].id) is course[0]


def test_lessons_the_kernel_cannot_run_are_kept_off_the_course_path() -> None:
    catalog = catalog_with_samples()
    course = course_lessons(catalog)
    cuda = [x.id for x in course if x.requires.cuda]
    assert cuda  # the bundled CUDA pack
    # before the kernel has said what it has, nothing is skipped
    assert cannot_run(catalog, {}) == {}
    cpu = cannot_run(catalog, {"torch": "2.13.0", "python": "3.11.9", "cuda": False})
    assert sorted(cpu) == sorted(cuda)
    assert all("CUDA" in why for why in cpu.values())
    assert cannot_run(catalog, {"torch": "2.13.0", "python": "3.11.9", "cuda": True}) == {}
    # an old torch: the lessons that need a newer one are named, with the version
    old = cannot_run(catalog, {"torch": "1.0.0", "python": "3.11.9", "cuda": True})
    assert old and all("this kernel has torch 1.0.0" in why for why in old.values())
    # counted, continued and offered without them
    runnable = course_lessons(catalog, cpu)
    assert len(runnable) == len(course) - len(cuda) and not set(cpu) & {x.id for x in runnable}
    everything = {x.id: LessonProgress(x.id, "done") for x in runnable}
    assert course_progress(catalog, everything, cpu).text() == \
        f"{len(runnable)} of {len(runnable)} lessons done"
    assert next_unfinished(catalog, everything, runnable[-1].id, cpu) is None
    before_cuda = course[course.index(catalog.get(cuda[0])) - 1]
    rest = {k: v for k, v in everything.items() if k != runnable[0].id}
    assert next_unfinished(catalog, rest, before_cuda.id, cpu) is runnable[0]  # wraps, no CUDA
    assert continue_point(catalog, rest, cuda[0], cpu)[0] is runnable[0]
    # after a CUDA lesson opened anyway: the course, not the rest of its pack
    assert next_unfinished(catalog, {}, cuda[0], cpu) is runnable[0]
    # a kernel that can run nothing: "continue" still goes somewhere (the lesson says why)
    assert continue_point(catalog, {}, None, {x.id for x in catalog.lessons})[0] is course[0]


def test_best_scores_count_the_best_sitting() -> None:
    attempts = [Attempt("l", 0, 0, "1", "incorrect", run="a"),
                Attempt("l", 0, 0, "2", "correct", run="a"),  # a retry that got it right
                Attempt("l", 0, 1, "x", "revealed", run="a"),
                Attempt("l", 0, 0, "2", "correct", run="b"),
                Attempt("l", 0, 1, "y", "correct", run="b"),
                Attempt("m", 0, 0, "3", "partial", run="c")]
    assert best_scores(attempts) == {"l": 2, "m": 0}


def test_a_sitting_draws_its_own_values_of_a_lesson_with_variants(tmp_path: Path) -> None:
    """`vary:`: each sitting shows the values its run id draws (the same when it resumes),
    and its answers carry them."""
    path = tmp_path / "vary.yaml"
    path.write_text("id: t/vary\ntitle: Vary\ntopic: t\nvary: {x: [2, 3, 5, 7]}\nsteps:\n"
                    "  - code: y = {{x}} * 2\n    predict:\n      - ask: y?\n"
                    "        kind: number\n        expect: y\n        answer: '{{x * 2}}'\n")
    lesson = load_lesson(path)
    drawn = {LessonFlow(lesson, run_id=f"r{i}").lesson.variant for i in range(20)}
    assert len(drawn) > 1  # new sittings, new values
    flow = LessonFlow(lesson, run_id="r1")
    again = LessonFlow(lesson, run_id="r1")
    assert flow.lesson.variant == again.lesson.variant  # a resumed sitting: the same values
    x = int(dict(flow.lesson.variant)["x"])  # (values are kept as written)
    assert flow.step.code.strip() == f"y = {x} * 2"
    flow.outcome = StepOutcome(flow.step, observations=[{"type": "int", "value": 2 * x}])
    answer = flow.judge(str(2 * x))
    assert answer.status == "correct" and answer.attempt is not None
    assert answer.attempt.variant == flow.lesson.variant


def _choice_lesson(tmp_path: Path, choices: list[str]) -> Lesson:
    path = tmp_path / "pick.yaml"
    path.write_text(
        "id: t/pick\ntitle: Pick\ntopic: t\nlevel: 1\nsteps:\n  - code: x = 3\n    predict:\n"
        "      - ask: Which is x?\n        kind: choice\n        expect: x\n"
        f"        choices: {choices!r}\n        answer: '3'\n"
        "        explain: It is 3.\n", encoding="utf-8")
    return load_lesson(path)


def test_choices_whose_texts_are_whole_numbers_are_marked_by_letter(tmp_path: Path) -> None:
    """A typed number means a choice's text where some text is a whole number, so the
    front ends must not offer numbers as positions there (play showed '1. 7')."""
    numeric = _choice_lesson(tmp_path, ["1", "7", "3"]).steps[0].prompts[0]
    assert choice_labels(numeric) == ["a", "b", "c"]
    worded = _choice_lesson(tmp_path, ["three", "seven"]).steps[0].prompts[0]
    assert choice_labels(worded) == ["1", "2"]


def test_play_shows_letters_before_number_choices(tmp_path: Path) -> None:
    import io

    from tutor.commands.play import Player

    lesson = _choice_lesson(tmp_path, ["1", "7", "3"])
    out = io.StringIO()
    player = Player(lesson, out, None)
    player.ask(lesson.steps[0].prompts[0], io.StringIO(""))
    shown = out.getvalue()
    assert "a. 1" in shown and "c. 3" in shown and "1. 1" not in shown
