"""A seat named for another user is kept for them, not given: nobody is put into a game
they never asked for. A stranger seating two club members and a computer started a game in
their names at once, listed under their games with no way to decline (a club organiser's
report). Now the game waits until each of them takes the seat kept for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from imperial_tui.server.hub import Hub, LobbyRow
from imperial_tui.server.lobby import section_of
from imperial_tui.server.store import SQLiteStore
from imperial_tui.server.table import OPEN, PLAYING, Refused
from rules import RuleSet


def hub_at(tmp_path: Path) -> Hub:
    return Hub(SQLiteStore(tmp_path / "imperial.db"))


def row_of(hub: Hub, user: str, game_id: int) -> LobbyRow:
    return next(r for r in hub.listing(user) if r.id == game_id)


def test_a_stranger_cannot_start_a_game_in_other_players_names(tmp_path: Path) -> None:
    hub = hub_at(tmp_path)
    seats = [("ben", "human"), ("cleo", "human"), ("Bot", "bot:greedy")]
    table = hub.create_game("evil", seats, RuleSet.preset(), 3, False)
    assert table.status == OPEN and table.game is None
    assert table.seat_of("ben") is None and table.seat_of("cleo") is None
    assert table.waiting_seats == 2
    # ben sees it among the games he may join, not among his own, and says yes or nothing
    row = row_of(hub, "ben", table.id)
    assert not row.yours and row.kept and section_of(row) == "open"
    assert "a seat is kept for you" in row.turn
    # nobody else takes ben's seat
    with pytest.raises(Refused, match="no free seat"):
        hub.join("dan", table)
    assert section_of(row_of(hub, "dan", table.id)) == "watch"
    hub.join("ben", table)
    assert table.seat_of("ben") is not None and table.status == OPEN
    hub.join("cleo", table)
    assert table.status == PLAYING and table.game is not None
    assert list(table.game.players) == ["ben", "cleo", "Bot"]


def test_the_creators_own_seat_is_theirs_at_once_and_a_kept_seat_keeps_its_name(
    tmp_path: Path,
) -> None:
    hub = hub_at(tmp_path)
    table = hub.create_game(
        "Anna", [("anna", "human"), ("Ben", "human")], RuleSet.preset(), 3, False
    )
    assert table.seat_of("anna") is not None  # (names are matched whatever their case)
    assert table.waiting_seats == 1 and "Ben (invited)" in table.describe_seats()
    hub.join("ben", table)
    assert table.status == PLAYING
    assert table.seat_named("Ben") is not None  # the name the creator wrote stays
    # a restart finds the seats as they were taken
    again = hub_at(tmp_path)
    again.load()
    assert again.tables[table.id].seat_of("ben") is not None


def test_over_ssh_the_invited_player_takes_the_kept_seat_from_the_lobby(tmp_path: Path) -> None:
    """A real SSH client on 127.0.0.1: ben's lobby offers the game among those he may join,
    Enter asks whether to take the seat kept for him, and yes starts the game."""
    from tests.server_helpers import connect, run, serving

    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            seats = [("ben", "human"), ("Bot", "bot:greedy")]
            table = server.hub.create_game("evil", seats, RuleSet.preset(), 3, False)
            assert table.game is None
            ben = await connect(server, "ben", None)
            await ben.wait_for("Open games", 20)
            await ben.wait_for("a seat is kept for", 10)
            await ben.press("down", "enter")
            await ben.wait_for("Take the seat kept for you in #", 10)
            await ben.press("y")
            await ben.wait_for(r"Imperial .*round", 20)
            assert table.status == PLAYING and table.seat_of("ben") is not None
            await ben.close()

    run(scenario(), timeout=60)
