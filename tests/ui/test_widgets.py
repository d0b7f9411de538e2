"""Widgets and modal screens alone, in tiny host apps; the pure helpers beside them."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tutor.flow import Answer, Tally
from tutor.judge import Status, Verdict
from tutor.lesson.model import Pos, Prompt
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.help import HelpScreen
from tutor.ui.text import plain
from tutor.ui.widgets.answer import AnswerBox, items_preview
from tutor.ui.widgets.inline import inline
from tutor.ui.widgets.repl import Repl, is_complete, truncate

BASICS = Path(__file__).resolve().parent.parent / "data" / "ui" / "lessons" / "basics.yaml"


def prompt(kind: str, choices: tuple[str, ...] = ()) -> Prompt:
    return Prompt(0, "Q?", kind, "x", None, Pos(1, 1), choices=choices)


# ---------------------------------------------------------------- pure helpers
@pytest.mark.parametrize(("source", "complete"), [
    ("x = 1", True),
    ("x.grad", True),
    ("for i in range(3):", False),
    ("for i in range(3):\n    print(i)", False),
    ("for i in range(3):\n    print(i)\n", True),  # the empty line ends the block
    ("def f(:", True),  # a syntax error is sent, so the kernel explains it
    ("(1,\n 2", False),
    ("", False),
])
def test_repl_decides_when_input_is_complete(source: str, complete: bool) -> None:
    assert is_complete(source) is complete


def test_long_output_is_truncated_readably() -> None:
    text = "\n".join(f"line {i}" for i in range(100))
    out = truncate(text)
    assert out.splitlines()[:40] == text.splitlines()[:40]
    assert "truncated (60 more lines" in out.splitlines()[-1]
    assert truncate("short") == "short"
    wide = truncate("x" * 10_000)
    assert wide.startswith("x" * 4000) and "more chars" in wide


def test_items_preview_reads_sets_and_lists() -> None:
    assert items_preview("['a', 'b']") == "2 items: a · b"
    assert items_preview("weight, bias") == "2 items: weight · bias"
    assert "separate items with commas" in items_preview("")


def test_inline_markdown() -> None:
    content = inline("What is `x.grad` **now**?\nIt *adds*.\n\n- one\n- two")
    assert content.plain == "What is x.grad now? It adds.\n\n• one\n• two"
    styles = {str(s.style) for s in content.spans}
    assert {"$text-accent", "bold", "italic"} <= styles


# ---------------------------------------------------------------- modal screens alone
class Host(App[None]):
    def __init__(self, screen=None, widget=None) -> None:
        super().__init__()
        self.result: object = "unset"
        self.to_push = screen
        self.widget = widget
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        if self.widget is not None:
            yield self.widget

    def on_mount(self) -> None:
        if self.to_push is not None:
            self.push_screen(self.to_push, self.done)

    def done(self, result: object) -> None:
        self.result = result

    def on_answer_box_submitted(self, event: AnswerBox.Submitted) -> None:
        self.submitted.append(event.text)


TALLY = Tally(correct=3, partial=1, incorrect=0, revealed=1, answered=5, total=5)


@pytest.mark.parametrize(("key", "result"), [("n", "next"), ("c", "catalog"),
                                             ("escape", "stay")])
async def test_lesson_done_modal(key: str, result: str) -> None:
    app = Host(LessonDone("Gradients", TALLY, "Next one"))
    async with app.run_test() as pilot:
        text = str(app.screen.query_one("#done-text", Static).render())
        assert "3 of 5 right, 1 partly right, 1 revealed" in text
        await pilot.press(key)
        assert app.result == result


async def test_lesson_done_without_a_next_lesson_goes_to_the_catalog() -> None:
    app = Host(LessonDone("Last", TALLY, None))
    async with app.run_test() as pilot:
        assert not app.screen.query("#next")
        await pilot.press("n")
        assert app.result == "catalog"


async def test_lesson_done_buttons_work_with_the_mouse() -> None:
    app = Host(LessonDone("Gradients", TALLY, "Next one"))
    async with app.run_test() as pilot:
        await pilot.click("#catalog")
        assert app.result == "catalog"


async def test_help_screen_lists_the_keys_and_closes() -> None:
    app = Host(HelpScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


# ---------------------------------------------------------------- the answer entry
async def test_yes_no_by_key_and_by_click() -> None:
    box = AnswerBox()
    app = Host(widget=box)
    async with app.run_test() as pilot:
        box.show_prompt(prompt("same_storage"))
        await pilot.pause()
        assert app.focused is box
        await pilot.press("enter")  # an enter meant for "next" does not answer
        assert app.submitted == []
        await pilot.press("n")
        await pilot.click("#yes")
        assert app.submitted == ["no", "yes"]


async def test_choice_by_number_and_by_selection() -> None:
    box = AnswerBox()
    app = Host(widget=box)
    async with app.run_test() as pilot:
        box.show_prompt(prompt("choice", ("it is trained", "it is ignored")))
        await pilot.pause()
        await pilot.press("enter")  # an enter meant for "next" does not answer
        assert app.submitted == []
        await pilot.press("2")
        await pilot.press("tab", "down", "up", "enter")  # to the list, first item, select
        await pilot.press("7")  # no such choice: ignored
        assert app.submitted == ["it is ignored", "it is trained"]


async def test_stdout_is_multi_line_and_submitted_with_ctrl_s() -> None:
    box = AnswerBox()
    app = Host(widget=box)
    async with app.run_test() as pilot:
        box.show_prompt(prompt("stdout"))
        await pilot.pause()
        await pilot.press(*"tensor([1.])", "enter", *"done", "ctrl+s")
        assert app.submitted == ["tensor([1.])\ndone"]


async def test_set_entry_previews_items_and_blank_is_not_submitted() -> None:
    box = AnswerBox()
    app = Host(widget=box)
    async with app.run_test() as pilot:
        box.show_prompt(prompt("set"))
        await pilot.pause()
        await pilot.press("enter")
        assert app.submitted == []
        await pilot.press(*"weight, bias")
        assert str(box.query_one("#preview", Static).render()) == "2 items: weight · bias"
        await pilot.press("enter")
        assert app.submitted == ["weight, bias"]
        label = str(box.query_one("#entry-label", Static).render())
        assert label == ("items in any order, separated by commas; [] for none · your prediction: "
                         "sure (ctrl+g: a guess, or end with ?)")


def test_writes_apply_in_ticket_order() -> None:
    import threading
    import time

    from tutor.ui.ordered import InOrder

    order = InOrder()
    tickets = [order.ticket() for _ in range(5)]
    done: list[int] = []

    def write(ticket: int) -> None:
        time.sleep(0.01 * (5 - ticket))  # later tickets arrive first
        with order.turn(ticket):
            done.append(ticket)

    threads = [threading.Thread(target=write, args=(t,)) for t in reversed(tickets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert done == tickets


def test_verdict_values_line_up() -> None:
    from tutor.ui.widgets.verdict import side_by_side

    text = side_by_side("a\nb", "tensor([1.])\n").plain
    assert text == "you said  a\n          b\nlive      tensor([1.])"
    long = side_by_side("x", "\n".join(str(i) for i in range(30))).plain
    assert "… (22 more lines)" in long
    assert side_by_side(None, "3").plain == "live      3"  # a reveal: nothing was said


async def test_repl_log_follows_the_newest_output() -> None:
    repl = Repl(lambda: None)
    app = Host(widget=repl)
    async with app.run_test(size=(80, 24)) as pilot:
        log = repl.query_one("#repl-log")
        for i in range(6):  # replies arrive in bursts, before the log has laid them out
            repl.write(plain(f">>> step {i}"))
            frames = "  a frame of a long path, wrapped at 80 columns " * 9
            repl.show_reply({"error": {"traceback": f"Traceback\n{frames}\n"
                                       f"KeyboardInterrupt {i}"}})
        await pilot.pause(0.3)
        assert log.max_scroll_y > 0
        assert log.scroll_y == log.max_scroll_y  # the last line is on screen


async def test_verdict_heading_does_not_repeat_the_verdict() -> None:
    from tutor.ui.widgets.verdict import VerdictPanel

    def shown(status: Status, message: str, live: str, typed: str) -> Answer:
        return Answer(status.value, Verdict(status, message, live, typed), live, None)

    panel = VerdictPanel()
    async with Host(widget=panel).run_test() as pilot:
        panel.show_answer(shown(Status.INCORRECT, "Not quite: the live tensor has shape (3,).",
                                "tensor([2., 3., 4.])", "[2, 3]"), None, "")
        await pilot.pause()
        title = str(panel.query_one("#verdict-title", Static).render())
        assert title == "✗ Not quite — the live tensor has shape (3,)."
        panel.show_answer(shown(Status.CORRECT, "Right: the live value is 0.6000.", "0.6000",
                                "0.6"), "Because `x` is **5**.", "")
        await pilot.pause()
        title = str(panel.query_one("#verdict-title", Static).render())
        assert title == "✓ Correct — the live value is 0.6000."
        assert "Why: Because x is 5." in panel.text  # Markdown rendered


async def test_a_double_n_does_not_answer_no(monkeypatch) -> None:
    # `n` moves on after a verdict; pressed twice, the second lands on the next
    # question. If that one is yes/no, it must not be answered "no" by accident.
    from textual.app import App

    from tutor.lesson.model import Pos, Prompt
    from tutor.ui.widgets.answer import AnswerBox

    monkeypatch.setattr(AnswerBox, "SETTLE", 0.4)
    got: list[str] = []

    class Host(App):
        def compose(self):
            yield AnswerBox(id="answer")

        def on_answer_box_submitted(self, event: AnswerBox.Submitted) -> None:
            got.append(event.text)

    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one(AnswerBox)
        box.show_prompt(Prompt(0, "Shared?", "bool", "x", None, Pos(1, 1)))
        await pilot.pause()
        box.focus()
        await pilot.press("n")
        assert got == []  # too soon after the question appeared
        await pilot.pause(0.5)
        await pilot.press("n")
        assert got == ["no"]


async def test_every_bundled_verdict_and_explanation_fit_at_80x24() -> None:
    """The question line, the verdict (a two-line message, the values, the author's
    longest feedback) and the whole explanation of every bundled question fit in the
    lesson body at 80x24, so they can all be in view at once after an answer.

    The body holds `BATCH` question/verdict pairs, one per question of a batch, laid
    out at once (a layout and a render per batch, not per question: each pair's height
    is what it would be alone, at the body's width, with its scrollbar)."""
    from textual.containers import VerticalScroll

    from tutor.lesson import load_catalog
    from tutor.ui.app import TutorApp
    from tutor.ui.widgets.answer import QuestionPane
    from tutor.ui.widgets.verdict import VerdictPanel

    batch = 32

    class Body(App[None]):
        CSS_PATH = TutorApp.CSS_PATH

        def compose(self) -> ComposeResult:
            with VerticalScroll(id="lesson-body"):
                for _ in range(batch):
                    yield QuestionPane()
                    yield VerdictPanel()
                yield Static("\n" * 40)  # more below: the body scrolls, as in a lesson

    catalog = load_catalog([], with_env=False, with_bundled=True)
    questions = [(lesson.id, step.index + 1, prompt.index + 1, prompt)
                 for lesson in catalog.lessons for step, prompt in lesson.prompts]
    assert len(questions) > 300  # (the whole course: 548 questions when this was written)
    too_tall = []
    app = Body()
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one("#lesson-body")
        pairs = list(zip(app.query(QuestionPane), app.query(VerdictPanel), strict=True))
        assert len(pairs) == batch
        for start in range(0, len(questions), batch):
            shown = list(zip(pairs, questions[start:start + batch], strict=False))
            for (question, panel), (*_, prompt) in shown:
                question.ask(prompt, 1, focus=False)
                question.answered()
                feedback = max((text for _, text in prompt.feedback), key=len, default=None)
                typed = prompt.answer or "x"
                verdict = Verdict(Status.INCORRECT, "You said something else; the live value "
                                  "differs in a way this sentence explains at length.",
                                  typed, typed, feedback=feedback)
                panel.display = True
                panel.show_answer(Answer("incorrect", verdict, typed, None), prompt.explain,
                                  "enter/n: next   r: retry   ctrl+o: REPL   p: picture")
            await pilot.pause()
            for (question, panel), (lesson_id, step, number, _) in shown:
                used = question.outer_size.height + panel.outer_size.height
                if used > body.scrollable_content_region.height:
                    too_tall.append((lesson_id, step, number, used))
    assert too_tall == []


async def test_the_printed_lines_box_grows_with_what_is_typed() -> None:
    """Typing four printed lines, the first scrolled out of the 3-row box (learner
    report: hooks/hook-order); the box grows with its lines, up to 8."""
    from tutor.ui.app import TutorApp
    from tutor.ui.widgets.answer import StdoutArea

    class Styled(Host):
        CSS_PATH = TutorApp.CSS_PATH

    box = AnswerBox()
    app = Styled(widget=box)
    async with app.run_test(size=(80, 24)) as pilot:
        box.show_prompt(prompt("stdout"))
        await pilot.pause()
        area = box.query_one(StdoutArea)
        await pilot.press(*"pre", "enter", *"forward", "enter", *"hook_a", "enter",
                          *"hook_b")
        await pilot.pause()
        assert area.scroll_offset.y == 0 and area.content_region.height >= 4
        for n in range(10):
            await pilot.press("enter", *f"line{n}")
        await pilot.pause()
        assert area.outer_size.height <= 10  # then it scrolls, as before


async def test_a_bool_question_says_true_and_false_on_its_buttons() -> None:
    """`What is backward_works(c)?` offered Yes / No for a True/False value (learner
    report); a bool question's buttons say both, a shared-memory one yes or no."""
    from textual.widgets import Button

    box = AnswerBox()
    app = Host(widget=box)
    async with app.run_test() as pilot:
        box.show_prompt(prompt("bool"))
        await pilot.pause()
        labels = [str(b.label) for b in box.query("#yes-no Button").results(Button)]
        assert labels == ["Yes · True  (y)", "No · False  (n)"]
        await pilot.press("y")
        box.show_prompt(prompt("same_storage"))
        await pilot.pause()
        labels = [str(b.label) for b in box.query("#yes-no Button").results(Button)]
        assert labels == ["Yes  (y)", "No  (n)"]
        assert app.submitted == ["yes"]
