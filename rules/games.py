"""The two games this program plays: Imperial (Europe, 1914) and Imperial 2030 (the world).

A game is a setting beside the edition and the variant (``RuleSet.game``). What differs
between the games comes in two kinds:

- the board and the set-up tables, which are data of the game and never a choice: the map,
  the nations (they come from the map), which flag card buys which partner bond, which cards
  are dealt with 2 or 3 players and who takes which extra cards, the experienced players'
  starting money;
- rule differences (the rondel's price, taxation, the canals), which are named rule options
  (``rules.ruleset``): a game is a preset of options as an edition is, so the engine reads
  options and never asks which game it plays.

Sources: RULES.md §2 for Imperial, RULES_2030.md §7 for Imperial 2030 (the Thrillberg/imperial
set-up, the only source for the 2- and 3-player groupings; it follows Imperial's pattern by
turn-order position: the 1st and 4th, 2nd and 6th, 3rd and 5th nations go together with 3
players, the odd and the even ones with 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class GameName(StrEnum):
    """The game, as saves, positions and ``--game`` write it."""

    IMPERIAL = "imperial"
    IMPERIAL_2030 = "2030"


GAMES: tuple[str, ...] = tuple(g.value for g in GameName)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is besides its rule options: the board and the set-up tables."""

    name: GameName
    title: str  # as players say it
    board: str  # the map file in maps/
    nations: tuple[str, ...]  # the codes of its nations in turn order (as its map has them)
    editions: tuple[str, ...]  # the editions it is played with; the first is the default
    card_partner: Mapping[str, str]  # flag card -> the nation whose partner bond it buys
    dealt_cards: Mapping[int, tuple[str, ...]]  # players -> the cards dealt (else all six)
    extra_cards: Mapping[int, Mapping[str, tuple[str, ...]]]  # players -> dealt -> extras
    experienced_money: Mapping[int, int]  # players -> cash for the bond rounds (Imperial)


IMPERIAL = GameInfo(
    name=GameName.IMPERIAL,
    title="Imperial",
    board="europe",
    nations=("AH", "IT", "FR", "GB", "GE", "RU"),
    editions=("first", "2010"),
    card_partner={"AH": "GE", "IT": "GB", "FR": "AH", "GB": "RU", "GE": "IT", "RU": "FR"},
    dealt_cards={2: ("AH", "IT"), 3: ("AH", "IT", "FR")},
    extra_cards={
        3: {"AH": ("GB",), "IT": ("RU",), "FR": ("GE",)},
        2: {"AH": ("FR", "GE"), "IT": ("GB", "RU")},
    },
    experienced_money={6: 15, 5: 18, 4: 22, 3: 28, 2: 40},
)

IMPERIAL_2030 = GameInfo(
    name=GameName.IMPERIAL_2030,
    title="Imperial 2030",
    board="world2030",
    nations=("RU", "CN", "IN", "BR", "US", "EU"),
    editions=("2010",),  # 2030 was built on the 3rd-edition rules (RULES_2030.md, top)
    card_partner={"RU": "EU", "CN": "US", "IN": "BR", "BR": "CN", "US": "RU", "EU": "IN"},
    dealt_cards={2: ("RU", "CN"), 3: ("RU", "CN", "IN")},
    extra_cards={
        3: {"RU": ("BR",), "CN": ("EU",), "IN": ("US",)},
        2: {"RU": ("IN", "US"), "CN": ("BR", "EU")},
    },
    # the experienced_cash option chooses between this table and Imperial's (UNCERTAIN #4)
    experienced_money={6: 13, 5: 15, 4: 19, 3: 25, 2: 37},
)

GAME_INFO: dict[str, GameInfo] = {IMPERIAL.name: IMPERIAL, IMPERIAL_2030.name: IMPERIAL_2030}


def game_info(name: str) -> GameInfo:
    """The game called ``name`` (``imperial`` or ``2030``); ValueError with the choices."""
    info = GAME_INFO.get(name)
    if info is None:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    return info


def game_title(name: str) -> str:
    """``Imperial`` or ``Imperial 2030``."""
    return game_info(name).title


# Every nation code either game uses: the notation reads them all (it needs no game); a game
# refuses the codes of the other.
ALL_NATION_CODES: tuple[str, ...] = (
    *IMPERIAL.nations,
    *(c for c in IMPERIAL_2030.nations if c not in IMPERIAL.nations),
)
