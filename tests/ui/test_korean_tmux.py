"""Korean in a real terminal at 80x24 (issue 25): `tutor play --lang ko` through a
translated sample, and the app with TUTOR_LANG=ko from its catalog to a verdict.
Hangul takes two cells: after each screen, capture-pane -J (lines the terminal wrapped,
joined again) must hold no line wider than 80 cells, measured with tutor's own width
(`tutor.i18n.width`), so the terminal never folded a line: no Hangul syllable or code
span was split at its edge.  Skipped only when tmux is not installed."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tmux import Tmux

from tutor.i18n import width

pytestmark = [pytest.mark.tmux, pytest.mark.kernel,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

COLUMNS, ROWS = 80, 24
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def start(home: Path, *args: str, env: str = "") -> Tmux:
    command = (f"env TUTOR_HOME={shlex.quote(str(home))} "
               f"XDG_CACHE_HOME={shlex.quote(str(home / 'cache'))} {env} "
               f"{shlex.quote(sys.executable)} -m tutor {' '.join(args)}; sleep 600")
    return Tmux(COLUMNS, ROWS, command)


def everything(tmux: Tmux) -> list[str]:
    """Every line written so far (the scrollback too), lines the terminal wrapped at
    its edge joined again (-J), trailing spaces dropped."""
    text = tmux.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t")
    return [line.rstrip() for line in text.splitlines()]


def assert_fits(tmux: Tmux) -> None:
    wide = [f"{width(line)}: {line}" for line in everything(tmux) if width(line) > COLUMNS]
    assert wide == [], "lines wider than the terminal:\n" + "\n".join(wide)


def reveal_every_question(tmux: Tmux, questions: int) -> None:
    """정답 (reveal) at each question, Enter at the end of each step (`:`, a look
    inside), until play says it is done; one key at a time, each after the screen
    answered the last one."""
    asked = 0
    deadline = time.monotonic() + 120
    while "완료:" not in tmux.screen():
        assert time.monotonic() < deadline, tmux.screen()
        before = tmux.screen()
        written = [line.strip() for line in before.splitlines() if line.strip()]
        last = written[-1] if written else ""  # (a screen being redrawn: nothing yet)
        if last == ">" and f"Q{asked + 1}/{questions}." in before:
            tmux.keys("정답", "Enter")  # every live value and explanation shown
            asked += 1
        elif last == ":":
            tmux.keys("Enter")
        else:
            time.sleep(0.1)
            continue
        while tmux.screen() == before and time.monotonic() < deadline:
            time.sleep(0.05)
    assert asked == questions


def test_play_in_korean_at_80x24_never_overflows(tmp_path: Path) -> None:
    tmux = start(tmp_path / "home", "play", "--lang", "ko", "samples/memory", "--no-progress")
    try:
        tmux.wait("== 이 메모리는 누구의 것인가? ==", timeout=120)
        reveal_every_question(tmux, 7)
        lines = everything(tmux)
        text = "\n".join(lines)
        # the intro is wrapped between words, by cells: two lines at 80 columns
        assert ("이름 두 개가 텐서 하나를 가리킬 수도 있고, 텐서 두 개가 메모리 한 블록을 "
                "공유할\n수도 있습니다.") in text, text
        assert "실제 값:" in text and "이유:" in text
        assert_fits(tmux)
        assert sum(bool(HANGUL.search(line)) for line in lines) > 20
    finally:
        tmux.kill()


def test_the_app_in_korean_at_80x24_never_overflows(tmp_path: Path) -> None:
    tmux = start(tmp_path / "home", env="TUTOR_LANG=ko")
    try:
        tmux.wait("커널: 준비됨", timeout=120)
        screen = tmux.screen()
        # a translated pack: its Korean title, after how many of its lessons are translated
        assert re.search(r"번역 \d+/8 · 텐서와 메모리", screen), screen
        assert "이어서 하기" in screen and "팔레트" in screen
        assert_fits(tmux)
        tmux.keys("C-p")
        tmux.wait("명령 검색…")  # the palette, open (its placeholder in Korean)
        tmux.keys("메모리는 누구")
        tmux.wait("레슨: 이 메모리는 누구의 것인가?")
        assert_fits(tmux)
        tmux.keys("Enter")
        tmux.wait("Q1. a와 b는 메모리를 공유하나요?")
        assert_fits(tmux)
        time.sleep(0.5)  # (keys answer once the question has settled)
        tmux.keys("y")  # wrong: a clone has its own memory
        tmux.wait("오답")
        screen = tmux.screen()
        assert "clone은 값은 같지만, 자기만의 새 메모리에 있습니다." in screen, screen
        assert "이유: clone()은 새 스토리지를 할당하고 값을 그 안에 복사합니다." in screen
        assert_fits(tmux)
        tmux.keys("Escape")
        tmux.wait("코스: ")  # the catalog again (scrolled to the lesson just played)
        assert_fits(tmux)
    finally:
        tmux.kill()
