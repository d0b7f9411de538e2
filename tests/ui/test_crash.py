"""The kernel dies mid-lesson: the learner is told, it is rebuilt, the lesson goes on."""

from __future__ import annotations

import os
import signal

import pytest
from textual.widgets import Static
from ui_helpers import open_first_lesson, wait_for

from tutor.ui.screens.catalog import CatalogScreen

pytestmark = pytest.mark.kernel


def failure_text(screen) -> str:
    return str(screen.query_one("#failure", Static).render())


async def test_lesson_process_killed_between_steps_is_rebuilt(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot)
        await pilot.press(*"12", "enter", "n", *"a, b, c", "enter")
        old_pid = screen.run.session.pid
        shown: list[str] = []
        show_failure = screen.show_failure
        screen.show_failure = lambda text, **kw: (shown.append(str(text)),  # type: ignore
                                                  show_failure(text, **kw))
        os.kill(old_pid, signal.SIGKILL)  # the lesson's process dies while the learner reads
        await pilot.press("n")  # step 2 cannot run in the dead process
        await wait_for(pilot, lambda: screen.mode == "asking", what="the rebuilt step")
        # what stopped is said once: `Step 2 crashed: the lesson's process … Restarting it…`
        told = next(text for text in shown if "Restarting it" in text)
        assert told.startswith("Step 2 ") and told.count("lesson's process") == 1, told
        assert screen.run.session.pid != old_pid and screen.run.session.alive
        assert any("Kernel trouble" in str(n.message) for n in app._notifications)
        assert failure_text(screen) == ""  # cleared once the rebuild worked
        await pilot.press("y")  # y and z exist again: steps 1 and 2 were re-run
        assert screen.flow.state.verdict.status.value == "correct"


async def test_repl_in_a_dead_process_rebuilds_the_namespace(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot)
        await pilot.press(*"12", "enter", "n", *"a, b, c", "enter", "ctrl+o")
        await pilot.press(*"import os; os._exit(3)", "enter")
        await wait_for(pilot, lambda: not screen.repl_running and not screen.rebuilding,
                       what="the crash and the rebuild")
        log = " ".join(str(w.render()) for w in screen.repl.query(".repl-entry"))
        # what died is said once: `The lesson's process exited with code 3. Restarting…`
        assert "The lesson's process exited with code 3. Restarting it" in log, log
        assert log.count("lesson's process") == 1, log
        await wait_for(pilot, lambda: screen.run.session is not None
                       and screen.run.session.alive, what="a new process")
        screen.query_one("#repl-input").insert("names")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.repl_running, what="the REPL")
        log = " ".join(str(w.render()) for w in screen.repl.query(".repl-entry"))
        assert "['a', 'b', 'c']" in log


async def test_a_step_that_always_crashes_is_reported_not_looped(kernel, make_app) -> None:
    app = make_app(kernel, "crash")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot)
        await pilot.press(*"2", "enter", "n")
        await wait_for(pilot, lambda: screen.mode == "failed", timeout=30, what="the failure")
        text = failure_text(screen)
        assert "crashed" in text and "exited with code 1" in text and "r: try again" in text
        assert screen.auto_rebuilt  # it was rebuilt once automatically, then stopped
        await pilot.press("r")  # the learner may try again: it fails again, clearly
        await wait_for(pilot, lambda: screen.mode == "failed" and not screen.rebuilding,
                       what="the second failure")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")


async def test_step_timeout_is_reported(kernel, make_app, tmp_path) -> None:
    from tutor.lesson import load_catalog

    lesson = tmp_path / "slow.yaml"
    lesson.write_text(
        "id: ui/slow\ntitle: Slow\ntopic: testing\ntimeout: 1\nsteps:\n"
        "  - code: |\n      import time\n      while True:\n          time.sleep(0.05)\n"
        "    predict:\n      - ask: Never\n        expect: '1'\n        kind: number\n"
        "        answer: '1'\n")
    catalog = load_catalog([tmp_path], with_env=False, with_bundled=False)
    assert not catalog.errors, catalog.problems
    app = make_app(kernel, catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot, until="failed")  # the step timed out
        assert "timed out" in failure_text(screen)
        await pilot.pause()
        # the step runs no more: its label says so (K4: it kept `· running…`)
        label = str(screen.query_one("#step-label").render())
        assert "Step 1 of 1" in label and "running" not in label, label


async def test_whole_kernel_killed_restarts_and_lesson_continues(own_kernel, make_app) -> None:
    app = make_app(own_kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot)
        await pilot.press(*"12", "enter", "n", *"a, b, c", "enter")
        os.killpg(own_kernel.proc.pid, signal.SIGKILL)  # the kernel and its lesson processes
        await wait_for(pilot, lambda: app.kernel_state in ("restarting", "starting"),
                       what="the kernel status to show the restart")
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking", timeout=120,
                       what="the lesson to continue on a new kernel")
        assert app.kernel_state in ("ready", "busy")
        await pilot.press("y")
        assert screen.flow.state.verdict.status.value == "correct"


async def test_a_lesson_this_kernel_cannot_run_says_why(kernel, make_app, tmp_path) -> None:
    from tutor.lesson import load_catalog

    (tmp_path / "future.yaml").write_text(
        "id: ui/future\ntitle: Future\ntopic: testing\nrequires:\n  torch: '>=99'\nsteps:\n"
        "  - code: x = 1\n    predict:\n      - ask: x?\n        expect: x\n"
        "        kind: number\n        answer: '1'\n")
    catalog = load_catalog([tmp_path], with_env=False, with_bundled=False)
    assert not catalog.errors, catalog.problems
    app = make_app(kernel, catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot, until="failed")  # refused
        assert "cannot run here" in failure_text(screen) and ">=99" in failure_text(screen)
        await pilot.press("r")  # nothing to retry
        assert screen.mode == "failed" and screen.fatal
        label = str(screen.query_one("#step-label", Static).render())
        assert "running" not in label, label  # it never ran (was "· running…" on)
        await pilot.press(*"1", "enter")
        note = str(screen.query_one("#note-line", Static).render())
        assert note == "esc: back to the catalog", note  # (was: waiting for the kernel)


async def test_an_answer_after_a_timeout_is_answered_with_the_keys(kernel, make_app,
                                                                  tmp_path) -> None:
    """The step timed out: an answer typed then waited for nothing, saying "Waiting for
    the kernel to finish running the step…" for good (K4's walk; in Korean too)."""
    from tutor.lesson import load_catalog

    (tmp_path / "slow.yaml").write_text(
        "id: ui/slow\ntitle: Slow\ntopic: testing\ntimeout: 1\nsteps:\n"
        "  - code: |\n      import time\n      while True:\n          time.sleep(0.05)\n"
        "    predict:\n      - ask: Never\n        expect: '1'\n        kind: number\n"
        "        answer: '1'\n")
    catalog = load_catalog([tmp_path], with_env=False, with_bundled=False)
    app = make_app(kernel, catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_first_lesson(pilot, until="failed")
        label = str(screen.query_one("#step-label", Static).render())
        assert "running" not in label, label
        await pilot.press(*"1", "enter")
        note = str(screen.query_one("#note-line", Static).render())
        assert note.startswith("r: try again") and "Waiting" not in note, note
        assert screen.pending is None and screen.mode == "failed"
