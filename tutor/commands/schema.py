"""`tutor schema [--pack] [--output FILE] [--path]`: the JSON Schema of lesson files
(or, with `--pack`, of pack.yaml)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.authoring.schema import PACKAGED, PACKAGED_PACK, schema_text
from tutor.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pack", action="store_true",
                        help=_("the schema of pack.yaml manifests instead of lesson files"))
    parser.add_argument("--output", "-o", type=Path, metavar="FILE",
                        help=_("write the schema to FILE instead of printing it"))
    parser.add_argument("--path", action="store_true", dest="show_path",
                        help=_("print where the packaged copy is (for an editor's $schema)"))


def run(args: argparse.Namespace) -> int:
    if args.show_path:
        print(PACKAGED_PACK if args.pack else PACKAGED)
        return 0
    text = schema_text(args.pack)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
