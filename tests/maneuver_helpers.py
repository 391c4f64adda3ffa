"""Building Maneuver positions by hand: a six-player game where each player governs one
nation, with units placed directly on the board, then the nation's marker put on Maneuver."""

from __future__ import annotations

from rules import Game, RuleSet
from rules.actions import NATION_CODES
from rules.state import NO

PLAYERS = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Fay")
DEAL = "Anna=AH,Ben=IT,Cleo=FR,Dan=GB,Eve=GE,Fay=RU"
GOVERNOR = dict(zip(NATION_CODES, PLAYERS, strict=True))


def new_game(edition: str = "first", **options: object) -> Game:
    rules = RuleSet.preset(edition).with_options(**options)
    return Game.new(list(PLAYERS), rules, deal=DEAL)


def place(
    game: Game, nation: str, kind: str, region: str, count: int = 1, friendly: bool = False
) -> None:
    s = game.state
    n = NATION_CODES.index(nation)
    r = s.board.index[region]
    if kind == "army":
        s.armies[n][r] += count
        if friendly:
            s.friendly[n][r] += count
    else:
        s.fleets[n][r] += count


def units(game: Game, nation: str, kind: str, region: str) -> int:
    s = game.state
    n = NATION_CODES.index(nation)
    r = s.board.index[region]
    return (s.armies if kind == "army" else s.fleets)[n][r]


def friendly(game: Game, nation: str, region: str) -> int:
    s = game.state
    return s.friendly[NATION_CODES.index(nation)][s.board.index[region]]


def set_flag(game: Game, region: str, nation: str | None) -> None:
    s = game.state
    s.flag[s.board.index[region]] = NATION_CODES.index(nation) if nation else NO


def flag(game: Game, region: str) -> str | None:
    s = game.state
    f = s.flag[s.board.index[region]]
    return NATION_CODES[f] if f != NO else None


def set_factories(game: Game, nation: str, regions: list[str]) -> None:
    s = game.state
    n = NATION_CODES.index(nation)
    for r in s.board.home[n]:
        s.factory[r] = s.board.id(r) in regions


def start_maneuver(game: Game, nation: str) -> None:
    """Make it ``nation``'s turn and choose Maneuver on the rondel."""
    s = game.state
    n = NATION_CODES.index(nation)
    s.turn = n
    s.rondel[n] = NO
    s.todo = ()
    s.awaiting_kind = "rondel"
    s.awaiting_player = s.government[n]
    s.awaiting_nation = n
    s.ctx = None
    s.turn_ctx = None
    game.apply(f"{nation} rondel maneuver1")


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def army_dests(game: Game, nation: str, origin: str) -> set[str]:
    """Where an army at ``origin`` may go now (any route, any status)."""
    prefix = f"{nation} move army {origin} -> "
    return {a[len(prefix) :].split()[0] for a in legal(game) if a.startswith(prefix)}
