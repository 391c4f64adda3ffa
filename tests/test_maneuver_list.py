"""The Maneuver list a position keeps and the next one updates (``rules.maneuver_list``,
issue 26) is the list built from nothing, in every position of seeded random games: the
update after an army move, a battle, a declined battle or a status switch changes exactly what
a full listing would."""

from __future__ import annotations

import random

import pytest

from rules import Game, RuleSet
from rules.decisions import Decision
from rules.maneuver_list import Changes, ManeuverList, _build, legal_maneuver

CASES = [
    (players, edition, variant, game_name)
    for players in (2, 4, 6)
    for edition, game_name in (("first", "imperial"), ("2010", "imperial"), ("2010", "2030"))
    for variant in ("standard", "experienced")
]


@pytest.mark.parametrize(("players", "edition", "variant", "game_name"), CASES)
def test_the_updated_list_is_the_list_built_from_nothing(
    players: int, edition: str, variant: str, game_name: str
) -> None:
    rules = RuleSet.preset(edition, variant, game_name)
    updated = 0
    for seed in range(3):
        game = Game.new([f"P{i}" for i in range(players)], rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            s = game._state  # (the engine's own position, with what it knows)
            if s.awaiting_kind is Decision.MANEUVER:
                updated += type(s.known) is Changes
                listed = game.legal_actions()
                assert type(s.known) is ManeuverList
                fresh = s.copy()
                assert fresh.known is None
                assert listed == _build(fresh).actions == legal_maneuver(fresh)
                assert legal_maneuver(s) == listed  # (listed again: the list kept)
            game.apply(rng.choice(game.legal_actions()))
    if game_name == "imperial":
        assert updated > 0  # (the update is tried: no canals on this board)
