"""Quick rules of thumb for every decision: the greedy player's moves inside a nation turn and
the default policy that search players use to play games forward (thousands of times a
decision, so each choice costs tens of microseconds, not a look-ahead).

Each choice comes with a short reason in plain words when asked (``explain=True``).
The habits this policy has on purpose: a nation fights when the battle pays (it frees a home
province or leaves the region to it), moves units that stand idle, keeps an army at home where
foreign armies are near, builds factories when it can pay, and does not take rondel turns that
do nothing or cost more than they bring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.actions import (
    Action,
    BuildFactory,
    Buy,
    ChooseRondel,
    EndManeuver,
    Import,
    NoFight,
    Pass,
    Produce,
    SwissBankForce,
)
from rules.bots.features import NationFigures, nation_figures, tax_potential
from rules.bots.style import PLAIN, Style
from rules.bots.tactics import (
    battle_choice,
    canal_answer,
    foreign_armies_near,
    home_threats,
    move_value,
    nation_of,
)
from rules.common import possessive
from rules.decisions import Decision
from rules.economy import FACTORY_COST, factory_sites, import_sites, is_port
from rules.rondel import SPACE_NAMES, distance, interest_shortfall, move_cost
from rules.state import NO, GameState
from rules.taxation import tax_plan

if TYPE_CHECKING:
    from rules.game import Ply

# an action and why (in words; "" unless asked)
Pick = tuple[Action, str]

WIN_POWER = 25
UNIT_CAP = 9  # beyond this many units a nation rarely finds work for more


def interest_of(s: GameState, n: int) -> list[int]:
    """Interest per player in nation ``n``."""
    out = [0] * len(s.players)
    for k, o in enumerate(s.bond_owner[n]):
        if o != NO:
            out[o] += k + 1
    return out


class Policy:
    """The rules of thumb. ``pick`` returns an action (and a reason when asked)."""

    def __init__(self, rng: random.Random, style: Style = PLAIN) -> None:
        self.rng = rng
        self.style = style

    # -- dispatch ----------------------------------------------------------------------------
    def pick(self, s: GameState, actions: list[Action], explain: bool = False) -> Pick:
        if len(actions) == 1:
            return actions[0], ""
        kind = s.awaiting_kind
        if kind == Decision.RONDEL:
            return self.rondel(s, actions, explain)
        if kind == Decision.MANEUVER:
            return self.maneuver(s, actions, explain)
        if kind == Decision.BATTLE:
            return self.battle(s, actions, explain)
        if kind in (Decision.INVEST, Decision.BOND_CHOICE):
            return self.invest(s, actions, explain)
        if kind == Decision.PRODUCE:
            return self.production(s, actions, explain)
        if kind == Decision.IMPORT:
            return self.imports(s, actions, explain)
        if kind == Decision.BUILD_FACTORY:
            return self.factory(s, actions, explain)
        if kind == Decision.SWISS_BANK:
            return self.swiss(s, actions, explain)
        if kind == Decision.CANAL:
            action, why = canal_answer(s, actions)
            return action, why if explain else ""
        closing = [a for a in actions if isinstance(a, Pass | NoFight | EndManeuver)]
        return (closing or actions)[-1], ""

    def _jitter(self) -> float:
        return self.rng.random() * self.style.noise if self.style.noise else 0.0

    # -- rondel ------------------------------------------------------------------------------
    def rondel_scores(
        self, s: GameState, actions: list[Action]
    ) -> list[tuple[float, ChooseRondel]]:
        """A quick value for each rondel space: what it brings now, minus its fee."""
        n = s.turn
        gov = s.government[n]
        units = s.units_of(n)
        tax = tax_potential(s, n)
        out: list[tuple[float, ChooseRondel]] = []
        for a in actions:
            if not isinstance(a, ChooseRondel):
                continue
            target = _space_index(a.space)
            space = a.space.rstrip("12")
            v = space_value(s, n, gov, space, tax, units, self.style)
            fee = move_cost(s, n, target)
            v -= fee * 0.6 * self.style.thrift
            v -= 0.03 * distance(s.rondel[n], target)
            out.append((v + self._jitter(), a))
        return out

    def rondel(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        scores = self.rondel_scores(s, actions)
        best = max(scores, key=lambda t: t[0])[1]
        return best, (rondel_reason(s, best) if explain else "")

    # -- maneuver ----------------------------------------------------------------------------
    def maneuver(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        n = s.turn
        threat = home_threats(s, n)
        best: Action | None = None
        best_v = 0.05  # a move must gain something; otherwise end the maneuver
        best_why = ""
        for a in actions:
            v, why = move_value(s, n, a, threat, self.style)
            if v <= 0:
                continue
            v += self._jitter() * 0.3
            if v > best_v:
                best, best_v, best_why = a, v, why
        if best is None:
            end = next(a for a in actions if isinstance(a, EndManeuver))
            return end, ("ends the maneuver: no move gains anything" if explain else "")
        return best, best_why if explain else ""

    def battle(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        best, why = battle_choice(s, actions, self.style)
        return best, why if explain else ""

    # -- economy -----------------------------------------------------------------------------
    def production(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        n = s.turn
        done = next(a for a in actions if isinstance(a, Produce) and a.region == "done")
        if s.units_of(n) >= UNIT_CAP:
            return done, ("produces no more: enough units" if explain else "")
        every = next((a for a in actions if isinstance(a, Produce) and a.region == "all"), None)
        if every is not None:
            return every, ("produces in every factory" if explain else "")
        one = next(a for a in actions if isinstance(a, Produce) and a.region not in ("all", "done"))
        return one, (f"produces in {_rname(s, one.region)}" if explain else "")

    def imports(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        n = s.turn
        done = next(a for a in actions if isinstance(a, Import) and a.unit is None)
        reserve = (interest_shortfall(s, n) + 1) if s.government[n] != NO else 1
        units = [a for a in actions if isinstance(a, Import) and a.unit is not None]
        if not units or s.treasury[n] - 1 < reserve // 2 or s.units_of(n) >= UNIT_CAP:
            return done, ("stops importing: keeps the treasury" if explain else "")
        armies = [a for a in units if a.unit == "army"]
        fleets = [a for a in units if a.unit == "fleet"]
        pool = armies
        if fleets and (not armies or sum(s.fleets[n]) < sum(s.armies[n]) / 2):
            pool = fleets
        pick = min(pool, key=lambda a: (_crowd(s, a.region), a.region))
        why = f"imports an {pick.unit} into {_rname(s, pick.region)}: more units for flags"
        if pick.unit == "fleet":
            why = f"imports a fleet into {_rname(s, pick.region)}: more units for flags"
        return pick, why if explain else ""

    def factory(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        n = s.turn
        builds = [a for a in actions if isinstance(a, BuildFactory) and a.region]
        if not builds:
            return actions[-1], ("builds no factory: cannot pay" if explain else "")
        fleets_short = s.fleets_in_supply(n) > 0 and not any(
            is_port(s, r) for r in s.factories_of(n)
        )

        def rank(a: BuildFactory) -> tuple[int, int, str]:
            region = a.region or ""  # (builds name a region)
            r = s.board.index[region]
            threat = foreign_armies_near(s, n, r)
            port = is_port(s, r)
            return (threat, 0 if port == fleets_short else 1, region)

        pick = min(builds, key=rank)
        return pick, (
            f"builds a factory in {_rname(s, pick.region)}: +2M tax each taxation"
            if explain
            else ""
        )

    def swiss(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        n = s.turn
        p = s.awaiting_player
        mine = interest_of(s, n)[p]
        force = next(a for a in actions if isinstance(a, SwissBankForce) and a.force)
        let = next(a for a in actions if isinstance(a, SwissBankForce) and not a.force)
        if mine > 0 and s.treasury[n] >= sum(interest_of(s, n)):
            return force, (
                f"forces {s.board.codes[n]} to Investor: its interest pays {mine}M"
                if explain
                else ""
            )
        return let, ("lets it pass: nothing to gain" if explain else "")

    # -- investing ---------------------------------------------------------------------------
    def invest_scores(self, s: GameState, actions: list[Action]) -> list[tuple[float, Action]]:
        p = s.awaiting_player
        costs = s.rules.bond_costs
        figures = nation_figures(s)
        out: list[tuple[float, Action]] = []
        for a in actions:
            if not isinstance(a, Buy):
                out.append((0.0, a))
                continue
            out.append((buy_value(s, p, a, costs, figures) + self._jitter(), a))
        return out

    def invest(self, s: GameState, actions: list[Action], explain: bool) -> Pick:
        scores = self.invest_scores(s, actions)
        v, best = max(scores, key=lambda t: t[0])
        if v <= 0 or not isinstance(best, Buy):
            passing = next((a for a in actions if isinstance(a, Pass)), actions[-1])
            return passing, ("passes: no bond is worth its price now" if explain else "")
        return best, buy_reason(s, s.awaiting_player, best) if explain else ""


# ------------------------------------------------------------------------------ rondel values


def _space_index(space: str) -> int:
    from rules.actions import RONDEL_SPACES

    return RONDEL_SPACES.index(space)


def space_value(
    s: GameState, n: int, gov: int, space: str, tax: int, units: int, style: Style = PLAIN
) -> float:
    """What landing on ``space`` brings nation ``n`` (and its government) now, roughly in
    millions; negative for a turn that would do nothing."""
    if space == "taxation" and s.rules.taxation == "2030":
        plan = tax_plan(s, n)  # Imperial 2030: the table's points and a bonus from the treasury
        if plan.points <= 0 and plan.bonus <= 0:
            return -2.0
        return plan.points * 1.1 + plan.bonus * 0.8 + plan.treasury_gain * 0.35
    if space == "taxation":
        level = min(15, max(5, tax))
        gain = min(WIN_POWER - s.power[n], level - 5)
        bonus = max(0, level - s.tax_level[n])
        income = max(0, tax - units)
        if gain <= 0 and bonus <= 0 and income <= 0:
            return -2.0
        return gain * 1.1 + bonus * 0.8 + income * 0.35
    if space == "factory":
        if s.treasury[n] >= FACTORY_COST and factory_sites(s, n):
            return 4.0 - 0.4 * len(s.factories_of(n))
        return -2.0
    if space == "production":
        ready = [r for r in s.factories_of(n) if not s.occupied(r)]
        armies = s.armies_in_supply(n) > 0
        fleets = s.fleets_in_supply(n) > 0
        k = sum(1 for r in ready if (fleets if is_port(s, r) else armies))
        if k == 0:
            return -2.0
        room = max(0, UNIT_CAP - units)
        return min(k, room) * 0.9 * style.expansion + (0.0 if room else -1.0)
    if space == "import":
        if s.treasury[n] < 2 or not (import_sites(s, n, "army") or import_sites(s, n, "fleet")):
            return -2.0
        room = max(0, UNIT_CAP - units)
        return min(3, s.treasury[n] - 1, room) * 0.6 * style.expansion - 0.5
    if space == "maneuver":
        if units == 0:
            return -2.0
        return maneuver_prospect(s, n) * style.expansion
    if space == "investor":
        owed = interest_of(s, n)
        others = sum(owed) - (owed[gov] if gov != NO else 0)
        if others > s.treasury[n]:
            return -1.5 - 0.2 * (others - s.treasury[n])
        own = min(owed[gov] if gov != NO else 0, s.treasury[n] - others)
        return own * 0.9 - others * 0.3 + 0.3
    return 0.0


def maneuver_prospect(s: GameState, n: int) -> float:
    """About how many flags (and freed home provinces) a Maneuver could win now: units that
    stand where they gain nothing, each next to a region it could flag."""
    board = s.board
    gain = 0.0
    targets: set[int] = set()
    for r in range(len(board.regions)):
        here = s.armies[n][r] + s.fleets[n][r]
        if not here:
            continue
        owner = board.owner[r]
        for d in board.land_neighbours[r] if s.armies[n][r] else ():
            if board.owner[d] == n and s.occupied(d):
                gain += 1.5
            elif (
                board.regions[d].kind == "land"
                and s.flag[d] != n
                and d not in targets
                and not any(s.armies[m][d] for m in range(len(s.armies)) if m != n)
            ):
                targets.add(d)
        for d in board.sea_neighbours[r] if s.fleets[n][r] else ():
            if s.flag[d] != n and d not in targets:
                targets.add(d)
        if owner == n and s.occupied(r):
            gain += 1.5
    gain += min(len(targets), s.units_of(n)) * 0.9
    return gain - 0.5


# ------------------------------------------------------------------------------ investing


def buy_value(
    s: GameState,
    p: int,
    a: Buy,
    costs: tuple[int, ...],
    figures: list[NationFigures] | None = None,
) -> float:
    """What a bond purchase is worth to player ``p`` beyond its price: its interest times
    the nation's prospects, and the government it takes or keeps."""
    n = nation_of(s, a.nation)
    f = (figures or nation_figures(s))[n]
    k = costs.index(a.value)
    price = a.value - (a.returning or 0)
    interest = k + 1 - (costs.index(a.returning) + 1 if a.returning else 0)
    prospect = min(5.0, (s.power[n] + 2 * max(0, f.tax - 5)) / 5.0) + 1.0
    v = interest * prospect - price * 0.55
    credits = f.credits
    mine = credits[p] + price
    others = max((c for q, c in enumerate(credits) if q != p), default=0)
    gov = s.government[n]
    if gov != p and mine > others:
        v += 7.0 + (2.0 if gov != NO else 0.0)
    elif gov == p and others >= credits[p] - 2 and mine > others:
        v += 4.0
    if p in s.government and gov not in (p, NO) and mine <= credits[gov]:
        v -= 1.0  # money spent in a rival's nation helps the rival govern
    return v


