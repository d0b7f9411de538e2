"""`tutor new ID [--pack DIR]`: write a commented lesson skeleton to start from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.authoring.scaffold import ScaffoldError, new_lesson
from tutor.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help=_("the lesson id, e.g. autograd/leaf"))
    parser.add_argument("--pack", type=Path, default=Path("."), metavar="DIR",
                        help=_("the pack directory to write into (default: the current one); "
                               "a pack.yaml is added when it has none"))


def run(args: argparse.Namespace) -> int:
    try:
        lesson, manifest, schemas = new_lesson(args.id, args.pack)
    except ScaffoldError as exc:
        print(f"tutor new: {exc}", file=sys.stderr)
        return 1
    if manifest:
        print(_("wrote {path}").format(path=manifest))
    print(_("wrote {path}").format(path=lesson))
    for schema in schemas:
        print(_("wrote {path} (the JSON Schema your editor reads; commit it with the "
                "pack)").format(path=schema))
    print(_("next: edit it, then `tutor lint {path}` and `tutor record {path}`").format(
        path=lesson))
    return 0
