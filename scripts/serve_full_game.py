"""A whole game over SSH, in two sittings, run by hand (the server tests play a part of one):

    uv run python scripts/serve_full_game.py [--seed N] [--workers N]

A real ``imperial serve`` on 127.0.0.1 and two players (asyncssh clients with a PTY each, the
screens kept with pyte). Anna creates a game with an open seat and a greedy computer player,
Ben joins it. The two humans decide through the table, as their apps do, with the greedy
player's choice (every tenth of Anna's decisions by keys instead: Enter on the highlighted
option); halfway the server stops and a new one starts on the same data, and both players
connect again. At the end both screens must show the game over and the export must load to
the server's final position. Prints what happened and how long it took.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from server_helpers import Terminal, connect, decider, new_key, serving, until  # noqa: E402

from imperial_tui.cli.quick import state_text  # noqa: E402
from rules.bots import GreedyBot  # noqa: E402
from rules.savefile import load_game  # noqa: E402

MAX_ACTIONS = 3000
REPORT: list[str] = []  # printed at the end: while the server runs, Textual owns stdout


def say(line: str) -> None:
    REPORT.append(line)


async def open_game(term: Terminal) -> None:
    """Into game #1: a player lands where they were; from the lobby, Enter on the game."""
    await term.wait_for(r"server lobby - you are|Imperial .*round|Game over")
    if "server lobby" not in term.text:
        return
    for _ in range(6):
        await term.press("enter")
        try:
            await term.wait_for(r"Imperial .*round|Game over", 3)
            return
        except AssertionError:
            await term.press("down")
    raise AssertionError(f"could not open the game:\n{term.text}")


async def play(server, table, terms: dict[str, Terminal], stop_at: int, seed: int) -> int:  # type: ignore[no-untyped-def]
    """Humans decide until the game ends or has ``stop_at`` actions; returns keys used."""
    bots = {name: GreedyBot(seed + i) for i, name in enumerate(terms)}
    by_keys = 0
    decided = 0
    while table.game.awaiting is not None and len(table.game.plies) < stop_at:
        await until(lambda: decider(table) in terms or table.game.awaiting is None, 30)
        if table.game.awaiting is None:
            break
        player = decider(table)
        version = table.game_version
        decided += 1
        if player == "anna" and decided % 10 == 0:
            term = terms[player]
            await asyncio.sleep(0.3)
            if "since your last turn" in term.text:
                await term.press("escape")
                await asyncio.sleep(0.2)
            for _ in range(3):
                await term.press("enter")
                try:
                    await until(lambda v=version: table.game_version != v, 3)
                    by_keys += 1
                    break
                except AssertionError:
                    continue
            if table.game_version != version:
                continue
        view = table.view_for(player)
        table.apply(player, bots[player].choose(view), expect=version)
    return by_keys


async def scenario(data: Path, seed: int, workers: int) -> None:
    anna_key, ben_key = new_key(), new_key()
    started = time.monotonic()
    async with serving(data, workers=workers) as server:
        anna = await connect(server, "anna", anna_key)
        await anna.wait_for("server lobby - you are anna")
        await anna.press("n")
        await anna.wait_for("New game of Imperial")
        await anna.press("ctrl+g")  # the defaults: anna, an open seat, a greedy computer
        await anna.wait_for(r"#1 .*waiting for 1 more player")
        table = server.hub.tables[1]
        ben = await connect(server, "ben", ben_key)
        await ben.wait_for(r"#1 .*waiting for 1 more player")
        await ben.press("down", "enter")
        await ben.wait_for("Take a seat in #1")
        await ben.press("y")
        await ben.wait_for(r"Imperial .*round 1")
        await anna.wait_for(r"#1 ")
        if "Imperial" not in anna.text:
            await open_game(anna)
        keys = await play(server, table, {"anna": anna, "ben": ben}, 150, seed)
        first = len(table.game.plies)
        history = [str(a) for a in table.game.history]
        say(f"first sitting: {first} actions ({keys} of Anna's decisions by keys); restart")
        await anna.close()
        await ben.close()

    async with serving(data, workers=workers) as server:
        table = server.hub.tables[1]
        assert [str(a) for a in table.game.history][: len(history)] == history
        anna = await connect(server, "anna", anna_key)
        ben = await connect(server, "ben", ben_key)
        for term in (anna, ben):
            await open_game(term)
        keys = await play(server, table, {"anna": anna, "ben": ben}, MAX_ACTIONS, seed + 7)
        game = table.game
        assert game.awaiting is None, f"no end after {len(game.plies)} actions"
        for name, term in (("anna", anna), ("ben", ben)):
            await term.wait_for(r"Game over|wins", 20)
            say(f"{name}'s screen: game over shown")
        result = game.result()
        say(f"second sitting: {len(game.plies) - first} actions ({keys} by keys)")
        scores = ", ".join(f"{p.name} {p.total}" for p in result.players)
        winners = " and ".join(result.winners)
        say(f"game over after {len(game.plies)} actions: {scores}; {winners} wins")
        summary = state_text(game)
        await anna.close()
        await ben.close()

    from typer.testing import CliRunner

    from imperial_tui.cli import app

    out = data / "export.json"
    runner = CliRunner()
    done = runner.invoke(app, ["serve", "export", "1", str(out), "--data", str(data)])
    assert done.exit_code == 0, done.output
    assert state_text(load_game(out).game).strip() == summary.strip()
    say(f"export loads to the same final position; {time.monotonic() - started:.0f} s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, default=2, help="screen processes (imperial serve --workers)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            asyncio.run(scenario(Path(tmp), args.seed, args.workers))
        finally:
            print("\n".join(REPORT))


if __name__ == "__main__":
    main()
