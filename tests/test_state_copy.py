"""``GameState.copy`` assigns field by field for speed and the engine's ``fork`` shares the
field groups an action leaves alone: copies must still share nothing mutable, and the positions
kept for undo must never change."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from rules import Game, RuleSet
from rules.state import GameState

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")


def test_copy_has_every_field_equal_and_no_shared_mutable_part() -> None:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    s = game.state
    c = s.copy()
    for f in fields(GameState):
        mine, theirs = getattr(s, f.name), getattr(c, f.name)
        assert mine == theirs, f.name
        if isinstance(mine, list | bytearray):
            assert mine is not theirs, f"{f.name} is shared"
            for a, b in zip(mine, theirs, strict=True):
                if isinstance(a, list | bytearray):
                    assert a is not b, f"an inner part of {f.name} is shared"


def test_changing_a_copy_leaves_the_original_alone() -> None:
    game = Game.new(["Anna", "Ben"], seed=2)
    before = game.summary()
    c = game.state.copy()
    c.cash[0] += 5
    c.armies[0][3] += 1
    c.friendly[1][2] += 1
    c.bond_owner[0][0] = 1
    c.flag[4] = 2
    assert Game.summary(game) == before


def fingerprint(s: GameState) -> str:
    # (not the bookkeeping that is no part of the position: the groups shared, what listing
    # found for the next list)
    return repr(
        [getattr(s, f.name) for f in fields(GameState) if f.name not in ("shared", "known")]
    )


@pytest.mark.parametrize(
    ("players", "variant"),
    [
        (2, "experienced"),
        (3, "standard"),
        (4, "no-investor-card"),
        (5, "experienced"),
        (6, "standard"),
    ],
)
def test_positions_kept_for_undo_never_change(players: int, variant: str) -> None:
    """The engine shares unchanged field groups between a position and the next (``fork``);
    a rule step that changed a shared list without ``own()`` would rewrite history. Every
    position of a random game is compared with its fingerprint taken before the next action,
    then undo walks back through all of them."""
    edition = "2010" if players % 2 else "first"
    game = Game.new(list(NAMES[:players]), RuleSet.preset(edition, variant), seed=players)
    rng = random.Random(players)
    taken: list[str] = []
    while not game.is_over and len(taken) < 2500:
        taken.append(fingerprint(game._state))  # the engine's own position, not unshared
        game.apply(rng.choice(game.legal_actions()))
    for ply, before in zip(game.plies, taken, strict=True):
        assert fingerprint(ply.before) == before
    while game.plies:
        want = taken.pop()
        game.undo()
        assert fingerprint(game.state) == want
