"""The rondel: choosing a space, its cost, passing Investor and Swiss bank forcing (2010).

Up to three spaces are free; each further space costs 2M (Imperial) or, in Imperial 2030,
1M plus the nation's power factor (rule option ``rondel_extra_cost``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from rules.actions import INVESTOR_SPACE, RONDEL_SPACES, ChooseRondel, SwissBankForce, made
from rules.common import (
    Events,
    await_decision,
    clear_await,
    code,
    nname,
    push,
    say,
    seats_from,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.scoring import power_factor
from rules.state import NO, TRACKS, GameState

SPACE_NAMES = {
    "factory": "Factory",
    "production1": "Production",
    "maneuver1": "Maneuver",
    "investor": "Investor",
    "import": "Import",
    "production2": "Production",
    "maneuver2": "Maneuver",
    "taxation": "Taxation",
}
SPACE_STEP = {
    "factory": "factory",
    "production1": "production",
    "maneuver1": "maneuver",
    "investor": "investor",
    "import": "import",
    "production2": "production",
    "maneuver2": "maneuver",
    "taxation": "taxation",
}


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A rondel move waiting for the Swiss bank holders' answers (2010)."""

    origin: int
    target: int
    queue: tuple[int, ...]


def distance(origin: int, target: int) -> int:
    return 0 if origin == NO else (target - origin) % 8


FREE_SPACES = 3
FACTORY_SPACE = RONDEL_SPACES.index("factory")
FLAT_STEP_PRICE = 2


def cost_of(origin: int, target: int, price: int = FLAT_STEP_PRICE) -> int:
    """1-3 spaces are free; each further space costs ``price`` (2M in Imperial, see
    ``step_price``). The first placement is free."""
    return 0 if origin == NO else price * max(0, distance(origin, target) - FREE_SPACES)


def step_price(s: GameState, n: int) -> int:
    """What nation ``n`` pays for each rondel space beyond the third now: 2M, or with the
    2030 rule 1M plus its power factor (China at 11 power points: 3M)."""
    if s.rules.rondel_extra_cost == "power_factor":
        return 1 + power_factor(s.power[n])
    return FLAT_STEP_PRICE


def move_cost(s: GameState, n: int, target: int) -> int:
    """What moving nation ``n`` to space ``target`` costs its government now."""
    return cost_of(s.rondel[n], target, step_price(s, n))


def passes_investor(origin: int, target: int) -> bool:
    """The move goes past Investor (without ending there)."""
    if origin == NO:
        return False
    return 0 < (INVESTOR_SPACE - origin) % 8 < distance(origin, target)


def interest_shortfall(s: GameState, n: int) -> int:
    """What the government would have to pay from their own cash to pay the other holders
    (``rules.interest.interest_payments(s, n).short``)."""
    from rules.interest import interest_short

    return interest_short(s, n)


def factory_possible(s: GameState, n: int, spare_cash: int) -> bool:
    from rules.economy import factory_sites

    return bool(factory_sites(s, n)) and s.treasury[n] + spare_cash >= 5


def check_rondel(s: GameState, n: int, target: int) -> int:
    """Raise IllegalAction unless the nation may move to ``target``; return the cost."""
    refusal = rondel_refusal(s, n, target)
    if refusal is not None:
        raise IllegalAction(refusal)
    return move_cost(s, n, target)


class Block(Enum):
    """Why a rondel space may not be chosen now (``rondel_block``); ``rondel_refusal`` words
    it. Move lists ask only for the kind, so a refused space costs no message."""

    STAY = auto()
    TOO_FAR = auto()
    CASH = auto()
    INVESTOR_SHORT = auto()
    NO_FACTORY = auto()


