"""Pictures in the TUI: `p` after a verdict, and `:graph`/`:storage`/`:tree` in the REPL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pilot_wait import wait_for

from tutor.kernel import Kernel
from tutor.lesson import load_catalog
from tutor.progress import ProgressStore

pytestmark = pytest.mark.kernel


@pytest.fixture(autouse=True)
def answer_keys_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test presses y the moment the question shows (a person gets a settle time)."""
    from tutor.ui.widgets.answer import AnswerBox

    monkeypatch.setattr(AnswerBox, "SETTLE", 0.0)

LESSON = """\
id: pictures/tui
title: Pictures in the app
topic: autograd
steps:
  - code: |
      x = torch.tensor(5., requires_grad=True)
      q = torch.tensor(3., requires_grad=True)
      z = torch.log(x ** q)
      z.backward()
    predict:
      - ask: What is `x.grad`?
        kind: number
        expect: x.grad
        answer: "0.6"
  - code: B = x.detach()
    predict:
      - ask: Do `x` and `B` share memory?
        kind: same_storage
        expect: [x, B]
        answer: "yes"
        show: storage x
"""


async def test_pictures_open_after_a_verdict_and_from_the_repl(
        kernel: Kernel, tutor_home: Path, tmp_path: Path,
        golden: Callable[[str, str], None]) -> None:
    from textual.widgets import Input

    from tutor.ui.app import TutorApp
    from tutor.ui.screens.catalog import CatalogScreen
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.widgets.picture import PicturePane, PictureView
    from tutor.ui.widgets.repl import Repl

    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "tui.yaml").write_text(LESSON, encoding="utf-8")
    catalog = load_catalog([tmp_path / "lessons"], with_env=False, with_bundled=False)
    app = TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(tutor_home))
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), "the catalog")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the step to run")
        # no picture before the verdict
        assert screen.check_action("picture", ()) is False

        screen.query_one("#text-entry", Input).value = ""
        await pilot.press(*"0.6", "enter")
        await wait_for(pilot, lambda: screen.mode == "judged", "the verdict")
        assert "p: picture" in str(screen.query_one("#verdict-keys").render())
        assert str(screen.picture_spec) == "graph z"  # suggested: x.grad after z.backward()

        await pilot.press("p")  # drawn under the verdict, never over the explanation
        pane = screen.query_one(PicturePane)
        view = pane.query_one(PictureView)
        await wait_for(pilot, lambda: view.data is not None, "the picture's data")
        assert app.screen is screen and screen.query_one("#verdict").display
        text = str(view.render())
        golden("tui_graph_z", text + "\n")
        assert "AccumulateGrad → x.grad = 0.6" in text
        assert max(len(line) for line in text.splitlines()) <= view.content_size.width
        await pilot.press("p")  # p again hides it
        assert not pane.display

        # the next step's question has a `show:`; it is drawn as written
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.mode == "asking", "question 2")
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.mode == "judged", "the verdict")
        assert str(screen.picture_spec) == "storage x"

        # the REPL draws pictures inline
        await pilot.press("ctrl+o")
        repl = screen.query_one(Repl)
        for command in (":storage", ":tree x", ":graf z"):
            await pilot.press(*command, "enter")
            await wait_for(pilot, lambda: not screen.repl_running, "the REPL")
        log = "\n".join(str(w.render()) for w in repl.query(".repl-entry"))
        assert "storage map: 4 tensors on 3 storages" in log and "← x, B" in log
        assert "shares x's memory, ._base None" in log and "not a view" not in log
        assert "InspectError: tree: `x` is a Tensor, not an nn.Module" in log
        assert "unknown picture 'graf'" in log


