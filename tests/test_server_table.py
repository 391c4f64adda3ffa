"""The server's table, without SSH: who may act for which seat, undo, the log that is the game
(a restart replays it exactly), chat, hidden cash in each viewer's copy, and the your-turn
notification (once per turn, not per sub-step)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from imperial_tui.server.hub import Hub
from imperial_tui.server.store import Conflict, LogEntry, SQLiteStore, StoreError, now, open_store
from imperial_tui.server.table import Refused, Table, clean_chat
from rules import Game, RuleSet
from rules.bots import make_bot

Spec = Path | str


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Spec:
    """The same tests on both stores: SQLite (one host) and PostgreSQL (several)."""
    if request.param == "sqlite":
        return tmp_path / "imperial.db"
    return str(request.getfixturevalue("pg_url"))


def two_player_hub(spec: Spec, hidden_cash: bool = True) -> tuple[Hub, Table]:
    hub = Hub(open_store(spec))
    table = hub.create_game(
        "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 7, hidden_cash
    )
    hub.join("ben", table)  # (the seat kept for him)
    return hub, table


def play(table: Table, steps: int) -> None:
    """The players whose decision it is play a computer player's choice."""
    bot = make_bot("greedy", 1)
    for _ in range(steps):
        aw = table.game.awaiting
        table.apply(aw.player, bot.choose(table.game))


def test_a_player_acts_only_for_their_own_seat(spec: Spec) -> None:
    _, table = two_player_hub(spec)
    aw = table.game.awaiting
    other = "ben" if aw.player == "anna" else "anna"
    action = table.game.legal_actions()[0]
    before = len(table.game.plies)
    with pytest.raises(Refused, match=f"it is {aw.player}'s decision, not yours"):
        table.apply(other, action)
    with pytest.raises(Refused, match="you are watching"):
        table.apply("carl", action)
    with pytest.raises(Refused, match=f"you play {other}; you cannot donate for {aw.player}"):
        table.apply(other, f"{aw.player} donates 1 to AH")
    assert len(table.game.plies) == before
    table.apply(aw.player, action)
    assert len(table.game.plies) == before + 1


def test_a_choice_made_on_an_older_screen_is_refused(spec: Spec) -> None:
    _, table = two_player_hub(spec)
    aw = table.game.awaiting
    stale = table.game_version - 1
    with pytest.raises(Refused, match="the game moved on"):
        table.apply(aw.player, table.game.legal_actions()[0], expect=stale)


def test_undo_only_your_own_latest_decision_while_nobody_acted_since(spec: Spec) -> None:
    _, table = two_player_hub(spec)
    first = table.game.awaiting.player
    play(table, 1)
    assert table.undo_refusal(first) is None
    assert table.undo_refusal("carl" if first != "carl" else "x") is not None
    now = table.game.awaiting.player
    if now != first:
        assert table.undo_refusal(now) == f"{first} acted since your last decision"
        with pytest.raises(Refused):
            table.undo(now)
    table.undo(first)
    assert table.game.plies == []
    # after someone else acts, the earlier decision can no longer be taken back
    while table.game.awaiting.player == first:
        play(table, 1)
    play(table, 1)
    last = table.game.plies[-1]
    actor = last.before.players[last.before.awaiting_player]
    others = [p for p in ("anna", "ben") if p != actor]
    assert all(table.undo_refusal(p) for p in others)


def test_a_restart_replays_the_log_exactly_with_undos_and_chat(spec: Spec) -> None:
    hub, table = two_player_hub(spec)
    play(table, 6)
    player = table.game.plies[-1].before.players[table.game.plies[-1].before.awaiting_player]
    table.undo(player)
    table.say("anna", "well played")
    play(table, 3)
    history = [str(a) for a in table.game.history]
    summary = table.game.summary()
    hub.store.close()

    again = Hub(open_store(spec))
    again.load()
    resumed = again.tables[table.id]
    assert [str(a) for a in resumed.game.history] == history
    assert resumed.game.summary() == summary
    assert resumed.chat == table.chat
    kinds = [e.kind for e in again.store.log(table.id)]
    assert kinds.count("undo") == 1 and kinds.count("chat") == 1


def test_a_database_failure_changes_nothing(spec: Spec) -> None:
    hub, table = two_player_hub(spec)

    def broken(*args: object, **kwargs: object) -> int:
        raise StoreError("disk full")

    hub.store.append = broken  # type: ignore[method-assign]
    aw = table.game.awaiting
    state = table.game.state
    with pytest.raises(Refused, match="could not save this move"):
        table.apply(aw.player, table.game.legal_actions()[0])
    assert table.game.plies == [] and table.game.state is state


