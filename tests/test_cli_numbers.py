"""Numeric options are checked where they are parsed: `tutor check --timeout inf` (or
1e308, nan, 0, -1) is an argparse error that says what to give, not an OverflowError
traceback, a check that never times out or one that fails every step at once."""

from __future__ import annotations

import pytest

from tutor.cli import main

BAD_SECONDS = ["inf", "-inf", "Infinity", "1e308", "nan", "0", "-1", "0.01", "3601", "ten", ""]


@pytest.mark.parametrize("command", ["check", "play", "show", "record"])
@pytest.mark.parametrize("value", BAD_SECONDS)
def test_a_timeout_that_is_not_a_usable_number_of_seconds_is_refused(
        command: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = {"play": [], "check": [], "show": ["storage"], "record": []}[command]
    with pytest.raises(SystemExit) as exited:
        main([command, "some/lesson", *extra, f"--timeout={value}"])
    assert exited.value.code == 2  # argparse's usage error: nothing was run
    err = " ".join(capsys.readouterr().err.split())
    assert f"argument --timeout: {value!r} is not a usable number of seconds" in err
    assert "give one from 0.1 to 3600, e.g. 30" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "what"), [
    (["check", "-j", "0"], "-j/--jobs: '0' is not a usable number of jobs"),
    (["check", "-j", "-3"], "-j/--jobs: '-3' is not a usable number of jobs"),
    (["check", "--jobs", "1e9"], "-j/--jobs: '1e9' is not a usable number of jobs"),
    (["check", "--repeat", "0"], "--repeat: '0' is not a usable number of runs"),
    (["check", "--repeat", "99999999999"], "--repeat: '99999999999' is not a usable number"),
    (["record", "x", "-j", "0"], "-j/--jobs: '0' is not a usable number of jobs"),
    (["show", "x", "storage", "--step", "0"], "--step: '0' is not a usable step number"),
    (["show", "x", "storage", "--width", "-5"], "--width: '-5' is not a usable width"),
    (["show", "x", "storage", "--width", "10000000000"], "--width: '10000000000' is not"),
])
def test_whole_number_options_out_of_range_are_refused(
        args: list[str], what: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    assert f"argument {what}" in " ".join(capsys.readouterr().err.split())


def test_usable_values_still_parse() -> None:
    from tutor.commands.common import count, seconds

    assert seconds("0.1") == 0.1 and seconds("30") == 30.0 and seconds("3600") == 3600.0
    assert count(1, 256, "number of jobs")("2") == 2
