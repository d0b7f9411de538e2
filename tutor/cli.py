"""`tutor`: with no command, open the learner's app; otherwise run a subcommand."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from tutor import __version__
from tutor.commands import COMMANDS
from tutor.safetext import safe_streams


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tutor",
        description="A terminal tutor for PyTorch internals: predict, then run.",
        epilog="Run `tutor` alone to open the app; `tutor COMMAND -h` for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"tutor {__version__}")
    parser.add_argument(
        "--path", action="append", type=Path, default=[], metavar="DIR",
        help="with no COMMAND: also offer the lessons in DIR (repeatable)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # Only the chosen command's module is imported (and only it adds its arguments).
    name = next((a for a in argv if not a.startswith("-")), None)
    if name in COMMANDS:
        sub_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        module = importlib.import_module(COMMANDS[name][0])
        module.add_arguments(sub_action.choices[name])
        args = parser.parse_args(argv)
        try:
            with safe_streams():  # nothing a command prints can drive the terminal
                return int(module.run(args) or 0)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0
    args = parser.parse_args(argv)
    if args.command is None:
        return _open_app(args.path)
    return 0


def _open_app(paths: list[Path]) -> int:
    try:
        from tutor.ui import run_app
    except ImportError as exc:  # the TUI is optional for headless use
        print(f"tutor: the app cannot start: {exc}", file=sys.stderr)
        return 1
    return run_app(paths)
