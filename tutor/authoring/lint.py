"""`tutor lint`: everything that can be checked about a lesson without running torch.

Pure: reads files, returns `Problem`s (`file:line:col: key.path: message`, with a
suggestion where one exists).  The rules, each with its own test:

errors
  load        YAML syntax, schema (unknown keys and kinds with a did-you-mean, missing
              keys, wrong types), `expect` that is not a Python expression, step code
              that is not valid Python: the loader's own checks, reported all at once.
  duplicate   a lesson id used twice, among the linted files or against any other
              known pack (bundled, --path, TUTOR_PATH, installed entry points).
  answer      a reference `answer:` the judge cannot read for the prompt's kind.
  wrong       a `wrong:` answer the judge cannot read (it would never be judged
              incorrect, only "invalid", so it proves nothing).
  feedback    a `feedback:` key the judge cannot read (it could never match).
  pack        a pack.yaml that does not load.
  translation a lesson's or a pack's translation (`x.ko.yaml`, `pack.ko.yaml`) that
              misses a text, has an extra one, a list of another length, a wrong
              `translates:` or `lang:`, or whose English changed since (`source:`,
              the fingerprint to set is named); one whose lesson or pack.yaml is not
              beside it (an orphan).  docs/translating.md.
  vary        a `vary:` name no placeholder uses; an answer, `wrong:` answer, feedback
              key or `show:` that fails in a variant other than the first (named with
              its values).  See tutor/authoring/lint_vary.py.
  show        a `show:` picture that is not `graph EXPR`, `storage [EXPR]` or `tree EXPR`
              with EXPR a Python expression (see docs/pictures.md).
  unreachable a prompt that can never be judged: the prompts of a step whose code
              has, at top level, an unconditional `raise`, `sys.exit()`, `exit()`,
              `quit()` or `os._exit()`, unless a prompt of that step asks about the
              exception (kind `exception` without `expect`): the engine reports such a
              step as a broken lesson, not as a question.  (Later steps still run, in
              the namespace as it was when the step stopped.)  A `choice` answer that
              is not one of the choices is an `answer` error: the judge cannot read it.

warnings
  no-answer   a prompt without `answer:` (`tutor record FILE` fills it from a live run).
  hint        a prompt without `hint:`.
  explain     a prompt without `explain:`, in a step without `explain:` either.
  dead-code   step code after a top-level statement that always raises or exits.
  pack-order  a pack.yaml `lessons:` entry naming no lesson in the pack.
  vary        `vary:` with one variant; `{{name}}` in a prompt of a lesson without `vary:`.
  foreseen    a number prompt whose reference answer, written at the precision the
              question asks (two significant digits, never coarser than the units,
              when it asks none), is taken by the judge for one of its foreseen
              mistakes, a `wrong:` answer or feedback key (optim/momentum: 2.42 written
              as 2.4, the mistake 2.4; docs/judging.md, "Foreseen mistakes"): a
              learner who rounds the right answer is marked wrong.  Say in the
              question the precision that tells them apart ("to two decimal
              places").  Checked in every variant.

`--strict` turns warnings into errors.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tutor.authoring.lint_rules import (
    ERROR,
    RULES,
    WARNING,
    LintedFile,
    _problem,
    load_for_lint,
)
from tutor.authoring.lint_vary import check_vary
from tutor.authoring.schema import stale_modeline
from tutor.i18n import _
from tutor.lesson import format as fmt
from tutor.lesson.catalog import load_catalog
from tutor.lesson.files import PACK_FILE, lesson_files, manifests
from tutor.lesson.installed import same_pack
from tutor.lesson.loader import (
    LessonError,
    compose,
    display_name,
    load_pack,
    read_text,
)
from tutor.lesson.model import Lesson, Pack
from tutor.lesson.translation import is_translation_file
from tutor.lesson.validate import Problem, Validation, validate


@dataclass
class LintReport:
    problems: list[Problem] = field(default_factory=list)
    files: int = 0

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == WARNING]

    def strict(self) -> LintReport:
        return LintReport([replace(p, severity=ERROR) for p in self.problems], self.files)


def lint_lesson_file(path: Path) -> LintedFile:
    f = load_for_lint(path)
    if f.lesson is not None:
        for rule in (*RULES, check_vary):
            f.problems += rule(f)
        f.problems += check_translations(f.lesson)
    return f


def check_translations(lesson: Lesson) -> list[Problem]:
    """Each translation beside the lesson (`x.ko.yaml`) holds every text of the lesson,
    no other, and the fingerprint of the English it translates (docs/translating.md)."""
    from tutor.lesson import translation

    return _translation_problems(lesson.file, lambda data, lang: translation.problems(
        lesson, data, lang))


def check_pack_translations(pack: Pack, manifest: Path,
                            topics: set[str] | None = None) -> list[Problem]:
    """Each translation beside a pack.yaml (`pack.ko.yaml`) holds its title and
    description (if it has one), no other text, and the fingerprint of the English;
    with `topics` (those its lessons have), it names those topics and no other
    (`translation.topic_problems`: a topic without a name is a warning)."""
    from tutor.lesson import translation

    return _translation_problems(manifest, lambda data, lang: [
        *((key, message, ERROR) for key, message in translation.pack_problems(
            pack, data, lang)),
        *((key, message, WARNING if warning else ERROR)
          for key, message, warning in (translation.topic_problems(data, topics)
                                        if topics is not None else []))])


def _translation_problems(
        source: Path,
        problems: Callable[[dict[str, Any], str], list[tuple[str, str]]
                           | list[tuple[str, str, str]]]) -> list[Problem]:
    from tutor.i18n import LANGUAGES
    from tutor.lesson import translation

    out = []
    for lang in LANGUAGES:
        path = translation.translation_path(source, lang)
        if lang == "en" or not path.is_file():
            continue
        name = display_name(path)
        try:
            data = translation.read(path)
        except ValueError as exc:
            out.append(Problem(name, 1, 1, "", _("this translation {why}").format(why=exc)))
            continue
        text = path.read_text(encoding="utf-8")
        for key, message, *severity in problems(data, lang):
            out.append(Problem(name, _key_line(text, key), 1, key, message, *severity))
    return out


def _key_line(text: str, key: str) -> int:
    """The line of a translation file where `key` (a.b[1].c) is written, roughly: the
    first line naming its last key after the lines naming the ones before it."""
    line = 0
    lines = text.splitlines()
    for part in re.findall(r"[A-Za-z_]+", key):
        for n in range(line, len(lines)):
            if re.match(rf"\s*-?\s*{part}\s*:", lines[n]):
                line = n
                break
    return line + 1


def orphan_translations(root: Path) -> list[Problem]:
    """Translation files under `root` whose lesson file is not beside them."""
    out = []
    candidates = [root] if root.is_file() else sorted(root.rglob("*.*.y*ml"))
    for path in candidates:
        if is_translation_file(path):
            lang = Path(path.stem).suffix[1:]
            lesson = path.with_name(path.stem.rsplit(".", 1)[0] + path.suffix)
            if not lesson.is_file():
                out.append(Problem(display_name(path), 1, 1, "", _(
                    "a translation into {lang} of {file}, which is not here (renamed or "
                    "removed?)").format(lang=lang, file=lesson.name)))
    return out


# ------------------------------------------------------------------ many files


def _broken_ids(manifest: Path, lessons: list[LintedFile]) -> dict[str, str]:
    """The lesson files under `manifest`'s directory that do not load, by the id their
    text declares ("" when it declares none)."""
    out: dict[str, str] = {}
    for f in lessons:
        path = Path(f.file)
        if f.lesson is not None or manifest.parent.resolve() not in path.resolve().parents:
            continue
        try:
            found = re.search(r"^id:[ \t]*['\"]?([^'\"#\s]+)", path.read_text(encoding="utf-8"),
                              re.MULTILINE)
        except (OSError, UnicodeDecodeError):
            found = None
        out[found.group(1) if found else ""] = f.file
    return out


def _pack_problems(manifest: Path, lessons: Iterable[LintedFile]) -> list[Problem]:
    name = display_name(manifest)
    try:
        pack = load_pack(manifest, lang="en")
        text = read_text(manifest, name)
        v = Validation(name, source=text)
        validate(compose(text, name), fmt.PACK, v)
    except LessonError as exc:
        return list(exc.problems)
    stale = stale_modeline(manifest, text.split("\n", 1)[0])
    out = [Problem(name, 1, 1, "", stale, WARNING)] if stale else []
    files = list(lessons)
    mine = [f.lesson for f in files if f.lesson is not None
            and manifest.parent.resolve() in Path(f.lesson.file).resolve().parents]
    ids = {lesson.id for lesson in mine}
    out += check_pack_translations(pack, manifest, {lesson.topic for lesson in mine})
    broken = _broken_ids(manifest, files)  # files of the pack that do not load: their ids
    for i, lesson_id in enumerate(pack.lesson_order):
        if lesson_id in broken:  # (its file's own errors say what is wrong)
            continue
        if lesson_id not in ids:
            close = difflib.get_close_matches(lesson_id, sorted(ids), n=1)
            if close and not broken:
                message = _("{id} names no lesson in this pack (did you mean {close}?)")
            elif broken:
                message = _("{id} names no lesson in this pack: fix the id, or remove it from "
                            "`lessons:` (or fix the pack's {n} lesson file(s) that do not load)")
            else:
                message = _("{id} names no lesson in this pack: fix the id, or remove it from "
                            "`lessons:`")
            line, col = v.at(f"lessons[{i}]")
            out.append(Problem(name, line, col, f"lessons[{i}]", message.format(
                id=repr(lesson_id), close=repr(close[0]) if close else "", n=len(broken)),
                WARNING))
    return out


def _pack_translation_problems(manifest: Path) -> list[Problem]:
    """`tutor lint pack.ko.yaml`: its pack.yaml's problems of loading, else the
    translation's (the pack's lessons are not linted: `lessons:` is not checked)."""
    try:
        pack = load_pack(manifest, lang="en")
    except LessonError as exc:
        return list(exc.problems)
    return check_pack_translations(pack, manifest)


def _id_problem(f: LintedFile, other: str) -> Problem:
    assert f.lesson is not None
    return _problem(f, "id", _("duplicate lesson id {id}: already used by {other}; ids must be "
                               "unique across all packs (rename one, e.g. with a pack "
                               "prefix)").format(id=repr(f.lesson.id), other=other))


def lint_paths(paths: Sequence[Path], *, others: Sequence[Path] = (),
               with_known: bool = True) -> LintReport:
    """Lint every lesson (and pack.yaml) under `paths`, and nothing else.

    Ids are compared among the linted files and, with `with_known`, against every
    other lesson tutor would load: the bundled packs, `others` (--path), TUTOR_PATH
    and packs installed through entry points (an installed copy of a linted pack is
    the same pack, not a duplicate).  Installed packs without lessons are warnings.
    """
    report = LintReport()
    files: list[Path] = []
    found_manifests: list[Path] = []
    for root in paths:
        if not root.exists():
            report.problems.append(Problem(str(root), 1, 1, "", _("no such file or directory")))
            continue
        if root.is_file() and root.name == PACK_FILE:
            found_manifests.append(root)
            continue
        if root.is_file() and is_translation_file(root):
            report.problems += orphan_translations(root)
            source = root.with_name(root.stem.rsplit(".", 1)[0] + root.suffix)
            if source.name == PACK_FILE and source.is_file():
                report.problems += _pack_translation_problems(source)
                report.files += 1
            elif source.is_file():  # its lint checks the translation
                files.append(source)
            continue
        files += lesson_files(root)
        found_manifests += manifests(root)
        report.problems += orphan_translations(root)
    seen_files: set[Path] = set()
    linted: list[LintedFile] = []
    for file in files:
        if file.resolve() in seen_files:
            continue
        seen_files.add(file.resolve())
        linted.append(lint_lesson_file(file))
    report.files += len(linted) + len(found_manifests)

    first: dict[str, LintedFile] = {}
    for f in linted:
        if f.lesson is None:
            continue
        if f.lesson.id in first:
            f.problems.append(_id_problem(f, first[f.lesson.id].file))
        else:
            first[f.lesson.id] = f
    if with_known:
        known = load_catalog(list(others), with_bundled=True, with_env=True)
        for lesson in known.lessons:
            mine = first.get(lesson.id)
            if mine is None or mine.lesson is None or lesson.file.resolve() in seen_files:
                continue
            installed = known.installed_of.get(lesson.id)
            if installed is not None and same_pack(mine.lesson.file, installed):
                continue  # an installed copy of the linted pack: the same pack
            mine.problems.append(_id_problem(mine, display_name(lesson.file)))
        report.problems += known.warnings

    for f in linted:
        report.problems += f.problems
    for manifest in found_manifests:
        pack_dir = manifest.parent.resolve()
        its = [f for f in linted if pack_dir in Path(f.file).resolve().parents]
        if not its:  # a pack.yaml named alone: its lessons are read (not reported) for
            # what the manifest is checked against: their ids, and their topics
            its = [lint_lesson_file(file) for file in lesson_files(manifest.parent)]
        report.problems += _pack_problems(manifest, its)
    report.problems.sort(key=lambda p: (p.file, p.line, p.col, p.path))
    return report
