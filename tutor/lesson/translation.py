"""Lesson translations that cannot drift from their source (docs/translating.md).

A translation lives beside its lesson: `memory.ko.yaml` for `memory.yaml`.  It holds
only the texts a learner reads (title, intro, each step's explanation, each question's
ask, hint, explanation, choices' labels and feedback messages), keyed to the lesson's
structure, and the fingerprint of the English texts it translates:

    translates: samples/memory        # the lesson's id
    lang: ko
    source: 3b0c1f9e2a7d4c55          # fingerprint(source_texts(lesson))
    text:
      title: ...
      intro: ...
      steps:
        - explain: ...
          predict:
            - ask: ...
              hint: ...
              choices: [..., ...]      # labels shown; answers are judged as in English
              feedback: {"6": ...}     # keyed by the English file's feedback keys

Code, `expect`, answers, choices as judged and feedback keys are never translated:
a lesson runs and is judged exactly as in English.  A translation is used only when it
matches its source exactly (same texts, same fingerprint); otherwise the lesson is
shown in English, marked as such, and `tutor lint` says why.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from tutor.i18n import _
from tutor.lesson.model import Lesson, Pack, Prompt
from tutor.safetext import sanitize

PROMPT_TEXTS = ("ask", "hint", "explain")
TOP_KEYS = ("translates", "lang", "source", "text")
PACK_TRANSLATES = "pack.yaml"  # a pack translation's `translates:` (packs have no id)
TOPICS = "topics"  # a pack translation's names for its lessons' topics (not fingerprinted)


def translation_path(lesson_file: Path, lang: str) -> Path:
    """Where `lesson_file`'s translation into `lang` lives: `x.yaml` -> `x.ko.yaml`."""
    return lesson_file.with_name(f"{lesson_file.stem}.{lang}{lesson_file.suffix}")


def is_translation_file(path: Path) -> bool:
    """`x.LANG.yaml` for a language tutor speaks (the name alone: no reading)."""
    from tutor.i18n import LANGUAGES

    lang = Path(path.stem).suffix[1:]
    return path.suffix in (".yaml", ".yml") and lang in LANGUAGES and lang != "en"


def source_texts(lesson: Lesson) -> dict[str, Any]:
    """The English texts a translation translates, in the lesson's structure (empty
    texts left out).  A lesson with `vary:` gives its template's texts."""
    lesson = lesson.template or lesson
    out: dict[str, Any] = {"title": lesson.title}
    if lesson.intro:
        out["intro"] = lesson.intro
    steps = []
    for step in lesson.steps:
        s: dict[str, Any] = {}
        if step.explain:
            s["explain"] = step.explain
        prompts = []
        for p in step.prompts:
            q: dict[str, Any] = {k: getattr(p, k) for k in PROMPT_TEXTS if getattr(p, k)}
            if p.choices:
                q["choices"] = list(p.choices)
            if p.feedback:
                q["feedback"] = dict(p.feedback)
            prompts.append(q)
        if prompts:
            s["predict"] = prompts
        steps.append(s)
    out["steps"] = steps
    return out


