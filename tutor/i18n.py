"""The one translation layer: gettext catalogs (`.po`), read at run time.

Every learner-facing string of the app, `tutor play`, `review`, `progress`, the judge's
messages and the tools (`check`, `lint`, `new`, `record`, `dev`, every `--help`: see
docs/translating.md) goes through `_` (or `ngettext` where a count decides the form), written as a
literal so that `scripts/i18n_extract.py` and the tests can find it.  A string needed
before the language is known (a class attribute, a module constant) is marked with `N_`
and translated where it is shown, with `_(CONSTANT)`.  Values go in with
`str.format` after translation: `_("Q{n} of {total}").format(n=..., total=...)`.

The catalogs are `tutor/locale/LANG/LC_MESSAGES/tutor.po`, read by the small loader
below (no compiled `.mo`, no Babel at run time).  An empty or fuzzy `msgstr` falls back
to the English text.  The language is chosen once per process with `set_language`
(`tutor.cli`: `--lang`, `TUTOR_LANG`, the app's remembered setting, the locale, else
English); until then, and for library use, everything stays English.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "tutor"
ENGLISH = "en"
# every language tutor speaks, by code, with its name in itself (the app's switch)
LANGUAGES: dict[str, str] = {"en": "English", "ko": "한국어"}

_current = ENGLISH


class PoError(ValueError):
    """A `.po` file that cannot be read: where, and what is wrong."""


@dataclass
class PoEntry:
    msgid: str
    msgstr: str = ""
    plural: str | None = None  # msgid_plural
    forms: list[str] = field(default_factory=list)  # msgstr[n]
    fuzzy: bool = False
    line: int = 0


def _unquote(token: str, where: str) -> str:
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise PoError(f"{where}: expected a quoted string, found {token!r}")
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{where}: bad string {token!r} ({exc})") from None
    if not isinstance(value, str):
        raise PoError(f"{where}: expected a string, found {token!r}")
    return value


def parse_po(text: str, name: str = "<po>") -> list[PoEntry]:
    """The entries of a `.po` file (the header, msgid "", included).  Raises PoError
    naming the file and line of anything it cannot read."""
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    key: str | None = None  # the keyword the current string continues
    fuzzy = False

    def finish() -> None:
        nonlocal entry, key
        if entry is not None:
            entries.append(entry)
        entry, key = None, None

    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}"
        line = raw.strip()
        if not line:
            finish()
            fuzzy = False
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in [f.strip() for f in line[2:].split(",")]:
                fuzzy = True
            continue
        if line.startswith('"'):
            if entry is None or key is None:
                raise PoError(f"{where}: a string continues nothing")
            _append(entry, key, _unquote(line, where))
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "msgctxt":
            raise PoError(f"{where}: msgctxt is not used by tutor's catalogs")
        if word == "msgid":
            finish()
            entry = PoEntry(_unquote(rest, where), fuzzy=fuzzy, line=number)
            fuzzy = False
        elif entry is None:
            raise PoError(f"{where}: {word} before any msgid")
        elif word == "msgid_plural":
            entry.plural = _unquote(rest, where)
        elif word == "msgstr":
            entry.msgstr = _unquote(rest, where)
        elif word.startswith("msgstr[") and word.endswith("]") and word[7:-1].isdigit():
            index = int(word[7:-1])
            if index != len(entry.forms):
                raise PoError(f"{where}: {word} out of order")
            entry.forms.append(_unquote(rest, where))
        else:
            raise PoError(f"{where}: unknown keyword {word!r}")
        key = word
    finish()
    seen: dict[tuple[str, str | None], int] = {}
    for e in entries:
        k = (e.msgid, e.plural)
        if k in seen:
            raise PoError(f"{name}:{e.line}: msgid {e.msgid!r} again (first at line {seen[k]})")
        seen[k] = e.line
    return entries


def _append(entry: PoEntry, key: str, more: str) -> None:
    if key == "msgid":
        entry.msgid += more
    elif key == "msgid_plural":
        entry.plural = (entry.plural or "") + more
    elif key == "msgstr":
        entry.msgstr += more
    else:
        entry.forms[-1] += more


@dataclass
class Catalog:
    singular: dict[str, str]
    plural: dict[tuple[str, str], list[str]]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The translations of `lang` (empty for English, or a language without a catalog).
    A catalog that cannot be read raises PoError: it ships with tutor, so tests catch it."""
    path = po_path(lang)
    if lang == ENGLISH or not path.is_file():
        return Catalog({}, {})
    singular: dict[str, str] = {}
    plural: dict[tuple[str, str], list[str]] = {}
    for e in parse_po(path.read_text(encoding="utf-8"), str(path)):
        if not e.msgid or e.fuzzy:
            continue
        if e.plural is not None:
            if e.forms and all(e.forms):
                plural[(e.msgid, e.plural)] = e.forms
        elif e.msgstr:
            singular[e.msgid] = e.msgstr
    return Catalog(singular, plural)


