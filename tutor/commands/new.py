"""`tutor new ID [--pack DIR]`: write a commented lesson skeleton to start from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.authoring.scaffold import ScaffoldError, new_lesson


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="the lesson id, e.g. autograd/leaf")
    parser.add_argument("--pack", type=Path, default=Path("."), metavar="DIR",
                        help="the pack directory to write into (default: the current one); "
                        "a pack.yaml is added when it has none")


def run(args: argparse.Namespace) -> int:
    try:
        lesson, manifest, schemas = new_lesson(args.id, args.pack)
    except ScaffoldError as exc:
        print(f"tutor new: {exc}", file=sys.stderr)
        return 1
    if manifest:
        print(f"wrote {manifest}")
    print(f"wrote {lesson}")
    for schema in schemas:
        print(f"wrote {schema} (the JSON Schema your editor reads; commit it with the pack)")
    print(f"next: edit it, then `tutor lint {lesson}` and `tutor record {lesson}`")
    return 0
