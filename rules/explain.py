"""Why an action is legal or illegal here, citing the rule (``imperial explain``).

Legality is never decided here: the action is applied on a copy of the game through the
engine, exactly as ``Game.apply`` would. This module only adds the rule the engine applied (the
rules page and its section, and the RULES.md paragraph) and, where the engine's one-line reason
leaves it open, the specific cause: which province cuts the rail, which nation's army holds it.
The diagnosis uses the engine's own geometry (``rules.maneuver``) on hypothetical copies of the
position; nothing here re-implements a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.actions import (
    RONDEL_SPACES,
    Action,
    BuildFactory,
    Buy,
    CanalPassage,
    ChangeStatus,
    ChooseRondel,
    DestroyFactory,
    Donate,
    EndManeuver,
    Fight,
    Import,
    MoveArmy,
    MoveFleet,
    NoFight,
    NotationError,
    Pass,
    Produce,
    SwissBankForce,
    action_problem,
    parse_action,
)
from rules.canals import crossed, gates
from rules.common import code, possessive
from rules.decisions import Decision
from rules.donations import DonationRoute, donation_route
from rules.engine import DECISIONS, NATION_ACTIONS
from rules.errors import IllegalAction
from rules.game import Game
from rules.maneuver import ManeuverContext, Rail, army_destinations
from rules.rondel import FLAT_STEP_PRICE, cost_of, distance, passes_investor, step_price
from rules.state import NO, Event, GameState


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Where a rule is written: a page of ``imperial rules`` (F1 in the app), the part of it,
    and the paragraph of the rules reference (RULES.md)."""

    page: str  # topic of `imperial rules`
    title: str  # the page as players name it
    section: str
    paragraph: str
    document: str = "RULES.md"  # RULES_2030.md for a rule of Imperial 2030

    def short(self) -> str:
        """``Maneuver, rail``: the citation after a reason."""
        return f"{self.title}, {self.section}"

    def where(self) -> str:
        return f"`imperial rules {self.page}`, {self.document} {self.paragraph}"


def _ref(
    page: str, title: str, section: str, paragraph: str, document: str = "RULES.md"
) -> RuleRef:
    return RuleRef(page, title, section, paragraph, document)


TURN = _ref("overview", "Sequence of play", "whose decision", "§3.1")
GAME_OVER = _ref("scoring", "End of the game", "no more actions", "§7")
NOTATION = _ref("overview", "Action notation", "docs/ACTIONS.md", "-")
RONDEL = _ref("rondel", "Rondel", "moving the marker", "§3.3")
RONDEL_COST = _ref("rondel", "Rondel", "cost of the move", "§3.3")
INTEREST = _ref("investor", "Investor", "interest the treasury cannot pay", "§5.5.1")
FACTORY_SPACE = _ref("factory", "Factory", "choosing Factory without a site", "§5.1")
SWISS = _ref("rondel", "Rondel", "Swiss bank", "§3.5")
BUILD = _ref("factory", "Factory", "building", "§5.1")
PRODUCE = _ref("factory", "Production", "producing", "§5.2")
IMPORT = _ref("import", "Import", "importing", "§5.3")
FLEETS = _ref("maneuver", "Maneuver", "fleets", "§5.4.1")
ARMIES = _ref("maneuver", "Maneuver", "armies", "§5.4.2")
RAIL = _ref("maneuver", "Maneuver", "rail", "§5.4.2")
CONVOY = _ref("maneuver", "Maneuver", "convoy", "§5.4.2")
ENTRY = _ref("maneuver", "Maneuver", "another nation's home province", "§5.4.3, §4.2")
LAST_FACTORY = _ref("maneuver", "Maneuver", "last factory", "§4.3")
STATUS = _ref("maneuver", "Maneuver", "hostile and friendly", "§4.2")
BATTLE = _ref("maneuver", "Maneuver", "battles", "§5.4.4")
DESTROY = _ref("maneuver", "Maneuver", "destroying a factory", "§5.4.5")
FLAGS = _ref("maneuver", "Maneuver", "flags", "§5.4.6")
INVEST = _ref("investor", "Investor", "investing", "§5.5.2, §5.5.3")
UPGRADE = _ref("investor", "Investor", "upgrading a bond", "§5.5.2")
GOVERNMENT = _ref("investor", "Investor", "the government check", "§5.5.5")
BOND_ROUNDS = _ref("variants", "Variants", "experienced players' bond rounds", "§2.5")
NO_CARD = _ref("variants", "Variants", "without investor card", "§6")
DONATE = _ref("overview", "Money", "donations", "§1.5")  # (any time, not only at Import)
CANAL = _ref("2030", "Imperial 2030", "canals", "§2.3", "RULES_2030.md")
RONDEL_COST_2030 = _ref("2030", "Imperial 2030", "cost of a rondel move", "§3", "RULES_2030.md")

