"""Fixtures for the rules tests: every test sees an empty user card file of its own."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``FUSE_REFEREE_HOME`` at a fresh folder, so a developer's own cards never change a verdict."""
    home = tmp_path / "fuse-referee-home"
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(home))
    return home
