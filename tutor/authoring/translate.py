"""`tutor translate`: start a lesson's (or a pack's) translation, or bring one in line.

A new translation file holds the lesson's English texts in the shape the format wants
(docs/translating.md), for the translator to replace one by one, and `source: ""`:
`tutor lint` keeps reporting it until the translator sets the fingerprint it prints,
so a file still in English cannot pass for a finished translation.

`--update` keeps every text already translated whose place (`text.steps[1].predict[0]
.hint`) the lesson still has, adds the English of each new text, drops texts the
lesson no longer has, and says which places changed.  Which English texts were
*edited* in place it cannot know (the file keeps only their fingerprint): `git diff` of
the lesson file shows them.  A pack's translation (`pack.ko.yaml`) is drafted the same
way from its pack.yaml's title and description, with a name for each topic its lessons
have (`draft_pack`).  Pure: reads and returns data; the command writes files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tutor.lesson.model import Lesson, Pack
from tutor.lesson.translation import (
    PACK_TRANSLATES,
    TOPICS,
    fingerprint,
    pack_source_texts,
    source_texts,
)

HEADER = """\
{modeline}# The {lang} texts of {name} (docs/translating.md): `source:` is the fingerprint of
# the English texts translated here; `tutor lint` says when they change.
"""


@dataclass
class Draft:
    """A translation file's data to write, and what changed against the old one."""

    data: dict[str, Any]
    added: list[str] = field(default_factory=list)  # places given their English text
    dropped: list[tuple[str, Any]] = field(default_factory=list)  # (place gone, its text)
    kept: int = 0  # texts kept from the old translation


def draft(lesson: Lesson, lang: str, old: dict[str, Any] | None = None) -> Draft:
    """The translation of `lesson` into `lang` to write: the English texts, or with `old`
    (an existing translation's data) its texts wherever the lesson still has the place."""
    source = source_texts(lesson)
    result = Draft({})
    old_text = old.get("text") if old else None
    text = _merge(source, old_text if isinstance(old_text, dict) else None, "text", result)
    result.data = _data(lesson.id, lang, fingerprint(source), text, old, result)
    return result


def _data(translates: str, lang: str, now: str, text: Any, old: dict[str, Any] | None,
          made: Draft) -> dict[str, Any]:
    """A translation file's data: the fingerprint `now` only where the old translation
    was finished for these very English texts and nothing moved; else "" (lint reports
    it until the translator sets it)."""
    finished = (old is not None and old.get("source") == now
                and not made.added and not made.dropped)
    return {"translates": translates, "lang": lang, "source": now if finished else "",
            "text": text}


def draft_pack(pack: Pack, topics: set[str], lang: str,
               old: dict[str, Any] | None = None) -> Draft:
    """The translation of `pack` (its pack.yaml) into `lang` to write, as `draft` does
    for a lesson: its title and description, and `topics:` naming each topic of
    `topics` (those its lessons have; in English, the topic as written, until
    translated).  With `old`, its texts and names are kept where the place remains; a
    name for a topic no lesson has any more is dropped."""
    source = pack_source_texts(pack)
    result = Draft({})
    old_text = old.get("text") if old else None
    old_text = old_text if isinstance(old_text, dict) else None
    text = _merge(source, {k: v for k, v in old_text.items() if k != TOPICS}
                  if old_text is not None else None, "text", result)
    old_names = old_text.get(TOPICS) if old_text is not None else None
    names = _merge({topic: topic for topic in sorted(topics)},
                   old_names if isinstance(old_names, dict) else None, f"text.{TOPICS}", result)
    if names:
        text[TOPICS] = names
    # (the names are not fingerprinted: lint checks them against the lessons)
    result.data = _data(PACK_TRANSLATES, lang, fingerprint(source), text, old, result)
    return result


def _merge(source: Any, old: Any, path: str, out: Draft) -> Any:
    if isinstance(source, dict):
        if old is not None and not isinstance(old, dict):
            out.dropped.append((path, old))
            old = None
        merged = {}
        for key, value in source.items():
            merged[key] = _merge(value, old.get(key) if old else None, f"{path}.{key}", out)
        for key, value in (old or {}).items():
            if key not in source:
                out.dropped.append((f"{path}.{key}", value))
        return merged
    if isinstance(source, list):
        if not isinstance(old, list):
            old = None
        elif len(old) != len(source) and all(isinstance(x, str) for x in source):
            out.dropped.append((path, old))  # choices of another number: the labels no longer
            old = None  # line up (steps and questions are matched by position)
        merged_list = []
        for i, value in enumerate(source):
            before = old[i] if old is not None and i < len(old) else None
            merged_list.append(_merge(value, before, f"{path}[{i}]", out))
        if old is not None and len(old) > len(source):
            out.dropped += [(f"{path}[{i}]", old[i]) for i in range(len(source), len(old))]
        return merged_list
    if isinstance(old, str) and old.strip():
        out.kept += 1
        return old
    out.added.append(path)
    return source


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # list items indented under their key


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    """Texts of several lines as blocks (`|`); one with a quote in double quotes (a
    feedback key such as `['a', 'b']` reads as in the lesson); else as PyYAML likes."""
    style = "|" if "\n" in value else '"' if "'" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def render(data: dict[str, Any], lesson_file: Path, lang: str) -> str:
    """The file's text: the header comment, then the data (block scalars for texts of
    several lines, Unicode as it is, keys in the format's order).  Inside tutor's own
    tree the first line points editors at the packaged translation schema (a pack's
    own for a pack.yaml's translation)."""
    from tutor.authoring.schema import MODELINE_PREFIX, PACKAGED, in_tutor_tree

    directory = lesson_file.resolve().parent
    modeline = ""
    if in_tutor_tree(directory):
        schema = PACKAGED.with_name("pack-translation.schema.json"
                                    if data.get("translates") == PACK_TRANSLATES
                                    else "translation.schema.json")
        modeline = MODELINE_PREFIX + os.path.relpath(schema, directory).replace(os.sep, "/") + "\n"
    body = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10**6,
                     default_flow_style=False)
    return HEADER.format(modeline=modeline, lang=lang, name=lesson_file.name) + body
