"""What pictures say, drawn from live kernel data: the state, never a prediction, and
nothing a learner would misread (storage labels, `detach()`, a cast's missing graph,
the module tree's legend)."""

from __future__ import annotations

import re

import pytest

from tutor.kernel import Session
from tutor.pictures import render_text

from .test_inspect import run

pytestmark = pytest.mark.kernel


PREDICTIONS = re.compile(r"raises|RuntimeError|second time|can walk|again even|"
                         r"retain_graph=True keeps|adds into", re.I)


@pytest.mark.parametrize("code", [
    "z = torch.log(x ** q)\n",  # saved tensors kept
    "z = torch.log(x ** q)\nz.backward()\n",  # freed
    "z = torch.log(x ** q)\nz.backward(retain_graph=True)\n",  # kept after a backward
    "z = (x.clone() + q).sum()\nz.backward()\n",  # nothing saved
])
def test_a_graph_says_what_is_saved_never_what_a_backward_would_do(
        session: Session, code: str) -> None:
    # a picture may be on screen while a later question asks what another backward() does
    run(session, "x = torch.tensor(5., requires_grad=True)\n"
        "q = torch.tensor(3., requires_grad=True)\n" + code)
    for expr in ("z", "x"):
        text = render_text(session.inspect("graph", expr), 80)
        assert not PREDICTIONS.search(text), text
    text = render_text(session.inspect("graph", "z"), 80)
    last = " ".join(text.splitlines()[-2:])
    assert re.search(r"saved tensors (kept|freed)|nothing saved", last), text


def test_a_leaf_in_a_graph_says_what_its_shape_is(session: Session) -> None:
    run(session, "w = torch.tensor([1., 2.], requires_grad=True)\nloss = (w * w).sum()\n")
    text = render_text(session.inspect("graph", "loss"), 80)
    assert "AccumulateGrad → w.grad = None · shape [2]" in text
    run(session, "loss.backward()\n")
    text = render_text(session.inspect("graph", "loss"), 80)
    assert "AccumulateGrad → w.grad = [2.0, 4.0]\n" in text  # the values show the shape


def test_an_integer_cast_has_no_graph_because_of_its_dtype(session: Session) -> None:
    run(session, "x = torch.tensor([1.5, 2.5], requires_grad=True)\nn = x.long()\n"
        "big = x > 2\nd = x.detach()\n")
    text = render_text(session.inspect("graph", "n"), 80)
    assert "n is int64: only floating-point and complex tensors can require grad" in text
    assert "no_grad" not in text and "detach" not in text  # causes that do not apply here
    assert "big is bool" in render_text(session.inspect("graph", "big"), 80)
    text = render_text(session.inspect("graph", "d"), 80)  # a float: the possible causes
    assert "d does not require grad" in text and "detach()" in text


def test_storage_labels_go_in_order_and_name_no_maker(session: Session) -> None:
    # memory/assign-a-sum: the question looks at `before` (the first y) after `y` is rebound
    run(session, "x = torch.tensor([1., 2.])\nidentity = x\nx = x + 10\n")
    session.observe("identity")
    run(session, "y = torch.tensor([1., 2.])\nbefore = y\ny = y * 1\n"
        "out = torch.relu(x)\nout += identity\n")
    session.observe("before")
    text = render_text(session.inspect("storage"), 80)
    labels = re.findall(r"^(s\d+) · ", text, re.M)
    assert labels == sorted(labels, key=lambda label: int(label[1:])) and len(labels) == 5
    assert "made for" not in text and "made by" not in text  # (out was made by relu, not +=)
    first = {label: text.split(label + " · ")[1].splitlines()[1] for label in labels[:2]}
    assert "identity" in first[labels[0]] and "before" in first[labels[1]]  # looked at first
    # the same block keeps its label from picture to picture
    again = render_text(session.inspect("storage"), 80)
    assert re.findall(r"^(s\d+) · .*\n.─ (\S+)", again, re.M) == re.findall(
        r"^(s\d+) · .*\n.─ (\S+)", text, re.M)


def test_detach_is_described_as_torch_describes_it(session: Session) -> None:
    # torch 2.13: detach() shares the storage (and the version counter), and torch's docs
    # list it among the view ops; autograd keeps no `_base` for it (`_is_view()` False)
    run(session, "A = torch.tensor([2., 1.], requires_grad=True)\nB = A.detach()\n"
        "facts = (B._is_view(), B._base is None, "
        "B.untyped_storage().data_ptr() == A.untyped_storage().data_ptr())\n")
    assert session.observe("facts")["items"] == [
        {"type": "bool", "value": False}, {"type": "bool", "value": True},
        {"type": "bool", "value": True}]
    text = render_text(session.inspect("storage"), 80)
    assert "B      ██      [2]    [1]     0       shares A's memory, ._base None" in text
    assert "not a view" not in text


TREES = """
import torch.nn as nn

class Held(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(1, 1)
        self.blocks = [nn.Linear(1, 1)]

plain = nn.Linear(2, 1).double()
held = Held()
"""


def test_the_tree_legend_shows_only_with_a_marked_entry(session: Session) -> None:
    run(session, TREES)
    text = render_text(session.inspect("tree", "plain"), 80)
    assert text.splitlines()[0] == "module tree of plain"
    assert "✗" not in text
    assert "weight  parameter [1, 2] float64" in text  # a dtype other than float32 is shown
    text = render_text(session.inspect("tree", "held"), 80)
    assert text.splitlines()[0] == "module tree of held (✗ = held, not registered)"
    assert "✗ blocks[0]" in text and "parameter [1, 1] · grad None" in text


def test_a_graph_says_what_the_saved_names_mean(session: Session) -> None:
    """`✗ freed: other` means nothing to a learner until the picture says that `other`
    is the operation's second input (reader r18)."""
    run(session, "a = torch.tensor(2., requires_grad=True)\nb = torch.tensor(3., "
        "requires_grad=True)\nab = a * b\nab.backward()\n")
    text = render_text(session.inspect("graph", "ab"), 80)
    assert "✗ freed: other, self" in text or "✗ freed: self, other" in text, text
    assert "saved names: self = the operation's first input, other = its second input" in text
    run(session, "c = a + b\n")  # nothing saved: no key to read
    assert "saved names" not in render_text(session.inspect("graph", "c"), 80)
