"""Messages made inside the lesson's process (which has no translation layer) reach a
Korean learner in Korean (issue 25): the kernel sends them as words (msgid and values,
tutor/kernel/words.py) beside the English, and tutor's process translates them.  The
session's shared kernel; English stays exactly as it was."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor import i18n
from tutor.engine import LessonRun, StepOutcome
from tutor.kernel import Kernel, KernelError
from tutor.lesson import load_lesson

pytestmark = pytest.mark.kernel

CUT = 12_345
CODES = (
    f'print("x" * ((1 << 20) + {CUT} - 1))\n',  # a line past the cap, by CUT characters
    'chunk = "y" * (1 << 20)\nwhile True:\n    print(chunk)\n',  # without end
    "import time\nfor _ in range(6000):\n    time.sleep(0.005)\n",  # 30 s, interrupted
)


def _lesson(code: str) -> str:
    body = "".join(f"      {line}\n" for line in code.splitlines())
    return ("id: words/kernel-notes\ntitle: Kernel notes\ntopic: words\nsteps:\n"
            f"  - code: |\n{body}    predict:\n      - ask: What?\n        kind: number\n"
            "        expect: 1\n        answer: 1\n")


@pytest.fixture(params=["en", "ko"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language("en")


def _step(kernel: Kernel, tmp: Path, index: int, *, interrupt: bool = False) -> StepOutcome:
    """The one step of a lesson that runs CODES[index]."""
    path = tmp / "notes.yaml"
    path.write_text(_lesson(CODES[index]), encoding="utf-8")
    lesson = load_lesson(path)
    with LessonRun(kernel, lesson, timeout=120) as run:
        run.open()
        done = threading.Event()

        def keep_interrupting() -> None:  # (a SIGINT between requests is ignored)
            while not done.wait(0.2):
                if run.session is not None:
                    run.session.interrupt(grace=None)

        if interrupt:
            threading.Thread(target=keep_interrupting, daemon=True).start()
        try:
            return run.run_step(lesson.steps[0])
        finally:
            done.set()


def test_the_truncation_note_after_a_steps_output(kernel: Kernel, tmp_path: Path,
                                                  lang: str) -> None:
    out = _step(kernel, tmp_path, 0).stdout
    note = {"en": f"\n… output truncated ({CUT:,} more characters)",
            "ko": f"\n… 출력이 잘렸습니다 ({CUT:,}자 더 있음)"}[lang]
    assert out.endswith(note), out[-80:]
    assert out[: -len(note)] == "x" * (1 << 20)


def test_a_step_that_prints_without_end_is_stopped_in_words(kernel: Kernel,
                                                            tmp_path: Path,
                                                            lang: str) -> None:
    outcome = _step(kernel, tmp_path, 1)
    assert outcome.failure_kind == "interrupted"
    assert outcome.failure == {
        "en": "step 1 was stopped: OutputLimitExceeded: the code printed more than 64 MB",
        "ko": "1단계가 중지됨: OutputLimitExceeded: 코드가 64 MB 넘게 출력했습니다",
    }[lang]
    assert outcome.error is not None  # the record keeps the English
    assert outcome.error["message"] == "the code printed more than 64 MB"


def test_an_interrupted_step_says_so_in_words(kernel: Kernel, tmp_path: Path,
                                              lang: str) -> None:
    outcome = _step(kernel, tmp_path, 2, interrupt=True)
    assert outcome.failure_kind == "interrupted"
    assert outcome.failure == {
        "en": "step 1 was stopped: KeyboardInterrupt: interrupted",
        "ko": "1단계가 중지됨: KeyboardInterrupt: 중단됨",
    }[lang]


def test_a_bad_module_name_from_the_kernel(kernel: Kernel, lang: str) -> None:
    session = kernel.open_session()
    try:
        with pytest.raises(KernelError) as bad:
            session.request("modules", modules={"not-a-name": "x = 1"})
        with pytest.raises(KernelError) as taken:
            session.request("modules", modules={"torch": "x = 1"})
    finally:
        session.close()
    assert str(bad.value) == {
        "en": "module name 'not-a-name' is not a Python identifier",
        "ko": "모듈 이름이 Python 식별자가 아닙니다: 'not-a-name'",
    }[lang]
    assert str(taken.value).startswith({
        "en": "module name 'torch' is taken: a module of that name exists already",
        "ko": "이미 쓰이는 모듈 이름입니다: 'torch' (같은 이름의 모듈이 이미 있습니다",
    }[lang])


def test_words_a_lesson_forged_are_shown_as_their_text() -> None:
    """Words that do not format (a value the msgid does not name, one it lacks) are
    not translated: the English text is shown as it came."""
    from tutor.kernel.words import translated, translated_output

    i18n.set_language("ko")
    try:
        assert translated("interrupted", {"msgid": "interrupted", "args": {}}) == "중단됨"
        assert translated("raw", {"msgid": "{missing}", "args": {}}) == "raw"
        assert translated("raw", {"msgid": "interrupted", "args": {"n": 1}}) == "raw"
        assert translated("raw", None) == "raw"
        note = {"msgid": "… output truncated ({n} more characters)", "args": {"n": "5"}}
        assert translated_output("abc\n… output truncated (5 more characters)", note) \
            == "abc\n… 출력이 잘렸습니다 (5자 더 있음)"
        assert translated_output("abc (not the note)", note) == "abc (not the note)"
    finally:
        i18n.set_language("en")


def test_malformed_words_from_the_lessons_process_are_refused() -> None:
    """`words` are checked with the rest of a reply (tutor/kernel/replies.py)."""
    from tutor.kernel.replies import BadReply, check_session_reply

    request = {"op": "observe", "id": 1}
    bad = {"type": "exception", "name": "E", "message": "m", "mro": ["E"],
           "words": {"msgid": "interrupted", "args": {"n": 3}}}
    with pytest.raises(BadReply, match=r"observation\.words\.args\.n should be a string"):
        check_session_reply({"id": 1, "ok": True, "observation": bad}, request)
    with pytest.raises(BadReply, match="words should be an object"):
        check_session_reply({"id": 1, "ok": False, "error": "x", "words": "x"}, request)


def test_a_lesson_that_stops_the_kernel_is_told_in_korean(own_kernel: Kernel) -> None:
    """The fault the lesson's process reports (it stopped the zygote) is words too."""
    from tutor.kernel import SessionDied

    if own_kernel.mode != "fork":
        pytest.skip("fork mode only: a run's parent is the tutor itself, not a zygote")
    pid = own_kernel.info["pid"]
    i18n.set_language("ko")
    session = own_kernel.open_session()
    try:
        with pytest.raises(SessionDied) as died:
            session.run_step("import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n")
    finally:
        i18n.set_language("en")
        session.close()
    assert str(died.value).startswith(
        f"레슨의 코드가 커널 프로세스(pid {pid})를 멈췄습니다 (SIGSTOP 등으로). 그래서 이 "
        "실행을 끝내고 커널을 다시 시작합니다"), str(died.value)
    assert died.value.kind == "kernel_stopped"


