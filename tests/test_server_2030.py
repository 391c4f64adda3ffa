"""Imperial 2030 on the server: a game created from the lobby's new-game screen by keys (the
game chosen there), joined, played, watched, chatted in, resumed after a restart and
exported; a 2030 save imported by the host. The server keeps the game among the table's
settings (``RuleSet.from_dict`` builds its rules), so both the one-process server and the
worker processes (which create through a call to the owner) must carry it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app
from imperial_tui.server.hub import Hub
from imperial_tui.server.store import open_store
from rules import Game, RuleSet
from rules.games import IMPERIAL_2030
from rules.savefile import load_game, save_game
from tests.server_helpers import connect, decider, new_key, run, serving
from tests.test_server_play import close_recap, play_one, wait_for_humans

SEATS_TO_GAME = 13  # the six seats' name and kind fields, all computers, then the game's


@pytest.mark.parametrize("workers", [0, 2], ids=["one process", "two worker processes"])
def test_a_2030_game_created_from_the_lobby_is_played_and_resumed(
    tmp_path: Path, workers: int
) -> None:
    anna_key, ben_key = new_key(), new_key()

    async def scenario() -> None:
        async with serving(tmp_path, workers=workers) as server:
            anna = await connect(server, "anna", anna_key)
            await anna.wait_for("server lobby - you are anna")
            await anna.press("n")
            await anna.wait_for("New game of Imperial")
            await anna.press(*["tab"] * SEATS_TO_GAME, "enter")
            await anna.wait_for("Imperial 2030")  # the choice opened
            await anna.press("down", "enter")
            await anna.wait_for("New game of Imperial 2030")
            await anna.wait_for("RU CN IN BR US EU")  # the game's nations, under the choice
            await anna.press("ctrl+g")
            await anna.wait_for(r"#1 .*waiting for 1 more player")
            table = server.hub.tables[1]
            assert table.rules().game == "2030" and table.title == "anna's 2030 game"
            await anna.wait_for("Imperial 2030")  # the lobby's line about the game

            ben = await connect(server, "ben", ben_key)
            await ben.wait_for(r"#1 .*waiting for 1 more player")
            await ben.press("down", "enter")
            await ben.wait_for("Take a seat in #1")
            await ben.press("y")
            await ben.wait_for(r"Imperial 2030 .*round 1")
            game = table.game
            assert game is not None and game.rules.game == "2030"
            assert game.state.board.codes == IMPERIAL_2030.nations
            await close_recap(ben)
            await ben.wait_for(r"\bCN\b.*\n(.*\n)*.*\bEU\b")  # the treasuries: 2030's nations
            assert " AH " not in ben.text and " GE " not in ben.text

            await anna.wait_for(r"your turn in #1|YOUR TURN|#1 ")
            await anna.press("down", "enter")
            await anna.wait_for(r"Imperial 2030 .*round 1")
            terms = {"anna": anna, "ben": ben}
            for _ in range(3):
                await wait_for_humans(table, terms)
                await close_recap(terms[decider(table)])
                await play_one(server, terms, table)
            history = [str(a) for a in table.game.history]
            # a spectator and a chat line
            carl = await connect(server, "carl", new_key())
            await carl.wait_for("Games to watch")
            await carl.press("enter")
            await carl.wait_for(r"Imperial 2030 .*round")
            table.say("ben", "through Panama next")
            await close_recap(carl)
            await carl.press("4")
            await carl.wait_for("through Panama next")
            await carl.close()
            await anna.close()
            await ben.close()

        async with serving(tmp_path, workers=workers) as server:  # a restart resumes it
            table = server.hub.tables[1]
            assert table.game is not None and table.game.rules.game == "2030"
            assert [str(a) for a in table.game.history][: len(history)] == history
            anna = await connect(server, "anna", anna_key)
            await anna.wait_for(r"Imperial 2030 .*round|anna's 2030 game")
            await anna.close()
        moves = [str(a) for a in table.game.history]

        out = tmp_path / "export.json"  # the export is a 2030 save
        result = CliRunner().invoke(
            app, ["serve", "export", "1", str(out), "--data", str(tmp_path)]
        )
        assert result.exit_code == 0, result.output
        exported = load_game(out).game
        assert exported.rules.game == "2030"
        assert [str(a) for a in exported.history] == moves

    run(scenario(), timeout=120)


def test_a_2030_save_imported_by_the_host_stays_a_2030_game(tmp_path: Path) -> None:
    game = Game.new(["anna", "ben", "Cleo"], rules=RuleSet.preset(game="2030"), seed=7)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    save_game(game, tmp_path / "world.json", {"Cleo": "bot:random"})
    spec = tmp_path / "games.db"
    host = Hub(open_store(spec))
    table = host.import_save(tmp_path / "world.json")
    assert table.settings["game"] == "2030" and table.rules().game == "2030"
    host.store.close()

    again = Hub(open_store(spec))  # the server starting on the store the host wrote
    again.load()
    (table,) = again.tables.values()
    assert table.game is not None and table.game.rules.game == "2030"
    assert [str(a) for a in table.game.history] == [str(a) for a in game.history]
    assert again.row(table, "anna").game == "Imperial 2030"
    again.store.close()


def test_a_game_stored_before_2030_is_imperial(tmp_path: Path) -> None:
    """Settings written before the game was among them have no "game": Imperial."""
    hub = Hub(open_store(tmp_path / "games.db"))
    table = hub.create_game(
        "anna", [("anna", "human"), ("ben", "open")], RuleSet.preset(), None, False
    )
    del table.settings["game"]
    assert table.rules().game == "imperial"
    assert hub.row(table, "anna").game == "Imperial"
    hub.store.close()
