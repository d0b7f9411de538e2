"""`tutor translate LANG PATH... [--update]`: start lessons' translations (the English
texts in the file's shape, to replace), or bring existing ones in line with their lessons.
See tutor/authoring/translate.py and docs/translating.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.i18n import ENGLISH, LANGUAGES, _, ngettext


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="LANG",
                        help=_("the language to translate into, e.g. ko"))
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help=_("lesson files, or directories of them"))
    parser.add_argument("--update", action="store_true",
                        help=_("bring existing translations in line with their lessons: keep "
                               "every translated text whose place is still there, add the "
                               "English of new texts, drop (and print) texts of places gone"))


def run(args: argparse.Namespace) -> int:
    from tutor.authoring.translate import draft, render
    from tutor.lesson.files import lesson_files
    from tutor.lesson.loader import LessonError, load_lesson
    from tutor.lesson.translation import read, translation_path

    lang = args.target
    if lang == ENGLISH or lang not in LANGUAGES:
        others = ", ".join(code for code in LANGUAGES if code != ENGLISH)
        print(_("tutor translate: cannot translate into {lang!r}: lessons are written in "
                "English; tutor translates them into {others}").format(lang=lang, others=others),
              file=sys.stderr)
        return 2
    failed = False
    for root in args.paths:
        files = lesson_files(root) if root.exists() else []
        if not files:
            print(_("tutor translate: {path}: no lesson file there").format(path=root),
                  file=sys.stderr)
            failed = True
        for file in files:
            try:
                lesson = load_lesson(file)
            except LessonError as exc:
                print(_("tutor translate: {file} does not load, so it cannot be translated "
                        "(`tutor lint` says why):\n{error}").format(file=file, error=exc),
                      file=sys.stderr)
                failed = True
                continue
            target = translation_path(file, lang)
            old = None
            if target.exists():
                if not args.update:
                    print(_("tutor translate: {target} exists: edit it, or run `tutor "
                            "translate --update {lang} {file}` to bring it in line with its "
                            "lesson").format(target=target, lang=lang, file=file),
                          file=sys.stderr)
                    failed = True
                    continue
                try:
                    old = read(target)
                except ValueError as exc:
                    print(_("tutor translate: {target} {why}: fix it first (nothing was "
                            "written)").format(target=target, why=exc), file=sys.stderr)
                    failed = True
                    continue
            made = draft(lesson, lang, old)
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
                    print("  - " + _("{place}: dropped (the lesson has no such text now); "
                                     "it was: {text}").format(place=place, text=text))
            if made.added:
                print("    " + _("next: translate the English texts, then `tutor lint {file}` "
                                 "prints the fingerprint to set as `source:`").format(file=file))
            elif not made.data["source"]:
                print("    " + _("next: the English texts changed since this translation was "
                                 "made (`git log -p {file}` shows which): update their "
                                 "translations, then `tutor lint {file}` prints the "
                                 "fingerprint to set as `source:`").format(file=file))
            else:
                print("    " + _("nothing to do: the translation matches its lesson"))
    return 1 if failed else 0
