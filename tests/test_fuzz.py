"""Any text a user may type is either a legal action or refused with a reason: never a crash,
never a change to the game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Game, IllegalAction, RuleSet

WORDS = [
    "AH",
    "IT",
    "FR",
    "GB",
    "GE",
    "RU",
    "XX",
    "Anna",
    "Ben",
    "Cleo",
    "Zed",
    "rondel",
    "import",
    "army",
    "fleet",
    "done",
    "build",
    "factory",
    "no",
    "produce",
    "all",
    "move",
    "->",
    "convoy",
    "hostile",
    "friendly",
    "make",
    "fights",
    "in",
    "does",
    "not",
    "fight",
    "destroys",
    "end",
    "maneuver",
    "buys",
    "returning",
    "passes",
    "forces",
    "to",
    "investor",
    "lets",
    "pass",
    "donates",
    "0",
    "1",
    "2",
    "4",
    "9",
    "12",
    "30",
    "99",
    "-3",
    "vienna",
    "trieste",
    "venice",
    "london",
    "dublin",
    "switzerland",
    "atlantis",
    "ionian_sea",
    "north_sea",
    "baltic_sea",
    "norway",
    "taxation",
    "factory",
    "production1",
    "maneuver2",
    "ionian_sea,north_sea",
]


def positions() -> list[Game]:
    """A few positions from random play, each at a different kind of decision."""
    out: dict[str, Game] = {}
    for seed in range(6):
        game = Game.new(
            ["Anna", "Ben", "Cleo"], RuleSet.preset(("first", "2010")[seed % 2]), seed=seed
        )
        rng = random.Random(seed)
        while not game.is_over and len(out) < 9:
            kind = game.awaiting.kind
            if kind not in out:
                out[kind] = game.copy()
            game.apply(rng.choice(game.legal_actions()))
    return list(out.values())


POSITIONS = positions()


def assert_applied_or_refused(game: Game, text: str) -> None:
    before = game.summary()
    legal = {str(a) for a in game.legal_actions()}
    try:
        game.apply(text)
    except IllegalAction as exc:
        assert exc.reason
        assert game.summary() == before
    else:
        # accepted: it was a legal action (or a donation, allowed at any time)
        assert text in legal or " donates " in text


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=9), st.integers(0, 100))
def test_any_typed_text_is_applied_or_refused_with_a_reason(words, pick):
    game = POSITIONS[pick % len(POSITIONS)].copy()
    text = " ".join(words)
    assert_applied_or_refused(game, text)


ALL_LEGAL = sorted({str(a) for g in POSITIONS for a in g.legal_actions()})


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ALL_LEGAL), st.integers(0, 20), st.sampled_from(WORDS), st.integers(0, 100))
def test_a_legal_action_with_one_word_changed_is_applied_or_refused(base, at, word, pick):
    game = POSITIONS[pick % len(POSITIONS)].copy()
    tokens = base.split()
    tokens[at % len(tokens)] = word
    text = " ".join(tokens)
    assert_applied_or_refused(game, text)