def test_each_viewer_sees_only_their_own_cash(spec: Spec) -> None:
    """Another player's cash in a viewer's copy is the tally of the public moves (the rules'
    per-player view), never the figure in the position: here the position's cash was set by
    hand, and the tally is still the set-up's."""
    _, table = two_player_hub(spec)
    tally = Game(table.game.setup).state.cash
    table.game.state.cash[:] = [11, 22]
    anna, ben, watcher = table.view_for("anna"), table.view_for("ben"), table.view_for(None)
    assert anna.state.cash == [11, tally[1]]
    assert ben.state.cash == [tally[0], 22]
    assert watcher.state.cash == tally
    assert not anna.shows_cash_of("ben") and anna.shows_cash_of("anna")
    assert not watcher.shows_cash_of("anna") and not watcher.shows_cash_of("ben")
    assert table.game.state.cash == [11, 22]  # the shared game is untouched
    _, public = two_player_hub(spec, hidden_cash=False)
    public.game.state.cash[:] = [11, 22]
    assert public.view_for(None).state.cash == [11, 22]


def test_chat_lines_are_one_printable_line_in_the_log(spec: Spec) -> None:
    assert clean_chat("hi\x1b[2J\x1b]0;owned\x07 there\r\nyou") == "hi[2J]0;owned there you"
    assert len(clean_chat("x" * 500)) == 200
    _, table = two_player_hub(spec)
    table.say("ben", "\x1b[31mgood luck")
    assert table.view_for("anna").events()[-1].text == "ben: [31mgood luck"


def test_your_turn_is_notified_once_per_turn_not_per_step(spec: Spec) -> None:
    hub, table = two_player_hub(spec)
    play(table, 40)
    turns = [(n["IMPERIAL_PLAYER"], n["IMPERIAL_ROUND"]) for n in hub.notifications]
    assert len(turns) >= 3
    # every notification names a game, a player and the decision in words
    for n in hub.notifications:
        assert n["IMPERIAL_GAME"] == str(table.id) and n["IMPERIAL_DECISION"]
    # a nation turn with several steps for one player (imports, maneuver moves, investing
    # several bonds) gives one notification, not one per step
    steps_by_turn: dict[tuple[str, int, int], int] = {}
    for ply in table.game.plies:
        b = ply.before
        key = (b.players[b.awaiting_player], b.round, b.turn)
        steps_by_turn[key] = steps_by_turn.get(key, 0) + 1
    assert len(hub.notifications) <= len(steps_by_turn) + 1 < len(table.game.plies)


def test_the_notify_command_gets_player_game_and_decision(tmp_path: Path) -> None:
    out = tmp_path / "told.txt"
    script = f'echo "$IMPERIAL_PLAYER|$IMPERIAL_GAME|$IMPERIAL_DECISION" >> {out}'

    async def scenario() -> None:
        hub = Hub(SQLiteStore(tmp_path / "imperial.db"), notify=script)
        table = hub.create_game(
            "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 7, False
        )
        hub.join("ben", table)  # (the seat kept for him)
        play(table, 3)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if not hub._notify_tasks:
                break
        # (the commands run side by side: their lines may come in any order)
        assert hub.notifications
        assert sorted(out.read_text().splitlines()) == sorted(
            f"{n['IMPERIAL_PLAYER']}|{table.id}|{n['IMPERIAL_DECISION']}" for n in hub.notifications
        )

    if sys.platform == "win32" or not os.path.exists("/bin/sh"):
        pytest.skip("needs a POSIX shell")
    asyncio.run(scenario())