def set_language(lang: str) -> str:
    """Speak `lang` from now on (a code of LANGUAGES; anything else: English)."""
    global _current
    _current = lang if lang in LANGUAGES else ENGLISH
    return _current


def language() -> str:
    return _current


def _(message: str) -> str:
    """`message` in the current language (itself where no translation exists)."""
    if _current == ENGLISH:
        return message
    found = catalog(_current).singular.get(message)
    return message if found is None else _Translated(found)


class _Translated(str):
    """A translation whose `.format()` also picks the Korean particle a value needs:
    `{id}은(는)` is written `은(는)` in the catalog, as the value is not known there, and
    reads `텐서는` / `레슨 3은` once it is (see `particles`)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return particles(str.format(self, *args, **kwargs))


# ---------------------------------------------------------------------- Korean particles
# a particle written for either ending of the word before it, as a catalog must
_PARTICLE = re.compile(r"(?P<word>.)(?P<close>['\"`’”)\]]?)"
                       r"(?P<p>을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|"
                       r"와\(과\)|과\(와\)|\(으\)로)")
# after a final consonant (받침), and after none; (으)로 also takes 로 after ㄹ
_FORMS = {"을": ("을", "를"), "를": ("을", "를"), "이": ("이", "가"), "가": ("이", "가"),
          "은": ("은", "는"), "는": ("은", "는"), "와": ("과", "와"), "과": ("과", "와"),
          "(": ("으로", "로")}
# how a number's last digit is read in Sino-Korean (영 일 이 삼 사 오 육 칠 팔 구): its
# final consonant, 0 for none, 8 for ㄹ (as in a syllable's code)
_DIGIT_FINAL = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8,
                "9": 0}
# 10, 100, 1000, 10000: 십 백 천 만
_ROUND_FINAL = {1: 17, 2: 1, 3: 4, 4: 4}


def _final(text: str, end: int) -> int | None:
    """The final consonant of the word that ends at `text[end]`, as a Hangul syllable
    counts it (0: none, 8: ㄹ); None where it cannot be told (a Latin word: `tensor`
    and `grad_fn` are read in more than one way)."""
    ch = text[end]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28
    if not ch.isdigit():
        return None
    start = end
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] == ","):
        start -= 1
    if start > 0 and text[start - 1] == ".":  # a fraction (0.25): read digit by digit
        return _DIGIT_FINAL.get(ch)
    number = text[start:end + 1].replace(",", "")
    zeros = len(number) - len(number.rstrip("0"))
    if zeros == 0 or zeros == len(number):
        return _DIGIT_FINAL.get(ch)
    return _ROUND_FINAL.get(zeros % 4 if zeros % 4 else 4)


def particles(text: str) -> str:
    """`text` with each particle written for either ending (`을(를)`, `이(가)`, `은(는)`,
    `와(과)`, `(으)로`) made the one the word before it takes, where that word ends in
    Hangul or a number (`텐서을(를)` -> `텐서를`, `3이(가)` -> `3이`, `10(으)로` -> `10으로`);
    after a Latin word it stays as written (`tensor`: 텐서, or 텐서어?), as Korean
    software writes it."""
    if "(" not in text:
        return text

    def pick(m: re.Match[str]) -> str:
        final = _final(text, m.start("word"))
        if final is None:
            return m.group(0)
        p = m.group("p")
        after, bare = _FORMS[p[0]]
        if p.startswith("("):
            form = bare if final in (0, 8) else after
        else:
            form = bare if final == 0 else after
        return m.group("word") + m.group("close") + form

    return _PARTICLE.sub(pick, text)


def use_in_argparse() -> None:
    """Route argparse's own words (`usage:`, `options`, `error: the following arguments
    are required: ...`) through this layer: argparse calls the module-level `_` and
    `ngettext` it took from gettext, which are replaced by this layer's (their msgids are
    listed in scripts/i18n_catalog.py, `ARGPARSE`).  Called by `tutor.cli.main`."""
    import argparse

    setattr(argparse, "_", _)  # noqa: B010 (argparse reads the module globals)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


def N_(message: str) -> str:
    """Marks `message` for the catalog without translating it (translate where shown)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` ({n} is not filled in: `.format(n=n)` after)."""
    english = singular if n == 1 else plural
    if _current == ENGLISH:
        return english
    forms = catalog(_current).plural.get((singular, plural))
    if not forms:
        return english
    return _Translated(forms[_plural_index(_current, n, len(forms))])


def _plural_index(lang: str, n: int, count: int) -> int:
    if lang == "ko":  # Korean has one form (Plural-Forms: nplurals=1; plural=0;)
        return 0
    return min(0 if n == 1 else 1, count - 1)


def normalize(tag: str | None) -> str | None:
    """A language code of LANGUAGES for `tag` ("ko", "ko_KR.UTF-8", "en-US"), or None
    for an empty tag, "C"/"POSIX" or a language tutor does not speak."""
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    return base if base in LANGUAGES else None


def resolve(option: str | None = None, env: Mapping[str, str] | None = None,
            saved: str | None = None) -> str:
    """The language to speak: `--lang`, else TUTOR_LANG, else the app's remembered
    choice (`saved`), else the locale (LC_ALL, LC_MESSAGES, LANG: `ko_KR.*` is
    Korean), else English.  Raises ValueError for a `--lang` or TUTOR_LANG tutor does
    not speak (a clear error beats a silent English)."""
    env = os.environ if env is None else env
    for source, value in (("--lang", option), ("TUTOR_LANG", env.get("TUTOR_LANG"))):
        if value is not None and value.strip():
            found = normalize(value)
            if found is None:
                raise ValueError(f"{source} {value!r}: not a language tutor speaks "
                                 f"(one of: {', '.join(LANGUAGES)})")
            return found
    if saved in LANGUAGES:
        return saved
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:  # the first one set decides, as in POSIX
            return normalize(value) or ENGLISH
    return ENGLISH


# ---------------------------------------------------------------------- shared phrases
def steps_and_questions(steps: int, questions: int) -> str:
    """'3 steps, 4 questions' (one phrase: word order differs between languages)."""
    return _("{steps}, {questions}").format(
        steps=ngettext("{n} step", "{n} steps", steps).format(n=steps),
        questions=ngettext("{n} question", "{n} questions", questions).format(n=questions))


STATUS_WORDS = {"new": N_("new"), "tried": N_("tried"), "done": N_("done"),
                "perfect": N_("perfect")}


def status_word(status: str) -> str:
    """A lesson's status (new, tried, done, perfect) in the current language."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def untranslated(lang: str) -> str:
    """The mark of a lesson shown in English (its texts are in `lang`) while tutor
    speaks another language: a lesson without a (current) translation, or ""."""
    return _("(in English: not translated yet)") if lang != _current else ""


