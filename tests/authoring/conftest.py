"""Fixtures for the authoring tests (tutor new / lint / record / schema / plugin)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
DATA = ROOT / "tests" / "data" / "authoring"


@pytest.fixture
def data() -> Path:
    return DATA


@pytest.fixture
def copy_data(tmp_path: Path):  # noqa: ANN201
    """Copy a file or directory from tests/data/authoring into tmp_path; returns the copy."""

    def copy(name: str) -> Path:
        src = DATA / name
        dst = tmp_path / src.name
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)
        return dst

    return copy


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No TUTOR_PATH: lint and the catalog see only what a test gives them."""
    monkeypatch.delenv("TUTOR_PATH", raising=False)