def test_a_save_file_is_imported_and_exported_unchanged(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from imperial_tui.cli import app
    from rules import Game
    from rules.savefile import load_game, save_game

    game = Game.new(["anna", "ben", "Cleo"], seed=11)
    bot = make_bot("greedy", 2)
    for _ in range(30):
        game.apply(bot.choose(game))
    save_game(game, tmp_path / "in.json", {"Cleo": "bot:random"}, {"hidden_cash": True})
    data = tmp_path / "server"
    runner = CliRunner()
    result = runner.invoke(app, ["serve", "import", str(tmp_path / "in.json"), "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert "imported as game #1 (anna, ben, Cleo (random))" in result.output
    result = runner.invoke(app, ["serve", "games", "--data", str(data)])
    assert "#1" in result.output and "playing" in result.output
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["serve", "export", "1", str(out), "--data", str(data)])
    assert result.exit_code == 0, result.output
    back = load_game(out)
    assert [str(a) for a in back.game.history] == [str(a) for a in game.history]
    assert back.controllers == {"anna": "human", "ben": "human", "Cleo": "bot:random"}
    assert back.app["hidden_cash"] is True
    nine = tmp_path / "nine.json"
    result = runner.invoke(app, ["serve", "export", "9", str(nine), "--data", str(data)])
    assert result.exit_code == 1 and "game 9: no such game" in result.output


def test_a_game_imported_while_serving_is_picked_up_and_told_before_it_is_woken(
    tmp_path: Path, spec: Spec, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`imperial serve import` writes to the database from another process; the running hub
    finds the game, tells every screen (with workers: every worker) of it, then wakes it."""
    from imperial_tui.server import hub as hub_module
    from imperial_tui.server.hub import Client
    from rules import Game
    from rules.savefile import save_game

    monkeypatch.setattr(hub_module, "IMPORT_POLL", 0.02)
    game = Game.new(["anna", "ben"], seed=5)
    save_game(game, tmp_path / "in.json", {})
    running = Hub(open_store(spec))
    running.load()
    order: list[str] = []
    running.connect(Client("anna", lambda t: order.append("rung"), lambda: order.append("told")))

    async def scenario() -> None:
        poll = asyncio.get_running_loop().create_task(running.pick_up_imports())
        host = Hub(open_store(spec))
        host.import_save(tmp_path / "in.json")
        host.store.close()
        for _ in range(200):
            if running.tables:
                break
            await asyncio.sleep(0.01)
        poll.cancel()

    asyncio.run(scenario())
    (table,) = running.tables.values()
    assert table.game is not None and table.game.players == ("anna", "ben")
    assert order[0] == "told"
    if table.game.awaiting.player == "anna":
        assert "rung" in order[1:]
    running.store.close()


def test_a_game_written_elsewhere_before_one_made_here_is_still_picked_up(
    tmp_path: Path, spec: Spec
) -> None:
    """Games are numbered by the database: a game imported by the host (or made on another
    host) may get a lower number than one this server makes before it looks again; it is
    picked up all the same (it was missed: only numbers above the highest were looked for)."""
    from rules import Game
    from rules.savefile import save_game

    save_game(Game.new(["anna", "ben"], seed=5), tmp_path / "in.json", {})
    running = Hub(open_store(spec))
    running.load()
    host = Hub(open_store(spec))
    imported = host.import_save(tmp_path / "in.json").id
    host.store.close()
    made = running.create_game(
        "cleo", [("cleo", "human"), ("", "open")], RuleSet.preset(), 7, True
    ).id
    assert imported < made
    assert [t.id for t in running.load()] == [imported]
    assert sorted(running.tables) == [imported, made] and running.load() == []
    running.store.close()


def test_the_servers_computer_players_search_in_one_process_each(tmp_path: Path) -> None:
    """The server runs many games on the same cores: its computer players never start playout
    processes of their own, whatever their level's settings."""
    hub = Hub(SQLiteStore(tmp_path / "imperial.db"))
    table = hub.create_game(
        "anna", [("anna", "human"), ("Cleo", "bot:strong")], RuleSet.preset(), 7, False
    )
    assert table.game is not None
    assert table.bots["Cleo"].settings.processes == 1


def test_the_append_key_refuses_a_second_writer_and_a_move_is_kept_once_acknowledged(
    spec: Spec,
) -> None:
    """Two processes (hosts) that both think they run a game: the second to write a line of
    its log is refused, changing nothing; every acknowledged move is in the database as soon
    as apply returns (another connection reads it)."""
    _, table = two_player_hub(spec)
    play(table, 3)
    reader = open_store(spec)
    assert [e.text for e in reader.log(table.id)] == [str(a) for a in table.game.history]
    # a stale writer (it had 2 lines) tries to write line 3 again
    with pytest.raises(Conflict):
        reader.append(table.id, LogEntry("chat", "ghost: hi", None, "ghost", now(), 3), seq=3)
    # the table's own next write is refused when someone else wrote its line first
    reader.append(table.id, LogEntry("chat", "other host: hi", None, "x", now(), 3), seq=4)
    aw = table.game.awaiting
    plies = len(table.game.plies)
    with pytest.raises(Refused, match="could not save this move"):
        table.apply(aw.player, table.game.legal_actions()[0])
    assert len(table.game.plies) == plies
    assert [e.seq for e in reader.log(table.id)] == [1, 2, 3, 4]
    assert [e.seq for e in reader.log(table.id, after=2)] == [3, 4]
    reader.close()


def test_a_seats_word_is_read_as_a_controller_not_sliced() -> None:
    """Issue #23: the seat setting is one word read in one place (rules.controllers); a
    server seat is a Controller's word or an open seat, and a word no level has is no
    computer (a damaged store row never starts a bot)."""
    from imperial_tui.server.table import OPEN_SEAT, Seat, seat_level

    strong = Seat(0, "Ben", "bot:strong")
    assert (strong.level, strong.is_bot, strong.controller) == ("strong", True, "bot:strong")
    anna = Seat(1, "Anna", "human", "Anna")
    assert (anna.level, anna.is_bot, anna.controller.is_human) == (None, False, True)
    open_seat = Seat(2, "", OPEN_SEAT)
    assert open_seat.is_free and not open_seat.is_bot and open_seat.controller.is_human
    assert seat_level("bot:godlike") is None and not Seat(3, "Zed", "bot:godlike").is_bot
