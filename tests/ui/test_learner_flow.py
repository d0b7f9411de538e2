"""What a learner meets between questions: earlier code in view, the verdict and the
whole explanation in view at 80x24, retries, resuming, the next lesson, global keys,
and starting over."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static, TextArea
from ui_helpers import answer, in_view, open_first_lesson, text_of, verdict_text, wait_for

from tutor.kinds import REGISTRY
from tutor.lesson import load_catalog
from tutor.progress import ProgressStore
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.confirm import Confirm
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel
SMALL = (80, 24)

LONG = """\
id: ui/long
title: A long model
topic: testing
intro: |
  A lesson with **much** code and a long explanation, to check what is on screen
  at 80x24.
steps:
  - code: |
      import torch.nn as nn
      class Inner(nn.Module):
          def __init__(self):
              super().__init__()
              self.scale = nn.Parameter(torch.tensor(2.0))
          def forward(self, x):
              return x * self.scale
      class Outer(nn.Module):
          def __init__(self):
              super().__init__()
              self.first = Inner()
              self.second = Inner()
          def forward(self, x):
              return self.second(self.first(x))
      model = Outer()
      first_name = "first"
    predict:
      - ask: How many parameters does `model` have?
        kind: number
        expect: len(list(model.parameters()))
        answer: "2"
        feedback:
          "1": Each `Inner` registers its own `scale`.
        explain: |
          `Outer` registers two children, `first` and `second`, because assigning a
          Module to an attribute goes through `nn.Module.__setattr__`. Each child
          registers its own `scale` Parameter the same way, so `model.parameters()`
          walks both children and yields two tensors. Nothing is shared: each call
          to `Inner()` builds a new Parameter. The walk goes depth first, in the
          order the attributes were assigned, so `first.scale` comes before
          `second.scale`. This is also the order of `state_dict()` keys.
  - code: |
      y = model(torch.tensor(3.0))
    predict:
      - ask: What is `y`, with the model from step 1?
        kind: number
        expect: y
        answer: "12"
        explain: 3 × 2 × 2 = 12.
"""

PRINTS = """\
id: ui/prints
title: Printing
topic: testing
steps:
  - code: |
      print("pre forward")
      print("post")
    predict:
      - ask: What does the step print?
        kind: stdout
        answer: "pre forward\\npost"
        explain: Two print calls, two lines.
