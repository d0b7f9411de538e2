"""`tutor list`: every lesson with its id, title, topic, pack and file."""

from __future__ import annotations

import argparse

from tutor.commands.common import add_path_option, catalog_for, print_problems, print_warnings
from tutor.i18n import N_, _, pack_title
from tutor.safetext import json_dumps

# where a pack was found, as listed (`TUTOR_PATH` and `entry point NAME` as they are)
SOURCES = {"bundled": N_("bundled"), "path": N_("path")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_path_option(parser)
    parser.add_argument("--json", action="store_true", help=_("print a JSON list of lessons"))


def run(args: argparse.Namespace) -> int:
    catalog = catalog_for([], args.path)
    if args.json:
        rows = []
        for lesson in catalog.lessons:
            pack = catalog.pack_of[lesson.id]
            rows.append(
                {
                    "id": lesson.id,
                    "title": lesson.title,
                    "topic": lesson.topic,
                    "level": lesson.level,
                    "file": str(lesson.file),
                    "pack": pack.title,
                    "source": pack.source,
                    "steps": len(lesson.steps),
                    "prompts": len(lesson.prompts),
                    "tags": list(lesson.tags),
                }
            )
        print(json_dumps(rows, indent=2))
    else:
        current = None
        width = max((len(x.id) for x in catalog.lessons), default=10)
        for lesson in catalog.lessons:
            pack = catalog.pack_of[lesson.id]
            if pack is not current:
                current = pack
                source = _(SOURCES[pack.source]) if pack.source in SOURCES else pack.source
                print(f"\n{pack_title(pack.title, pack.lang)}  ({source}: {pack.directory})")
            level = _("level {n}").format(n=lesson.level)
            topic = pack.topic_name(lesson.topic)
            print(f"  {lesson.id:<{width}}  {lesson.title}  [{topic}, {level}]")
        print("\n" + _("{lessons} lessons in {packs} packs").format(
            lessons=len(catalog.lessons), packs=len(catalog.packs)))
    print_problems(catalog.errors)
    print_warnings(catalog)
    return 1 if catalog.errors else 0
