"""Bad input never crashes the server nor harms a game: no PTY, garbage bytes, a 20x5 window,
a connection dropped in the middle of a Maneuver, two players pressing keys at once. After
each, the server still serves the others and the game equals its replayed log."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_tui.server.hub import Hub
from imperial_tui.server.store import SQLiteStore
from imperial_tui.server.table import actor_of
from rules import Game
from rules.bots import make_bot
from rules.savefile import save_game
from tests.server_helpers import connect, decider, new_key, run, serving, until


def maneuver_save(path: Path) -> str:
    """A save of anna, ben and a computer player, stopped when a human must maneuver."""
    game = Game.new(["anna", "ben", "Cleo"], seed=3)
    bot = make_bot("greedy", 5)
    for _ in range(3000):
        aw = game.awaiting
        if aw.kind == "maneuver" and aw.player != "Cleo" and len(game.legal_actions()) > 2:
            break
        game.apply(bot.choose(game))
    else:  # pragma: no cover - the seed is fixed
        raise AssertionError("no human maneuver")
    save_game(game, path, {"anna": "human", "ben": "human", "Cleo": "bot:greedy"})
    return aw.player


def intact(server) -> None:  # type: ignore[no-untyped-def]
    """The game in memory is exactly what its stored log replays to."""
    again = Hub(SQLiteStore(server.config.data / "imperial.db"))
    again.load()
    for gid, table in server.hub.tables.items():
        if table.game is not None:
            assert [str(a) for a in again.tables[gid].game.history] == [
                str(a) for a in table.game.history
            ]
    again.store.close()


WORKERS = pytest.mark.parametrize("workers", [0, 2], ids=["one process", "two worker processes"])


@WORKERS
def test_bad_input_never_crashes_the_server_or_harms_the_game(tmp_path: Path, workers: int) -> None:
    mover = maneuver_save(tmp_path / "m.json")
    hub = Hub(SQLiteStore(tmp_path / "imperial.db"))
    hub.import_save(tmp_path / "m.json")
    hub.store.close()
    keys = {"anna": new_key(), "ben": new_key()}
    other = "ben" if mover == "anna" else "anna"

    async def scenario() -> None:
        async with serving(tmp_path, workers=workers) as server:
            table = server.hub.tables[1]
            assert decider(table) == mover
            # no PTY: one line, and the connection ends
            conn_term = await connect(server, "dora", new_key(), term=None)
            await conn_term.closed.wait()
            assert b"imperial: this server shows a game screen" in conn_term.raw
            assert conn_term.process.exit_status == 1

            # a tiny window, then a normal one
            tiny = await connect(server, "eve", new_key(), size=(20, 5))
            await until(lambda: len(tiny.raw) > 0, 5, "a first frame at 20x5")
            tiny.resize(80, 24)
            await tiny.wait_for("you are eve")

            # the mover starts a Maneuver step and drops the connection in the middle
            player = await connect(server, mover, keys[mover])
            await player.wait_for("#1 ")
            await player.press("down", "enter")
            await player.wait_for(r"Decide: .*maneuver")
            await player.press("enter")  # opens a unit's destinations (or moves it)
            player.conn.abort()
            intact(server)

            # garbage from another player: random bytes, broken escapes, invalid UTF-8
            rng = random.Random(4)
            # (without ctrl+q: that is a key, and it would rightly leave the server)
            noise = bytes(rng.randrange(256) for _ in range(3000)).replace(b"\x11", b"")
            noise += b"\x1b[<0;999;999M\x1b[999999999999A\x1b]0;x\x07\xff\xfe\x1b[200~abc"
            watcher = await connect(server, other, keys[other])
            await watcher.wait_for("#1 ")
            watcher.process.stdin.write(noise)
            await tiny.press("r")
            await tiny.wait_for("you are eve")  # the server still serves the others
            # the noise is keys to the app (it may leave the lobby or quit), never a failure
            assert b"the game screen failed" not in watcher.raw
            intact(server)

            # two players press Enter at the same moment: only the decider's counts
            player = await connect(server, mover, keys[mover])
            await player.wait_for(r"Decide: .*maneuver")  # back where they were
            await watcher.close()
            watcher = await connect(server, other, keys[other])
            await watcher.wait_for("#1 ")
            if "Decide:" not in watcher.text:
                await watcher.press("down", "enter")
            await watcher.wait_for(r"waiting for .*maneuver")
            version = table.game_version
            for _ in range(2):  # a unit, then its first destination
                player.process.stdin.write(b"\r")
                watcher.process.stdin.write(b"\r")
                await asyncio.sleep(0.3)
            await until(lambda: table.game_version > version, 5, "the mover's move")
            assert all(
                actor_of(p) == mover for p in table.game.plies[-(table.game_version - version) :]
            )
            intact(server)
            for t in (tiny, player, watcher):
                await t.close()

    run(scenario(), timeout=60)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client (ssh) on this machine")
def test_an_openssh_client_joins_and_sees_the_lobby(tmp_path: Path) -> None:
    """The real thing: OpenSSH's ssh with a key file and a forced PTY (-tt)."""
    key = new_key()
    key_file = tmp_path / "id_ed25519"
    key.write_private_key(str(key_file))
    key_file.chmod(0o600)

    async def scenario() -> None:
        async with serving(tmp_path / "data") as server:
            common = [
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "IdentitiesOnly=yes", "-p", str(server.port),
            ]  # fmt: skip
            options = [*common, "-o", "BatchMode=yes"]
            proc = await asyncio.create_subprocess_exec(
                "ssh", "-tt", "-i", str(key_file), *options, "gus@127.0.0.1",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            seen = b""
            while b"you are gus" not in seen:
                chunk = await asyncio.wait_for(proc.stdout.read(65536), 10)
                assert chunk, f"ssh ended: {(await proc.stderr.read())!r}"
                seen += chunk
            assert server.store.get_user("gus") is not None  # the key claimed the name
            proc.stdin.write(b"\x11")  # ctrl+q, then y: leave
            await asyncio.sleep(0.3)
            proc.stdin.write(b"y")
            await asyncio.wait_for(proc.wait(), 10)
            # without a key: refused, with the one line
            nokey = await asyncio.create_subprocess_exec(
                "ssh", *common, "-o", "PubkeyAuthentication=no", "hal@127.0.0.1",
                stdin=subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            _, err = await asyncio.wait_for(nokey.communicate(), 10)
            assert nokey.returncode == 255
            assert err.count(b"imperial: log in with an SSH key") == 1, err

    if sys.platform == "win32":
        pytest.skip("POSIX only")
    run(scenario(), timeout=40)


def test_ended_connections_leave_no_app_behind(tmp_path: Path) -> None:
    """Many apps in one process: the parser cache and Textual's stdout redirection must not
    keep an ended connection's app alive (or point sys.stdout at it)."""
    import gc

    from imperial_tui.server.app import ServerApp

    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            for wave in range(2):
                terms = [await connect(server, f"p{wave}{i}", None) for i in range(4)]
                for t in terms:
                    await t.wait_for("server lobby")
                    await t.press("\x1b[1;5A")  # an extended key: fills the parser's cache
                for t in terms:
                    await t.close()
                await until(lambda: not server.sessions, 10, "sessions to end")
            # an ended app may still be finishing its shutdown on a loaded machine (its last
            # tasks hold it for a moment): a leak is one that is still there seconds later
            alive: list[str] = []  # (their names: a list of the apps would keep them alive)
            for _ in range(50):
                gc.collect()
                alive = [repr(o) for o in gc.get_objects() if isinstance(o, ServerApp)]
                if not alive:
                    break
                await asyncio.sleep(0.1)
            assert alive == []
            assert sys.stdout is sys.__stdout__ or "ServerApp" not in repr(sys.stdout)

    run(scenario(), timeout=40)


@WORKERS
def test_connection_limit_and_idle_timeout(tmp_path: Path, workers: int) -> None:
    """The limit counts every connection of the server, whichever process draws it."""

    async def scenario() -> None:
        options = {"max_connections": 1, "idle_timeout": 2.0, "workers": workers}
        async with serving(tmp_path, allow_any=True, **options) as s:
            first = await connect(s, "ann", None)
            await first.wait_for("server lobby")
            second = await connect(s, "bob", None)
            await second.closed.wait()
            assert b"imperial: the server is full; try again later" in second.raw
            await first.closed.wait()  # no key pressed for 2 s (the first frame may take 1 s here)
            assert b"disconnected after a long time without a key press" in first.raw
            # the first one's place is free again (once both connections are gone: logins
            # in progress are capped too, at twice the limit)
            for t in (first, second):
                await t.close()
            await asyncio.sleep(0.5)
            third = await connect(s, "cid", None)
            await third.wait_for("server lobby")
            await third.close()

    run(scenario(), timeout=30)


def test_an_error_in_one_screen_ends_only_that_connection(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A bug that breaks one player's screen: that player is told in one line, the others play
    on, the server keeps serving."""
    from imperial_tui.server.lobby import LobbyScreen

    real = LobbyScreen.show_games

    def broken(self: LobbyScreen) -> bool:
        if self.server.user == "crash":
            raise RuntimeError("a bug in one screen")
        return real(self)

    monkeypatch.setattr(LobbyScreen, "show_games", broken)

    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            other = await connect(server, "fine", None)
            await other.wait_for("you are fine")
            victim = await connect(server, "crash", None)
            await victim.closed.wait()
            assert b"imperial: the game screen failed" in victim.raw
            await other.press("r", "n")
            await other.wait_for("New game of Imperial")
            late = await connect(server, "late", None)
            await late.wait_for("you are late")
            for t in (other, late):
                await t.close()

    run(scenario(), timeout=30)


def test_colours_follow_the_clients_terminal_not_the_servers(tmp_path: Path) -> None:
    """TERM and COLORTERM come from each client: true colour only for the client that asked."""

    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            plain = await connect(server, "vt", None, term="xterm")
            rich = await connect(server, "tc", None, env={"COLORTERM": "truecolor"})
            mid = await connect(server, "mid", None)
            for t in (plain, rich, mid):
                await t.wait_for("server lobby")
            # (also when the other apps in the process rendered the same lines and styles
            # first: imperial_tui/server/strips.py)
            assert b"38;2;" not in plain.raw and b"38;2;" not in mid.raw
            assert b"38;5;" not in plain.raw and b"48;5;" not in plain.raw
            assert b"38;2;" in rich.raw
            assert b"38;5;" in mid.raw
            for t in (plain, rich, mid):
                await t.close()

    run(scenario(), timeout=30)
