"""`show:` specs, which picture fits a question, and `tutor show` end to end."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.pictures import ShowSpec, parse_show, suggest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("text", "spec"), [
    ("graph z", ShowSpec("graph", "z")),
    (":graph  x ** 2", ShowSpec("graph", "x ** 2")),
    ("storage", ShowSpec("storage")),
    ("storage A", ShowSpec("storage", "A")),
    ("tree net.first", ShowSpec("tree", "net.first")),
    ("Tree model", ShowSpec("tree", "model")),
])
def test_show_specs_parse(text: str, spec: ShowSpec) -> None:
    assert parse_show(text) == spec
    assert parse_show(str(spec)) == spec


@pytest.mark.parametrize(("text", "message"), [
    ("graph", "`graph` needs an expression"),
    ("tree", "`tree` needs an expression"),
    ("graf z", "unknown picture 'graf'"),
    ("", "unknown picture ''"),
    ("graph z +", "`z +` is not a Python expression"),
    # typed at a `:` prompt: the examples have the colon, so they can be typed as shown
    (":graph", "`:graph` needs an expression, e.g. `:graph z`"),
    (":graf z", "unknown picture 'graf': use `:graph EXPR`, `:storage` (or `:storage EXPR`)"),
])
def test_bad_show_specs_say_why(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_show(text)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(("kind", "expect", "code", "spec"), [
    ("same_storage", ("A", "B"), "", "storage"),
    ("number", "B[0].data_ptr() - A[0].data_ptr()", "", "storage"),
    ("number", "x.grad", "z = torch.log(x ** q)\nz.backward()", "graph z"),
    ("number", "w1.grad", "loss = (out - 8.5) ** 2\nloss.backward()", "graph loss"),
    ("number", "x.grad", "y = x * 2", "graph x"),
    ("text", "z.grad_fn", "z.backward()", "graph z"),
    ("boolean", "y.is_leaf", "", "graph y"),
    ("exception", None, "z.backward()\nz.backward()", "graph z"),
    ("set", "list(net.state_dict().keys())", "", "tree net"),
    ("list", "[n for n, _ in model.layer.named_children()]", "", "tree model.layer"),
    ("boolean", "net.training", "", "tree net"),
    ("number", "a + b", "", None),
])
def test_suggest_picks_the_picture_that_fits_the_question(
        kind: str, expect: object, code: str, spec: str | None) -> None:
    got = suggest(kind, expect, code)  # type: ignore[arg-type]
    assert (str(got) if got else None) == spec


def test_tutor_show_rejects_a_bad_picture_before_starting_a_kernel(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "samples/modules", "tree"]) == 2
    assert "`tree` needs an expression" in capsys.readouterr().err
    assert main(["show", "samples/modules", "--step", "7", "tree", "net"]) == 2
    assert "there is no step 7" in capsys.readouterr().err


@pytest.mark.kernel
def test_tutor_show_end_to_end(golden: Callable[[str, str], None]) -> None:
    lesson = ROOT / "lessons" / "samples" / "accumulate.yaml"
    proc = subprocess.run([sys.executable, "-m", "tutor", "show", str(lesson), "--step", "1",
                           "graph", "z"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    golden("cli_accumulate_step0_graph_z", proc.stdout)


SHOWING_LESSON = """\
id: pictures/showing
title: A lesson that shows a picture
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
        show: graph z
"""


@pytest.mark.kernel
@pytest.mark.usefixtures("commands_share_kernel")
def test_play_draws_pictures_only_after_the_steps_questions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    lesson = tmp_path / "showing.yaml"
    lesson.write_text(SHOWING_LESSON, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(":storage x\n0.6\n:storage x\n:tree x\n"))
    assert main(["play", str(lesson)]) == 0
    out = capsys.readouterr().out
    before = out[: out.index("✓ correct")]
    assert "storage map" not in before and "autograd graph" not in before  # no peeking
    assert "Pictures show live values, so they open once this step's questions" in before
    assert (": :storage x\n"
            "  storage map of x: 1 tensor on 1 storage (same label = same memory)\n") in out
    assert ": :tree x\n  cannot draw this picture\n  InspectError: tree: `x` is a Tensor" in out
    assert "finished: 1 of 1 right" in out
    after = out[out.index("✓ correct"):]
    assert ("  autograd graph of z: what z.backward() walks\n"
            "  LogBackward0 = z.grad_fn · ✗ freed: self\n"
            "  └─ PowBackward1 · ✗ freed: exponent, result, self\n"
            "     ├─ AccumulateGrad → x.grad = 0.6000\n"
            "     └─ AccumulateGrad → q.grad = 1.6094\n") in after


def test_lint_rejects_a_show_that_cannot_be_drawn(tmp_path: Path) -> None:
    from tutor.authoring.lint import lint_lesson_file

    good = tmp_path / "good.yaml"
    good.write_text(SHOWING_LESSON, encoding="utf-8")
    assert [p for p in lint_lesson_file(good).problems if p.path.endswith(".show")] == []
    bad = tmp_path / "bad.yaml"
    bad.write_text(SHOWING_LESSON.replace("show: graph z", "show: graph"), encoding="utf-8")
    (problem,) = [p for p in lint_lesson_file(bad).problems if p.path.endswith(".show")]
    assert problem.severity == "error" and problem.line == 15
    assert problem.path == "steps[0].predict[0].show"
    assert problem.message == "`graph` needs an expression, e.g. `graph z`."


@pytest.mark.parametrize(("kind", "expect", "code", "spec"), [
    # backward inside a function: its tensors are local, so not the graph of `loss`
    ("number", "w.grad", "def step():\n    loss = f()\n    loss.backward()\nstep()", "graph w"),
    ("number", "model.layer2.weight.grad", "model(x).mean().backward()", "tree model"),
    ("number", "x.grad", "g = torch.autograd.grad(y, x)\n", "graph y"),
    ("number", "x.grad", "for _ in range(2):\n    z.backward(retain_graph=True)", "graph z"),
    ("tensor", "A", "B = A.detach()\nB[0] = 3", "storage"),
    ("tensor", "A", "B = A * 2", None),
    # a name bound only inside a comprehension or a function is not in the namespace
    ("set", "[n for n, layer in layers.items() if layer.weight.grad is not None]",
     "model(x).mean().backward()", None),
    ("number", "w.grad", "def f(w):\n    return w * 2", None),
])
def test_suggest_reads_the_code_not_just_its_text(
        kind: str, expect: object, code: str, spec: str | None) -> None:
    got = suggest(kind, expect, code)  # type: ignore[arg-type]
    assert (str(got) if got else None) == spec


@pytest.mark.parametrize(("kind", "expect", "topic", "spec"), [
    ("number", "identity", "memory", "storage"),
    ("tensor", "a", "clone-detach", "storage"),
    ("number", "z", "autograd", None),
    ("number", "model.powModel.powBuff", "buffers", "tree model"),
    ("number", "model.powModel.powParam", "training", "tree model"),
    ("number", "model.powModel.powParam", "autograd", None),
])
def test_suggest_uses_the_lessons_topic(kind: str, expect: str, topic: str,
                                        spec: str | None) -> None:
    got = suggest(kind, expect, "", topic)
    assert (str(got) if got else None) == spec
