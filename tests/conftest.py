"""Fixtures and settings for every test.

- One PostgreSQL server for the whole run (tests/pg_server.py): its fixtures are registered
  here, once, so a test process starts at most one server, and only when a test asks for
  it. Under pytest-xdist (see addopts in pyproject.toml) every PostgreSQL test is sent to the
  same worker (``xdist_group``), so a run starts one server, not one per worker.
- Each test gets its own XDG data and state folders (saved games, the server's default data,
  crash logs): tests running at once in several workers never share a file, and a test run
  never writes into the home folder of whoever runs it.
- Twice as many test processes as cores (``-n auto``): the app, server and command tests
  spend about half their time waiting (a Pilot pause, a terminal's answer, a child process),
  and a second process per core fills it (on 2 cores: 232 s -> 189 s for the whole suite).
  ``PYTEST_XDIST_AUTO_NUM_WORKERS`` or ``-n N`` still choose the number.
- Python's garbage collector tuned for a test process: everything collected once is frozen
  (modules, the collected tests) and the young generations are collected less often. With
  Python's defaults a test process spent a quarter of its CPU in the collector (Textual
  makes reference cycles on every redraw, and each collection walked the whole heap of
  imported modules); tuned, the suite uses 15% less CPU (about 290 s -> 250 s, 189 s -> 172 s
  of wall time on 2 cores).
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from tests.pg_server import pg_server, pg_url  # noqa: F401 - fixtures for every test

POSTGRESQL_GROUP = "postgresql"

# young generation, middle generation, oldest generation (Python's defaults: 700, 10, 10)
GC_THRESHOLDS = (50_000, 50, 100)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """Two test processes per core for ``-n auto`` (see the module's docstring)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cores or 1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what every test shares and collect the young generations less often (see the
    module's docstring); runs in each test process once its tests are collected."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        uses_pg = "pg_url" in getattr(item, "fixturenames", ())
        if uses_pg or item.get_closest_marker("postgresql") is not None:
            item.add_marker(pytest.mark.xdist_group(POSTGRESQL_GROUP))


@pytest.fixture(autouse=True)
def own_xdg_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """$XDG_DATA_HOME, $XDG_STATE_HOME and $XDG_CACHE_HOME in a folder of this test's own
    (tests that need another set their own)."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    return home
