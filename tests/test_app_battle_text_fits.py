"""At 80x24 the battle question is read whole (issue #24, "cut-off text at 80x24"): a battle
in a sea with a long name ("Western Mediterranean Sea") cut both the title ("battle in
Western") and the line under it (who is asked after the mover was lost). The title names
the region as short as it must ("battle?" named none, a newcomer's report); a name that
would still be cut mid-word ("English Ch.", "Mediterrane.") takes the room of "Decide: "."""

from __future__ import annotations

from maneuver_helpers import new_game, place, start_maneuver
from pilot import drive, screen_text, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules.decisions import Decision


def flat(text: str) -> str:
    """The decision box's words as one line: the box's borders and line breaks removed."""
    inside = [line.split("│")[1] for line in text.splitlines() if line.count("│") >= 2]
    return " ".join(" ".join(inside).split())


async def battle_question(mover: str, port: str, sea: str, enemy: str) -> str:
    """The decision box at 80x24 once ``mover``'s fleet sails from ``port`` into ``sea``,
    where ``enemy`` has a fleet: the battle's question, as one line."""
    game = new_game()
    place(game, mover, "fleet", port)
    place(game, enemy, "fleet", sea)
    start_maneuver(game, mover)
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        game.apply(f"{mover} move fleet {port} -> {sea}")
        app.after_change()
        await until(pilot, lambda: game.awaiting.kind == Decision.BATTLE)
        await until(pilot, lambda: "Asked now" in screen_text(app))
        await pilot.pause()
        return flat(screen_text(app))


async def test_a_battle_in_the_western_mediterranean_is_read_whole_at_80x24():
    box = await battle_question("IT", "naples", "western_mediterranean", "FR")
    assert "IT Ben - battle in W. Mediterranean?" in box  # the title fits its one line
    assert "Decide:" not in box
    assert (
        "IT fleet entered Western Mediterranean Sea (FR fleet there). Asked now: IT, then FR" in box
    )
    assert "fight: our fleet against FR fleet" in box


async def test_a_battle_in_the_english_channel_is_named_in_the_title_at_80x24():
    box = await battle_question("FR", "brest", "english_channel", "GB")
    assert "FR Cleo - battle in English Channel?" in box
