"""The position: plain lists of ints so that a copy costs microseconds, not a deepcopy.

Nations, players and regions are small integer indices here (nations in turn order, players in
seating order clockwise, regions as numbered by the board). Everything that only lives during
one decision (the import count, the maneuver's moved units, the queue of investors) is an
immutable value replaced on change, so ``copy()`` can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from maps import Board
from rules.ruleset import RuleSet

NO = -1  # "nobody" / "nowhere" in index fields


@dataclass(frozen=True, slots=True)
class Awaiting:
    """Who must decide what next. ``nation`` is the nation concerned, or None."""

    player: str
    kind: str
    nation: str | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One line for the log, in plain words. ``nation`` groups it under a nation's turn."""

    text: str
    nation: str | None = None


@dataclass(slots=True)
class GameState:
    """The whole position. Mutated only by ``rules.engine`` on a fresh copy."""

    rules: RuleSet
    board: Board
    players: tuple[str, ...]
    cash: list[int]
    bank: int
    treasury: list[int]
    power: list[int]
    tax_level: list[int]
    rondel: list[int]
    government: list[int]
    bond_owner: list[list[int]]  # [nation][bond index] -> player or NO
    # Unit counts are bytearrays (one per nation, indexed by region): a copy is a memcpy and
    # a snapshot for undo costs ~60 bytes per nation, and a count can never go negative.
    armies: list[bytearray]  # [nation][region]
    fleets: list[bytearray]  # [nation][region]; in a province = in its port
    friendly: list[bytearray]  # [nation][region] friendly armies among armies
    factory: list[bool]  # [region]
    flag: list[int]  # [region] -> nation or NO
    investor_card: int
    flag_min_bond: list[int]  # [nation] bond value needed to claim an ungoverned nation
    flag_claim: list[int]  # [nation] first player granting a qualifying bond, or NO
    # -- turn and decision ------------------------------------------------------------------
    turn: int = NO  # nation whose turn it is
    round: int = 0
    todo: tuple[tuple[Any, ...], ...] = ()
    awaiting_kind: str | None = None
    awaiting_player: int = NO
    awaiting_nation: int = NO
    ctx: Any = None  # the current decision's own data (immutable)
    turn_ctx: Any = None  # data for the whole nation turn (immutable)
    ending: bool = False  # a nation reached 25 power points; finish after this turn
    finished: bool = False
    free_invested: frozenset[int] = field(default_factory=frozenset)

    def copy(self) -> GameState:
        """A copy that shares nothing mutable with this state."""
        return GameState(
            rules=self.rules,
            board=self.board,
            players=self.players,
            cash=self.cash[:],
            bank=self.bank,
            treasury=self.treasury[:],
            power=self.power[:],
            tax_level=self.tax_level[:],
            rondel=self.rondel[:],
            government=self.government[:],
            bond_owner=[b[:] for b in self.bond_owner],
            armies=[a[:] for a in self.armies],
            fleets=[f[:] for f in self.fleets],
            friendly=[f[:] for f in self.friendly],
            factory=self.factory[:],
            flag=self.flag[:],
            investor_card=self.investor_card,
            flag_min_bond=self.flag_min_bond[:],
            flag_claim=self.flag_claim[:],
            turn=self.turn,
            round=self.round,
            todo=self.todo,
            awaiting_kind=self.awaiting_kind,
            awaiting_player=self.awaiting_player,
            awaiting_nation=self.awaiting_nation,
            ctx=self.ctx,
            turn_ctx=self.turn_ctx,
            ending=self.ending,
            finished=self.finished,
            free_invested=self.free_invested,
        )

    # -- derived figures (cheap, used everywhere) --------------------------------------------
    @property
    def n_nations(self) -> int:
        return len(self.treasury)

    def credit(self, player: int, nation: int) -> int:
        costs = self.rules.bond_costs
        return sum(costs[k] for k, o in enumerate(self.bond_owner[nation]) if o == player)

    def interest_owed(self, nation: int) -> list[int]:
        """Interest per player for this nation's bonds (interest = bond index + 1)."""
        owed = [0] * len(self.players)
        for k, o in enumerate(self.bond_owner[nation]):
            if o != NO:
                owed[o] += k + 1
        return owed

    def governs(self, player: int) -> list[int]:
        return [n for n, g in enumerate(self.government) if g == player]

    def governs_nothing(self, player: int) -> bool:
        return player not in self.government

    def hostile(self, nation: int, region: int) -> int:
        return self.armies[nation][region] - self.friendly[nation][region]

    def occupied(self, region: int) -> bool:
        """A home province with at least one hostile foreign army (never true elsewhere)."""
        owner = self.board.owner[region]
        if owner == NO:
            return False
        for n in range(len(self.armies)):
            if n != owner and self.armies[n][region] > self.friendly[n][region]:
                return True
        return False

    def armies_in_supply(self, nation: int) -> int:
        return self.board.nations[nation].armies - sum(self.armies[nation])

    def fleets_in_supply(self, nation: int) -> int:
        return self.board.nations[nation].fleets - sum(self.fleets[nation])

    def flags_in_supply(self, nation: int) -> int:
        return self.rules.flags_per_nation - self.flag.count(nation)

    def factories_of(self, nation: int) -> list[int]:
        return [r for r in self.board.home[nation] if self.factory[r]]

    def units_of(self, nation: int) -> int:
        return sum(self.armies[nation]) + sum(self.fleets[nation])

    def foreign_units_in(self, region: int, nation: int) -> list[int]:
        """Other nations with any unit in the region."""
        return [
            m
            for m in range(len(self.armies))
            if m != nation and (self.armies[m][region] or self.fleets[m][region])
        ]
