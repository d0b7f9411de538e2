"""The REPL pane: multi-line input, history, interrupting, output limits, dead processes."""

from __future__ import annotations

import pytest
from ui_helpers import answer, open_first_lesson, wait_for

pytestmark = pytest.mark.kernel


async def open_repl(pilot):
    screen = await open_first_lesson(pilot)
    await answer(pilot, "12")
    await pilot.press("n")
    await answer(pilot, "a, b, c")
    await pilot.press("ctrl+o")
    return screen


async def test_repl_input_history_and_errors(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_repl(pilot)
        repl_input = screen.query_one("#repl-input")
        repl_input.text = "for i in range(2):"
        repl_input.move_cursor(repl_input.document.end)
        await pilot.press("enter")  # incomplete: a new, indented line
        assert repl_input.text == "for i in range(2):\n    " and not screen.repl_running
        repl_input.insert("print('row', i)")
        await pilot.press("enter", "enter")  # an empty line ends the block
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert "row 0" in screen.repl.log_text and "row 1" in screen.repl.log_text
        repl_input.insert("undefined_name")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert "NameError" in screen.repl.log_text
        await pilot.press("up")  # history
        assert screen.query_one("#repl-input").text == "undefined_name"


async def test_repl_interrupt_and_long_output(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_repl(pilot)
        box = screen.query_one("#repl-input")
        box.insert("import time\nwhile True:\n    time.sleep(0.01)\n")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.kernel_state == "busy", what="busy kernel")
        assert screen.repl_running and screen.check_action("interrupt", ())
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not screen.repl_running, what="the interrupt")
        assert "KeyboardInterrupt" in screen.repl.log_text
        box.insert("for i in range(500): print('row', i)\n")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the output")
        last = str(list(screen.repl.query(".repl-entry"))[-1].render())
        assert "row 39" in last and "row 40" not in last and "460 more lines" in last
        box.insert("names")
        await pilot.press("enter")  # the namespace survived the interrupt
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert "['a', 'b', 'c']" in str(list(screen.repl.query(".repl-entry"))[-1].render())


async def test_repl_code_that_ignores_the_interrupt_is_stopped_and_rebuilt(
        kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_repl(pilot)
        old_pid = screen.run.session.pid
        screen.query_one("#repl-input").insert(
            "import time\nwhile True:\n    try:\n        time.sleep(0.01)\n"
            "    except KeyboardInterrupt:\n        pass\n")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.kernel_state == "busy", what="busy kernel")
        await pilot.press("ctrl+c")  # swallowed by the code: its process is killed
        await wait_for(pilot, lambda: not screen.repl_running, what="the stop")
        assert "ignored the interrupt" in screen.repl.log_text
        await wait_for(pilot, lambda: not screen.rebuilding and screen.run.session is not None
                       and screen.run.session.alive, what="the rebuild")
        assert screen.run.session.pid != old_pid
        screen.query_one("#repl-input").insert("names")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert "['a', 'b', 'c']" in str(list(screen.repl.query(".repl-entry"))[-1].render())


async def test_repl_changes_are_discarded_before_the_next_step(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_repl(pilot)
        await pilot.press(*"y.add_(100)", "enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert screen.repl_dirty
        old_pid = screen.run.session.pid
        await pilot.press("escape", "n")
        await wait_for(pilot, lambda: screen.mode == "asking", what="step 2, rebuilt")
        assert not screen.repl_dirty and screen.run.session.pid != old_pid  # a fresh process
        await pilot.pause(0.5)
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.mode == "judged", what="Q3")
        await pilot.press("n")
        await pilot.pause(0.5)
        await pilot.press("1")
        await wait_for(pilot, lambda: screen.mode == "judged", what="Q4")
        await pilot.press("ctrl+o", *"y", "enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        assert "tensor([2., 4., 6.])" in screen.repl.log_text  # not the REPL's y + 100