def fingerprint(texts: dict[str, Any]) -> str:
    """16 hex digits of SHA-256 over the texts (canonical JSON): any change to an English
    text, or to the lesson's structure of texts, changes it."""
    canonical = json.dumps(texts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def read(path: Path) -> dict[str, Any]:
    """A translation file's data; ValueError saying what is wrong where."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(_("cannot be read ({why})").format(why=exc)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        why = getattr(exc, "problem", exc)
        raise ValueError((_("is not valid YAML at line {line}: {why}") if mark is not None else
                          _("is not valid YAML: {why}")).format(
            line=mark.line + 1 if mark is not None else 0, why=why)) from None
    if not isinstance(data, dict):
        raise ValueError(_("must be a mapping with translates:, lang:, source: and text:"))
    return data


def problems(lesson: Lesson, data: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """What keeps `data` from translating `lesson` into `lang`, as (key path, message):
    a wrong lesson or language, a text missing, an extra one, a changed source."""
    return _problems(source_texts(lesson), data, lang, lesson.id, "lesson")


def pack_source_texts(pack: Pack) -> dict[str, Any]:
    """The English texts of a pack (its pack.yaml's `title:` and `description:`) that
    its translation, `pack.ko.yaml` beside it, translates."""
    out: dict[str, Any] = {"title": pack.title}
    if pack.description:
        out["description"] = pack.description
    return out


def pack_problems(pack: Pack, data: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """What keeps `data` (a `pack.LANG.yaml`) from translating `pack` into `lang`: as
    `problems`, with `translates: pack.yaml` (a pack has no id; the fingerprint tells
    one pack's texts from another's).  Its `topics:` (the names of its lessons' topics)
    are not fingerprinted: a mapping of words, checked here for its form and by lint
    against the pack's lessons (`topic_problems`)."""
    text = data.get("text")
    topics = text.get(TOPICS) if isinstance(text, dict) else None
    if isinstance(text, dict) and TOPICS in text:
        data = {**data, "text": {k: v for k, v in text.items() if k != TOPICS}}
    out = _problems(pack_source_texts(pack), data, lang, PACK_TRANSLATES, "pack")
    if topics is not None and _topic_pairs(topics) is None:
        out.append((f"text.{TOPICS}", _(
            "must be a mapping of each topic, as the lessons write it, to its name: "
            "`memory: 메모리`")))
    return out


def _topic_pairs(topics: Any) -> tuple[tuple[str, str], ...] | None:
    """`topics:` as (topic, name) pairs; None when it is not a mapping of words to
    words."""
    if not isinstance(topics, dict):
        return None
    pairs = []
    for topic, name in topics.items():
        if not isinstance(topic, str) or not isinstance(name, str) or not name.strip():
            return None
        pairs.append((topic, sanitize(name.strip())))
    return tuple(pairs)


def topic_problems(data: dict[str, Any], used: set[str]) -> list[tuple[str, str, bool]]:
    """A pack translation's `topics:` against the topics its lessons use (`used`): as
    (key path, message, whether it is only a warning).  A topic no lesson of the pack
    has is reported (renamed?); a topic used but not named is shown as written, so it
    is a warning."""
    text = data.get("text")
    raw = text.get(TOPICS) if isinstance(text, dict) else None
    pairs = _topic_pairs(raw) if raw is not None else ()
    if pairs is None:
        return []  # (not a mapping of names: `pack_problems` says so)
    named = {topic for topic, _name in pairs}
    out = [(f"text.{TOPICS}.{topic}", _("extra: no lesson of the pack has the topic `{topic}` "
                                       "(renamed?)").format(topic=topic), False)
           for topic, _name in pairs if topic not in used]
    out += [(f"text.{TOPICS}", _("missing: the name of the topic `{topic}` (lessons of the "
                                 "pack have it; it is shown as written)").format(topic=topic),
             True) for topic in sorted(used - named)]
    return out


def _problems(source: dict[str, Any], data: dict[str, Any], lang: str, translates: str,
              owner: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key in data:
        if key not in TOP_KEYS:
            out.append((str(key), _("unknown key `{key}` (a translation has {keys})").format(
                key=key, keys=", ".join(TOP_KEYS))))
    if data.get("translates") != translates:
        found = repr(data.get("translates"))
        out.append(("translates", (
            _("`translates:` must be the lesson's id `{id}`, not {found}") if owner == "lesson"
            else _("`translates:` must be the file it translates `{id}`, not {found}")
        ).format(id=translates, found=found)))
    if data.get("lang") != lang:
        out.append(("lang", _("`lang:` must be `{lang}` (the file name's language), not "
                              "{found}").format(lang=lang, found=repr(data.get("lang")))))
    now = fingerprint(source)
    if data.get("source") in ("", None):  # started with `tutor translate`, not finished
        out.append(("source", _("not finished: `source:` is empty; translate every text, "
                                "then set `source: {now}`").format(now=now)))
    elif data.get("source") != now:
        out.append(("source", (
            _("the English texts changed since this translation was made (its `source:` is "
              "{old}, the lesson's texts are now {now}): update the translation, then set "
              "`source: {now}`") if owner == "lesson" else
            _("the English texts changed since this translation was made (its `source:` is "
              "{old}, the pack's texts are now {now}): update the translation, then set "
              "`source: {now}`")).format(old=repr(data.get("source")), now=now)))
    text = data.get("text")
    if not isinstance(text, dict):
        out.append(("text", _("`text:` must be a mapping of the translated texts")))
        return out
    _compare(source, text, "text", out, owner)
    return out


def _compare(source: Any, text: Any, path: str, out: list[tuple[str, str]],
             owner: str = "lesson") -> None:
    if isinstance(source, dict):
        if not isinstance(text, dict):
            out.append((path, _("must be a mapping, as in the lesson") if owner == "lesson"
                        else _("must be a mapping, as in the pack")))
            return
        for key, value in source.items():
            if key not in text or text[key] in (None, "", [], {}):
                if isinstance(value, str):
                    out.append((f"{path}.{key}", _("missing: the translation of {text}").format(
                        text=repr(value[:50]))))
                else:
                    out.append((f"{path}.{key}", (
                        _("missing: `{key}:` as in the lesson") if owner == "lesson"
                        else _("missing: `{key}:` as in the pack")).format(key=key)))
            else:
                _compare(value, text[key], f"{path}.{key}", out, owner)
        for key in text:
            if key not in source:
                out.append((f"{path}.{key}", (
                    _("extra: the lesson has no `{key}` here") if owner == "lesson"
                    else _("extra: the pack has no `{key}` here")).format(key=key)))
    elif isinstance(source, list):
        if not isinstance(text, list):
            out.append((path, _("must be a list, as in the lesson") if owner == "lesson"
                        else _("must be a list, as in the pack")))
            return
        if len(text) != len(source):
            out.append((path, (_("{n} entries, the lesson has {m}") if owner == "lesson"
                               else _("{n} entries, the pack has {m}")).format(
                n=len(text), m=len(source))))
        for i, (a, b) in enumerate(zip(source, text, strict=False)):
            _compare(a, b, f"{path}[{i}]", out, owner)
    elif not isinstance(text, str) or not text.strip():
        out.append((path, _("missing: the translation of {text}").format(
            text=repr(str(source)[:50]))))


def translated(lesson: Lesson, lang: str) -> Lesson:
    """`lesson` in `lang` where a translation beside it matches its source exactly;
    else `lesson` itself (in English: front ends mark it so, `Lesson.lang`)."""
    text = _matching(translation_path(lesson.file, lang), lang,
                     lambda data: problems(lesson, data, lang))
    return apply(lesson, text, lang) if text is not None else lesson


def _matching(path: Path, lang: str,
              problems_of: Callable[[dict[str, Any]], list[tuple[str, str]]]
              ) -> dict[str, Any] | None:
    """The texts of the translation at `path` when it matches its source exactly (no
    problem found by `problems_of`); None for English, a missing, unreadable, stale or
    incomplete translation (never shown)."""
    if lang == "en" or not path.is_file():
        return None
    try:
        data = read(path)
    except ValueError:
        return None
    return None if problems_of(data) else data["text"]


def apply(lesson: Lesson, text: dict[str, Any], lang: str) -> Lesson:
    """The lesson with `text`'s texts (checked by `problems` first)."""
    steps = []
    for step, s in zip(lesson.steps, text.get("steps") or [], strict=True):
        asked = s.get("predict") or [{} for _prompt in step.prompts]
        prompts = tuple(_prompt(p, q) for p, q in zip(step.prompts, asked, strict=True))
        steps.append(replace(step, prompts=prompts, explain=_t(s.get("explain"), step.explain)))
    return replace(lesson, title=_t(text.get("title"), lesson.title) or lesson.title,
                   intro=_t(text.get("intro"), lesson.intro) or "", steps=tuple(steps),
                   lang=lang)


def _prompt(p: Prompt, q: dict[str, Any]) -> Prompt:
    feedback = q.get("feedback") or {}
    return replace(
        p, ask=_t(q.get("ask"), p.ask) or p.ask, hint=_t(q.get("hint"), p.hint),
        explain=_t(q.get("explain"), p.explain),
        labels=tuple(sanitize(str(c)) for c in q["choices"]) if q.get("choices") else (),
        feedback=tuple((k, _t(feedback.get(k), m) or m) for k, m in p.feedback))


def _t(new: Any, old: str | None) -> str | None:
    return sanitize(str(new)) if isinstance(new, str) and new.strip() else old


def pack_translation_path(manifest: Path, lang: str) -> Path:
    """Where a pack.yaml's translation into `lang` lives: `pack.ko.yaml` beside it."""
    return translation_path(manifest, lang)


def translated_pack(pack: Pack, manifest: Path, lang: str) -> Pack:
    """`pack` with its title and description in `lang` where `pack.LANG.yaml` beside its
    manifest matches it exactly; else `pack` itself (English: `Pack.lang` says so)."""
    text = _matching(pack_translation_path(manifest, lang), lang,
                     lambda data: pack_problems(pack, data, lang))
    if text is None:
        return pack
    return replace(pack, title=_t(text.get("title"), pack.title) or pack.title,
                   description=_t(text.get("description"), pack.description) or "", lang=lang,
                   topics=_topic_pairs(text.get(TOPICS)) or ())