def test_a_picture_of_the_wrong_thing_in_korean(kernel: Kernel, lang: str) -> None:
    from tutor.pictures import render

    with kernel.open_session() as session:
        session.run_step("x = torch.ones(2)\n")
        data = session.inspect("tree", "x")
        text = render(data, 80).text()
    assert data["message"] == "tree: `x` is a Tensor, not an nn.Module"  # (kept English)
    assert {"en": "InspectError: tree: `x` is a Tensor, not an nn.Module",
            "ko": "InspectError: tree: `x`의 타입은 Tensor입니다. nn.Module이 아닙니다"}[lang] \
        in " ".join(text.split()), text


def test_why_a_kernel_cannot_start_is_told_in_korean(korean: None) -> None:
    # issue 25: an interpreter without torch, one too old, one that cannot be run, a
    # process that never connected: said by the launcher, in tutor's own process
    from tutor.kernel import launch

    assert launch.describe_failure("/opt/py/bin/python", launch.EXIT_NO_TORCH,
                                   "ModuleNotFoundError: No module named 'torch'\n") == (
        "/opt/py/bin/python에서 torch를 import할 수 없습니다: ModuleNotFoundError: No module "
        "named 'torch'. 그 환경에 torch를 설치하거나, `tutor --python PATH`(또는 "
        "TUTOR_PYTHON)로 다른 인터프리터에서 레슨을 실행하세요")
    assert launch.describe_failure("py", launch.EXIT_OLD_PYTHON, "") == \
        "py 인터프리터는 Python 3.10보다 오래되었습니다. 레슨에는 Python 3.10 이상이 필요합니다"
    said = str(launch.not_runnable("/no/python", FileNotFoundError(2, "No such file")))
    assert said == ("/no/python 인터프리터를 실행할 수 없습니다 (No such file). --python이나 "
                    "TUTOR_PYTHON 설정을 확인하세요")
    i18n.set_language("en")
    assert str(launch.not_runnable("/no/python", FileNotFoundError(2, "No such file"))) == \
        "/no/python cannot be run (No such file); check --python or TUTOR_PYTHON"


def test_what_a_lesson_broke_is_said_in_korean_thing_by_thing(korean: None) -> None:
    # K4 (issue 25): "레슨의 코드: replaced sys.stdout" (guard.py built English phrases);
    # each thing is now words of its own, inside the kernel's failure words
    import os
    import time

    from tutor.kernel.guard import CAPTURE, Guard
    from tutor.kernel.replies import check_words
    from tutor.kernel.words import english, said, translated

    guard = Guard()
    read_end, write_end = os.pipe()
    try:
        guard.keep(write_end, CAPTURE)
        guard.to_lesson()
        real_sleep = time.sleep
        time.sleep = lambda s: None  # (what lesson code may do)
        other = os.open(os.devnull, os.O_WRONLY)
        os.dup2(other, write_end)  # replaces the kernel's descriptor
        os.close(other)
        guard.to_kernel()
        assert time.sleep is real_sleep
    finally:
        guard.to_lesson()
        time.sleep = real_sleep
        guard.drop_spares()
        os.close(read_end)
        os.close(write_end)
    broke = ("the kernel's code failed in the lesson's process ({error}); the lesson's "
             "code {broke}")  # (session.py's KERNEL_FAILED_BROKE: it imports torch)
    words = said(broke, error="TypeError: x", broke=guard.describe_words())
    check_words(words, "words")  # (the wire accepts it)
    assert english(words) == (
        "the kernel's code failed in the lesson's process (TypeError: x); the lesson's "
        f"code {guard.describe()}")
    assert guard.describe().startswith("replaced time.sleep, replaced fd ")
    shown = translated(english(words) or "", words)
    assert "레슨의 코드: time.sleep 교체, fd " in shown, shown
    assert "fd 1과 2를 받아 두는 커널의 캡처" in shown, shown
    assert "replaced" not in shown and "restored" not in shown and "kernel's" not in shown, shown