ALL_REFS = (
    TURN,
    GAME_OVER,
    RONDEL,
    RONDEL_COST,
    INTEREST,
    FACTORY_SPACE,
    SWISS,
    BUILD,
    PRODUCE,
    IMPORT,
    FLEETS,
    ARMIES,
    RAIL,
    CONVOY,
    ENTRY,
    LAST_FACTORY,
    STATUS,
    BATTLE,
    DESTROY,
    FLAGS,
    INVEST,
    UPGRADE,
    GOVERNMENT,
    BOND_ROUNDS,
    NO_CARD,
    DONATE,
    RONDEL_COST_2030,
    CANAL,
)


@dataclass(slots=True)
class Explanation:
    """The answer to "may I do this here, and why (not)?"."""

    action: str  # the action as written (or in notation when it parsed)
    legal: bool
    why: str  # the specific cause (illegal) or how the action works here (legal)
    rule: RuleRef
    engine_reason: str = ""  # the engine's own reason when illegal
    events: list[Event] = field(default_factory=list)  # what it would do, when legal
    donation: DonationRoute | None = None  # illegal, but legal after this donation

    def headline(self) -> str:
        """``illegal: <cause> (Maneuver, rail)`` or ``legal: <how> (Maneuver, armies)``."""
        return f"{'legal' if self.legal else 'illegal'}: {self.why} ({self.rule.short()})"


def explain(game: Game, text: str | Action) -> Explanation:
    """Explain one action in the game's current position (``game`` is not changed)."""
    if isinstance(text, str):
        try:
            action = parse_action(text)
        except NotationError as exc:
            return Explanation(text, False, str(exc), _notation_rule(str(exc)), str(exc))
    else:
        action = text
        problem = action_problem(action)
        if problem is not None:  # built by a program, not written: no rule's refusal
            return Explanation(repr(action), False, problem, NOTATION, problem)
    trial = game.copy()
    try:
        events = trial.apply(action)
    except IllegalAction as exc:
        rule, cause = _illegal(game, action, exc.reason)
        why = cause or exc.reason
        route = donation_route(game, action)
        if route is not None:  # short of money only: the government may donate first
            why = f"{why}; {route.words()}"
        return Explanation(str(action), False, why, rule, exc.reason, donation=route)
    rule, how = _legal(game, action)
    return Explanation(str(action), True, how, rule, "", events)


# --------------------------------------------------------------------------- illegal


def _notation_rule(message: str) -> RuleRef:
    """Text that is no action cites the notation; but one refusal of the notation reader is a
    rule: a bond returned for one of another nation (an upgrade stays within one nation)."""
    if "returned for a bond of the same nation" in message:
        return UPGRADE
    return NOTATION


def _turn_problem(game: Game, action: Action) -> bool:
    """The action is not the current decision's (another actor, or another kind)."""
    s = game.state
    if isinstance(action, Donate) or s.awaiting_kind is None:
        return False
    if isinstance(action, NATION_ACTIONS):
        if (
            action.actor not in s.board.codes
            or s.board.codes.index(action.actor) != s.awaiting_nation
        ):
            return True
    elif action.actor.casefold() != s.players[s.awaiting_player].casefold():
        return True
    return type(action) not in DECISIONS[s.awaiting_kind][1]


