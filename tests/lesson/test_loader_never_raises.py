"""The loader never raises on any file: every malformed value is an error at its line,
and the catalog loads the rest (issue 12).  No file is read without bound."""

from __future__ import annotations

import os
import random
import re
import textwrap
import threading
from pathlib import Path

import pytest
from test_lesson_loader import GOOD

from tutor.lesson import LessonError, load_catalog, load_lesson
from tutor.lesson.loader import load_pack

ROOT = Path(__file__).resolve().parents[2]
HUGE = "1" * 5000


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize(("key", "value", "where"), [
    ("level", HUGE, "2:8: level: number too large (5,000 digits): must be between 1 and 3"),
    ("seed", f"-{HUGE}", "2:7: seed: number too large (5,001 digits)"),
    ("order", HUGE, "2:8: order: number too large"),
    ("timeout", HUGE, "2:10: timeout:"),
    ("timeout", f"{HUGE}.5", "2:10: timeout:"),
    ("level", "1e999", "2:8: level: expected a whole number"),
], ids=["level", "seed", "order", "timeout", "timeout-float", "level-float"])
def test_a_huge_number_is_an_error_at_its_line(tmp_path: Path, key: str, value: str,
                                              where: str) -> None:
    path = write(tmp_path, "lesson.yaml", GOOD.replace("title:", f"{key}: {value}\ntitle:", 1))
    with pytest.raises(LessonError) as error:
        load_lesson(path)
    assert any(where in str(p) for p in error.value.problems), error.value


def test_a_huge_tolerance_and_pack_order_are_errors_too(tmp_path: Path) -> None:
    text = GOOD.replace("answer: 0.60", f"answer: 0.60\n        tolerance: {{rtol: {HUGE}}}")
    with pytest.raises(LessonError, match="tolerance.rtol"):
        load_lesson(write(tmp_path, "lesson.yaml", text))
    with pytest.raises(LessonError, match="order: number too large"):
        load_pack(write(tmp_path, "pack.yaml", f"title: P\norder: {HUGE}\n"))


def test_the_catalog_loads_the_rest(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD.replace("title:", f"level: {HUGE}\ntitle:", 1))
    write(tmp_path, "b.yaml", GOOD.replace("demo/one", "demo/two"))
    write(tmp_path, "pack.yaml", f"title: P\norder: {HUGE}\n")
    catalog = load_catalog([tmp_path], with_env=False)
    assert [x.id for x in catalog.lessons] == ["demo/two"]
    messages = [str(p) for p in catalog.problems]
    assert any("a.yaml:2:8: level: number too large" in m for m in messages)
    assert any("pack.yaml:2:8: order: number too large" in m for m in messages)


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_files_that_are_not_plain_files_are_refused_without_reading(tmp_path: Path,
                                                                   kind: str) -> None:
    path = tmp_path / "lesson.yaml"
    if kind == "fifo":
        os.mkfifo(path)  # nobody ever writes to it: a read would wait forever
        why = "not a regular file (it is a FIFO)"
    elif kind == "device":
        path.symlink_to("/dev/zero")  # a read would never end
        why = "not a regular file (it is a character device)"
    else:
        path.mkdir()
        (path / "inner.yaml").write_text(GOOD)
        why = "is a directory"
    # a hang guard, not a speed check: a loader that read the file would never return
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            load_lesson(path)
        except BaseException as exc:  # noqa: BLE001 - handed to the test below
            outcome.append(exc)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(120)
    assert not reader.is_alive(), "load_lesson did not return: it read the file"
    assert len(outcome) == 1 and isinstance(outcome[0], LessonError), outcome
    assert re.search(why.replace("(", r"\(").replace(")", r"\)"), str(outcome[0]))
    if kind != "directory":  # a directory named *.yaml is searched, like any directory
        catalog = load_catalog([tmp_path], with_env=False)
        assert catalog.lessons == [] and why in str(catalog.problems[0])
        assert "lesson.yaml:1:1: " in str(catalog.problems[0])


def test_a_file_that_grows_past_the_cap_is_not_read_past_it(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", "# " + "x" * (600 * 1024) + "\n" + GOOD)
    with pytest.raises(LessonError, match="file too large"):
        load_lesson(path)


NUMBERS = ("level:", "seed:", "order:", "timeout:")
VALUES = ["1" * 5000, "-" + "9" * 5000, "1e999", ".nan", ".inf", "[]", "{}", "[[[[]]]]",
          "null", "~", "''", '"\\e]0;PWNED\\a"', "{a: 1}", "[1, 2, 3]", "true", "0x10",
          "'\\udc80'", '"\\ud800"', "- a\n- b", "|\n  multi\n  line", "\u202e", ".inf",
          "999999999999999999999", "1e-400", "'" + "x" * 30000 + "'", "&a x", "*a",
          "!!python/object:os.system", "{", "[", ": :", "\t", "- - - -"]


def test_no_mutation_of_a_real_lesson_makes_the_loader_raise(tmp_path: Path) -> None:
    """Random damage to the bundled lessons and packs: a lesson, or LessonError with the
    problems at their lines; never anything else, not even through the loader's safety
    net for its own bugs (the seed is printed on failure)."""
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    files = sorted((ROOT / "lessons").rglob("*.yaml"))
    for n in range(400):
        source = rng.choice(files)
        lines = source.read_text(encoding="utf-8").splitlines()
        if rng.random() < 0.3:  # only a top-level number (level, seed, order, timeout)
            key = rng.choice(["level", "seed", "order", "timeout"])
            lines = [f"{key}: {rng.choice(VALUES)}"] + [
                line for line in lines if not line.startswith(f"{key}:")]
        for _ in range(rng.randint(1, 3) if not lines[0].startswith(NUMBERS) else 0):
            i = rng.randrange(len(lines))
            key, colon, _ = lines[i].partition(":")
            if colon and rng.random() < 0.7:
                lines[i] = f"{key}: {rng.choice(VALUES)}"
            elif rng.random() < 0.5:
                lines[i] = rng.choice(VALUES)
            else:
                lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        name = "pack.yaml" if source.name == "pack.yaml" else f"l{n}.yaml"
        path = tmp_path / name
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        try:
            (load_pack if name == "pack.yaml" else load_lesson)(path)
        except LessonError as exc:  # a real problem at its line, not the loader's safety net
            assert "a bug in tutor" not in str(exc), f"seed {seed}, mutation {n} of {source}"
