"""The tools speak Korean too (issue 25): `tutor check`'s report, `tutor lint`'s rules
(their place, file:line:col, unchanged), the engine's and the kernel's messages (a
timeout, processes still running, a crash), the progress store's notices, and
argparse's help and usage errors; the JSON reports stay English (for programs)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutor import i18n
from tutor.wrap import cells

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DRIFT = DATA / "core" / "bad" / "drift.yaml"
TIMEOUT = DATA / "core" / "bad" / "timeout.yaml"
UNREACHABLE = DATA / "authoring" / "lint" / "unreachable.yaml"


def tutor(*args: str, lang: str = "ko", home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TUTOR_PATH", "LANG", "LC_ALL", "LC_MESSAGES")}
    env.update(TUTOR_LANG=lang, TUTOR_HOME=str(home), COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "tutor", *args], text=True,
                          capture_output=True, timeout=120, env=env)


@pytest.fixture
def check_here(commands_share_kernel: object, capsys: pytest.CaptureFixture[str],
               monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
               ) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`tutor check ARGS` in Korean as `tutor(...)` runs it, but in this process and on
    the session's kernel (what is tested is the report's language)."""
    from tutor.cli import main

    for name in ("TUTOR_PATH", "LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (("TUTOR_LANG", "ko"), ("TUTOR_HOME", str(tmp_path)), ("COLUMNS", "80")):
        monkeypatch.setenv(name, value)

    def check(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main(["check", *args])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["tutor", "check", *args], code, out, err)

    return check



# ---------------------------------------------------------------------- tutor check
def test_check_reports_a_failing_lesson_in_korean(check_here: Callable[..., Any]) -> None:
    proc = check_here(str(DRIFT))
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert "tutor check: 레슨 1개, torch " in out
    assert "core/drift ......" in out and " 실패 (문제 0/3개, " in out
    assert re.search(r" 실패 \(문제 0/3개, [0-9.]+초\)\n", out), out  # (not `0.03 s`)
    assert "\n실패:\n" in out
    # the place stays file:line, the rest is Korean; the labels line up by cells
    assert f"{DRIFT.relative_to(ROOT)}:9: core/drift 1단계 1번 문제: x.grad?" in out
    assert "\n  답:      11\n  실제 값: 10" in out
    assert "  기준 답이 오답으로 채점됩니다: " in out
    assert "기준 답이 없습니다: `answer:`를 추가하세요 (또는 `tutor record " in out
    assert "  답:      (없음)" in out
    assert ("2단계에서 ValueError 발생: boom (에러 자체가 요점이라면 `expect` 없는 "
            "`kind: exception` 문제로 물으세요)") in out
    assert "레슨: 통과 0, 실패 1, 건너뜀 0, 에러 0. 문제: 3개 중 0개 통과, " in out
    assert "  answer: " not in out and " passed" not in out


def test_check_json_keeps_its_messages_in_english(check_here: Callable[..., Any]) -> None:
    proc = check_here("--json", str(DRIFT))
    assert proc.returncode == 1, proc.stderr
    messages = [r["message"] for r in json.loads(proc.stdout)["records"]]
    assert any(m.startswith("the reference answer is judged incorrect: ") for m in messages)
    assert any(m.startswith("no reference answer: add `answer:`") for m in messages)
    assert "tutor check: 1 lessons, torch " in proc.stderr  # (its progress too)


def test_an_engine_timeout_is_told_in_korean(check_here: Callable[..., Any]) -> None:
    proc = check_here(str(TIMEOUT))
    assert proc.returncode == 1, proc.stderr
    assert " 에러 (문제 0개, " in proc.stdout
    assert ("core/timeout: 1단계 시간 초과: 코드가 0.5초 넘게 실행되어 중단했습니다 "
            "(더 오래 걸려야 한다면 레슨의 `timeout:`을 늘리세요)") in proc.stdout


def test_the_kernels_notes_are_korean(korean: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.kernel import procs
    from tutor.kernel.errors import describe_exit
    from tutor.kernel.run import Session

    monkeypatch.setattr(procs, "lesson_children", lambda pid: [101, 102])
    run = Session.__new__(Session)
    run.pid = 100
    assert run._children_note() == (
        "; 코드가 시작한 프로세스 2개가 아직 실행 중이었습니다 (끝나지 않은 worker나 rank, "
        "또는 끝없이 기다리는 join()이나 queue의 get()이 있나요?)")
    assert describe_exit(None, signal.SIGKILL) == (
        "SIGKILL 시그널로 비정상 종료됨 (시간 초과나 다른 프로세스, 메모리 부족으로 강제 종료됨)")
    i18n.set_language("en")
    assert run._children_note().startswith("; 2 processes it started were still running (")
    assert describe_exit(None, signal.SIGKILL).startswith("crashed with SIGKILL (it was killed")


# ---------------------------------------------------------------------- tutor lint
def test_lint_reports_a_rule_in_korean_at_its_place(tmp_path: Path) -> None:
    proc = tutor("lint", str(UNREACHABLE), home=tmp_path)
    assert proc.returncode == 1
    name = str(UNREACHABLE.relative_to(ROOT))
    assert (f"{name}:19:9: steps[1].predict[0]: 도달 불가: 이 단계의 코드는 항상 3번째 "
            "줄(최상위 raise 또는 exit)에서 멈추는데 그 예외를 묻는 문제가 없어서, 이 문제는 "
            "절대 채점될 수 없습니다. `expect` 없는 `kind: exception` 문제를 추가하거나 3번째 "
            "줄에 조건을 거세요") in proc.stdout.splitlines()
    assert (f"{name}:34:7: warning: steps[3].code: 1번째 줄 뒤의 코드는 절대 실행되지 "
            "않습니다") in proc.stdout
    assert proc.stderr.strip() == "tutor lint: 파일 1개, 에러 1개, 경고 1개"
    schema = DATA / "authoring" / "lint" / "schema.yaml"  # the loader's own checks (`load`)
    proc = tutor("lint", str(schema), home=tmp_path)
    assert (f"{schema.relative_to(ROOT)}:16:9: steps[0].predict[1].answr: 알 수 없는 키 "
            "'answr' ('answer'을(를) 말한 건가요?). 여기서 쓸 수 있는 키: ask, kind, ") \
        in proc.stdout
    proc = tutor("lint", "--json", str(UNREACHABLE), home=tmp_path)
    problems = json.loads(proc.stdout)
    assert problems[0]["message"].startswith("unreachable: this step's code always stops")


# ---------------------------------------------------------------------- argparse
def test_help_is_korean_and_fits_80_columns(tmp_path: Path) -> None:
    proc = tutor("--help", home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("사용법: tutor [-h]")
    assert "\n옵션:\n" in out and "\n위치 인자:\n" in out
    assert "  -h, --help     이 도움말을 보여 주고 끝냅니다" in out
    assert "    check        레슨을 실제로 실행해 모든 기준 답을 확인합니다" in out
    assert "PyTorch 내부를 배우는 터미널 튜터: 먼저 예측하고, 그다음 실행합니다." in out
    assert max(cells(line) for line in out.splitlines()) <= 80  # Hangul is two cells
    proc = tutor("check", "--help", home=tmp_path)
    assert proc.stdout.startswith("사용법: tutor check [-h]")
    assert "레슨을 실제로 실행해 모든 기준 답을 확인합니다\n" in proc.stdout
    assert "  --repeat N         레슨마다 N번 실행해서, 실행마다 실제 값이 달라지는 " in proc.stdout
    assert "  -j N, --jobs N     동시에 실행할 레슨 수 (기본값: CPU 수)" in proc.stdout
    assert max(cells(line) for line in proc.stdout.splitlines()) <= 80


def test_usage_errors_are_korean(tmp_path: Path) -> None:
    proc = tutor("check", "-j", "0", home=tmp_path)
    assert proc.returncode == 2
    assert ("tutor check: 에러: 인자 -j/--jobs: '0'은 동시 작업 수로 쓸 수 없습니다: "
            "1부터 256 사이의 정수를 주세요") in proc.stderr
    proc = tutor("lint", "--bogus", home=tmp_path)
    assert proc.returncode == 2 and "tutor: 에러: 알 수 없는 인자: --bogus" in proc.stderr
    proc = tutor("new", home=tmp_path)
    assert "tutor new: 에러: 다음 인자가 필요합니다: ID" in proc.stderr


def test_english_help_is_argparses_own(tmp_path: Path) -> None:
    out = tutor("--help", lang="en", home=tmp_path).stdout
    assert out.startswith("usage: tutor [-h]") and "\noptions:\n" in out
    assert "  -h, --help     show this help message and exit" in out
    assert "    check        run lessons live and check every reference answer" in out


# ---------------------------------------------------------------------- the progress store
def test_a_damaged_progress_database_is_told_in_korean(korean: None, tmp_path: Path) -> None:
    from tutor.progress.store import DB_NAME, ProgressStore

    (tmp_path / DB_NAME).write_bytes(b"this is not a database" * 100)
    with ProgressStore(tmp_path) as store:
        assert store.saving
        assert store.notice is not None
        assert store.notice.startswith("진행 기록 데이터베이스가 손상되었습니다 (")
        assert "새 데이터베이스를 시작했습니다." in store.notice
