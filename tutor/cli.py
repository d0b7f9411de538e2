"""`tutor`: with no command, open the learner's app; otherwise run a subcommand."""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from tutor import __version__
from tutor.commands import COMMANDS
from tutor.commands.console import tolerate_encoding
from tutor.i18n import ENGLISH, _, language, use_in_argparse
from tutor.safetext import safe_streams
from tutor.wrap import cells, fill


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help wrapped by terminal cells, where Hangul takes two: a translated
    help stays within the terminal (English text is wrapped exactly as argparse does)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if cells(text) == len(text):
            return super()._split_lines(text, width)
        return fill(" ".join(text.split()), width).split("\n")

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if cells(text) == len(text):
            return super()._fill_text(text, width, indent)
        return fill(" ".join(text.split()), width, indent, indent)


def build_parser() -> argparse.ArgumentParser:
    """The parser, its help in the current language (choose it first: `main` does)."""
    parser = argparse.ArgumentParser(
        prog="tutor",
        formatter_class=HelpFormatter,
        description=_("A terminal tutor for PyTorch internals: predict, then run."),
        epilog=_("Run `tutor` alone to open the app; `tutor COMMAND -h` for a command's "
                 "options."),
    )
    parser.add_argument("--version", action="version",
                        version=f"tutor {__version__} (distribution pytorch-tutor)",
                        help=_("show program's version number and exit"))
    parser.add_argument(
        "--path", action="append", type=Path, default=[], metavar="DIR",
        help=_("with no COMMAND: also offer the lessons in DIR (repeatable)"),
    )
    parser.add_argument(
        "--lang", metavar="LANG", default=None,
        help=_("the language tutor speaks: en or ko (default: TUTOR_LANG, else the app's "
               "setting, else the locale, else English)"),
    )
    parser.add_argument(
        "--python", metavar="PATH", default=None,
        help=_("run lessons on this Python interpreter's torch (e.g. your project's "
               "environment); default: TUTOR_PYTHON, else tutor's own"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        shown = _(help_text)
        sub.add_parser(name, help=shown, description=_description(shown),
                       formatter_class=HelpFormatter)
    return parser


def _description(help_text: str) -> str:
    """A command's description: its one-line help as a sentence ("list the lessons" ->
    "List the lessons."; a translation is shown as written)."""
    if language() != ENGLISH:
        return help_text
    return help_text[0].upper() + help_text[1:] + "."


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        choose_language(_lang_option(argv))
    except ValueError as exc:
        print(f"tutor: {exc}", file=sys.stderr)
        return 2
    use_in_argparse()  # argparse's own words (usage:, error: ...) in that language too
    parser = build_parser()
    # Only the chosen command's module is imported (and only it adds its arguments).
    name = _command_name(argv)
    python = _global_python(argv)
    if python is not None:
        found = _interpreter(python)
        if found is None:
            print("tutor: " + _("--python {python}: no such interpreter (give the path of a "
                                "python executable, e.g. ~/project/.venv/bin/python)").format(
                                    python=python), file=sys.stderr)
            return 2
        os.environ["TUTOR_PYTHON"] = found  # every kernel this process starts uses it
    if name in COMMANDS:
        sub_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        module = importlib.import_module(COMMANDS[name][0])
        module.add_arguments(sub_action.choices[name])
        _add_lang(sub_action.choices[name])
        args = parser.parse_args(argv)
        for stream in (sys.stdout, sys.stderr):  # cp1252, ASCII: a stand-in, never an error
            tolerate_encoding(stream)
        try:
            with safe_streams():  # nothing a command prints can drive the terminal
                return int(module.run(args) or 0)
        except KeyboardInterrupt:
            print(_("interrupted"), file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0
    args = parser.parse_args(argv)
    if args.command is None:
        return _open_app(args.path)
    return 0


_VALUED = ("--path", "--python", "--lang")  # global options that take a value


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """`--lang` after the command too (`tutor play --lang ko`), unless it has its own."""
    if not any("--lang" in a.option_strings for a in parser._actions):
        parser.add_argument("--lang", metavar="LANG", default=None,
                            help=_("the language tutor speaks: en or ko"))


def _lang_option(argv: list[str]) -> str | None:
    """The last `--lang` given, before or after the command."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def choose_language(option: str | None) -> str:
    """Set the process's language (`tutor.i18n.resolve`): the app's remembered choice
    is read from its settings (`ui.json` beside the progress database)."""
    from tutor.i18n import resolve, saved_language, set_language
    from tutor.progress.store import data_dir

    return set_language(resolve(option, saved=saved_language(data_dir())))


def _command_name(argv: list[str]) -> str | None:
    """The first word that is not a global option or an option's value."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _global_python(argv: list[str]) -> str | None:
    """The value of `--python` given before the command, if any."""
    name = _command_name(argv)
    head = argv[: argv.index(name)] if name is not None else argv
    found = None
    for i, arg in enumerate(head):
        if arg == "--python" and i + 1 < len(head):
            found = head[i + 1]
        elif arg.startswith("--python="):
            found = arg.split("=", 1)[1]
    return found


def _interpreter(python: str) -> str | None:
    """An absolute path to `python` (a path, or a name on PATH), if it can be run."""
    if os.sep in python or (os.altsep and os.altsep in python):
        path = os.path.abspath(os.path.expanduser(python))
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(python)


def _open_app(paths: list[Path]) -> int:
    try:
        from tutor.ui import run_app
    except ImportError as exc:  # the TUI is optional for headless use
        print("tutor: " + _("the app cannot start: {why}").format(why=exc), file=sys.stderr)
        return 1
    return run_app(paths)
