"""imperial serve, end to end: a real server on 127.0.0.1 and SSH clients with a PTY (asyncssh),
each screen read through pyte. Two friends, each with their own key, play one game with a
computer seat; hidden cash stays hidden in the bytes sent; a restart resumes; export works."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app
from imperial_tui.cli.quick import state_text
from imperial_tui.server.table import Refused
from rules.savefile import load_game
from tests.server_helpers import connect, decider, new_key, run, serving, until


async def play_one(server, terms: dict, table) -> str:  # type: ignore[no-untyped-def]
    """Whoever must decide presses Enter until the game moves on (a Maneuver's unit menu
    needs a second Enter); returns who acted."""
    player = decider(table)
    assert player in terms, f"{player} is a computer seat; the server should move it"
    version = table.game_version
    term = terms[player]
    for _ in range(4):
        await term.press("enter")
        try:
            await until(lambda: table.game_version != version, 2.0)
            return player
        except AssertionError:
            continue
    raise AssertionError(f"{player}'s Enter did not move the game:\n{term.text}")


async def close_recap(term) -> None:  # type: ignore[no-untyped-def]
    """A player whose decision came after others moved is shown "since your last turn"
    first; close it, so the next key goes to the board."""
    await asyncio.sleep(0.3)  # the recap opens a frame after the board repaints
    if "since your last turn" in term.text:
        await term.press("escape")
        await until(lambda: "since your last turn" not in term.text, 5, "the recap closed")


async def show_bonds(term) -> None:  # type: ignore[no-untyped-def]
    """Key 2, then the bonds panel shows anna's cash hidden. A key typed in the first moment
    after the game screen appears is kept until the screen is ready (it was once lost: the
    spectator's screen kept the rondel)."""
    await close_recap(term)
    await term.press("2")
    await term.wait_for(r"anna +\?")


async def wait_for_humans(table, humans) -> None:  # type: ignore[no-untyped-def]
    await until(lambda: decider(table) in humans, 10, "a human's decision")


@pytest.mark.parametrize("workers", [0, 2], ids=["one process", "two worker processes"])
def test_two_players_share_a_game_with_a_computer_seat(tmp_path: Path, workers: int) -> None:
    """The issue's first test: create (with a computer seat), join, play, see each other's
    moves, hidden cash never sent, restart and continue, export loads to the same summary.
    With worker processes the two players' screens are drawn in other processes (anna and
    ben usually land in different ones) from copies of the table."""
    anna_key, ben_key = new_key(), new_key()

    async def scenario() -> None:
        async with serving(tmp_path, workers=workers) as server:
            anna = await connect(server, "anna", anna_key)
            await anna.wait_for("server lobby - you are anna")
            await anna.press("n")
            await anna.wait_for("New game of Imperial")
            await anna.press("ctrl+g")
            await anna.wait_for(r"#1 .*waiting for 1 more player")
            table = server.hub.tables[1]
            assert [s.kind for s in table.seats] == ["human", "open", "bot:greedy"]
            assert table.hidden_cash

            ben = await connect(server, "ben", ben_key)
            await ben.wait_for(r"#1 .*waiting for 1 more player")
            await ben.press("down", "enter")
            await ben.wait_for("Take a seat in #1")
            await ben.press("y")
            await ben.wait_for(r"Imperial .*round 1")
            assert table.game is not None and table.game.players == ("anna", "ben", "Cleo")
            await anna.wait_for(r"your turn in #1|YOUR TURN|#1 ")
            if table.seat_of("anna"):
                await anna.press("down", "enter")
                await anna.wait_for(r"Imperial .*round 1")

            terms = {"anna": anna, "ben": ben}
            acted: list[str] = []
            seen: set[str] = set()  # whose moves the other player's screen showed
            for _ in range(24):
                await wait_for_humans(table, terms)
                before = len(table.game.plies)
                who = await play_one(server, terms, table)
                acted.append(who)
                # the other player's screen shows the move in the log's last line (unless a
                # computer move followed at once and took that line first)
                words = re.escape(table.game.plies[before].events[-1].text[:30])
                other = terms["ben" if who == "anna" else "anna"]
                await until(lambda o=other, w=words, n=before: o.saw(w) or len(table.game.plies)
                            > n + 1, 5, f"{words} on the other screen")  # fmt: skip
                if other.saw(words):
                    seen.add(who)
                if len(acted) >= 8 and seen == {"anna", "ben"}:
                    break
            assert seen == {"anna", "ben"}, (acted, seen)
            assert {"anna", "ben"} <= set(acted), acted
            assert any(p.action for p in table.game.plies if p.before.players)

            # hidden cash: a distinctive sum in anna's purse reaches anna's screen only (a
            # worker's copy of the game is rebuilt from the log: there, anna's own purse)
            state = table.game.state
            purse = "7319" if not workers else rf"anna +{state.cash[0]}\b"
            state.cash[0] = 7319
            table.say("anna", "look at my purse")  # any change repaints every screen
            for term in (anna, ben):
                await close_recap(term)
            await ben.press("4")  # the chat line is in the log
            await ben.wait_for("look at my purse")
            await anna.press("2")
            await anna.wait_for(purse)
            await show_bonds(ben)
            assert b"7319" not in ben.raw
            assert re.search(r"anna +\?", ben.text)  # her cash shown as unknown
            assert not re.search(rb"anna(:| has) \d+M", bytes(ben.raw))
            # a spectator sees the public view: nobody's cash, and cannot act
            carl = await connect(server, "carl", new_key())
            await carl.wait_for(r"Games to watch")
            await carl.press("enter")
            await carl.wait_for(r"Imperial .*round")
            await show_bonds(carl)
            assert re.search(r"ben +\?", carl.text)
            assert b"7319" not in carl.raw
            version = table.game_version
            with pytest.raises(Refused):
                table.apply("carl", table.game.legal_actions()[0])
            assert table.game_version == version
            await carl.close()
            state.cash[0] = 0  # (only the test's own change; the game goes on unharmed)

            # it became each player's decision at least once while connected: a bell, and
            # the lobby marked the game
            assert b"\x07" in anna.raw and b"\x07" in ben.raw
            await wait_for_humans(table, terms)
            term = terms[decider(table)]
            await term.press("ctrl+q")  # back to the lobby, where the game is marked
            await term.wait_for(r"▶ #1 .*YOUR TURN")
            await term.press("enter")
            await term.wait_for(r"Imperial .*round")

            history = [str(a) for a in table.game.history]
            await anna.close()
            await ben.close()

        # a restart resumes the game exactly, and each player lands where they were
        async with serving(tmp_path, workers=workers) as server:
            table = server.hub.tables[1]
            await until(lambda: decider(table) in ("anna", "ben"), 10)
            assert [str(a) for a in table.game.history][: len(history)] == history
            anna = await connect(server, "anna", anna_key)
            ben = await connect(server, "ben", ben_key)
            await anna.wait_for(r"Imperial .*round")
            await ben.wait_for(r"Imperial .*round")
            await play_one(server, {"anna": anna, "ben": ben}, table)
            await anna.close()
            await ben.close()
        summary = state_text(table.game)  # the server has stopped: no bot moves any more
        moves = len(table.game.history)

        out = tmp_path / "export.json"
        runner = CliRunner()
        result = runner.invoke(app, ["serve", "export", "1", str(out), "--data", str(tmp_path)])
        assert result.exit_code == 0, result.output
        assert len(load_game(out).game.history) == moves
        result = runner.invoke(app, ["state", str(out)])
        assert result.exit_code == 0
        assert result.output.strip() == summary.strip()

    run(scenario(), timeout=90)
