"""Catalog -> lesson -> next lesson; resume after a restart; the command palette; marks."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static
from ui_helpers import UI_DATA, ui_catalog, wait_for

from tutor.lesson import load_catalog
from tutor.lesson.index import LessonIndex
from tutor.progress import Attempt, ProgressStore
from tutor.ui.messages import OpenLesson
from tutor.ui.screens.catalog import CatalogScreen
from tutor.ui.screens.done import LessonDone
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.lesson import LessonScreen

pytestmark = pytest.mark.kernel
UI_DATA_LESSONS = UI_DATA / "lessons"


def option_texts(screen) -> list[str]:
    listing = screen.query_one("#lessons", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def test_catalog_lists_packs_and_lessons_in_course_order(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        texts = option_texts(app.screen)
        assert texts[2:] == ["UI fixtures", " · UI basics", " · UI next lesson"]  # no scores yet
        assert texts[:2] == [" ↻ Review  nothing waiting",  # the entries above the lessons
                             " ▦ Progress  your answers over time"]
        assert "Start: UI basics" in str(app.screen.query_one("#continue-line", Static).render())
        await wait_for(pilot, lambda: app.kernel_state == "ready", what="kernel ready")
        assert "kernel: ready" in str(app.screen.query_one(".kernel", Static).render())
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        # the keys line says what works here (the catalog's keys do not while it is open)
        bottom = app.screen._compositor.render_strips()[-1].text
        assert "Close" in bottom and "search" not in bottom.lower(), bottom
        await pilot.press("escape")
        assert isinstance(app.screen, CatalogScreen)


async def test_catalog_lesson_next_lesson_and_marks(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.press("down", "enter")  # jump straight to the second lesson
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        screen = app.screen
        assert screen.lesson.id == "ui/next"
        await wait_for(pilot, lambda: screen.mode == "asking", what="step")
        await pilot.press(*"2x3", "enter")
        assert screen.flow.state.outcome == "correct"
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        # the first lesson is unfinished: offered next (never "the last lesson")
        assert "Next: UI basics" in str(app.screen.query_one("#done-next", Static).render())
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        assert option_texts(app.screen)[4] == " ★ 1/1 UI next lesson"  # perfect: first try
        # now the first lesson, then "next lesson" from its end
        app.screen.query_one("#lessons", OptionList).highlighted = 3
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        screen = app.screen
        assert screen.lesson.id == "ui/basics"
        await wait_for(pilot, lambda: screen.mode == "asking", what="step")
        for key in ("ctrl+r", "n", "ctrl+r", "n"):  # reveal the first step's questions
            await pilot.press(key)
        await wait_for(pilot, lambda: screen.mode == "asking" and screen.flow.step_index == 1,
                       what="step 2")
        for key in ("ctrl+r", "n", "ctrl+r", "n"):
            await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        assert "finished every lesson" in str(app.screen.query_one("#done-next", Static).render())
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        assert option_texts(app.screen)[3] == " ✓ 0/4 UI basics"  # done, all revealed
        assert len(app.screen_stack) == 2


async def test_next_lesson_replaces_the_lesson_screen(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.mode == "asking", what="ui/basics")
        screen = app.screen
        for key in ("ctrl+r", "n", "ctrl+r", "n"):
            await pilot.press(key)
        await wait_for(pilot, lambda: screen.mode == "asking" and screen.flow.step_index == 1,
                       what="step 2")
        await pilot.press("ctrl+r", "n", "ctrl+r", "n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonDone), what="done")
        assert "Next: UI next lesson" in str(app.screen.query_one("#done-next", Static).render())
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen)
                       and app.screen.lesson.id == "ui/next", what="the next lesson")
        assert len(app.screen_stack) == 3  # the lesson replaced the last one: esc -> catalog
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")


async def test_resume_where_you_left_off_after_a_restart(kernel, make_app, tutor_home) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", what="step")
        await pilot.press(*"12", "enter", "n")
        await pilot.press(*"a, b, c", "enter")
        assert screen.flow.state.outcome == "correct"
        await pilot.press("ctrl+q")  # quit in the middle of the lesson

    with ProgressStore(tutor_home) as store:
        p = store.lesson("ui/basics")
        assert (p.status, p.step, p.prompt) == ("tried", 1, 0)

    app2 = make_app(kernel)  # a new app on the same TUTOR_HOME
    async with app2.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app2.screen, CatalogScreen), what="catalog")
        line = str(app2.screen.query_one("#continue-line", Static).render())
        assert "Continue: UI basics (step 2 of 2)" in line
        assert option_texts(app2.screen)[3] == " ◐ 2/4 UI basics"
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app2.screen, LessonScreen), what="lesson")
        screen = app2.screen
        await wait_for(pilot, lambda: screen.mode == "asking", what="rebuilt steps")
        assert screen.flow.position == (1, 0)
        assert "z = y.view(3)" in screen.code_pane.code_text
        await pilot.press("y")  # judged against the rebuilt namespace (y and z exist)
        assert screen.flow.state.outcome == "correct"
        await pilot.press("n", "1")
        await wait_for(pilot, lambda: screen.mode == "judged", what="last verdict")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app2.screen, LessonDone), what="done")
    with ProgressStore(tutor_home) as store:
        assert store.lesson("ui/basics").status == "perfect"  # all four right, first time
        assert len(store.attempts("ui/basics")) == 4


async def test_continue_picks_the_next_lesson_after_a_finished_one(kernel, make_app,
                                                                    tutor_home) -> None:
    with ProgressStore(tutor_home) as store:
        store.record(Attempt("ui/basics", 1, 1, "floats", "correct", run="r"), total_prompts=1,
                     position=(2, 0))
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        line = str(app.screen.query_one("#continue-line", Static).render())
        assert "Start: UI next lesson" in line


async def test_command_palette_finds_a_lesson_by_topic_or_name(kernel, make_app) -> None:
    app = make_app(kernel)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.query("CommandInput"), what="palette")
        palette_input = app.screen.query_one("CommandInput", Input)
        palette_input.value = "next lesson"
        await wait_for(pilot, lambda: any("UI next lesson" in str(o.prompt) for o in
                                          app.screen.query_one("CommandList").options),
                       what="a hit")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        assert app.screen.lesson.id == "ui/next"


async def test_progress_that_cannot_be_saved_is_told_not_fatal(kernel, tmp_path) -> None:
    from tutor.ui.app import TutorApp

    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = ProgressStore(blocker / "home")
    app = TutorApp(catalog=ui_catalog(), kernel=kernel, store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        assert any("not being saved" in str(n.message) for n in app._notifications)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        await wait_for(pilot, lambda: app.screen.mode == "asking", what="step")
        await pilot.press(*"12", "enter")
        assert app.screen.mode == "judged"


async def test_path_adds_lesson_directories_beside_the_bundled_ones(kernel, tutor_home) -> None:
    # `tutor --path DIR`: the catalog is loaded after the first paint, from DIR and the bundle
    from ui_helpers import UI_DATA

    from tutor.ui.app import TutorApp

    app = TutorApp(kernel=kernel, store=ProgressStore(tutor_home), paths=[UI_DATA / "lessons"])
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.catalog is not None, what="catalog loaded")
        ids = [lesson.id for lesson in app.catalog.lessons]
        assert "ui/basics" in ids and "samples/accumulate" in ids
        await wait_for(pilot, lambda: "UI basics" in " ".join(option_texts(app.screen)),
                       what="fixture lessons listed")


async def test_the_catalog_is_built_without_the_collector_then_kept_out_of_its_sight(
        kernel, tutor_home) -> None:
    # docs/performance.md "Lesson titles": building the catalog's objects with the cyclic
    # collector running costs collections that walk them again and again; the app pauses
    # it while it loads, then freezes what it built, and leaves it running afterwards
    import gc

    from tutor.ui.app import TutorApp

    seen: list[bool] = []
    real = load_catalog

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    frozen = gc.get_freeze_count()
    app = TutorApp(kernel=kernel, store=ProgressStore(tutor_home), paths=[UI_DATA / "lessons"])
    try:
        import tutor.lesson.catalog

        original = tutor.lesson.catalog.load_catalog
        tutor.lesson.catalog.load_catalog = watched  # type: ignore[assignment]
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_for(pilot, lambda: app.catalog is not None, what="catalog loaded")
                assert seen == [False]  # loaded with the collector paused
                assert gc.isenabled()  # and running again after
                lessons = len(app.catalog.lessons)
                assert gc.get_freeze_count() - frozen > 100 * lessons  # the catalog, frozen
        finally:
            tutor.lesson.catalog.load_catalog = original
    finally:
        gc.unfreeze()  # (the other tests of this process collect as usual)


def test_paused_gc_leaves_the_collector_as_it_found_it() -> None:
    import gc

    from tutor.ui.app import paused_gc

    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), paused_gc():
        assert not gc.isenabled()
        1 / 0  # noqa: B018
    assert gc.isenabled()
    gc.disable()  # (as Textual does while it scrolls)
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_theme_is_kept_between_runs(tutor_home) -> None:
    from tutor.ui.app import TutorApp

    class Idle:  # no kernel is needed to choose a theme
        status, channel, failure = "new", None, None

        def wait_ready(self) -> None: ...
        def shutdown(self) -> None: ...

        def subscribe(self, listener: object) -> Callable[[], None]:
            return lambda: None

    first = TutorApp(catalog=ui_catalog(), kernel=Idle(), store=ProgressStore(tutor_home))
    async with first.run_test() as pilot:
        assert first.theme != "textual-light"
        first.theme = "textual-light"
        await pilot.pause()
    second = TutorApp(catalog=ui_catalog(), kernel=Idle(), store=ProgressStore(tutor_home))
    async with second.run_test() as pilot:
        await pilot.pause()
        assert second.theme == "textual-light"
    (tutor_home / "ui.json").write_text("{not json")  # damaged: the default, no error
    third = TutorApp(catalog=ui_catalog(), kernel=Idle(), store=ProgressStore(tutor_home))
    async with third.run_test() as pilot:
        await pilot.pause()
        assert third.theme == "textual-dark"


async def test_a_lesson_the_kernel_cannot_run_is_marked_and_not_counted(kernel, tutor_home
                                                                        ) -> None:
    """On a machine without a GPU, a CUDA lesson stays listed in its place, marked ⊘ with
    why, and is left out of the course count and of where "continue" goes."""
    if kernel.wait_ready().get("cuda"):
        pytest.skip("this kernel has a CUDA device: every fixture lesson can run")
    from tutor.ui.app import TutorApp

    with ProgressStore(tutor_home) as store:
        for lesson in ("ui/basics", "ui/next"):
            store.record(Attempt(lesson, 0, 0, "x", "correct", run="r"), total_prompts=1,
                         position=(9, 0))
    app = TutorApp(catalog=ui_catalog("lessons", "gpu"), kernel=kernel,
                   store=ProgressStore(tutor_home))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await wait_for(pilot, lambda: app.cannot_run, what="requirements checked")
        screen = app.screen
        assert list(app.cannot_run) == ["ui/on-gpu"]
        texts = [" ".join(t.split()) for t in option_texts(screen)]  # (no score column)
        assert texts[-3:] == ["UI GPU fixtures", "⊘ UI lesson on a GPU",
                              "· UI lesson on any machine"]
        course = str(screen.query_one("#course-line", Static).render())
        assert "2 of 3 lessons done" in course and "1 lesson this kernel cannot run" in course
        # "continue" passes the CUDA lesson by
        assert "Start: UI lesson on any machine" in str(
            screen.query_one("#continue-line", Static).render())
        screen.query_one("#lessons", OptionList).highlighted = texts.index(
            "⊘ UI lesson on a GPU")
        await pilot.pause()
        head = str(screen.query_one("#detail-head", Static).render())
        assert "Cannot run here: this lesson needs a CUDA device" in head


class EventKernel:
    """A kernel without a process for the app's tests: it tells its listeners of a
    status change (`Kernel.subscribe`) when the test makes one."""

    channel, failure, mode = None, None, "fork"

    def __init__(self) -> None:
        self.info: dict[str, object] = {}
        self.listeners: list[Callable[[str], object]] = []

    def subscribe(self, listener: Callable[[str], object]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def wait_ready(self) -> dict[str, object]:
        return self.info

    def shutdown(self) -> None: ...

    def describe_mode(self) -> str:
        return "fork mode"

    def describe_cuda(self) -> str:
        return "no CUDA device"


async def test_the_course_total_is_shown_once_and_does_not_change(tutor_home) -> None:
    """The course line counts the lessons this kernel can run. Before the kernel has
    said what it has, it shows no total (it used to show every lesson, 123, and then
    drop to 116 when the kernel came up without a GPU)."""
    from tutor.ui.app import TutorApp

    class Starting(EventKernel):  # a kernel that becomes ready when the test says so
        @property
        def status(self) -> str:
            return getattr(self, "_status", "starting")

        @status.setter
        def status(self, value: str) -> None:  # (a change is an event, as a Kernel's is)
            self._status = value
            for listener in self.listeners:
                listener(value)

    kernel = Starting()
    app = TutorApp(catalog=ui_catalog("lessons", "gpu"), kernel=kernel,  # type: ignore[arg-type]
                   store=ProgressStore(tutor_home))
    lines: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        line = app.screen.query_one("#course-line", Static)
        await pilot.pause(0.5)
        lines.append(" ".join(str(line.render()).split()))
        kernel.info = {"torch": "2.13.0", "python": "3.11.0", "cuda": False}
        kernel.status = "ready"
        await wait_for(pilot, lambda: app.judged_for is not None, what="requirements checked")
        await pilot.pause(0.3)
        lines.append(" ".join(str(line.render()).split()))
    before, after = lines
    assert " of " not in before and "Course: 0 lessons done" in before
    assert "the total comes when the kernel is ready" in before
    assert after.startswith("Course: 0 of 3 lessons done · 1 lesson this kernel cannot run")


async def test_the_kernel_state_follows_the_kernels_events_not_a_poll(tutor_home) -> None:
    """The app subscribes to the kernel's status changes (`Kernel.subscribe`) instead of
    reading `status` every 0.2 s: a change the kernel announces is shown at once, and
    nothing reads the status behind its back."""
    from tutor.ui.app import TutorApp

    class Announcing(EventKernel):
        status = "starting"

        def announce(self, status: str) -> None:
            self.status = status
            for listener in self.listeners:
                listener(status)

    kernel = Announcing()
    app = TutorApp(catalog=ui_catalog(), kernel=kernel,  # type: ignore[arg-type]
                   store=ProgressStore(tutor_home))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        # the worker that waits for the kernel to start has ended (its end is an event
        # the app reads the status on, as it should: not a poll)
        await wait_for(pilot, lambda: not any(w.group == "kernel-start" for w in app.workers),
                       what="the kernel-start worker to end")
        assert app.kernel_state == "starting" and len(kernel.listeners) == 1
        kernel.status = "dead"  # not announced: a poll would see it, a listener does not
        await pilot.pause(1.0)
        assert app.kernel_state == "starting"
        kernel.announce("restarting")  # (from a kernel thread, in a real kernel)
        await wait_for(pilot, lambda: app.kernel_state == "restarting", what="the event shown")
    assert kernel.listeners == []  # unsubscribed when the app ends


async def test_a_long_lesson_id_is_not_cut_mid_word_in_a_narrow_detail_pane(
        kernel, tutor_home, tmp_path) -> None:
    """At 60x20 the detail pane folded `saving/weight-tying` into `saving/weight-tyin`
    and `g`; an id wider than the pane breaks after its pack's `/` instead."""
    from tutor.lesson import load_catalog
    from tutor.ui.app import TutorApp

    pack = tmp_path / "narrow"
    pack.mkdir()
    lesson_id = "narrowpackname/weight-tying"
    text = (UI_DATA_LESSONS / "next.yaml").read_text(encoding="utf-8")
    (pack / "long.yaml").write_text(
        "\n".join(f"id: {lesson_id}" if line.startswith("id:") else line
                  for line in text.splitlines()) + "\n", encoding="utf-8")
    catalog = load_catalog([pack], with_env=False, with_bundled=False)
    app = TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(tutor_home))
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        head = app.screen.query_one("#detail-head", Static)
        await wait_for(pilot, lambda: "narrowpack" in str(head.render()), what="the detail")
        await pilot.pause(0.2)
        assert head.content_size.width < len(lesson_id)
        drawn = app.screen._compositor.render_update(full=True)
        rows = ["".join(s.text for s in strip) for strip in drawn.strips]
        pane = [row[head.region.x:head.region.right].strip() for row in rows]
        # the id drawn in two whole pieces, each on its own line of the pane
        assert "narrowpackname/" in pane, pane
        assert any(row.startswith("weight-tying ") for row in pane), pane


