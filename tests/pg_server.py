"""A real PostgreSQL server for the server tests: the machine's own server programs (initdb,
pg_ctl, postgres from Debian's postgresql package; .ci/run installs it where it is missing),
started once per test run in a temporary directory, on 127.0.0.1 and an ephemeral port, with
trust authentication and fsync off (a test run needs no durability across power cuts).

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
``postgres`` user (or ``nobody`` where there is none), which owns the temporary directory.
Chosen over a package that bundles PostgreSQL (pgserver): the programs are a Debian package
the machine already has or .ci/run installs in seconds, and the tests then use the same
PostgreSQL as a club's host would.

Tests that need it take the ``pg_url`` fixture (a fresh, empty database each); without any
PostgreSQL server program they are skipped, saying so. The fixtures are registered once, in
tests/conftest.py (imported into several modules, each would have started its own server),
which also sends every PostgreSQL test to one pytest-xdist worker: one server per run.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def server_programs() -> Path | None:
    """The directory of initdb and pg_ctl: $IMPERIAL_PG_BIN, PATH, then Debian's place."""
    given = os.environ.get("IMPERIAL_PG_BIN")
    if given and (Path(given) / "pg_ctl").exists():
        return Path(given)
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One postgres process in a temporary directory, stopped (immediately) at the end."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.dir = Path(tempfile.mkdtemp(prefix="imperial-pg-"))
        self.port = _free_port()
        self.as_user: dict[str, int] = {}
        if os.geteuid() == 0:
            try:
                who = pwd.getpwnam("postgres")
            except KeyError:
                who = pwd.getpwnam("nobody")
            os.chown(self.dir, who.pw_uid, who.pw_gid)
            self.as_user = {"user": who.pw_uid, "group": who.pw_gid, "extra_groups": []}
        self.data = self.dir / "data"
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [str(self.programs / args[0]), *args[1:]],
            cwd=self.dir,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "LC_ALL": "C"},
            **self.as_user,  # type: ignore[arg-type]
        )
        if result.returncode:
            raise RuntimeError(f"{args[0]} failed: {result.stdout}{result.stderr}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "imperial", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"),
                  "-w", "-t", "60", "start")  # fmt: skip

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://imperial@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database: its URL."""
        import psycopg

        name = f"t{next(self._names)}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")  # (faster here)
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    programs = server_programs()
    if programs is None:
        pytest.skip(
            "no PostgreSQL server program (pg_ctl, initdb) on this machine: the PostgreSQL "
            "tests need Debian's postgresql package (.ci/run installs it) or IMPERIAL_PG_BIN"
        )
    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    server = PgServer(programs)
    try:
        server.start()
    except Exception:
        server.stop()
        raise
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return pg_server.new_database()
