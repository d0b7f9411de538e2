"""Moved: the sanitiser is `tutor.safetext.sanitize` (kept here for old imports)."""

from tutor.safetext import sanitize, sanitize_output

__all__ = ["sanitize", "sanitize_output"]