async def test_rows_the_store_cannot_read_are_told_once_in_the_app(kernel, tutor_home) -> None:
    """A row edited by hand (or written by a newer tutor) is left out by the store; the
    app says so once, as `tutor play` and `tutor progress` do, instead of staying silent."""
    import sqlite3

    from tutor.ui.app import TutorApp

    with ProgressStore(tutor_home) as store:
        store.set_position("ui/basics", (0, 0), "r1")
    db = sqlite3.connect(tutor_home / "progress.db")
    db.execute("UPDATE lessons SET status = 'mastered'")
    db.commit()
    db.close()
    app = TutorApp(catalog=ui_catalog(), kernel=kernel, store=ProgressStore(tutor_home))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        await wait_for(pilot, lambda: any("could not be read as written" in str(n.message)
                                          for n in app._notifications), what="the note")
        app.screen.refresh_catalog()
        await pilot.pause()
        told = [n for n in app._notifications if "could not be read" in str(n.message)]
        assert len(told) == 1 and "mastered" in str(told[0].message)


async def test_a_lesson_from_the_catalog_index_is_read_again_when_opened(
        kernel, make_app, tmp_path: Path) -> None:
    lessons = Path(shutil.copytree(UI_DATA_LESSONS, tmp_path / "lessons"))

    def load():  # noqa: ANN202
        return load_catalog([lessons], with_env=False, with_bundled=False,
                            index=LessonIndex.open(tmp_path / "cache"))

    load()
    catalog = load()
    assert catalog.from_index == {"ui/basics", "ui/next"}
    # after the catalog was read (stamps kept: the files look unchanged), one lesson is
    # edited and one broken
    for name, old, new in (("next.yaml", "title: UI next lesson", "title: Edited title"),
                           ("basics.yaml", "steps:", "stepz:")):
        path = lessons / name
        stat = path.stat()
        path.write_text(path.read_text().replace(old, new, 1))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    app = make_app(kernel, catalog=catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), what="catalog")
        app.post_message(OpenLesson("ui/basics"))
        await wait_for(pilot, lambda: any("cannot be opened" in str(n.message)
                                          for n in app._notifications), what="the error")
        told = next(str(n.message) for n in app._notifications
                    if "cannot be opened" in str(n.message))
        assert "basics.yaml" in told and "steps" in told  # where, and what is wrong
        assert isinstance(app.screen, CatalogScreen)
        app.post_message(OpenLesson("ui/next"))
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), what="lesson")
        assert app.screen.lesson.title == "Edited title"  # the file, not the index
