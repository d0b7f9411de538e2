"""Lesson files: the format, the safe loader and the catalog.  Pure: no torch, no textual."""

from tutor.lesson.catalog import Catalog, find_lesson, load_catalog
from tutor.lesson.loader import LessonError, load_lesson
from tutor.lesson.model import Lesson, Pack, Prompt, Requires, Step
from tutor.lesson.validate import Problem

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
