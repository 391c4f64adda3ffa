"""Who is who on the server: the first key claims a name (trust on first use), a wrong key or
no key is refused with a one-line reason, --allow-any turns authentication off, and the host
can free a name."""

from __future__ import annotations

import logging
from pathlib import Path

import asyncssh
import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app
from tests.server_helpers import connect, new_key, run, serving


class Told(asyncssh.SSHClient):
    """An SSH client without keys that keeps what the server says while refusing it."""

    said: list[str]

    def __init__(self) -> None:
        self.said = []

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):  # type: ignore[no-untyped-def]
        self.said.append(instructions)
        return []


async def refused_with(server, user: str, key) -> str:  # type: ignore[no-untyped-def]
    client = Told()
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username=user,
            client_keys=[key] if key else None,  # None: no key at all ([] = the default files)
            known_hosts=None,
            agent_path=None,
            client_factory=lambda: client,
        )
    return " ".join(client.said)


def test_first_key_claims_a_name_and_a_wrong_key_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    anna_key, other_key = new_key(), new_key()

    async def scenario() -> None:
        async with serving(tmp_path) as server:
            anna = await connect(server, "anna", anna_key)
            await anna.wait_for("you are anna")
            await anna.close()
            with caplog.at_level(logging.WARNING, logger="imperial.server"):
                said = await refused_with(server, "anna", other_key)
            assert said.startswith("imperial: the name anna belongs to another key")
            # the host's log says so too (a club host saw nothing of refused logins)
            assert any(
                "refused: a login as 'anna' from 127.0.0.1: the name anna belongs to another key"
                in r.getMessage()
                for r in caplog.records
            )
            assert "imperial serve users --reset anna" in said
            anna = await connect(server, "anna", anna_key)  # the claiming key still works
            await anna.wait_for("you are anna")
            await anna.close()
            # the host frees the name: the next key claims it
            result = CliRunner().invoke(
                app, ["serve", "users", "--data", str(tmp_path), "--reset", "anna"]
            )
            assert result.exit_code == 0, result.output
            other = await connect(server, "anna", other_key)
            await other.wait_for("you are anna")
            await other.close()

    run(scenario())


def test_no_key_is_refused_with_a_message(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as server:
            said = await refused_with(server, "carl", None)
            assert said.strip() == (
                "imperial: log in with an SSH key (ssh-keygen makes one): the first key used "
                "for a name claims it. There are no passwords here"
            )
            said = await refused_with(server, "not a name", new_key())
            assert "cannot be a player name" in said

    run(scenario())


def test_allow_any_needs_no_key(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            carl = await connect(server, "carl", None)
            await carl.wait_for("you are carl")
            await carl.close()

    run(scenario())
