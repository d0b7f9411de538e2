"""Helpers of the translation tests: texts 'translated' by a tag, in their source's
structure, and a translation file (`x.ko.yaml`, `pack.ko.yaml`) written from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def korean(value: Any, tag: str = "한국어 ") -> Any:
    """Every text of a source, 'translated' (tagged), in the same structure."""
    if isinstance(value, dict):
        return {k: korean(v, tag) for k, v in value.items()}
    if isinstance(value, list):
        return [korean(v, tag) for v in value]
    return f"{tag}{value}"


def write_translation(path: Path, translates: str, source: str, text: Any,
                      lang: str = "ko") -> Path:
    """The translation file at `path`: what it translates, the fingerprint of the English
    it translates (`source`) and its texts."""
    path.write_text(yaml.safe_dump({"translates": translates, "lang": lang, "source": source,
                                    "text": text}, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")
    return path
