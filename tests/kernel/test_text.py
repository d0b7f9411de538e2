"""sanitize_output: lesson output made safe for a terminal (pure, no kernel needed)."""

from __future__ import annotations

import sys

import pytest

from tutor.safetext import sanitize_output


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain text\n\tindented\n", "plain text\n\tindented\n"),
        ("tensor([1., 2.])", "tensor([1., 2.])"),
        ("héllo ∑ 日本 🙂", "héllo ∑ 日本 🙂"),
        ("\x1b[31mred\x1b[0m", "red"),  # SGR colours
        ("\x1b[2J\x1b[H\x1b[?1049hcleared", "cleared"),  # clear, home, alt screen
        ("\x1b[10;20Hmoved\x1b[5A", "moved"),  # cursor movement
        ("\x1b]0;evil title\x07after", "after"),  # OSC title, BEL-terminated
        ("\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"),  # hyperlink, ST
        ("\x1b]52;c;ZXZpbA==\x07x", "x"),  # OSC 52: write the clipboard
        ("\x1bP+q544e\x1b\\y", "y"),  # DCS (terminfo query)
        ("\x9b31mC1 CSI\x9b0m", "C1 CSI"),  # 8-bit CSI
        ("\x9d0;title\x9cz", "z"),  # 8-bit OSC and ST
        ("\x1b(0lqk\x1b(B", "lqk"),  # charset switch
        ("\x1b7saved\x1b8", "saved"),  # save/restore cursor
        ("bell\x07!", "bell!"),
        ("back\bspace", "backspace"),
        ("nul\x00byte", "nul\u2400byte"),
        ("a\x01b", "a\u2401b"),
        ("crlf\r\nline", "crlf\nline"),
        ("10%\r20%\r100%\n", "100%\n"),  # a progress bar: the last redraw
        ("abcdef\rXY", "XYcdef"),  # \r overwrites the start of the line
        ("safe\u202eevil", "safe\ufffdevil"),  # right-to-left override
        ("lone \udc80 surrogate", "lone \ufffd surrogate"),
        ("unterminated \x1b]0;title", "unterminated "),
        ("trailing escape \x1b", "trailing escape "),
        ("", ""),
    ],
)
def test_sanitize_output(raw: str, shown: str) -> None:
    assert sanitize_output(raw) == shown


def test_no_escape_or_control_survives_arbitrary_input() -> None:
    import random

    rng = random.Random(0)
    alphabet = "\x1b[]();?0123456789mHJKPX^_\\\x07\x9b\x9c\x9d\r\n\t\x00\x08\x7fab€"
    for _ in range(2000):
        raw = "".join(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        out = sanitize_output(raw)
        assert not any((c < " " and c not in "\n\t") or "\x7f" <= c <= "\x9f" for c in out), (
            raw, out)


def test_large_output_is_sanitised() -> None:
    raw = ("\x1b[1;31mx\x1b[0m" * 50_000 + "\n") * 20 + "\x1b]" * 100_000
    out = sanitize_output(raw)
    assert out.startswith("x" * 50_000 + "\n") and "\x1b" not in out


def test_the_module_is_pure() -> None:
    import subprocess

    code = ("import sys, tutor.safetext; "
            "assert 'torch' not in sys.modules and 'textual' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