def buy_reason(s: GameState, p: int, a: Buy) -> str:
    n = nation_of(s, a.nation)
    name = s.board.nations[n].name
    costs = s.rules.bond_costs
    credits = [0] * len(s.players)
    for j, o in enumerate(s.bond_owner[n]):
        if o != NO:
            credits[o] += costs[j]
    price = a.value - (a.returning or 0)
    mine = credits[p] + price
    others = max((c for q, c in enumerate(credits) if q != p), default=0)
    gov = s.government[n]
    what = f"buys {a.nation} {a.value}"
    if a.returning:
        what += f" (returning {a.returning})"
    if gov != p and mine > others:
        if gov == NO:
            return f"{what}: forms {possessive(name)} government"
        return f"{what}: takes {possessive(name)} government from {s.players[gov]}"
    if gov == p:
        return f"{what}: keeps {possessive(name)} government safe"
    k = costs.index(a.value)
    return f"{what}: {k + 1}M interest in a nation at {s.power[n]} power"


# ------------------------------------------------------------------------------ helpers


def rondel_reason(s: GameState, a: ChooseRondel) -> str:
    """'taxation: tax 12M: treasury +5M, power +7' — from the same preview the app shows."""
    from rules.preview import effect_text

    n = s.turn
    space = a.space
    text = f"{SPACE_NAMES[space].lower()}: {effect_text(s, n, space)}"
    fee = move_cost(s, n, _space_index(space))
    if fee:
        text += f" (pays {fee}M)"
    return text


