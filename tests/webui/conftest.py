"""Fixtures in the Flask tutorial's shape: ``app`` on a temporary database (pipeline stepped by hand), ``client``,
and ``auth``, the headers that carry the control token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webui.app import create_app

TOKEN = "test-token"


def make_app(tmp_path: Path, **settings: object) -> Flask:
    config = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"), "DATABASE": str(tmp_path / "s.sqlite"),
              "TOKEN": TOKEN, "PIPELINE": False, "FEED": "simulated", **settings}
    return create_app(config)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """User card files and the default instance folder go to a temporary home."""
    monkeypatch.setenv("FUSE_REFEREE_HOME", str(tmp_path / "home"))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path)
    yield app
    app.extensions["fuse_referee"].close()


@pytest.fixture
def manual_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, FEED="manual", GAME={"seed": 3})
    yield app
    app.extensions["fuse_referee"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def manual(manual_app: Flask) -> FlaskClient:
    return manual_app.test_client()


@pytest.fixture
def auth() -> dict[str, str]:
    return {"X-Referee-Token": TOKEN}
