"""Whether a lesson's `requires:` (torch and Python versions, a CUDA device) is met by a
kernel, from what the kernel said about itself.  Light: no torch, no judge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from tutor.lesson.model import Lesson


def unmet_requirement(lesson: Lesson, info: Mapping[str, Any]) -> str | None:
    """Why this lesson cannot run against the kernel described by `info`, or None."""
    req = lesson.requires
    for name, spec in (("torch", req.torch), ("python", req.python)):
        if not spec:
            continue
        have = info.get(name)
        try:
            ok = have is not None and Version(str(have)) in SpecifierSet(spec)
        except (InvalidSpecifier, InvalidVersion):
            return f"requires.{name}: {spec!r} is not a valid version specifier"
        if not ok:
            return f"needs {name} {spec}, this kernel has {name} {have}"
    if req.cuda and not info.get("cuda"):
        return "needs a CUDA device, and none is available"
    return None
