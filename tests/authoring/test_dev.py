"""`tutor dev`: the app on one lesson file, reloaded on change, load errors in place."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_save import save
from pilot_wait import wait_for

from tutor.progress import ProgressStore

pytestmark = pytest.mark.kernel

LESSON = """\
id: dev/preview
title: {title}
topic: t
steps:
  - code: x = 2
    predict:
      - ask: x?
        kind: number
        expect: x
        answer: "2"
  - code: y = x * 3
    predict:
      - ask: y?
        kind: number
        expect: y
        answer: "6"
"""


async def test_dev_reloads_on_change_and_shows_load_errors_in_place(kernel, tmp_path: Path):
    from textual.widgets import Static

    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "preview.yaml"
    path.write_text(LESSON.format(title="First"), encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert app.screen.lesson.title == "First"
        await wait_for(pilot, lambda: app.screen.mode == "asking", "the step to run")

        save(path, LESSON.format(title="Second"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Second", "the reload")

        save(path, LESSON.format(title="Third").replace("kind: number\n        expect: y",
                                                        "kind: numbr\n        expect: y"))
        await wait_for(pilot, lambda: isinstance(app.screen, LoadErrorScreen), "the error")
        problems = str(app.screen.query_one("#load-problems", Static).render())
        assert "preview.yaml:14:15: steps[1].predict[0].kind: unknown value 'numbr'" in problems
        assert "did you mean 'number'?" in problems

        save(path, LESSON.format(title="Fixed"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Fixed", "the fixed lesson")
        await wait_for(pilot, lambda: app.screen.mode == "asking", "the step to run again")
        assert app.reloads == 3
        assert len(app.screen_stack) == 3  # default, catalog, the preview: no pile-up


def test_dev_needs_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    from tutor.cli import main

    assert main(["dev", str(tmp_path / "missing.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


async def test_dev_starts_on_a_broken_file_and_recovers(kernel, tmp_path: Path):
    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "preview.yaml"
    path.write_text("id: dev/preview\ntitle: [unclosed\n", encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LoadErrorScreen), "the error")
        save(path, LESSON.format(title="Now it loads"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert app.screen.lesson.title == "Now it loads"
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the preview's step to run")


TWO_QUESTIONS = """\
id: dev/place
title: {title}
topic: t
steps:
  - code: x = 2
    predict:
      - ask: x?
        kind: number
        expect: x
        answer: "2"
        hint: h
        explain: e
      - ask: x + 1?
        kind: number
        expect: x + 1
        answer: "3"
        hint: h
        explain: e
  - code: y = x * 3
    predict:
      - ask: y?
        kind: number
        expect: y
        answer: "6"
        hint: h
        explain: e
