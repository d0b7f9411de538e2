"""Lesson files: the format, the safe loader and the catalog.  Pure: no torch, no textual.

The names below are imported on first use (PEP 562): the app's catalog, read from the
index (`tutor.lesson.index`), needs neither the loader nor the judge it imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor.lesson.catalog import Catalog, find_lesson, load_catalog
    from tutor.lesson.loader import LessonError, load_lesson
    from tutor.lesson.model import Lesson, Pack, Prompt, Requires, Step
    from tutor.lesson.validate import Problem

_HOME = {
    "Catalog": "catalog", "find_lesson": "catalog", "load_catalog": "catalog",
    "LessonError": "loader", "load_lesson": "loader",
    "Lesson": "model", "Pack": "model", "Prompt": "model", "Requires": "model", "Step": "model",
    "Problem": "validate",
}

__all__ = [
    "Catalog",
    "Lesson",
    "LessonError",
    "Pack",
    "Problem",
    "Prompt",
    "Requires",
    "Step",
    "find_lesson",
    "load_catalog",
    "load_lesson",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'tutor.lesson' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"tutor.lesson.{_HOME[name]}"), name)
    globals()[name] = value
    return value
