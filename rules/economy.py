"""Factory, Production, Import and Taxation.

Each multi-unit choice is a sequence of small decisions ending in ``done`` (one import at a
time), never a list of combinations.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import BuildFactory, Import, Produce, made
from rules.common import (
    Events,
    await_decision,
    bank_pays,
    clear_await,
    code,
    counted,
    nname,
    possessive,
    power_gain,
    rname,
    say,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.state import MAP, NO, TRACKS, UNITS, GameState

FACTORY_COST = 5
IMPORT_LIMIT = 3
WIN_POWER = 25


def factory_sites(s: GameState, n: int) -> list[int]:
    """Own cities without a factory whose province is not occupied."""
    return [r for r in s.board.home[n] if not s.factory[r] and not s.occupied(r)]


def is_port(s: GameState, r: int) -> bool:
    return s.board.harbour_sea[r] != NO


# ------------------------------------------------------------------------------- factory


def step_factory(s: GameState, ev: Events) -> None:
    n = s.turn
    if not factory_sites(s, n):
        say(ev, s, n, f"{nname(s, n)} has no free unoccupied city for a factory")
        return
    await_decision(s, Decision.BUILD_FACTORY, s.government[n], n)


def legal_factory(s: GameState) -> list[BuildFactory]:
    n = s.turn
    c = code(s, n)
    out: list[BuildFactory] = []
    if s.treasury[n] >= FACTORY_COST:
        out = [made(BuildFactory, c, s.board.id(r)) for r in factory_sites(s, n)]
    out.append(made(BuildFactory, c, None))
    return out


def apply_factory(s: GameState, a: BuildFactory, ev: Events) -> None:
    n = s.turn
    if a.region is None:
        clear_await(s)
        say(ev, s, n, f"{nname(s, n)} builds no factory")
        return
    r = _own_region(s, n, a.region, "build a factory")
    if s.factory[r]:
        raise IllegalAction(f"{rname(s, r)} already has a factory; each city holds one")
    if s.occupied(r):
        raise IllegalAction(
            f"{rname(s, r)} is occupied by hostile armies; no factory can be built there"
        )
    if s.treasury[n] < FACTORY_COST:
        raise IllegalAction(
            f"{nname(s, n)} cannot afford {FACTORY_COST}M for a factory; its treasury holds "
            f"{s.treasury[n]}M"
        )
    s.treasury[n] -= FACTORY_COST
    s.bank += FACTORY_COST
    s.own(MAP)
    s.factory[r] = True
    clear_await(s)
    kind = s.board.regions[r].factory_type
    article = "an" if kind == "armaments" else "a"
    say(
        ev,
        s,
        n,
        f"{nname(s, n)} pays {FACTORY_COST}M to build {article} {kind} factory in {rname(s, r)}",
    )


def _own_region(s: GameState, n: int, region_id: str, what: str) -> int:
    r = s.board.index.get(region_id)
    if r is None:
        raise IllegalAction(f"there is no region {region_id!r} on the map")
    if s.board.owner[r] != n:
        raise IllegalAction(
            f"{nname(s, n)} can only {what} in its own home provinces; {rname(s, r)} is not one"
        )
    return r


# ------------------------------------------------------------------------------- production


@dataclass(frozen=True, slots=True)
class ProductionContext:
    pending: tuple[int, ...]  # factories that may still produce this turn


def _producible(s: GameState, n: int, pending: tuple[int, ...]) -> list[int]:
    armies = s.armies_in_supply(n) > 0
    fleets = s.fleets_in_supply(n) > 0
    return [r for r in pending if (fleets if is_port(s, r) else armies)]


def step_production(s: GameState, ev: Events) -> None:
    n = s.turn
    pending = tuple(r for r in s.factories_of(n) if not s.occupied(r))
    if not _producible(s, n, pending):
        why = "all its factories are occupied" if not pending else "its unit supply is empty"
        if not s.factories_of(n):
            why = "it has no factories"
        say(ev, s, n, f"{nname(s, n)} produces nothing: {why}")
        return
    await_decision(s, Decision.PRODUCE, s.government[n], n, ProductionContext(pending))


def legal_production(s: GameState) -> list[Produce]:
    n = s.turn
    c = code(s, n)
    ready = _producible(s, n, s.ctx.pending)
    out = []
    if len(ready) > 1:
        out.append(made(Produce, c, "all"))
    out += [made(Produce, c, s.board.id(r)) for r in ready]
    out.append(made(Produce, c, "done"))
    return out


def _produce_at(s: GameState, n: int, r: int, ev: Events) -> None:
    s.own(UNITS)
    if is_port(s, r):
        s.fleets[n][r] += 1
        say(ev, s, n, f"{nname(s, n)} produces a fleet in {rname(s, r)}")
    else:
        s.armies[n][r] += 1
        say(ev, s, n, f"{nname(s, n)} produces an army in {rname(s, r)}")


def apply_production(s: GameState, a: Produce, ev: Events) -> None:
    n = s.turn
    ctx: ProductionContext = s.ctx
    if a.region == "done":
        if ctx.pending:
            idle = ", ".join(rname(s, r) for r in ctx.pending)
            say(ev, s, n, f"{nname(s, n)} leaves idle: {idle}")
        clear_await(s)
        return
    if a.region == "all":
        ready = _producible(s, n, ctx.pending)
        if not ready:
            raise IllegalAction(f"{nname(s, n)} has no factory left that can produce")
        if len(ready) == 1:
            # Listed only for two or more factories, so that legal_actions() stays exact.
            raise IllegalAction(
                f"only {rname(s, ready[0])} can still produce: "
                f"'{code(s, n)} produce {s.board.id(ready[0])}'"
            )
        for r in ctx.pending:
            if r in _producible(s, n, (r,)):
                _produce_at(s, n, r, ev)
            else:
                say(ev, s, n, f"{rname(s, r)} produces nothing: no unit left in supply")
        clear_await(s)
        return
    r = _own_region(s, n, a.region, "produce")
    if not s.factory[r]:
        raise IllegalAction(f"{rname(s, r)} has no factory")
    if r not in ctx.pending:
        if s.occupied(r):
            raise IllegalAction(
                f"the factory in {rname(s, r)} is occupied by hostile armies and cannot produce"
            )
        raise IllegalAction(f"the factory in {rname(s, r)} has already produced this turn")
    if not _producible(s, n, (r,)):
        unit = "fleets" if is_port(s, r) else "armies"
        raise IllegalAction(f"{nname(s, n)} has no {unit} left in its supply")
    _produce_at(s, n, r, ev)
    pending = tuple(x for x in ctx.pending if x != r)
    if _producible(s, n, pending):
        s.ctx = ProductionContext(pending)
    else:
        clear_await(s)


# ------------------------------------------------------------------------------- import


@dataclass(frozen=True, slots=True)
class ImportContext:
    count: int = 0


def import_sites(s: GameState, n: int, unit: str) -> list[int]:
    """Where an imported unit may go (ignores money: a donation may still come)."""
    if unit == "army":
        if s.armies_in_supply(n) <= 0:
            return []
        return [r for r in s.board.home[n] if not s.occupied(r)]
    if s.fleets_in_supply(n) <= 0:
        return []
    need_yard = s.rules.import_fleet_needs_shipyard
    return [
        r
        for r in s.board.home[n]
        if is_port(s, r) and not s.occupied(r) and (s.factory[r] or not need_yard)
    ]


def step_import(s: GameState, ev: Events) -> None:
    n = s.turn
    if not import_sites(s, n, "army") and not import_sites(s, n, "fleet"):
        say(ev, s, n, f"{nname(s, n)} cannot import: no unit in supply or no free province")
        return
    await_decision(s, Decision.IMPORT, s.government[n], n, ImportContext())


def legal_import(s: GameState) -> list[Import]:
    n = s.turn
    c = code(s, n)
    out = []
    if s.treasury[n] >= 1:
        for unit in ("army", "fleet"):
            out += [made(Import, c, unit, s.board.id(r)) for r in import_sites(s, n, unit)]
    out.append(made(Import, c, None))
    return out


def apply_import(s: GameState, a: Import, ev: Events) -> None:
    n = s.turn
    ctx: ImportContext = s.ctx
    if a.unit is None:
        clear_await(s)
        say(
            ev,
            s,
            n,
            f"{nname(s, n)} imports {ctx.count} unit{'s' if ctx.count != 1 else ''}"
            f" in all ({ctx.count}M)",
        )
        return
    if a.region is None or a.unit not in ("army", "fleet"):
        raise IllegalAction("an import names a unit (army or fleet) and a province")
    r = _own_region(s, n, a.region, "import units")
    if s.occupied(r):
        raise IllegalAction(
            f"{rname(s, r)} is occupied by hostile armies; nothing can be imported into it"
        )
    if a.unit == "fleet":
        if not is_port(s, r):
            raise IllegalAction(
                f"{rname(s, r)} has no harbour; fleets can only be placed in light-blue port cities"
            )
        if s.rules.import_fleet_needs_shipyard and not s.factory[r]:
            raise IllegalAction(
                f"{rname(s, r)} has no shipyard (rule option import_fleet_needs_shipyard)"
            )
        if s.fleets_in_supply(n) <= 0:
            raise IllegalAction(f"{nname(s, n)} has no fleets left in its supply")
    elif s.armies_in_supply(n) <= 0:
        raise IllegalAction(f"{nname(s, n)} has no armies left in its supply")
    if s.treasury[n] < 1:
        raise IllegalAction(
            f"{nname(s, n)} cannot afford 1M for an import; its treasury holds {s.treasury[n]}M"
        )
    s.treasury[n] -= 1
    s.bank += 1
    s.own(UNITS)
    if a.unit == "fleet":
        s.fleets[n][r] += 1
    else:
        s.armies[n][r] += 1
    count = ctx.count + 1
    say(
        ev,
        s,
        n,
        f"{nname(s, n)} imports an {a.unit} into {rname(s, r)} (1M)"
        if a.unit == "army"
        else f"{nname(s, n)} imports a fleet into {rname(s, r)} (1M)",
    )
    if count >= IMPORT_LIMIT or (
        not import_sites(s, n, "army") and not import_sites(s, n, "fleet")
    ):
        clear_await(s)
        return
    s.ctx = ImportContext(count)


# ------------------------------------------------------------------------------- taxation


def tax_of(s: GameState, n: int) -> tuple[int, int, int]:
    """(tax, unoccupied factories, flags on the board)."""
    fac = sum(1 for r in s.factories_of(n) if not s.occupied(r))
    flags = s.flag.count(n)
    return 2 * fac + flags, fac, flags


def step_taxation(s: GameState, ev: Events) -> None:
    n = s.turn
    gov = s.government[n]
    tax, fac, flags = tax_of(s, n)
    level = min(15, max(5, tax))
    gained = max(0, level - s.tax_level[n])
    name = nname(s, n)
    what = f"{counted(fac, 'factory', 'factories')} × 2M + {counted(flags, 'flag', 'flags')}"
    say(ev, s, n, f"{name} taxes {tax}M ({what})")
    if gained and gov != NO:
        bonus = bank_pays(s, gained)
        s.cash[gov] += bonus
        say(
            ev,
            s,
            n,
            f"tax chart {s.tax_level[n]} → {level}: {s.players[gov]} receives a "
            f"{bonus}M success bonus",
        )
    elif level != s.tax_level[n]:
        say(ev, s, n, f"tax chart {s.tax_level[n]} → {level}")
    s.own(TRACKS)
    s.tax_level[n] = level
    units = s.units_of(n)
    income = tax - units
    upkeep = f"{units} unit{'s' if units != 1 else ''} cost{'s' if units == 1 else ''} {units}M"
    if income > 0:
        paid = bank_pays(s, income)
        s.treasury[n] += paid
        if units:
            say(ev, s, n, f"{possessive(name)} {upkeep}: its treasury receives {paid}M")
        else:
            say(ev, s, n, f"{name} has no units to pay: its treasury receives {paid}M")
    else:
        say(ev, s, n, f"{possessive(name)} {upkeep}: its treasury receives nothing")
    points = level - 5
    before = s.power[n]
    s.power[n] = min(WIN_POWER, before + points)
    say(ev, s, n, power_gain(name, points, before, s.power[n]))
    if s.power[n] >= WIN_POWER:
        s.ending = True
        say(ev, s, n, f"{name} reaches {WIN_POWER} power points: the game ends")
