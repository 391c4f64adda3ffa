"""Fixtures and settings for every test.

- One PostgreSQL server for the whole run (tests/pg_server.py): its fixtures are registered
  here, once, so a test process starts at most one server, and only when a test asks for
  it. Under pytest-xdist (see addopts in pyproject.toml) every PostgreSQL test is sent to the
  same worker (``xdist_group``), so a run starts one server, not one per worker.
- Each test gets its own XDG data and state folders (saved games, the server's default data,
  crash logs): tests running at once in several workers never share a file, and a test run
  never writes into the home folder of whoever runs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pg_server import pg_server, pg_url  # noqa: F401 - fixtures for every test

POSTGRESQL_GROUP = "postgresql"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        uses_pg = "pg_url" in getattr(item, "fixturenames", ())
        if uses_pg or item.get_closest_marker("postgresql") is not None:
            item.add_marker(pytest.mark.xdist_group(POSTGRESQL_GROUP))


@pytest.fixture(autouse=True)
def own_xdg_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """$XDG_DATA_HOME and $XDG_STATE_HOME in a folder of this test's own (tests that need
    another set their own)."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    return home
