"""The app process never imports torch; `import tutor.ui` does not even import textual."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

UI_LESSONS = Path(__file__).resolve().parent.parent / "data" / "ui" / "lessons"

RUN_APP = """
import asyncio, json, sys
from pathlib import Path
from tutor.lesson import load_catalog
from tutor.progress import ProgressStore
from tutor.ui.app import TutorApp

async def main():
    app = TutorApp(catalog=load_catalog([Path(sys.argv[1])], with_env=False,
                                        with_bundled=False), store=ProgressStore(sys.argv[2]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        painted = type(app.screen).__name__
        while app.kernel_state != "ready":  # torch loads, in the kernel process only
            await pilot.pause(0.1)
        await pilot.press("enter")
        while getattr(app.screen, "mode", None) != "asking":
            await pilot.pause(0.1)
        await pilot.press("1", "2", "enter")
        verdict = app.screen.flow.state.verdict.status.value
        await pilot.press("ctrl+q")
    print("RESULT=" + json.dumps({"painted": painted, "verdict": verdict,
                                  "torch": "torch" in sys.modules}))

asyncio.run(main())
"""


def test_import_tutor_ui_is_light() -> None:
    code = ("import sys, tutor.ui\n"
            "print(sorted(m for m in ('torch', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert callable(__import__("tutor.ui", fromlist=["run_app"]).run_app)


@pytest.mark.kernel
def test_running_the_app_and_a_lesson_never_imports_torch(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", RUN_APP, str(UI_LESSONS), str(tmp_path)],
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-3000:]
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT="))
    result = json.loads(line.removeprefix("RESULT="))
    assert result == {"painted": "CatalogScreen", "verdict": "correct", "torch": False}


def test_only_tutor_ui_imports_textual() -> None:
    root = Path(__file__).resolve().parents[2] / "tutor"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if "textual" in p.read_text(encoding="utf-8")
                 and p.relative_to(root).parts[0] != "ui"
                 and ("import textual" in p.read_text(encoding="utf-8")
                      or "from textual" in p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_lesson_core_does_not_import_textual_or_torch() -> None:
    code = ("import sys, tutor.flow, tutor.course, tutor.markup, tutor.progress\n"
            "print(sorted(m for m in ('torch', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