def pack_title(title: str, lang: str) -> str:
    """A pack's title as listed: marked *(in English)* where its texts are in English
    (no current `pack.LANG.yaml`) while tutor speaks another language."""
    return title + " " + _("(in English)") if lang != _current else title


def width(text: str) -> int:
    """Terminal cells `text` takes: Hangul and other wide characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0
               if unicodedata.combining(c) else 1 for c in text)


def cell(text: str, cells: int) -> str:
    """`text` padded with spaces to `cells` terminal cells (at least one space after it),
    so that labels in any language line up what follows them."""
    return text + " " * max(1, cells - width(text))


def pad(text: str, cells: int) -> str:
    """`text` left-aligned in a column `cells` terminal cells wide (like `:<cells`)."""
    return text + " " * max(0, cells - width(text))


# ---------------------------------------------------------------------- the judge's sentences
RECORD_ENV = "TUTOR_I18N_RECORD"  # a file: every judge sentence rendered is added to it


def template(msgid: str) -> str | None:
    """The translation of one of the judge's sentences (`tutor.judge.showing.render`),
    whose values are `{0}`, `{1}`...; None where there is none (English, or a sentence the
    catalog lacks: it is then said in English).  With TUTOR_I18N_RECORD set (a
    development aid, docs/translating.md), every sentence asked for is recorded there."""
    record = os.environ.get(RECORD_ENV)
    if record:
        with open(record, "a", encoding="utf-8") as f:
            f.write(repr(msgid) + "\n")
    if _current == ENGLISH:
        return None
    found = catalog(_current).singular.get(msgid)
    return None if found is None else _Translated(found)


def saved_language(directory: Path) -> str | None:
    """The language the app's switch remembered (`lang` in `ui.json` beside the progress
    database, as `tutor.ui.settings` writes it), or None.  Best effort, as the app's
    settings are: a missing or damaged file is no choice, never an error."""
    import json

    try:
        data = json.loads((directory / "ui.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else None
