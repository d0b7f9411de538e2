"""`tutor translate LANG PATH... [--update]`: start lessons' and packs' translations (the
English texts in the file's shape, to replace), or bring existing ones in line.
See tutor/authoring/translate.py and docs/translating.md."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.i18n import ENGLISH, LANGUAGES, _, ngettext

if TYPE_CHECKING:
    from tutor.authoring.translate import Draft


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="LANG",
                        help=_("the language to translate into, e.g. ko"))
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help=_("lesson files, pack.yaml files, or directories of them (a "
                               "pack.yaml is translated in pack.LANG.yaml: its title, "
                               "description and its lessons' topics)"))
    parser.add_argument("--update", action="store_true",
                        help=_("bring existing translations in line with their lessons: keep "
                               "every translated text whose place is still there, add the "
                               "English of new texts, drop (and print) texts of places gone"))


def run(args: argparse.Namespace) -> int:
    from tutor.lesson.files import PACK_FILE, lesson_files, manifests

    lang = args.target
    if lang == ENGLISH or lang not in LANGUAGES:
        others = ", ".join(code for code in LANGUAGES if code != ENGLISH)
        print(_("tutor translate: cannot translate into {lang!r}: lessons are written in "
                "English; tutor translates them into {others}").format(lang=lang, others=others),
              file=sys.stderr)
        return 2
    failed = False
    for root in args.paths:
        packs = manifests(root) if root.exists() else []
        files = [] if root.name == PACK_FILE else lesson_files(root) if root.exists() else []
        if not files and not packs:
            print(_("tutor translate: {path}: no lesson file there").format(path=root),
                  file=sys.stderr)
            failed = True
        for file in files:
            failed |= not _lesson(file, lang, args.update)
        for manifest in packs:
            failed |= not _pack(manifest, lang, args.update)
    return 1 if failed else 0


def _lesson(file: Path, lang: str, update: bool) -> bool:
    """Write (or with `update`, bring in line) `file`'s translation; False on trouble."""
    from tutor.authoring.translate import draft
    from tutor.lesson.loader import LessonError, load_lesson

    try:
        lesson = load_lesson(file)
    except LessonError as exc:
        return _unloadable(file, exc)
    return _write(file, lang, update, lambda old: draft(lesson, lang, old))


def _pack(manifest: Path, lang: str, update: bool) -> bool:
    """The same for a pack.yaml: its title, description and its lessons' topics."""
    from tutor.authoring.translate import draft_pack
    from tutor.lesson.files import lesson_files
    from tutor.lesson.loader import LessonError, load_lesson, load_pack

    try:
        pack = load_pack(manifest, lang=ENGLISH)
    except LessonError as exc:
        return _unloadable(manifest, exc)
    topics = set()
    for file in lesson_files(manifest.parent):  # (those that do not load have no topic)
        try:
            topics.add(load_lesson(file).topic)
        except LessonError:
            pass
    return _write(manifest, lang, update, lambda old: draft_pack(pack, topics, lang, old))


def _unloadable(file: Path, error: Exception) -> bool:
    print(_("tutor translate: {file} does not load, so it cannot be translated "
            "(`tutor lint` says why):\n{error}").format(file=file, error=error),
          file=sys.stderr)
    return False


def _write(file: Path, lang: str, update: bool,
           make: Callable[[dict[str, Any] | None], Draft]) -> bool:
    """Write `file`'s translation into `lang` as `make` drafts it from the old one (None:
    a new file), and say what changed and what to do next; False on trouble."""
    from tutor.authoring.translate import render
    from tutor.lesson.files import PACK_FILE
    from tutor.lesson.translation import read, translation_path

    target = translation_path(file, lang)
    pack = file.name == PACK_FILE
    old = None
    if target.exists():
        if not update:
            print((_("tutor translate: {target} exists: edit it, or run `tutor translate "
                     "--update {lang} {file}` to bring it in line with its pack.yaml")
                   if pack else
                   _("tutor translate: {target} exists: edit it, or run `tutor "
                     "translate --update {lang} {file}` to bring it in line with its "
                     "lesson")).format(target=target, lang=lang, file=file),
                  file=sys.stderr)
            return False
        try:
            old = read(target)
        except ValueError as exc:
            print(_("tutor translate: {target} {why}: fix it first (nothing was "
                    "written)").format(target=target, why=exc), file=sys.stderr)
            return False
    made = make(old)
    target.write_text(render(made.data, file, lang), encoding="utf-8")
    if old is None:
        print(ngettext("wrote {target}: {n} English text to translate",
                       "wrote {target}: {n} English texts to translate",
                       len(made.added)).format(target=target, n=len(made.added)))
    else:
        print(_("updated {target}: {kept} translated texts kept, {added} new, "
                "{dropped} dropped").format(target=target, kept=made.kept,
                                            added=len(made.added),
                                            dropped=len(made.dropped)))
        for place in made.added:
            print("  + " + _("{place}: new, in English: translate it").format(
                place=place))
        for place, text in made.dropped:
            print("  - " + (_("{place}: dropped (the pack has no such text or topic now); "
                              "it was: {text}") if pack else
                            _("{place}: dropped (the lesson has no such text now); "
                              "it was: {text}")).format(place=place, text=text))
    if made.added or (old is not None and not old.get("source")):  # (or never finished)
        print("    " + _("next: translate the English texts, then `tutor lint {file}` "
                         "prints the fingerprint to set as `source:`").format(file=file))
    elif not made.data["source"]:
        print("    " + _("next: the English texts changed since this translation was "
                         "made (`git log -p {file}` shows which): update their "
                         "translations, then `tutor lint {file}` prints the "
                         "fingerprint to set as `source:`").format(file=file))
    else:
        print("    " + (_("nothing to do: the translation matches its pack.yaml") if pack
                         else _("nothing to do: the translation matches its lesson")))
    return True