def _illegal(game: Game, action: Action, reason: str) -> tuple[RuleRef, str]:
    s = game.state
    if s.finished:
        return GAME_OVER, ""
    if _turn_problem(game, action):
        return TURN, ""
    if isinstance(action, ChooseRondel):  # the refusals of rules.rondel.rondel_refusal
        if "cannot choose Investor" in reason:
            return INTEREST, ""
        if "cannot pay" in reason:  # (Imperial 2030 prices a move by the power factor)
            return (RONDEL_COST if s.rules.game == "imperial" else RONDEL_COST_2030), ""
        if "may not choose Factory" in reason:
            return FACTORY_SPACE, ""
        return RONDEL, ""
    if isinstance(action, SwissBankForce):
        return SWISS, ""
    if isinstance(action, BuildFactory):
        return BUILD, ""
    if isinstance(action, Produce):
        return PRODUCE, ""
    if isinstance(action, Import):
        return IMPORT, ""
    if isinstance(action, CanalPassage) or "Canal" in reason:
        return CANAL, ""
    if isinstance(action, MoveFleet):
        return FLEETS, ""
    if isinstance(action, MoveArmy):
        return _army_problem(s, action, reason)
    if isinstance(action, ChangeStatus):
        if "last" in reason or "only factory" in reason:
            return LAST_FACTORY, ""
        return STATUS, ""
    if isinstance(action, Fight | NoFight):
        return BATTLE, ""
    if isinstance(action, DestroyFactory):
        return DESTROY, ""
    if isinstance(action, EndManeuver):
        return FLAGS, ""
    if isinstance(action, Donate):
        return DONATE, ""
    if isinstance(action, Buy) and "would take over" in reason:
        return GOVERNMENT, ""  # the strict last_government_payment reading
    if isinstance(action, Buy | Pass):
        return _invest_ref(s, action), ""
    return TURN, ""  # pragma: no cover - every action kind is listed above


def _invest_ref(s: GameState, action: Action) -> RuleRef:
    if s.awaiting_kind == Decision.BOND_CHOICE:
        return BOND_ROUNDS
    if s.awaiting_nation != NO:
        return NO_CARD
    if isinstance(action, Buy) and action.returning is not None:
        return UPGRADE
    return INVEST


def _army_problem(s: GameState, a: MoveArmy, reason: str) -> tuple[RuleRef, str]:
    """The rule a refused army move broke and, for a destination out of reach, the cause."""
    if "last unoccupied factory" in reason or "only factory" in reason:
        return LAST_FACTORY, ""
    if "hostile' or 'friendly'" in reason or "hostile or friendly" in reason:
        return ENTRY, ""
    if a.convoy or "convoy" in reason or "fleet" in reason:
        return CONVOY, ""
    board = s.board
    n, o, d = s.turn, board.index.get(a.origin), board.index.get(a.dest)
    if "cannot reach" not in reason or o is None or d is None or n == NO:
        return ARMIES, ""
    ctx = s.turn_ctx if isinstance(s.turn_ctx, ManeuverContext) else ManeuverContext()
    cause = _rail_cause(s, n, ctx, o, d)
    if cause:
        return RAIL, cause
    name = board.nations[n].name
    origin, dest = board.regions[o].name, board.regions[d].name
    return ARMIES, (
        "an army makes one step into a neighbouring region, by rail through "
        f"{possessive(name)} own home provinces before or after it, or by convoy; {dest} is "
        f"neither next to {origin} nor to a province the rail reaches from it"
    )


def _unoccupied(s: GameState, provinces: list[int]) -> GameState:
    """A copy in which no hostile army stands in these provinces (for "what if" only)."""
    t = s.copy()
    for r in provinces:
        for m in range(len(t.armies)):
            t.armies[m][r] = t.friendly[m][r]
    return t