TALL = """\
id: tui/tall
title: A tall verdict
topic: testing
intro: |
  The toy residual block of the *Tensors and memory* pack, now with weights
  that require grad: `feature = w1 * inp`, `out = identity + w2 * feature`,
  `loss = (out - 8.5) ** 2`, with `inp = 1`, `w1 = 2`, `w2 = 3`. Forward,
  that is `feature = 2`, `out = 8` and `loss = 0.25`. Now the gradients:
  with the plain alias `identity = feature`, with a clone, and with an
  in-place multiply meant for the branch. Each version gets its own fresh weights.
steps:
  - code: |
      inp = torch.tensor(1.)
      w1 = torch.tensor(2., requires_grad=True)
      w2 = torch.tensor(3., requires_grad=True)
      feature = w1 * inp
      identity = feature
      out = identity + w2 * feature
      loss = (out - 8.5) ** 2
      loss.backward()
    predict:
      - ask: What is `w1.grad`?
        kind: number
        show: graph loss
        expect: w1.grad
        answer: "-4.0"
        hint: Two paths.
        explain: |
          `d loss/d out = 2 (8 - 8.5) = -1`. `feature` is used twice: the skip
          path contributes `1` per unit of `feature`, the branch `w2 = 3`. The
          engine sums them at `feature`'s node, `-1 * (1 + 3) = -4`, and
          `d feature/d w1 = inp = 1`. One tensor used twice is all a residual
          connection needs.
"""


@pytest.mark.parametrize(("height", "told"), [(24, True), (32, False)])
async def test_the_picture_is_pointed_at_only_when_it_is_left_below(
        kernel: Kernel, tutor_home: Path, tmp_path: Path, height: int, told: bool) -> None:
    """"The picture is below…" came even when the scroll that followed brought the
    picture into view (a reviewer saw it at 70 columns, 30 to 34 rows here); it is said
    only once the scroll is final, and only when the picture is still below the screen."""
    from textual.containers import VerticalScroll
    from textual.widgets import Input

    from tutor.ui.app import TutorApp
    from tutor.ui.screens.catalog import CatalogScreen
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.widgets.picture import PicturePane, PictureView

    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "tui.yaml").write_text(TALL, encoding="utf-8")
    catalog = load_catalog([tmp_path / "lessons"], with_env=False, with_bundled=False)
    app = TutorApp(catalog=catalog, kernel=kernel, store=ProgressStore(tutor_home))
    async with app.run_test(size=(70, height)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CatalogScreen), "the catalog")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode == "asking", "the step to run")
        screen.query_one("#text-entry", Input).value = ""
        await pilot.press(*"-4", "enter")
        await wait_for(pilot, lambda: screen.mode == "judged", "the verdict")
        await pilot.press("p")
        view = screen.query_one(PicturePane).query_one(PictureView)
        await wait_for(pilot, lambda: view.data is not None, "the picture's data")
        pane = screen.query_one(PicturePane)
        body = screen.query_one("#lesson-body", VerticalScroll)

        def settled() -> bool:  # the scroll and the note each wait for a refresh or two
            keys = str(screen.query_one("#verdict-keys").render())
            below = pane.region.y >= body.scrollable_content_region.bottom - 2
            return below is told and ("▼ picture below (PgDn)" in keys) is told

        await wait_for(pilot, settled, "the final scroll and what the keys line says")
        for _ in range(6):  # and it stays so (a note said too early is taken back)
            await pilot.pause(0.05)
        assert settled()
        said = [n.message for n in app._notifications]
        # said on the verdict's keys line, in view above the picture: a notification
        # covered the picture it pointed to (learner report, issue 28)
        keys = str(screen.query_one("#verdict-keys").render())
        assert "p: hide the picture" in keys
        assert not any("picture" in m for m in said), said
        verdict = screen.query_one("#verdict-keys").region
        assert body.scrollable_content_region.y <= verdict.y < body.scrollable_content_region.bottom
        if told:  # the learner scrolls down to the picture: the note goes, it is no longer true
            body.scroll_end(animate=False, immediate=True)
            await wait_for(pilot, lambda: "picture below" not in str(
                screen.query_one("#verdict-keys").render()), "the note to go")
            assert "p: hide the picture" in str(screen.query_one("#verdict-keys").render())