"""


def catalog_of(tmp_path: Path, *texts: str):
    for n, text in enumerate(texts):
        (tmp_path / f"lesson{n}.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "pack.yaml").write_text("title: Test pack\norder: 1\n", encoding="utf-8")
    catalog = load_catalog([tmp_path], with_env=False, with_bundled=False)
    assert not catalog.errors, catalog.problems
    return catalog


async def test_earlier_steps_code_stays_on_screen(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        earlier = screen.query_one("#earlier")
        assert not earlier.display  # step 1: nothing earlier
        await answer(pilot, "12")
        await pilot.press("n")
        await answer(pilot, "a, b, c")
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking", what="step 2")
        code = text_of(screen, "#earlier-code")
        assert earlier.display and "x = torch.tensor([1., 2., 3.])" in code
        assert 'names = ["a", "b", "c"]' in code
        assert "Step 1 (ran before)" in str(earlier.title)
        assert "▶ Step 2 of 2" in text_of(screen, "#step-label")
        assert "z = y.view(3)" in screen.code_pane.code_text
        body = screen.query_one("#lesson-body")
        # at 80x24 the question, the current code and the earlier code are all in view
        for selector in ("#ask", "#code", "#earlier-code", "#step-label"):
            assert in_view(screen.query_one(selector), body), selector
        await pilot.press("f2")  # earlier steps fold away, and come back
        assert earlier.collapsed
        await pilot.press("f2")
        assert not earlier.collapsed


async def test_verdict_and_whole_explanation_in_view_at_80x24(kernel, make_app,
                                                              tmp_path) -> None:
    app = make_app(kernel, catalog=catalog_of(tmp_path, LONG))
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        body = screen.query_one("#lesson-body")
        assert in_view(screen.query_one("#ask"), body)
        assert in_view(screen.query_one("#text-entry"), body)
        await answer(pilot, "1")
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        await pilot.pause(0.2)
        for selector in ("#verdict-title", "#verdict-values", "#verdict-feedback",
                         "#verdict-explain", "#ask"):
            assert in_view(screen.query_one(selector), body), selector
        assert "state_dict() keys" in verdict_text(screen)  # the explanation's last line
        # the question of step 2 is answered from step 1's code, still on screen
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking", what="step 2")
        await pilot.pause(0.6)  # (folding the intro once scrolled the question away)
        assert in_view(screen.query_one("#ask"), body)
        assert in_view(screen.query_one("#text-entry"), body)
        assert "self.scale = nn.Parameter" in text_of(screen, "#earlier-code")


async def test_retry_starts_from_the_old_answer_selected(kernel, make_app, tmp_path) -> None:
    app = make_app(kernel, catalog=catalog_of(tmp_path, PRINTS, LONG))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        listing = app.screen.query_one("#lessons", OptionList)
        listing.highlighted = [o.id for o in listing._options].index("ui/long")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="ui/long")
        screen = app.screen
        await pilot.press(*"1", "enter")
        await wait_for(pilot, lambda: screen.mode == "judged", what="a wrong answer")
        await pilot.press("r")
        entry = screen.query_one("#text-entry", Input)
        await wait_for(pilot, lambda: screen.mode == "asking" and screen.focused is entry,
                       what="the retry")
        assert entry.value == "1" and entry.selection == (0, 1)  # all selected
        await pilot.press("2", "enter")  # typing replaces the old answer
        await wait_for(pilot, lambda: screen.mode == "judged", what="the second verdict")
        assert "you said  2" in verdict_text(screen) and "Correct" in verdict_text(screen)
        await pilot.press("escape")

        # printed output: several lines; enter on an empty line submits
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        listing = app.screen.query_one("#lessons", OptionList)
        listing.highlighted = [o.id for o in listing._options].index("ui/prints")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="ui/prints")
        screen = app.screen
        assert REGISTRY["stdout"].label in text_of(screen, "#entry-label")
        await pilot.press(*"pre forward", "enter", *"pots", "enter", "enter")
        await wait_for(pilot, lambda: screen.mode == "judged", what="a wrong output")
        assert "you said  pre forward\n          pots" in verdict_text(screen)
        await pilot.press("r")
        area = screen.query_one("#stdout-entry", TextArea)
        await wait_for(pilot, lambda: screen.focused is area, what="the retry")
        assert area.selected_text == "pre forward\npots"
        await pilot.press(*"pre forward", "enter", *"post", "ctrl+s")
        await wait_for(pilot, lambda: screen.mode == "judged", what="the right output")
        assert "Correct" in verdict_text(screen)


async def test_a_resumed_lesson_ends_with_every_answer_counted(kernel, make_app,
                                                              tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        await answer(pilot, "6")  # wrong: 1 of the 4 answers is not right
        await pilot.press("n")
        await answer(pilot, "a, b, c")
        await pilot.press("escape")  # quit mid-lesson
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
    app2 = make_app(kernel)  # a new sitting, as after quitting the app
    async with app2.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app2.screen, CatalogScreen), what="catalog")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app2.screen, LessonScreen)
                       and app2.screen.mode == "asking", what="the resumed lesson")
        screen = app2.screen
        assert screen.flow.position == (1, 0)
        assert "question 3 of 4" in text_of(screen, "#lesson-title")
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.mode == "judged", what="Q3")
        await pilot.press("n", "1")
        await wait_for(pilot, lambda: screen.mode == "judged", what="Q4")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app2.screen, LessonDone), what="the end")
        done = str(app2.screen.query_one("#done-text", Static).render())
        assert "3 of 4 right, 1 wrong" in done


async def test_the_end_offers_the_next_unfinished_lesson(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.press("down", "enter")  # the last lesson of the course first
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="ui/next")
        assert app.screen.lesson.id == "ui/next"
        await pilot.press(*"2x3", "enter", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        nxt = str(app.screen.query_one("#done-next", Static).render())
        # not "the last lesson of the course": the first one is still unfinished
        assert "Next: UI basics" in nxt and "1 of 2 lessons done" in nxt
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.id == "ui/basics", what="ui/basics")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", what="its first step")
        for key in ("ctrl+r", "n", "ctrl+r", "n"):
            await pilot.press(key)
        await wait_for(pilot, lambda: screen.mode == "asking" and screen.flow.step_index == 1,
                       what="step 2")
        await pilot.press("ctrl+r", "n", "ctrl+r", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        nxt = str(app.screen.query_one("#done-next", Static).render())
        assert "finished every lesson of the course" in nxt and "2 of 2 lessons done" in nxt
        assert not app.screen.query("#next")


async def test_ctrl_k_restarts_the_kernel_from_the_entry(own_kernel, make_app) -> None:
    app = make_app(own_kernel)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        entry = screen.query_one("#text-entry", Input)
        assert screen.focused is entry
        kernel_pid = own_kernel.proc.pid
        await pilot.press(*"1", "ctrl+k")  # the entry's own ctrl+k does not swallow it
        await wait_for(pilot, lambda: own_kernel.proc.pid != kernel_pid, timeout=60,
                       what="a new kernel")
        await wait_for(pilot, lambda: screen.mode == "asking" and not screen.rebuilding,
                       timeout=120, what="the lesson rebuilt")
        await answer(pilot, "12")
        assert screen.flow.state.outcome == "correct"


async def test_global_keys_work_from_every_widget(kernel, make_app, tmp_path) -> None:
    app = make_app(kernel, catalog=catalog_of(tmp_path, PRINTS))
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        assert isinstance(screen.focused, TextArea)  # the printed-output box
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is screen and isinstance(screen.focused, TextArea)
        await pilot.press("ctrl+t")
        assert "No hint" in text_of(screen, "#hint-line")
        await pilot.press("ctrl+r", "ctrl+o")  # reveal, then the REPL
        await wait_for(pilot, lambda: screen.repl_focused, what="the REPL")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("escape", "escape")  # leave the REPL, then the lesson
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")


async def test_start_over_acts_on_the_lesson_it_names_and_asks_first(kernel, make_app,
                                                                     tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_first_lesson(pilot)
        first_run = screen.flow.run_id
        await answer(pilot, "12")
        await pilot.press("n")
        await answer(pilot, "a, b, c")
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking", what="step 2")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        catalog = app.screen
        # back in the catalog, the lesson just played is the one highlighted (and named)
        assert catalog.highlighted_lesson().id == "ui/basics"
        assert "UI basics" in text_of(catalog, "#detail-head")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        asked = str(app.screen.query_one("#confirm-text", Static).render())
        assert "Start “UI basics” over from step 1?" in asked and "step 2 of 2" in asked
        await pilot.press("enter")  # an enter out of habit: Cancel has the focus
        await wait_for(pilot, lambda: app.screen is catalog, what="cancelled")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is catalog, what="cancelled")
        await pilot.pause(0.3)
        assert (app.store.lesson("ui/basics").step, app.store.lesson("ui/basics").prompt) \
            == (1, 0)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="the lesson, from the top")
        assert app.screen.flow.position == (0, 0) and app.screen.flow.run_id != first_run
    with ProgressStore(tutor_home) as store:
        assert len(store.attempts("ui/basics")) == 2  # the history stays


async def test_catalog_scores_and_course_progress(kernel, make_app, tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        assert "Course: 0 of 2 lessons done" in text_of(app.screen, "#course-line")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="ui/next")
        await pilot.press(*"2x3", "enter", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await wait_for(pilot, lambda: "1 of 2" in text_of(app.screen, "#course-line"),
                       what="the progress line")
        listing = app.screen.query_one("#lessons", OptionList)
        rows = [str(listing.get_option_at_index(i).prompt)
                for i in range(listing.option_count)]
        assert rows[4] == " ★ 1/1 UI next lesson" and rows[3] == " ·     UI basics"
        assert "1 step, 1 question" in text_of(app.screen, "#detail-head")
        assert "best 1/1 right" in text_of(app.screen, "#detail-head")


async def test_one_question_asked_again_after_the_steps_before_it(kernel, make_app,
                                                                  tutor_home) -> None:
    """The hook for reviews: a flow over one question of step 2. Step 1 runs silently
    (its code shown as earlier code), the answer is stored, the lesson's place is not."""
    from tutor.flow import LessonFlow

    app = make_app(kernel)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        app.store.set_position("ui/basics", (0, 1), "sitting")
        lesson = app.catalog.get("ui/basics")
        flow = LessonFlow(lesson, only=[(1, 1)])
        app.push_screen(LessonScreen(lesson, kernel, flow=flow))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="the question")
        screen = app.screen
        # numbered as in the lesson: its question 4 of 4
        assert "Q4." in text_of(screen, "#ask") and "made of" in text_of(screen, "#ask")
        assert "question 4 of 4" in text_of(screen, "#lesson-title")
        assert "y = x * 2" in text_of(screen, "#earlier-code")
        await pilot.pause(0.5)
        await pilot.press("1")  # floats: judged against the namespace steps 1-2 made
        await wait_for(pilot, lambda: screen.mode == "judged", what="the verdict")
        assert "Correct" in verdict_text(screen)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="the end")
        assert "1 of 1 right" in str(app.screen.query_one("#done-text", Static).render())
        await pilot.pause(0.3)
        [attempt] = app.store.attempts("ui/basics")
        assert (attempt.step, attempt.prompt, attempt.verdict) == (1, 1, "correct")
        kept = app.store.lesson("ui/basics")
        assert (kept.step, kept.prompt, kept.run) == (0, 1, "sitting")