def _rail_cause(s: GameState, n: int, ctx: ManeuverContext, o: int, d: int) -> str:
    """If hostile armies in the nation's own provinces are what keeps the army from ``d``,
    say which (the engine's geometry on a copy without them)."""
    board = s.board
    occupied = [r for r in board.home[n] if s.occupied(r)]
    if not occupied or d not in army_destinations(_unoccupied(s, occupied), n, ctx, o):
        return ""
    blockers = [r for r in occupied if d in army_destinations(_unoccupied(s, [r]), n, ctx, o)]
    blockers = blockers or occupied
    held = "; ".join(_held_by(s, r) for r in blockers)
    if blockers == [o] and not s.rules.rail_from_occupied_province:
        return (
            "an army in an occupied province of its own nation may not take the rail out of "
            f"it (rule option rail_from_occupied_province); {held}"
        )
    return (
        "an army may use rail only through its own home provinces not occupied by hostile "
        f"armies; {held}"
    )


def _held_by(s: GameState, r: int) -> str:
    parts = []
    for m in range(len(s.armies)):
        hostile = s.armies[m][r] - s.friendly[m][r]
        if m != s.board.owner[r] and hostile > 0:
            kind = "army" if hostile == 1 else f"{hostile} armies"
            article = "a " if hostile == 1 else ""
            parts.append(f"{article}hostile {s.board.codes[m]} {kind}")
    return f"{s.board.regions[r].name} holds {' and '.join(parts)}"


# --------------------------------------------------------------------------- legal


def _legal(game: Game, action: Action) -> tuple[RuleRef, str]:
    s = game.state
    canal = _canal_question(s, action)
    if canal:
        return CANAL, canal
    if isinstance(action, MoveArmy):
        return _army_route(s, action)
    if isinstance(action, ChooseRondel):
        return RONDEL, _rondel_move(s, action)
    if isinstance(action, SwissBankForce):
        return SWISS, "a Swiss bank holder may stop a nation passing Investor on it"
    if isinstance(action, BuildFactory):
        if action.region is None:
            return BUILD, "the nation may build no factory"
        how = "an unoccupied city of its own without a factory, for 5M from the treasury"
        return BUILD, how + _friendly_only(s, action.region)
    if isinstance(action, Produce):
        how = "each unoccupied factory produces one unit while the supply lasts"
        return PRODUCE, how + _friendly_only(s, action.region)
    if isinstance(action, Import):
        if action.unit is None:
            return IMPORT, "up to three units may be imported; the nation stops here"
        how = "1M from the treasury for a unit in an unoccupied home province"
        return IMPORT, how + _friendly_only(s, action.region)
    if isinstance(action, MoveFleet):
        return FLEETS, "a fleet sails into one adjacent sea (from a port into its harbour sea)"
    if isinstance(action, ChangeStatus):
        return STATUS, "an army in a foreign home province may switch without moving"
    if isinstance(action, Fight):
        return BATTLE, "one unit of each side is removed"
    if isinstance(action, NoFight):
        return BATTLE, "a nation may decline a battle"
    if isinstance(action, DestroyFactory):
        return DESTROY, "three armies destroy an undefended foreign factory and are removed"
    if isinstance(action, EndManeuver):
        return FLAGS, "the other units stay; flags go where the nation now stands alone"
    if isinstance(action, Donate):
        return DONATE, "a player may give cash to a treasury at any time"
    if isinstance(action, Pass):
        return _invest_ref(s, action), "a player need not invest"
    if isinstance(action, Buy) and action.returning is not None:
        return _invest_ref(s, action), (
            "the player returns the smaller bond and pays the difference into the treasury"
        )
    return _invest_ref(s, action), "the player pays the bond's value into the treasury"


