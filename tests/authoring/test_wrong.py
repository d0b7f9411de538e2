"""Wrong-on-purpose answers (`wrong:`): lint reads them, check proves them wrong."""

from __future__ import annotations

import pytest

from tutor.authoring.lint import lint_paths
from tutor.engine import check_lesson
from tutor.lesson import load_lesson

from .conftest import DATA

WRONG = DATA / "wrong" / "wrong.yaml"


@pytest.mark.kernel
def test_check_fails_a_wrong_answer_that_the_judge_calls_correct(kernel):
    check = check_lesson(kernel, load_lesson(WRONG))
    first, second = check.prompts
    assert first.passed  # 5, 25 and 0 are all judged incorrect
    assert not second.passed and second.line == 14
    assert "'torch.Size([])'" in second.message and "judged correct" in second.message
    assert check.status == "failed"


def test_lint_reads_wrong_answers_but_leaves_judging_to_check(no_env):
    # every wrong answer parses; that one is *correct* is only known live
    assert lint_paths([WRONG]).errors == []
