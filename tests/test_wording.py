"""Words a player reads (issue #24, item 9): articles, singulars, the power track's end, and
names that fit the 80-column decision list."""

from __future__ import annotations

import pytest
from helpers import give_turn, new_game, set_factories

from imperial_tui.render.words import short_name
from rules import Game
from rules.common import power_gain
from rules.position_fields import PositionError


def test_power_gain_says_what_was_gained_when_the_track_ends_at_25() -> None:
    assert power_gain("Italy", 4, 10, 14) == "Italy gains 4 power points (10 → 14)"
    assert power_gain("Italy", 10, 16, 25) == (
        "Italy gains 9 power points (16 → 25, the end of the track; its tax gave 10)"
    )
    assert power_gain("Italy", 5, 24, 25).startswith("Italy gains 1 power point (24 → 25")


def test_counts_of_one_are_said_in_the_singular() -> None:
    """A newcomer read "gains 1 power points", "1 factories × 2M + 1 flags", "up to 1 units"."""
    assert power_gain("Italy", 1, 0, 1) == "Italy gains 1 power point (0 → 1)"
    game = new_game(4)
    set_factories(game, "AH", "vienna")
    give_turn(game, "AH", "production2")
    flagged = game.state.board.index["western_mediterranean"]
    game.state.flag[flagged] = 0  # one Austrian flag
    events = game.apply("AH rondel taxation")
    assert any("(1 factory × 2M + 1 flag)" in e.text for e in events), [e.text for e in events]


def test_a_taxation_at_the_end_of_the_track_says_the_points_gained() -> None:
    game = new_game(4)
    game.state.power[0] = 22
    set_factories(game, "AH", "vienna", "budapest", "prague", "lemberg", "trieste")
    give_turn(game, "AH", "production2")
    events = game.apply("AH rondel taxation")  # tax 10M: 5 points, 3 of them left
    said = [e.text for e in events if "gains" in e.text and "power point" in e.text]
    assert said == [
        "Austria-Hungary gains 3 power points (22 → 25, the end of the track; its tax gave 5)"
    ]
    assert game.state.power[0] == 25


def test_region_names_are_shortened_by_their_sea_and_compass_words_before_any_cut() -> None:
    assert short_name("Western Mediterranean Sea", 16) == "W. Mediterranean"
    assert short_name("Eastern Mediterranean Sea", 16) == "E. Mediterranean"
    assert short_name("North Sea", 16) == "North Sea"
    assert short_name("Western Mediterranean Sea", 12) == "W. Mediterr."


def test_a_position_naming_the_wrong_factory_says_an_armaments_factory() -> None:
    doc = new_game(4).summary()
    doc["regions"]["vienna"]["factory"] = "shipyard"
    with pytest.raises(PositionError, match="Vienna takes an armaments factory, not"):
        Game.from_position(doc)


def test_destroying_a_factory_says_what_it_costs_rules_5_4_5() -> None:
    """ "The factory and exactly three of the active nation's armies are removed" (RULES.md
    §5.4.5): the option says so where it is chosen (a playtest saw the armies go unsaid)."""
    from imperial_tui.render.words import action_words
    from rules.actions import DestroyFactory

    game = new_game(4)
    assert action_words(game.state, DestroyFactory("AH", "venice")) == (
        "destroys the factory in Venice: it and 3 armies are removed"
    )


def test_a_name_ending_in_s_takes_only_the_apostrophe() -> None:
    """A rules lawyer read "United States's flag replaces Brazil's" in Imperial 2030."""
    import random

    from rules import RuleSet
    from rules.common import possessive

    assert possessive("Italy") == "Italy's"
    assert possessive("United States") == "United States'"
    game = Game.new(["Anna", "Ben", "Cleo"], RuleSet.preset(game="2030"), seed=3)
    rng = random.Random(3)
    said: list[str] = []
    for _ in range(400):
        if game.is_over:
            break
        said += [e.text for e in game.apply(rng.choice(game.legal_actions()))]
    assert any("United States' " in text for text in said)
    assert not any("United States's" in text for text in said)


def test_switzerland_is_named_as_the_board_names_it() -> None:
    """It said "switzerland is impassable", the region's id."""
    from maneuver_helpers import new_game as maneuver_game
    from maneuver_helpers import place, start_maneuver

    from rules.explain import explain

    game = maneuver_game()
    place(game, "GE", "army", "munich")
    start_maneuver(game, "GE")
    words = explain(game, "GE move army munich -> switzerland").headline()
    assert "Switzerland is impassable" in words, words


def test_a_fleet_moves_from_the_sea_it_was_in() -> None:
    """The log said "moves a fleet from Caribbean Sea to the North Pacific" (a playtest):
    a sea takes its article on both sides; a port city none."""
    from maneuver_helpers import new_game as maneuver_game
    from maneuver_helpers import place, start_maneuver

    game = maneuver_game()
    place(game, "GE", "fleet", "north_sea")
    place(game, "GE", "fleet", "hamburg")
    start_maneuver(game, "GE")
    said = [e.text for e in game.apply("GE move fleet north_sea -> baltic_sea")]
    assert "German Empire moves a fleet from the North Sea to the Baltic Sea" in said, said
    said = [e.text for e in game.apply("GE move fleet hamburg -> north_sea")]
    assert "German Empire moves a fleet from Hamburg to the North Sea" in said, said
