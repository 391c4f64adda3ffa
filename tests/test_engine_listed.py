"""What the engine remembers of a position to be fast (issue 26) never changes an answer:
an action it listed is applied without its checks exactly as the same action written out is
applied with them; a position handed out to be set up by hand forgets its list; the figures
read at once for the whole board (occupied provinces, the interest shortfall) agree with the
rule functions that compute them one by one."""

from __future__ import annotations

import random

import pytest

from rules import Game, RuleSet
from rules.actions import RONDEL_SPACES, ChooseRondel
from rules.errors import IllegalAction
from rules.geometry import occupation
from rules.interest import interest_payments, interest_short
from rules.rondel import move_cost
from rules.state import NO, GameState

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
GAMES = [("first", "imperial"), ("2010", "imperial"), ("2010", "2030")]


def positions(edition: str, game_name: str, seed: int) -> list[GameState]:
    """Every position of one seeded random 4-player game."""
    game = Game.new(NAMES, RuleSet.preset(edition, "standard", game_name), seed=seed)
    rng = random.Random(seed)
    out = []
    while not game.is_over:
        out.append(game.state.copy())
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("edition", "game_name"), GAMES)
def test_a_listed_action_and_the_same_action_written_out_lead_to_the_same_position(
    edition: str, game_name: str
) -> None:
    rules = RuleSet.preset(edition, "standard", game_name)
    trusted = Game.new(NAMES, rules, seed=5)
    checked = Game.new(NAMES, rules, seed=5)
    rng = random.Random(5)
    while not trusted.is_over:
        listed = trusted.legal_actions()
        assert checked.legal_actions() == listed
        action = rng.choice(listed)
        written = checked.parse(str(action))
        assert written is not action  # (parsed afresh: checked like any action from outside)
        assert [e.text for e in trusted.apply(action)] == [e.text for e in checked.apply(written)]
        assert trusted.summary() == checked.summary()


def test_a_position_handed_out_to_be_set_up_forgets_the_actions_listed_for_it() -> None:
    """Listed, then changed by hand through ``Game.state``: an action listed before is
    checked again, and refused now that it is illegal."""
    game = Game.new(NAMES, seed=2)
    rng = random.Random(2)
    while True:  # a rondel decision with a space that costs money
        costly = [a for a in game.legal_actions() if isinstance(a, ChooseRondel)]
        s = game._state
        costly = [a for a in costly if move_cost(s, s.turn, RONDEL_SPACES.index(a.space)) > 0]
        if costly:
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game._state.listed is not None
    s = game.state
    assert s.listed is None
    s.cash[s.awaiting_player] = 0
    with pytest.raises(IllegalAction, match="cannot pay"):
        game.apply(costly[0])
    assert costly[0] not in game.legal_actions()


def test_a_copy_or_an_undo_never_trusts_an_action_it_did_not_list() -> None:
    game = Game.new(NAMES, seed=3)
    action = game.legal_actions()[0]
    assert game.copy()._state.listed is None
    game.apply(action)
    assert game.plies[-1].before.listed is None  # the position kept for undo lists again
    assert game.undo() == action
    assert action in game.legal_actions()


@pytest.mark.parametrize(("edition", "game_name"), GAMES)
def test_the_occupied_provinces_of_the_whole_board_are_those_occupied_one_by_one(
    edition: str, game_name: str
) -> None:
    seen = 0
    for s in positions(edition, game_name, 7):
        marks = occupation(s)
        assert [bool(x) for x in marks] == [s.occupied(r) for r in range(len(s.board.regions))]
        seen += any(marks)
    assert seen  # (the game had occupied provinces to check)


@pytest.mark.parametrize(("edition", "game_name"), GAMES)
def test_the_interest_shortfall_is_the_payment_plans(edition: str, game_name: str) -> None:
    short = 0
    for s in positions(edition, game_name, 9):
        for n in range(len(s.government)):
            if s.government[n] != NO:
                assert interest_short(s, n) == interest_payments(s, n).short
                short += interest_short(s, n) > 0
    assert short  # (some treasury was short of the interest)
