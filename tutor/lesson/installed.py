"""Packs installed as Python distributions (entry point group `tutor.lessons`).

An entry point's value is a module (`my_pack`: the lessons are in the module's
directory, or in a `lessons/` directory inside it; the module is located, not
imported) or a callable (`my_pack:lesson_dir`) returning the directory.

An installed pack may be a copy of a pack an author is working on (`pip install .`
of the pack's own repository): lint and check of the source must treat the copy
as the same pack, not as a second pack reusing every id.  `same_pack` decides it
from what the installer recorded: the source directory in the distribution's
`direct_url.json` (PEP 610), or the distribution's name in the `pyproject.toml` /
`setup.cfg` of the project the other lesson file lives in.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

ENTRY_POINT_GROUP = "tutor.lessons"


@dataclass(frozen=True)
class InstalledPack:
    path: Path  # the directory holding the lessons
    source: str  # "entry point NAME from DIST", as `tutor list` shows it
    name: str  # the entry point's name
    dist: str | None = None  # the distribution's name
    origin: Path | None = None  # the local directory it was installed from, if recorded


@dataclass(frozen=True)
class BrokenPack:
    source: str
    message: str


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _origin(dist: Any) -> Path | None:
    """The local directory a distribution was installed from (PEP 610), if recorded."""
    try:
        raw = dist.read_text("direct_url.json")
        record = json.loads(raw) if raw else None
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not str(record.get("url", "")).startswith("file:"):
        return None
    path = Path(unquote(urlparse(str(record["url"])).path))
    if "archive_info" in record:  # a wheel or sdist built from a project: dist/x.whl
        path = path.parent.parent if path.parent.name == "dist" else path.parent
    return path


def _lesson_dir(ep: Any) -> Path:
    import importlib.util

    if ep.attr:  # a callable returning the directory
        return Path(ep.load()())
    spec = importlib.util.find_spec(ep.module)  # a module: located, never imported
    if spec is None:
        raise ImportError(f"no module named {ep.module!r}")
    locations = list(spec.submodule_search_locations or ())
    path = Path(locations[0]) if locations else Path(spec.origin or "").parent
    return path / "lessons" if (path / "lessons").is_dir() else path


def installed_packs() -> tuple[list[InstalledPack], list[BrokenPack]]:
    """The lesson directories of installed packs, and the entry points that are broken."""
    from importlib.metadata import entry_points

    found: list[InstalledPack] = []
    broken: list[BrokenPack] = []
    seen: set[str] = set()
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in seen:
            continue
        seen.add(ep.name)
        dist = getattr(ep, "dist", None)
        source = f"entry point {ep.name}" + (f" from {dist.name}" if dist is not None else "")
        try:
            path = _lesson_dir(ep)
        except Exception as exc:  # noqa: BLE001 - a broken pack must not stop the catalog
            broken.append(BrokenPack(source, f"cannot find the lessons of {ep.value!r}: "
                                             f"{type(exc).__name__}: {exc}"))
            continue
        found.append(InstalledPack(path, source, ep.name, dist.name if dist else None,
                                   _origin(dist) if dist is not None else None))
    return found, broken


@lru_cache(maxsize=256)
def project_name(directory: Path) -> str | None:
    """The distribution name of the project `directory` is in: the nearest
    pyproject.toml (`[project] name`) or setup.cfg (`[metadata] name`) above it."""
    for d in (directory, *directory.parents):
        for manifest, section in (("pyproject.toml", "project"), ("setup.cfg", "metadata")):
            try:
                text = (d / manifest).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            name = _name_in(text, section)
            if name:
                return normalize(name)
        if (d / ".git").exists():
            return None
    return None


def _name_in(text: str, section: str) -> str | None:
    """`name = ...` in `[section]` of a TOML or INI file (no full parse needed)."""
    current = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            current = stripped.strip("[] \t")
            continue
        if current == section:
            m = re.match(r"name\s*[=:]\s*[\"']?([A-Za-z0-9][A-Za-z0-9._-]*)", stripped)
            if m:
                return m.group(1)
    return None


def same_pack(lesson_file: Path, installed: InstalledPack) -> bool:
    """Is `installed` a copy of the pack `lesson_file` belongs to (its own source)?"""
    resolved = lesson_file.resolve()
    if installed.origin is not None and installed.origin.resolve() in resolved.parents:
        return True
    name = project_name(resolved.parent)
    return name is not None and installed.dist is not None and name == normalize(installed.dist)
