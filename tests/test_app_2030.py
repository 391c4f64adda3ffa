"""Imperial 2030 in the app (Pilot, by keys): the game chosen on the new-game screen, a 2030
save loaded, every panel with 2030's nations, the canal decision answered from the decision
panel, the world map whole at 120x40 and scrolled to the decision's region at 80x24."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import give_turn, new_game, set_flags, set_units
from pilot import drive, opened_board, screen_text, settle

from imperial_tui.app import ImperialApp
from imperial_tui.app.widgets.decision import DecisionPanel
from imperial_tui.app.widgets.map import MapView
from imperial_tui.model.session import Session
from imperial_tui.render.mapview import COMPACT_CELL
from rules import Game, RuleSet
from rules.games import IMPERIAL, IMPERIAL_2030

SEATS_TO_GAME = 13  # the six seats' name and kind fields, all computers, then the game's
CROSS = "US move fleet caribbean_sea -> north_pacific"


def us_fleet_at_panama() -> Game:
    """Six players (Eve governs the US, Dan Brazil): the US maneuvers with a fleet in the
    Caribbean Sea and an army in Mexico; Brazil's flag stands in Colombia, which controls
    the Panama Canal. A game that starts from this position (as a save would replay it)."""
    g = new_game(6, rules=RuleSet.preset(game="2030"))
    set_units(g, "US", "caribbean_sea", fleets=1)
    set_units(g, "US", "mexico", armies=1)
    set_flags(g, "BR", "colombia")
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    return Game.from_position(g.summary())


def hot_seat(game: Game) -> Session:
    return Session(game, dict.fromkeys(game.players, "human"), None)


def units(game: Game, nation: str, region: str) -> int:
    s = game.state
    return s.fleets[s.board.codes.index(nation)][s.board.index[region]]


async def test_a_2030_game_is_chosen_and_started_on_the_new_game_screen_by_keys() -> None:
    app = ImperialApp(seed=5, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        screen = app.screen
        assert screen.rules.game == "imperial"
        await pilot.press(*["tab"] * SEATS_TO_GAME, "enter", "down", "enter")
        await pilot.pause()
        assert screen.rules.game == "2030"
        text = screen_text(app)
        assert "New game of Imperial 2030" in text
        assert " ".join(IMPERIAL_2030.nations) in text  # the game's nations, from its data
        assert screen.rules.edition == "2010"  # 2030's only edition, the only one offered
        assert [str(v) for _, v in screen.query_one("#edition")._options] == ["2010"]
        names = {o.id for o in screen.query_one("#options")._options}
        assert "canal_refusal" in names  # 2030's own rule options are offered
        await pilot.press("ctrl+g")
        await settle(pilot)
        game = app.session.game
        assert game.rules.game == "2030" and game.state.board.codes == IMPERIAL_2030.nations
        text = screen_text(app)
        assert text.splitlines()[0].startswith(" Imperial 2030  round")
        rows = text.splitlines()[3:9]  # the treasuries panel, under its header
        assert [re.match(r"│[ ▶](\w\w) ", row).group(1) for row in rows] == list(
            IMPERIAL_2030.nations
        )
        # the bonds panel: each nation's bonds under its own code
        await pilot.press("2")
        await pilot.pause()
        text = screen_text(app)
        assert all(f"{code} " in text for code in IMPERIAL_2030.nations)
        assert not any(f" {code} " in text for code in ("AH", "IT", "FR", "GB", "GE"))


async def test_the_game_choice_changes_the_nations_and_options_and_back() -> None:
    app = ImperialApp(seed=5, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        screen = app.screen
        await pilot.press(*["tab"] * SEATS_TO_GAME, "enter", "down", "enter")
        await pilot.pause()
        await pilot.press("enter", "up", "enter")  # Imperial again
        await pilot.pause()
        assert screen.rules.game == "imperial" and screen.rules.edition == "first"
        text = screen_text(app)
        assert "New game of Imperial 2030" not in text and "New game of Imperial" in text
        assert " ".join(IMPERIAL.nations) in text
        names = {o.id for o in screen.query_one("#options")._options}
        assert "canal_refusal" not in names


async def test_a_2030_save_is_loaded_from_the_load_screen(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "imperial"
    folder.mkdir()
    game = Game.new(["Xena", "Yuri", "Zoe"], rules=RuleSet.preset(game="2030"), seed=8)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    Session(game, dict.fromkeys(game.players, "human"), folder / "world.json").save()

    app = ImperialApp(seed=1, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert type(app.screen).__name__ == "LoadScreen"
        await pilot.press("enter")
        await opened_board(pilot)
        assert app.session.path == folder / "world.json"
        loaded = app.session.game
        assert loaded.rules.game == "2030"
        assert [str(a) for a in loaded.history] == [str(a) for a in game.history]
        assert screen_text(app).startswith(" Imperial 2030  round")


@pytest.mark.parametrize("answer", ["allow", "refuse"])
async def test_the_canal_decision_is_answered_from_the_decision_panel_by_keys(
    answer: str,
) -> None:
    game = us_fleet_at_panama()
    app = ImperialApp(session=hot_seat(game), pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        screen = app.screen
        assert screen.shown_panel() == "map"  # the Maneuver brought the map up
        panel = screen.query_one(DecisionPanel)
        await pilot.press("home", "enter")  # the fleet in the Caribbean Sea: its moves
        await pilot.pause()
        assert panel.open_key == "move_fleet:caribbean_sea"
        ol = screen.query_one("#decision-options")
        labels = [ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)]
        crossing = next(t for t in labels if "North Pacific" in t)
        assert "asks BR: Panama Canal" in crossing  # the move says it will ask
        for _ in range(ol.option_count):
            chosen = panel.highlighted_actions()
            if chosen and str(chosen[0]) == CROSS:
                break
            await pilot.press("down")
            await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()

        aw = game.awaiting
        assert (aw.player, aw.kind, aw.nation) == ("Dan", "canal", "BR")
        assert units(game, "US", "caribbean_sea") == 1  # nothing moved yet
        text = screen_text(app)
        assert "BR (Dan) let US through Panama?" in text.splitlines()[0]
        assert "Dan - let US through Panama?" in text
        assert "US fleet Caribbean Sea → North Pacific" in text
        labels = [ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)]
        assert labels == [
            "allow: the US fleet goes through the Panama Canal",
            "refuse: nothing moves; this fleet may not ask again this Maneuver",
        ]
        # the map: the move and the controlling region marked, the window on Colombia
        marks = screen.map_model.marks
        assert (marks.origin, marks.chosen, marks.canal) == (
            "caribbean_sea",
            "north_pacific",
            "colombia",
        )
        assert screen.map_model.cursor == "colombia"
        view = screen.query_one("#map-view", MapView)
        col, row = screen.map_model.painter.anchor("colombia")
        x, y = view.scroll_offset
        assert x <= col < x + view.scrollable_content_region.width
        assert y <= row < y + view.scrollable_content_region.height
        info = str(screen.query_one("#map-info").render())  # (cut on the screen at 80x24)
        assert "Canal: Caribbean Sea → North Pacific, controlled from Colombia" in info

        await pilot.press("home", *(["down"] if answer == "refuse" else []), "enter")
        await settle(pilot)
        assert str(game.plies[-1].action) == f"BR {answer}s US through panama"
        assert game.awaiting.kind == "maneuver" and game.awaiting.player == "Eve"
        if answer == "allow":
            assert units(game, "US", "north_pacific") == 1
        else:
            assert units(game, "US", "caribbean_sea") == 1
            assert CROSS not in {str(a) for a in game.legal_actions()}


async def test_the_whole_world_map_at_120x40_beside_the_decision() -> None:
    """The world's picture is wider than the room beside the nations and the decision: on
    show, it takes the width it needs in compact cells (the treasuries step aside) and is
    whole, the wrap and the canals in sight; the usual layout comes back with another
    panel."""
    game = us_fleet_at_panama()
    app = ImperialApp(session=hot_seat(game), pace=0.0, ascii_only=False)
    async with drive(app, (120, 40), opened=True) as pilot:
        screen = app.screen
        assert screen.shown_panel() == "map"
        await pilot.pause()
        painter = screen.map_model.painter
        assert (painter.cw, painter.ch) == COMPACT_CELL
        view = screen.query_one("#map-view-wide", MapView)
        content = view.scrollable_content_region
        assert content.width >= painter.width and content.height >= painter.height
        assert view.max_scroll_x == 0 and view.max_scroll_y == 0  # nothing to scroll: whole
        assert screen.query_one("#left").has_class("-map-fit")
        assert not screen.query_one("#nations").display
        assert screen.query_one("#decision").region.width >= 30
        text = screen_text(app)
        assert "≡" in text  # the canals
        assert "←SOJ" in text and "NPA→" in text  # the world goes on across the edge
        for label in ("ALA", "NZL", "AUS", "JAP", "SPA", "BRA"):  # corners and edges
            assert label in text
        await pilot.press("1")
        await pilot.pause()
        await pilot.pause()
        assert not screen.query_one("#left").has_class("-map-fit")
        assert screen.query_one("#nations").display
        assert screen.query_one("#left").region.width == 42
        await pilot.press("5")
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#left").has_class("-map-fit")


async def test_europe_keeps_the_usual_layout_with_its_map_at_120x40() -> None:
    from maneuver_helpers import new_game as europe_game
    from maneuver_helpers import place, start_maneuver

    g = europe_game()
    place(g, "AH", "army", "vienna", 2)
    start_maneuver(g, "AH")
    app = ImperialApp(session=hot_seat(g), pace=0.0, ascii_only=False)
    async with drive(app, (120, 40), opened=True) as pilot:
        screen = app.screen
        assert screen.shown_panel() == "map"
        await pilot.pause()
        assert not screen.query_one("#left").has_class("-map-fit")
        assert screen.query_one("#nations").display
        assert screen.map_model.painter.cw == 7  # full cells


async def test_a_2030_game_through_the_app_and_its_final_scores() -> None:
    """The first rounds of a 2030 game with every decision taken through the app (a computer
    player's choice for each human seat: rondel, investor, production, maneuvers with the
    map coming and going, imports) without an error; then the same game played out opens
    on its final scores with 2030's nations."""
    from pilot import step

    from rules.bots import GreedyBot, play_out

    g = Game.new(["Anna", "Ben", "Cleo"], rules=RuleSet.preset(game="2030"), seed=11)
    bots = {p: GreedyBot(i) for i, p in enumerate(g.players)}
    kinds: set[str] = set()
    app = ImperialApp(session=hot_seat(g), pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        while len(g.plies) < 36:
            kinds.add(g.awaiting.kind)
            await step(pilot, bots[g.awaiting.player].choose(g))
        assert {"rondel", "invest", "produce", "maneuver", "import"} <= kinds
        assert screen_text(app).startswith(" Imperial 2030  round")

    play_out(g, bots)
    assert g.is_over
    app = ImperialApp(session=hot_seat(g), pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        assert type(app.screen).__name__ == "GameOverScreen"
        text = screen_text(app)
        assert "Game over" in text
        assert re.search(r"\b(CN|IN|BR|US|EU)\d+ \d+×\d", text)  # bonds: 2030's nations
        assert not re.search(r"\b(AH|IT|FR|GB|GE)\d+ ", text)


@pytest.mark.parametrize("answer", ["allow", "refuse"])
def test_the_maneuvers_steps_so_far_keep_the_canal_answers(answer: str) -> None:
    """A playtest: after a canal question, the line of the Maneuver's steps so far was blank
    (the walk back through the turn stopped at the canal decision). It keeps every step,
    the answer among them, and a refused move says it was refused."""
    game = us_fleet_at_panama()
    game.apply(CROSS)
    game.apply(f"BR {answer}s US through panama")
    assert game.awaiting.kind == "maneuver"
    move = "fleet Caribbean Sea->North Pacific"
    said = {
        "allow": f"so far: {move}; BR lets US through Panama",
        "refuse": f"so far: {move} (refused); BR refuses US passage through Panama",
    }[answer]
    assert DecisionPanel.plan_text(hot_seat(game), "->", 200).plain.endswith(said)
    game.apply("US move army mexico -> colombia")
    text = DecisionPanel.plan_text(hot_seat(game), "->", 200).plain
    assert text.endswith(f"3 so far, last: {said.split('; ')[1]}; army Mexico->Colombia"), text