def _friendly_only(s: GameState, region: str | None) -> str:
    """Why a province with foreign armies is still the nation's to use: they are all friendly,
    and only a hostile army occupies (RULES.md §4.2). "" when no foreign army is there."""
    r = s.board.index.get(region or "")
    if r is None:
        return ""
    owner = s.board.owner[r]
    armies = [
        (code(s, m), s.friendly[m][r])
        for m in range(len(s.armies))
        if m != owner and s.armies[m][r] > 0
    ]
    if not armies:
        return ""
    count = sum(n for _code, n in armies)
    which = " and ".join(f"{n} {code} arm{'y' if n == 1 else 'ies'}" for code, n in armies)
    verb = "is" if count == 1 else "are"
    return (
        f"; {s.board.regions[r].name} is not occupied: the {which} there {verb} friendly, and "
        "only a hostile army occupies a province (RULES.md §4.2)"
    )


def _canal_question(s: GameState, action: Action) -> str:
    """How a canal decides this action (Imperial 2030), or '' when none does."""
    if isinstance(action, CanalPassage):
        if action.allow:
            return "the controlling nation's government may let the unit through: it moves"
        return (
            "the controlling nation's government may refuse: nothing moves, and the unit may "
            "still do anything else this Maneuver"
        )
    if not s.board.canals or not isinstance(action, MoveFleet | MoveArmy) or s.turn == NO:
        return ""
    board = s.board
    seas = [board.index[action.origin], board.index[action.dest]]
    if isinstance(action, MoveArmy):
        seas = [board.index[x] for x in action.convoy]
    asks = [g for g in crossed(gates(s, s.turn), seas) if g.asks != NO]
    if not asks:
        return ""
    who = " and then ".join(
        f"{possessive(board.nations[g.asks].name)} government "
        f"({s.players[s.government[g.asks]]}) for the {board.canals[g.canal].name}"
        for g in asks
    )
    return f"it crosses a canal: {who} is asked first, and the unit moves only on a yes"


def _rondel_move(s: GameState, a: ChooseRondel) -> str:
    n = s.turn
    origin, target = s.rondel[n], RONDEL_SPACES.index(a.space)
    if origin == NO:
        return "the first placement is free and may be on any space"
    each = step_price(s, n)
    d, cost = distance(origin, target), cost_of(origin, target, each)
    price = "free" if not cost else f"{cost}M from {s.players[s.government[n]]}'s own cash"
    further = f"{each}M each further"
    if s.rules.rondel_extra_cost != "flat" or each != FLAT_STEP_PRICE:
        further += f": 1M + power factor {each - 1}"
    how = f"{d} space{'s' if d != 1 else ''} clockwise: {price} (1-3 free, {further})"
    if passes_investor(origin, target) and s.rules.uses_investor_card:
        how += "; it passes Investor, so the investor card pays out after the action"
    return how


def _army_route(s: GameState, a: MoveArmy) -> tuple[RuleRef, str]:
    board = s.board
    n, o, d = s.turn, board.index[a.origin], board.index[a.dest]
    rail = Rail(s, n)
    origin, dest = board.regions[o].name, board.regions[d].name
    status = f", entering {a.status}" if a.status else ""
    ref = ENTRY if a.status else ARMIES
    if a.convoy:
        seas = ", ".join(board.regions[board.index[x]].name for x in a.convoy)
        return CONVOY, f"by convoy from {origin} across {seas} to {dest}{status}"
    if d in rail.start(o):
        name = board.nations[n].name
        return RAIL, f"by rail through {possessive(name)} own unoccupied home provinces to {dest}"
    if d in board.land_neighbours[o]:
        return ref, f"one step from {origin} into the neighbouring {dest}{status}"
    before = [e for e in rail.start(o) if e != o and d in board.land_neighbours[e]]
    if before:
        via = board.regions[sorted(before)[0]].name
        return RAIL, f"by rail to {via}, then one step into {dest}{status}"
    after = [x for x in board.land_neighbours[o] if d in rail.after(x)]
    if after:
        via = board.regions[sorted(after)[0]].name
        return RAIL, f"one step into {via}, then by rail to {dest}"
    return ref, f"by rail and one step from {origin} to {dest}{status}"