def rondel_blocks(s: GameState, n: int) -> list[Block | None]:
    """For each rondel space (in ``RONDEL_SPACES`` order), the rule that forbids nation ``n``
    to move there now, or None when it may: the one computation behind the move list,
    ``rondel_refusal`` and the previews. One pass, as the move list asks for every space."""
    origin = s.rondel[n]
    cash = s.cash[s.government[n]]
    price = step_price(s, n) if origin != NO else 0
    rules = s.rules
    out: list[Block | None] = []
    for target in range(8):
        cost = 0
        if origin != NO:
            d = (target - origin) % 8
            if d == 0:
                out.append(Block.STAY)
                continue
            if d > 6:
                out.append(Block.TOO_FAR)
                continue
            if d > FREE_SPACES:
                cost = price * (d - FREE_SPACES)
        if cost > cash:
            out.append(Block.CASH)
        elif (
            target == INVESTOR_SPACE
            and rules.interest_shortfall == "forbid_investor"
            and interest_shortfall(s, n) > cash - cost
        ):
            out.append(Block.INVESTOR_SHORT)
        elif (
            target == FACTORY_SPACE
            and rules.factory_without_site == "forbidden"
            and not factory_possible(s, n, cash - cost)
        ):
            out.append(Block.NO_FACTORY)
        else:
            out.append(None)
    return out


def rondel_block(s: GameState, n: int, target: int) -> Block | None:
    """The rule that forbids nation ``n`` to move to ``target`` now, or None when it may."""
    return rondel_blocks(s, n)[target]


def rondel_refusal(s: GameState, n: int, target: int) -> str | None:
    """Why the nation may not move to ``target`` now, in words, or None when it may."""
    block = rondel_block(s, n, target)
    if block is None:
        return None
    origin = s.rondel[n]
    space = SPACE_NAMES[RONDEL_SPACES[target]]
    gov = s.government[n]
    if block is Block.STAY:
        return f"{nname(s, n)} must move on the rondel; it cannot stay on {space}"
    if block is Block.TOO_FAR:
        return (
            f"{nname(s, n)} can move at most 6 spaces; {space} is {distance(origin, target)} away"
        )
    cost = move_cost(s, n, target)
    if block is Block.CASH:
        return (
            f"{s.players[gov]} cannot pay {cost}M to move {nname(s, n)} "
            f"{distance(origin, target)} spaces with only {s.cash[gov]}M in cash"
        )
    if block is Block.INVESTOR_SHORT:
        return (
            f"{nname(s, n)} cannot choose Investor: its treasury is "
            f"{interest_shortfall(s, n)}M short of the interest it owes the other bondholders, "
            f"and {s.players[gov]}, its government, cannot pay that in cash"
        )
    return (
        f"{nname(s, n)} cannot build a factory now, so it may not choose "
        "Factory (rule option factory_without_site=forbidden)"
    )


def step_rondel_decision(s: GameState, ev: Events) -> None:
    """A nation's turn begins: its government chooses a rondel space."""
    n = s.turn
    await_decision(s, Decision.RONDEL, s.government[n], n)


