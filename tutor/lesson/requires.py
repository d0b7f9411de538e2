"""Whether a lesson's or a question's `requires:` (torch and Python versions, a CUDA
device, NumPy working with torch) is met by a kernel, from what the kernel said about
itself at start (`tutor.kernel.warm.versions`).  Light: no torch, no judge."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from tutor.i18n import _
from tutor.lesson.model import Lesson, Prompt, Requires

USES_NUMPY = re.compile(r"\bnumpy\b")  # `import numpy`, `t.numpy()`, `torch.from_numpy`


def needs_numpy(lesson: Lesson) -> bool:
    """Does the lesson need NumPy working with torch: said in `requires:`, or its code
    (its pack's setup included) names numpy."""
    if lesson.requires.numpy:
        return True
    codes = [s.code for s in lesson.steps] + ([lesson.setup.code] if lesson.setup else [])
    return any(USES_NUMPY.search(code) for code in codes)


def numpy_problem(info: Mapping[str, Any]) -> str | None:
    """Why NumPy does not work with this kernel's torch (the kernel's start-up report),
    or None."""
    if info.get("numpy_error"):
        return str(info["numpy_error"])
    return None


def numpy_note(info: Mapping[str, Any]) -> str:
    """For a header beside the torch version: " · NumPy ... does not work with it ..."
    when the kernel found NumPy broken with its torch at start, else ""."""
    if not numpy_problem(info):
        return ""
    return " · " + _("NumPy {version} does not work with this torch (lessons that use NumPy "
                     "are skipped; a torch older than 2.3 needs numpy<2)").format(
                         version=info.get("numpy", "?"))


def unmet(req: Requires, info: Mapping[str, Any], numpy: bool = False) -> str | None:
    """Why `req` is not met by the kernel described by `info`, or None.  `numpy`: NumPy
    is needed even where `req` does not say so."""
    for name, spec in (("torch", req.torch), ("python", req.python)):
        if not spec:
            continue
        have = info.get(name)
        try:
            ok = have is not None and Version(str(have)) in SpecifierSet(spec)
        except (InvalidSpecifier, InvalidVersion):
            return _("requires.{name}: {spec} is not a valid version specifier").format(
                name=name, spec=repr(spec))
        if not ok:
            return _("needs {name} {spec}, this kernel has {name} {have}").format(
                name=name, spec=spec, have=have)
    if req.cuda and not info.get("cuda"):
        return _("needs a CUDA device, and none is available")
    if req.numpy or numpy:
        why = numpy_problem(info)
        if why:
            return _("needs NumPy, which does not work with this torch: {why}").format(why=why)
        if info.get("numpy_missing"):
            return _("needs NumPy, which is not installed where the kernel runs")
    return None


def unmet_requirement(lesson: Lesson, info: Mapping[str, Any]) -> str | None:
    """Why this lesson cannot run against the kernel described by `info`, or None."""
    return unmet(lesson.requires, info, numpy=needs_numpy(lesson))


def unmet_variant(lesson: Lesson, info: Mapping[str, Any]) -> str | None:
    """Why the lesson's drawn variant (a row of `vary:` with its own `requires:`) cannot
    run on this kernel, or None."""
    from tutor.lesson.vary import describe

    for variant, req in (lesson.template or lesson).variant_requires:
        if variant == lesson.variant:
            why = unmet(req, info)
            if why:
                return _("{why} (for the values {values})").format(
                    why=why, values=describe(variant))
    return None


def unmet_prompt(prompt: Prompt, info: Mapping[str, Any]) -> str | None:
    """Why this question cannot be asked on this kernel (its own `requires:`), or None."""
    return unmet(prompt.requires, info) if prompt.requires else None
