"""Position-building helpers for the rules tests.

Nations and players are addressed by code / name; the helpers translate them into the indices
of ``GameState`` (nations 0..5 = AH IT FR GB GE RU, in Imperial 2030 RU CN IN BR US EU,
players in seating order, regions by ``board.index``).
"""

from __future__ import annotations

from rules import Game, RuleSet
from rules.actions import NATION_CODES, RONDEL_SPACES
from rules.state import NO, GameState

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
DEALS = {
    2: "Anna=AH,Ben=IT",
    3: "Anna=AH,Ben=IT,Cleo=FR",
    4: "Anna=AH,Ben=IT,Cleo=FR,Dan=GB",
    5: "Anna=AH,Ben=IT,Cleo=FR,Dan=GB,Eve=GE",
    6: "Anna=AH,Ben=IT,Cleo=FR,Dan=GB,Eve=GE,Finn=RU",
}
DEALS_2030 = {
    2: "Anna=RU,Ben=CN",
    3: "Anna=RU,Ben=CN,Cleo=IN",
    4: "Anna=RU,Ben=CN,Cleo=IN,Dan=BR",
    5: "Anna=RU,Ben=CN,Cleo=IN,Dan=BR,Eve=US",
    6: "Anna=RU,Ben=CN,Cleo=IN,Dan=BR,Eve=US,Finn=EU",
}


def nat(code: str) -> int:
    """An Imperial nation's index (for a game of either kind: ``nation_of``)."""
    return NATION_CODES.index(code)


def nation_of(game: Game, code: str) -> int:
    """The index of the nation ``code`` in this game."""
    return game.state.board.codes.index(code)


def new_game(
    players: int = 6, rules: RuleSet | None = None, deal: str | None = None, **options
) -> Game:
    """A game with players Anna, Ben, ... dealt AH, IT, ... (RU, CN, ... in Imperial 2030)
    in seating order by default."""
    rules = rules or RuleSet()
    if options:
        rules = rules.with_options(**options)
    if deal is None:
        deals = DEALS_2030 if rules.game == "2030" else DEALS
        deal = "Anna" if rules.variant == "experienced" else deals[players]
    return Game.new(list(NAMES[:players]), rules=rules, deal=deal)


def region(game: Game, region_id: str) -> int:
    return game.state.board.index[region_id]


def player(game: Game, name: str) -> int:
    return game.players.index(name)


def set_units(
    game: Game,
    nation: str,
    region_id: str,
    armies: int = 0,
    fleets: int = 0,
    friendly: int = 0,
) -> None:
    """Put exactly these units of ``nation`` in a region (fleets in a province lie in port)."""
    s = game.state
    n, r = nation_of(game, nation), region(game, region_id)
    s.armies[n][r] = armies
    s.fleets[n][r] = fleets
    s.friendly[n][r] = friendly


def set_factories(game: Game, nation: str, *region_ids: str) -> None:
    """The nation's factories are exactly these cities."""
    s = game.state
    for r in s.board.home[nation_of(game, nation)]:
        s.factory[r] = s.board.id(r) in region_ids


def set_flags(game: Game, nation: str, *region_ids: str) -> None:
    s = game.state
    n = nation_of(game, nation)
    s.flag = [NO if f == n else f for f in s.flag]
    for rid in region_ids:
        s.flag[region(game, rid)] = n


def give_bond(game: Game, name: str, nation: str, value: int) -> None:
    """Hand a bond from the pile to a player without any payment (position building)."""
    s = game.state
    k = s.rules.bond_costs.index(value)
    s.bond_owner[nation_of(game, nation)][k] = player(game, name)


def take_bond(game: Game, nation: str, value: int) -> None:
    """Put a bond back into the nation's pile (position building)."""
    s = game.state
    s.bond_owner[nation_of(game, nation)][s.rules.bond_costs.index(value)] = NO


def bonds_of(game: Game, name: str, nation: str) -> list[int]:
    s = game.state
    p = player(game, name)
    costs = s.rules.bond_costs
    return [costs[k] for k, o in enumerate(s.bond_owner[nation_of(game, nation)]) if o == p]


def set_rondel(game: Game, nation: str, space: str | None) -> None:
    game.state.rondel[nation_of(game, nation)] = NO if space is None else RONDEL_SPACES.index(space)


def give_turn(game: Game, nation: str, space: str | None = "__keep__") -> None:
    """Make it ``nation``'s turn, awaiting its rondel choice (optionally from ``space``)."""
    s = game.state
    n = nation_of(game, nation)
    if space != "__keep__":
        set_rondel(game, nation, space)
    assert s.government[n] != NO, f"{nation} has no government"
    s.turn = n
    s.todo = ()
    s.ctx = None
    s.turn_ctx = None
    s.awaiting_kind = "rondel"
    s.awaiting_player = s.government[n]
    s.awaiting_nation = n


def cash(game: Game, name: str) -> int:
    return game.state.cash[player(game, name)]


def set_cash(game: Game, name: str, amount: int) -> None:
    """Set a player's cash, keeping the money total constant through the bank."""
    s = game.state
    p = player(game, name)
    s.bank += s.cash[p] - amount
    s.cash[p] = amount


def treasury(game: Game, nation: str) -> int:
    return game.state.treasury[nation_of(game, nation)]


def set_treasury(game: Game, nation: str, amount: int) -> None:
    """Set a treasury, keeping the money total constant through the bank."""
    s = game.state
    n = nation_of(game, nation)
    s.bank += s.treasury[n] - amount
    s.treasury[n] = amount


def money_total(s: GameState) -> int:
    return s.bank + sum(s.treasury) + sum(s.cash)


def governor(game: Game, nation: str) -> str | None:
    g = game.state.government[nation_of(game, nation)]
    return None if g == NO else game.players[g]


def investor_holder(game: Game) -> str | None:
    h = game.state.investor_card
    return None if h == NO else game.players[h]


def finn_governs_nothing(game: Game) -> None:
    """6 players: Finn's RU 9M bond and RU's government go to Eve, so Finn governs nothing."""
    give_bond(game, "Eve", "RU", 9)
    game.state.government[nation_of(game, "RU")] = player(game, "Eve")


def play(game: Game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def pass_all_investors(game: Game) -> None:
    """Everyone asked to invest (or to choose a bond) passes."""
    while game.awaiting is not None and game.awaiting.kind in ("invest", "bond_choice"):
        game.apply(f"{game.awaiting.player} passes")


def texts(events) -> str:
    return "\n".join(e.text for e in events)