"""


async def answer(pilot, screen, text: str) -> None:  # noqa: ANN001
    """Type an answer, see the verdict, go on (as a person does, with keys)."""
    await wait_for(pilot, lambda: screen.mode == "asking", "the question")
    await pilot.press(*text, "enter")
    await wait_for(pilot, lambda: screen.mode == "judged", "the verdict")
    await pilot.press("n")


async def test_dev_keeps_the_place_across_reloads_and_load_errors(kernel, tmp_path: Path):
    from tutor.ui.dev import DevApp, LoadErrorScreen
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "place.yaml"
    path.write_text(TWO_QUESTIONS.format(title="First"), encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        await answer(pilot, screen, "2")
        await wait_for(pilot, lambda: screen.flow.position == (0, 1), "the second question")

        save(path, TWO_QUESTIONS.format(title="Second"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Second", "the reload")
        assert app.screen.flow.position == (0, 1)  # the same question, not the first
        screen = app.screen
        await answer(pilot, screen, "3")
        await wait_for(pilot, lambda: screen.flow.position == (1, 0), "step 2")

        save(path, TWO_QUESTIONS.format(title="Broken").replace("kind: number", "kind: nmbr"))
        await wait_for(pilot, lambda: isinstance(app.screen, LoadErrorScreen), "the error")
        save(path, TWO_QUESTIONS.format(title="Fixed"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Fixed", "the fixed lesson")
        assert app.screen.flow.position == (1, 0)  # still step 2, after the load error
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "step 2 to run again")

        # a lesson that lost questions keeps as much of the place as it can
        save(path, TWO_QUESTIONS.format(title="Shorter").split("  - code: y")[0])
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Shorter", "the shorter lesson")
        assert app.screen.flow.position == (0, 0)


async def test_dev_lists_lint_problems_above_the_lesson(kernel, tmp_path: Path):
    from textual.widgets import Static

    from tutor.ui.dev import DevApp
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "lint.yaml"
    path.write_text(TWO_QUESTIONS.format(title="Clean"), encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert not app.screen.query("#lint-problems")  # nothing to say
        save(path, TWO_QUESTIONS.format(title="Warned").replace("        hint: h\n", "", 1)
             .replace('answer: "6"', "answer: banana"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Warned", "the reload")
        text = str(app.screen.query_one("#lint-problems", Static).render())
        assert text.startswith("tutor lint: 1 error, 1 warning")
        assert "lint.yaml:7:9: warning: steps[0].predict[0]: no `hint:`" in text
        assert "steps[1].predict[0].answer: the judge cannot read 'banana'" in text
        await wait_for(pilot, lambda: app.screen.mode == "asking", "the lesson to run")


async def test_dev_reloads_when_the_packs_setup_changes(kernel, tmp_path: Path):
    from tutor.ui.dev import DevApp
    from tutor.ui.screens.lesson import LessonScreen

    (tmp_path / "pack.yaml").write_text("title: P\nsetup: |\n  base = 1\n", encoding="utf-8")
    path = tmp_path / "setup.yaml"
    path.write_text(TWO_QUESTIONS.format(title="T").replace("x = 2", "x = base + 1"),
                    encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert app.screen.lesson.setup.code == "base = 1\n"
        save(tmp_path / "pack.yaml", "title: P\nsetup: |\n  base = 5\n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.setup.code == "base = 5\n", "the new setup")
        assert app.reloads == 1



async def test_a_change_while_the_preview_is_still_mounting_waits_for_it(
        kernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Swapping a preview out while it was still being built tore it down half-built:
    its on_mount found none of its parts and the app died. A change now waits until the
    preview on screen has mounted."""
    import asyncio

    from tutor.ui.dev import DevApp, PreviewScreen
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.widgets.kernel_status import KernelStatus

    shown = KernelStatus.on_mount
    mounting: list[bool] = []  # was the first preview mounted when the reload came?

    async def slow_mount(self: KernelStatus) -> None:
        if isinstance(self.screen, PreviewScreen) and not mounting:
            # the author saves while the first preview is still being built (made slow)
            save(tmp_path / "pack.yaml", "title: P\nsetup: |\n  base = 5\n")
            await asyncio.sleep(0.5)
        shown(self)

    monkeypatch.setattr(KernelStatus, "on_mount", slow_mount)
    (tmp_path / "pack.yaml").write_text("title: P\nsetup: |\n  base = 1\n", encoding="utf-8")
    path = tmp_path / "setup.yaml"
    path.write_text(TWO_QUESTIONS.format(title="T").replace("x = 2", "x = base + 1"),
                    encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.02)
    show_preview = app.show_preview

    def record_and_show() -> None:
        if isinstance(app.screen, PreviewScreen):
            mounting.append(app.screen.is_mounted)
        show_preview()

    monkeypatch.setattr(app, "show_preview", record_and_show)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.setup.code == "base = 5\n", "the new setup")
        assert app.reloads == 1
    assert mounting == [True]  # the reload came, and only once the first preview was up


async def test_dev_says_what_a_reload_did_and_does_not_ask_an_answered_question_again(
        kernel, tmp_path: Path):
    from textual.widgets import Static

    from tutor.ui.dev import DevApp
    from tutor.ui.screens.lesson import LessonScreen

    path = tmp_path / "notice.yaml"
    path.write_text(TWO_QUESTIONS.format(title="First"), encoding="utf-8")
    app = DevApp(path, kernel=kernel, store=ProgressStore(tmp_path / "home"), poll=0.05)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        assert not screen.query("#reload-notice")  # nothing reloaded yet
        await wait_for(pilot, lambda: screen.mode == "asking", "the question")
        await pilot.press(*"2", "enter")
        await wait_for(pilot, lambda: screen.mode == "judged", "the verdict")
        assert screen.flow.position == (0, 0)  # the verdict is shown: still question 1
        save(path, TWO_QUESTIONS.format(title="Second"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.title == "Second", "the reload")
        assert app.screen.flow.position == (0, 1)  # question 1 was answered: on to 2
        notice = str(app.screen.query_one("#reload-notice", Static).render())
        assert notice.startswith("reloaded notice.yaml at ")
        assert "step 1 ran again in a fresh session; on at step 1, question 2" in notice
