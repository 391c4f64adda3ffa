"""What a player meets on the server: a name with an accent is refused in words OpenSSH shows
as they are, a chat line pasted without bracketed paste arrives whole (and one cut to the
limit says so to its author), a spectator who reconnects lands in the game they watched, and
the terminal is given back as it was when a connection ends."""

from __future__ import annotations

from pathlib import Path

from imperial_tui.server.driver import LEAVE, MOUSE_OFF
from imperial_tui.server.ssh import name_problem
from imperial_tui.server.table import CHAT_LIMIT
from rules import RuleSet
from tests.server_helpers import connect, run, serving, until


def test_a_name_with_an_accent_is_refused_in_ascii_with_a_name_to_try() -> None:
    why = name_problem("Jürgen")
    assert why is not None and why.isascii()
    assert "'J?rgen' cannot be a player name" in why and "(try Jurgen)" in why
    assert name_problem("Jurgen") is None


def test_a_pasted_chat_line_arrives_whole_and_its_author_is_told_when_it_is_cut(
    tmp_path: Path,
) -> None:
    line = "".join(f"word{i} " for i in range(40)).strip()  # 253 characters
    assert len(line) > CHAT_LIMIT

    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            table = server.hub.create_game(
                "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 3, False
            )
            server.hub.join("ben", table)  # (the seat kept for him)
            anna = await connect(server, "anna", None)
            await anna.wait_for("you are anna", 20)
            await anna.press("down", "enter")
            await anna.wait_for(r"Imperial .*round", 20)
            await anna.press("c")
            await anna.wait_for("Say to everyone at this table")
            anna.process.stdin.write(line[:60].encode())  # typed fast, without bracketed paste
            await until(lambda: "word0 word1" in anna.text, 10, "the first part on screen")
            anna.process.stdin.write(line[60:].encode())
            await anna.press("enter")
            await until(lambda: bool(table.chat), 10, "the chat line")
            assert table.chat[-1][1] == "anna: " + line[:CHAT_LIMIT]
            await anna.wait_for(f"cut to {CHAT_LIMIT} characters", 10)
            await anna.close()

    run(scenario(), timeout=60)


def test_a_spectator_lands_in_the_game_they_watched_and_the_terminal_is_given_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, allow_any=True) as server:
            made = server.hub.create_game(
                "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 3, False
            )
            server.hub.join("ben", made)  # (the seat kept for him)
            eve = await connect(server, "eve", None)
            await eve.wait_for(r"Games to watch", 20)
            await eve.press("down", "enter")
            await eve.wait_for(r"Imperial .*round", 20)
            await eve.close()
        async with serving(tmp_path, allow_any=True) as server:  # a restart
            eve = await connect(server, "eve", None)
            await eve.wait_for(r"Imperial .*round", 20)
            await eve.press("ctrl+q")  # to the lobby, then leave
            await eve.wait_for("server lobby")
            await eve.press("ctrl+q")
            await eve.wait_for("Leave the server")
            await eve.press("y")
            await eve.closed.wait()
            # mouse reporting off and the normal screen back, after the last frame
            assert eve.raw.rstrip(b"\r\n").endswith((MOUSE_OFF + LEAVE).encode())

    run(scenario(), timeout=60)


def test_the_lobby_never_cuts_a_seat_in_the_middle() -> None:
    from imperial_tui.server.lobby import seat_lines

    seats = "Christopher, (open), Cleo (greedy), Dan (greedy), Emil (strong), Fay (greedy)"
    for width in (30, 50, 78):
        lines = seat_lines(seats, width)
        assert all(len(line) <= width for line in lines)
        joined = " ".join(line.strip() for line in lines)
        assert joined == "seats: " + seats
        for seat in seats.split(", "):  # each seat whole on one line
            assert any(seat in line for line in lines), (seat, lines)
