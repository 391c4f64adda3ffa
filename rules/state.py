"""The position: plain lists of ints so that a copy costs microseconds, not a deepcopy.

Nations, players and regions are small integer indices here (nations in turn order, players in
seating order clockwise, regions as numbered by the board). Everything that only lives during
one decision (the import count, the maneuver's moved units, the queue of investors) is an
immutable value replaced on change, so ``copy()`` can share it.

The engine does not even copy what an action leaves alone: ``fork()`` shares the groups of
lists that most actions never touch (bonds and governments, units, factories and flags, the
power/tax/rondel tracks) with the position before, and a rule step calls ``own(GROUP)`` before
it changes one of them. That keeps the snapshot for undo cheap, and it spares the garbage
collector (which walks every list kept in the history) most of its work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from maps import Board
from rules.decisions import Decision
from rules.ruleset import RuleSet

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rules.actions import Action

NO = -1  # "nobody" / "nowhere" in index fields
_new_state = object.__new__
_copy_bytes = bytearray.copy

# Groups of fields that ``fork()`` shares until a rule step calls ``own()``.
BONDS = 1  # bond_owner, government, flag_claim, flag_min_bond
UNITS = 2  # armies, fleets, friendly
MAP = 4  # factory, flag
TRACKS = 8  # power, tax_level, rondel
ALL_GROUPS = BONDS | UNITS | MAP | TRACKS


@dataclass(frozen=True, slots=True)
class Awaiting:
    """Who must decide what next. ``nation`` is the nation concerned, or None."""

    player: str
    kind: Decision
    nation: str | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One line for the log, in plain words. ``nation`` groups it under a nation's turn."""

    text: str
    nation: str | None = None


class Listing:
    """The legal actions the engine listed for one position, and (once asked) the identities
    of those objects, so that ``rules.engine.apply`` recognises its own listed actions."""

    __slots__ = ("_ids", "actions")

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = actions
        self._ids: frozenset[int] | None = None

    def __reduce__(self) -> tuple[type[Listing], tuple[Sequence[Action]]]:
        # identities mean nothing in another process or copy: they are taken afresh there
        return (Listing, (self.actions,))

    def holds(self, action: object) -> bool:
        """``action`` is one of the listed objects themselves (not merely an equal one)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = frozenset(map(id, self.actions))
        return id(action) in ids


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
    awaiting_kind: Decision | None = None
    awaiting_player: int = NO
    awaiting_nation: int = NO
    ctx: Any = None  # the current decision's own data (immutable)
    turn_ctx: Any = None  # data for the whole nation turn (immutable)
    ending: bool = False  # a nation reached 25 power points; finish after this turn
    finished: bool = False
    free_invested: frozenset[int] = field(default_factory=frozenset)
    # groups still shared with the position this one was forked from (see ``fork``)
    shared: int = field(default=0, compare=False, repr=False)
    # The actions the engine listed for this position (``rules.engine.legal_actions``): an
    # action applied that is one of these very objects needs no checking. Not part of the
    # position: copies and forks start without it, and ``Game.state`` (the position handed
    # out to be read or set up) drops it.
    listed: Listing | None = field(default=None, compare=False, repr=False)
    # What listing the position found out, for the next position's list (a Maneuver's: see
    # ``rules.maneuver_moves.ManeuverList``). Not part of the position either: forks and
    # copies start without it, and ``Game.state`` drops it.
    known: Any = field(default=None, compare=False, repr=False)

    def copy(self) -> GameState:
        """A copy that shares nothing mutable with this state: a fork that owns every field
        group at once (one field list to keep, in ``fork``)."""
        new = self.fork()
        new.own(ALL_GROUPS)
        return new

    def fork(self) -> GameState:
        """The engine's working copy: like ``copy()``, but the field groups that most actions
        leave alone are shared with this state until ``own()`` is called for them. Only the
        engine forks; everything it hands out (``Game.state``) owns all its fields."""
        new = _new_state(GameState)
        new.rules = self.rules
        new.board = self.board
        new.players = self.players
        new.cash = self.cash[:]
        new.bank = self.bank
        new.treasury = self.treasury[:]
        new.power = self.power
        new.tax_level = self.tax_level
        new.rondel = self.rondel
        new.government = self.government
        new.bond_owner = self.bond_owner
        new.armies = self.armies
        new.fleets = self.fleets
        new.friendly = self.friendly
        new.factory = self.factory
        new.flag = self.flag
        new.investor_card = self.investor_card
        new.flag_min_bond = self.flag_min_bond
        new.flag_claim = self.flag_claim
        new.turn = self.turn
        new.round = self.round
        new.todo = self.todo
        new.awaiting_kind = self.awaiting_kind
        new.awaiting_player = self.awaiting_player
        new.awaiting_nation = self.awaiting_nation
        new.ctx = self.ctx
        new.turn_ctx = self.turn_ctx
        new.ending = self.ending
        new.finished = self.finished
        new.free_invested = self.free_invested
        new.shared = ALL_GROUPS
        new.listed = None
        new.known = None
        return new

    def own(self, groups: int) -> None:
        """Copy the shared field groups named (``BONDS | UNITS`` ...) before changing them.
        Every rule step that changes a list of these groups calls this first, before it
        takes any reference to the list."""
        shared = self.shared & groups
        if not shared:
            return
        if shared & BONDS:
            self.bond_owner = [b[:] for b in self.bond_owner]
            self.government = self.government[:]
            self.flag_claim = self.flag_claim[:]
            self.flag_min_bond = self.flag_min_bond[:]
        if shared & UNITS:
            self.armies = list(map(_copy_bytes, self.armies))
            self.fleets = list(map(_copy_bytes, self.fleets))
            self.friendly = list(map(_copy_bytes, self.friendly))
        if shared & MAP:
            self.factory = self.factory[:]
            self.flag = self.flag[:]
        if shared & TRACKS:
            self.power = self.power[:]
            self.tax_level = self.tax_level[:]
            self.rondel = self.rondel[:]
        self.shared &= ~shared

    # -- derived figures (cheap, used everywhere) --------------------------------------------
    @property
    def n_nations(self) -> int:
        return len(self.treasury)

    def credit(self, player: int, nation: int) -> int:
        costs = self.rules.bond_costs
        return sum(costs[k] for k, o in enumerate(self.bond_owner[nation]) if o == player)

    def credits(self, nation: int) -> list[int]:
        """Every player's credit in ``nation`` (one pass over its bonds)."""
        out = [0] * len(self.players)
        for cost, o in zip(self.rules.bond_costs, self.bond_owner[nation], strict=False):
            if o != NO:
                out[o] += cost
        return out

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
        friendly = self.friendly
        for n, armies in enumerate(self.armies):
            if armies[region] > friendly[n][region] and n != owner:
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