def legal_rondel(s: GameState, n: int) -> list[ChooseRondel]:
    """The spaces of ``rondel_blocks`` that nothing blocks. On the rondel already (and Factory
    not forbidden for want of a site), the list depends only on the nation, its space, how
    far its government can pay to go and whether Investor is refused for the interest: it is
    kept by those (``_RONDEL_LISTS``) instead of computed space by space for every turn."""
    origin = s.rondel[n]
    rules = s.rules
    if origin == NO or rules.factory_without_site == "forbidden":
        c = code(s, n)
        return [
            made(ChooseRondel, c, RONDEL_SPACES[target])
            for target, block in enumerate(rondel_blocks(s, n))
            if block is None
        ]
    cash = s.cash[s.government[n]]
    price = step_price(s, n)
    # the farthest space the government can pay for (cost = price per space beyond the third)
    if cash < 0:
        far = 0
    elif price <= 0:
        far = 6
    else:
        far = min(6, FREE_SPACES + cash // price)
    d = (INVESTOR_SPACE - origin) % 8
    refused = (
        0 < d <= far
        and rules.interest_shortfall == "forbid_investor"
        and interest_shortfall(s, n) > cash - price * max(0, d - FREE_SPACES)
    )
    key = (s.board.codes[n], origin, far, refused)
    found = _RONDEL_LISTS.get(key)
    if found is None:
        c = key[0]
        targets = sorted((origin + step) % 8 for step in range(1, far + 1))  # (space order)
        found = _RONDEL_LISTS[key] = tuple(
            made(ChooseRondel, c, RONDEL_SPACES[target])
            for target in targets
            if not (refused and target == INVESTOR_SPACE)
        )
    return list(found)


# legal_rondel's lists by (nation code, space, farthest space paid for, Investor refused):
# a few hundred at most
_RONDEL_LISTS: dict[tuple[str, int, int, bool], tuple[ChooseRondel, ...]] = {}


def apply_rondel(s: GameState, a: ChooseRondel, ev: Events, listed: bool = False) -> None:
    """Move the nation's marker; ``listed``: the engine listed this choice for this position
    (``legal_rondel`` made the checks)."""
    n = s.turn
    if a.space not in RONDEL_SPACES:
        raise IllegalAction(
            f"there is no rondel space {a.space!r}; spaces are {' '.join(RONDEL_SPACES)}"
        )
    target = RONDEL_SPACES.index(a.space)
    if not listed:
        check_rondel(s, n, target)
    origin = s.rondel[n]
    clear_await(s)
    if passes_investor(origin, target):
        queue = swiss_bank_queue(s, n)
        if queue:
            s.turn_ctx = PendingMove(origin, target, tuple(queue))
            await_decision(s, Decision.SWISS_BANK, queue[0], n, s.turn_ctx)
            return
    resolve_move(s, n, origin, target, ev)


def swiss_bank_queue(s: GameState, n: int) -> list[int]:
    """Swiss bank holders who may force the nation to stop on Investor, in asking order."""
    if not s.rules.swiss_banks:
        return []
    if s.treasury[n] < sum(s.interest_owed(n)):
        return []
    if s.rules.swiss_bank_ask_order == "investor_card" and s.investor_card != NO:
        start = s.investor_card
    else:
        start = (s.government[n] + 1) % len(s.players)
    return [p for p in seats_from(s, start) if s.governs_nothing(p)]


def legal_swiss(s: GameState) -> list[SwissBankForce]:
    p = s.players[s.awaiting_player]
    c = code(s, s.turn)
    return [SwissBankForce(p, c, True), SwissBankForce(p, c, False)]


def apply_swiss(s: GameState, a: SwissBankForce, ev: Events) -> None:
    n = s.turn
    if a.nation != code(s, n):
        raise IllegalAction(f"{a.player} is asked about {nname(s, n)}, not {a.nation}")
    pm: PendingMove = s.turn_ctx
    clear_await(s)
    if a.force:
        say(ev, s, n, f"{a.player} uses a Swiss bank to force {nname(s, n)} to stop on Investor")
        s.turn_ctx = None
        resolve_move(s, n, pm.origin, INVESTOR_SPACE, ev, forced=True)
        return
    say(ev, s, n, f"{a.player} lets {nname(s, n)} pass Investor")
    rest = pm.queue[1:]
    if rest:
        s.turn_ctx = PendingMove(pm.origin, pm.target, rest)
        await_decision(s, Decision.SWISS_BANK, rest[0], n, s.turn_ctx)
        return
    s.turn_ctx = None
    resolve_move(s, n, pm.origin, pm.target, ev)


def resolve_move(
    s: GameState, n: int, origin: int, target: int, ev: Events, forced: bool = False
) -> None:
    """Pay for the move, place the marker and queue the space's action."""
    gov = s.government[n]
    cost = cost_of(origin, target, step_price(s, n))
    if forced and s.rules.swiss_bank_forced_cost == "free":
        cost = 0
    s.cash[gov] -= cost
    s.bank += cost
    s.own(TRACKS)
    s.rondel[n] = target
    space = RONDEL_SPACES[target]
    how = "is placed on" if origin == NO else "moves to"
    paid = f" ({s.players[gov]} pays {cost}M)" if cost else ""
    say(ev, s, n, f"{nname(s, n)} {how} {SPACE_NAMES[space]}{paid}")
    steps: list[tuple[str]] = [(SPACE_STEP[space],)]
    if passes_investor(origin, target) and s.rules.uses_investor_card:
        steps.append(("passed_investor",))
    steps.append(("end_turn",))
    push(s, *steps)