def _rname(s: GameState, rid: str | None) -> str:
    r = s.board.index.get(rid or "")
    return s.board.regions[r].name if r is not None else rid or ""


def _crowd(s: GameState, rid: str | None) -> int:
    r = s.board.index.get(rid or "", 0)
    return sum(s.armies[m][r] + s.fleets[m][r] for m in range(len(s.armies)))


# ------------------------------------------------------------------------------ no stalling

PATIENCE = 8  # own turns a nation may go without taxing while taxing would gain power


def overdue_taxation(
    game_plies: Sequence[Ply], s: GameState, actions: list[Action]
) -> ChooseRondel | None:
    """Taxation, when the nation to move has not taxed in its last ``PATIENCE`` turns though
    taxing would gain power, else None. A player who is behind could otherwise refuse to tax
    for ever, and Imperial only ends when a nation reaches 25 power points."""
    tax = next((a for a in actions if isinstance(a, ChooseRondel) and a.space == "taxation"), None)
    if tax is None:
        return None
    n = s.turn
    level = min(15, max(5, tax_potential(s, n)))
    if level <= 5 or s.power[n] >= WIN_POWER:
        return None
    code = s.board.codes[n]
    turns = 0
    for ply in reversed(game_plies):
        a = ply.action
        if isinstance(a, ChooseRondel) and a.nation == code:
            if a.space == "taxation":
                return None
            turns += 1
            if turns >= PATIENCE:
                return tax
    return None
