"""What finding and loading a lesson says, in Korean (issue 25): a lesson that is not
found (with its did-you-mean), the loader's schema checks (`expected a list, got ...`,
a missing key, YAML read as a list), the file checks, and an unmet `requires:`.  The
same messages stay English in English and in `tutor lint --json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.lesson import load_lesson
from tutor.lesson.catalog import find_lesson
from tutor.lesson.loader import LessonError
from tutor.lesson.model import Requires
from tutor.lesson.requires import numpy_note, unmet

LESSON = """\
id: t/broken
title: Broken
topic: testing
level: 1
steps: just text
"""



def problems(path: Path) -> list[str]:
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    return [p.message for p in info.value.problems]


def test_a_lesson_not_found_is_told_in_korean(korean: None) -> None:
    with pytest.raises(LessonError) as info:
        find_lesson("07-graphs-and-leaves/03-no-grad-creation")
    message = str(info.value)
    assert "id나 경로가 '07-graphs-and-leaves/03-no-grad-creation'인 레슨이 없습니다. " \
           "혹시 이것인가요: " in message, message
    assert "no lesson" not in message and "Did you mean" not in message
    with pytest.raises(LessonError, match="`tutor list`로 전체 목록을 볼 수 있습니다"):
        find_lesson("zzzzzzzz-qqqq")


def test_schema_messages_are_korean(korean: None, tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(LESSON, encoding="utf-8")
    assert problems(path) == ["리스트여야 하는데 'just text'입니다"]
    path.write_text(LESSON.replace("title: Broken\n", "").replace(
        "steps: just text", "steps:\n  - code: x = 1\n    explain: [a, b]"), encoding="utf-8")
    said = problems(path)
    assert any(m.startswith("필수 키가 없습니다: 'title'. `title:` 줄을 추가하세요") for m in said)
    retyped = "텍스트여야 하는데 리스트입니다: '['로 시작해서 YAML이"
    assert any(m.startswith(retyped) for m in said), said
    path.write_text("", encoding="utf-8")
    assert problems(path) == ["파일이 비어 있습니다: 레슨에는 id, title, topic, steps가 필요합니다"]
    assert problems(tmp_path) == ["레슨 파일이 아니라 디렉터리입니다"]


def test_schema_messages_stay_english_in_english(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(LESSON, encoding="utf-8")
    assert problems(path) == ["expected a list, got 'just text'"]


def test_unmet_requirements_are_korean(korean: None) -> None:
    info = {"torch": "2.13.0", "python": "3.11.7", "cuda": False}
    assert unmet(Requires(cuda=True), info) == "CUDA 장치가 필요한데, 쓸 수 있는 장치가 없습니다"
    assert unmet(Requires(torch=">=3"), info) == \
        "torch >=3이 필요한데, 이 커널에는 torch 2.13.0이 있습니다"
    assert unmet(Requires(numpy=True), {**info, "numpy_missing": True}) == \
        "NumPy가 필요한데, 커널이 실행되는 곳에 설치되어 있지 않습니다"
    assert numpy_note({"numpy_error": "x", "numpy": "2.0"}).startswith(
        " · NumPy 2.0은 이 torch와 함께 동작하지 않습니다")


def test_lint_says_the_loaders_checks_in_korean_and_json_in_english(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(LESSON, encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k not in ("TUTOR_PATH", "LANG", "LC_ALL", "LC_MESSAGES")}
    env.update(TUTOR_LANG="ko", TUTOR_HOME=str(tmp_path / "home"))
    run = [sys.executable, "-m", "tutor", "lint"]
    proc = subprocess.run([*run, str(path)], text=True, capture_output=True, env=env,
                          timeout=120)
    assert "steps: 리스트여야 하는데 'just text'입니다" in proc.stdout, proc.stdout + proc.stderr
    proc = subprocess.run([*run, "--json", str(path)], text=True, capture_output=True,
                          env=env, timeout=120)
    assert "expected a list, got 'just text'" in [p["message"] for p in json.loads(proc.stdout)]


def test_the_kernels_liveness_and_start_messages_are_korean(korean: None) -> None:
    import os
    import time

    from tutor.kernel import spawn
    from tutor.kernel.liveness import Liveness

    live = Liveness(os.getpid(), lambda seq: None)
    live.last_heard -= 2
    live.check(serving=True)
    live.pinged_at = time.monotonic() - 60
    why = live.check(serving=True) or ""
    assert why.startswith("응답 없음 (") and why.endswith("초 동안 답이 없음: 멈춤)"), why
    assert spawn.Spawner._exit(None, None) == "응답하지 않았습니다"  # type: ignore[arg-type]


def test_a_stopped_kernel_is_said_in_korean(korean: None, monkeypatch) -> None:
    """A zygote stopped by SIGSTOP: the toast's reason was English in the Korean app."""
    import os

    from tutor.kernel import liveness

    monkeypatch.setattr(liveness, "process_state", lambda pid: "T")
    why = liveness.Liveness(os.getpid(), lambda seq: None).check(serving=False)
    assert why == "SIGSTOP이나 디버거로 정지되어 응답할 수 없었습니다", why


@pytest.mark.kernel
def test_checks_kernel_line_is_korean(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TUTOR_PATH", "LANG", "LC_ALL", "LC_MESSAGES")}
    env.update(TUTOR_LANG="ko", TUTOR_HOME=str(tmp_path / "home"))
    proc = subprocess.run([sys.executable, "-m", "tutor", "check", "samples/accumulate"],
                          text=True, capture_output=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "\n커널: " in "\n" + proc.stdout + proc.stderr, proc.stderr
    assert "kernel: " not in proc.stdout + proc.stderr


def test_why_a_file_is_no_lesson_is_told_in_korean(korean: None, tmp_path: Path) -> None:
    from tutor import i18n
    from tutor.lesson.files import not_a_lesson

    (tmp_path / "notes.txt").write_text("id: x\n", encoding="utf-8")
    (tmp_path / "one.yaml").write_text("id: x\nfoo: 1\n", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text("title: P\n", encoding="utf-8")
    assert not_a_lesson(tmp_path / "notes.txt") == \
        "레슨 파일이 아닙니다: 레슨 파일의 이름은 .yaml이나 .yml로 끝납니다"
    assert not_a_lesson(tmp_path / "one.yaml") == (
        "레슨 파일이 아닙니다: 레슨에는 최상위 키 id, title, topic, steps 중 두 개 이상이 "
        "있습니다 (이 파일에는 `id:`만 있습니다)")
    assert not_a_lesson(tmp_path / "pack.yaml") == "레슨 파일이 아니라 팩 매니페스트입니다"
    i18n.set_language("en")
    assert not_a_lesson(tmp_path / "one.yaml") == (
        "not a lesson file: a lesson has at least two of the top-level keys id, title, topic "
        "and steps (it has only `id:`)")
