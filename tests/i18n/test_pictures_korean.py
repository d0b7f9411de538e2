"""The pictures (autograd graph, storage map, module tree) in Korean (issue 25): every
label, legend and note a learner reads is translated, and the lines still fit the width
in terminal cells (Hangul takes two)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pictures.test_inspect import MODULES, SEED_GRAPH  # noqa: E402
from pictures.test_render import SCENES  # noqa: E402

from tutor import i18n  # noqa: E402
from tutor.kernel import Kernel  # noqa: E402
from tutor.pictures import parse_show, render_text  # noqa: E402

pytestmark = pytest.mark.kernel

MORE = {
    "graph_changed": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\n"
                      "z = y.exp()\ny2 = z.sum()\nwith torch.no_grad():\n    z.mul_(2)\n",
                      "graph", "y2"),
    "graph_int": ("i = torch.tensor([1, 2])\n", "graph", "i"),
    "graph_float": ("f = torch.tensor([1., 2.])\n", "graph", "f"),
    "storage_of": ("A = torch.zeros(4)\nv = A.view(2, 2)\nh = A.half()\n", "storage", "A"),
    "tree_shared": (MODULES + "net.twin = net.first\n", "tree", "net"),
    "graph_two_names": (SEED_GRAPH + "w = z\n", "graph", "w"),
}

# what the English pictures print: none of it is left in Korean (identifiers and
# torch's names, `grad`, `shape`, `state_dict()`, `train`, stay as they are)
ENGLISH = re.compile(
    r"autograd graph of|what \S+ walks|saved names|saved tensors|first input|second|"
    r"its output|exponent|module tree|held|registered|parameter|buffer|\bnot\b|"
    r"storage map|same label|same memory|shared:|notes|leaf|requires grad|shares|"
    r"plain|not in state_dict|\bkeys?\b|\bbytes?\b|\bname\b|memory|nothing saved|again|"
    r"shown|does not|Graphs built|no graph|\bview\b|object|\bfreed\b|"
    r"\bsaved:|changed in place|\bon\b|same module|\btensors?\b")


@pytest.fixture(scope="module")
def scenes(kernel: Kernel) -> dict[str, dict[str, Any]]:
    out = {}
    for name, (code, what, expr) in {**SCENES, **MORE}.items():
        with kernel.open_session() as s:
            assert s.run_step(code)["error"] is None, name
            out[name] = s.inspect(what, expr)
    return out



def prose(text: str) -> str:
    """The picture less code: backquoted spans and names followed by `.grad`, `(`..."""
    text = re.sub(r"`[^`]*`|\w+\.(grad(_fn)?|backward\(\)|data)\b|\w+\([^)]*\)", "", text)
    # torch's names: nodes, and the saved tensors' argument names (`self`, `exponent`)
    return re.sub(r"\b(AccumulateGrad|\w+Backward\d*|retain_graph=True|register_hook|self|"
                  r"other|result|exponent|mat1|mat2)\b", "", text)


@pytest.mark.parametrize("name", [*SCENES, *MORE])
@pytest.mark.parametrize("width", [80, 50])
def test_pictures_in_korean_are_korean_and_fit(name: str, width: int, korean: None,
                                               scenes: dict[str, dict[str, Any]]) -> None:
    text = render_text(scenes[name], width)
    assert re.search(r"[가-힣]", text), text
    for line in text.splitlines():
        assert i18n.width(line) <= width, f"{i18n.width(line)} cells: {line}\n{text}"
        left = ENGLISH.search(prose(line))
        assert left is None, f"English {left.group(0)!r} in: {line}\n{text}"


def test_the_legends_read_as_the_reviewer_asked(korean: None,
                                                 scenes: dict[str, dict[str, Any]]) -> None:
    graph = render_text(scenes["graph_seed"], 80)
    assert graph.startswith("z의 autograd 그래프: z.backward()가 훑는 경로\n"), graph
    assert "저장된 이름: self = 연산의 첫 번째 입력" in graph
    assert "저장된 텐서 유지됨:" in graph
    tree = render_text(scenes["tree_plain_list"], 80)
    assert tree.startswith("net의 모듈 트리 (✗ = 갖고만 있고 등록되지 않음)\n"), tree
    assert "p  파라미터 [] = 1.0 · grad None" in tree
    assert "일반 list에 담김" in tree
    storage = render_text(scenes["storage_detach"], 80)
    assert "이름" in storage.splitlines()[2] and "비고" in storage.splitlines()[2], storage


def test_picture_requests_are_told_in_korean(korean: None) -> None:
    with pytest.raises(ValueError, match="알 수 없는 그림") as info:
        parse_show(":grahp z")
    assert "(또는 `:storage EXPR`)" in str(info.value) and " or " not in str(info.value)
    with pytest.raises(ValueError, match="식이 필요합니다"):
        parse_show(":graph")


def test_english_pictures_are_unchanged(scenes: dict[str, dict[str, Any]]) -> None:
    assert i18n.language() == i18n.ENGLISH
    text = render_text(scenes["graph_seed"], 80)
    assert text.startswith("autograd graph of z: what z.backward() walks\n")
