"""The turn machine: automatic steps run until a decision is needed; one entry point per
decision kind for its legal actions and for applying a choice.

``apply`` works on a copy of the position, so a rejected action leaves the game exactly as it
was, and the copy kept before each action is what makes ``undo`` free.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rules import battles, economy, investing, maneuver, rondel, taxation
from rules.actions import (
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
    Pass,
    Produce,
    SwissBankForce,
    action_problem,
)
from rules.common import (
    DecisionRule,
    Events,
    code,
    nation_index,
    nname,
    player_index,
    possessive,
    push,
    say,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.maneuver_list import after_move
from rules.maneuver_moves import turn_order_after
from rules.state import NO, Awaiting, Event, GameState, Listing

Step = Callable[..., None]

STEPS: dict[str, Step] = {
    "factory": economy.step_factory,
    "production": economy.step_production,
    "import": economy.step_import,
    "taxation": taxation.step_taxation,
    "investor": investing.step_investor,
    "passed_investor": investing.step_passed_investor,
    "investor_card": investing.step_investor_card,
    "free_investors": investing.step_free_investors,
    "government_check": investing.step_government_check,
    "pass_card": investing.step_pass_card,
    "auction": investing.step_auction,
    "setup_done": investing.step_setup_done,
    "end_turn": investing.step_end_turn,
    "nation_round": investing.step_nation_round,
    "free_round": investing.step_free_round,
}
STEPS.update(maneuver.STEPS)
STEPS["rondel_decision"] = rondel.step_rondel_decision

# decision kind -> (legal actions, {action class: handler})
DECISIONS: dict[Decision, DecisionRule] = {
    Decision.RONDEL: (
        lambda s: rondel.legal_rondel(s, s.turn),
        {ChooseRondel: rondel.apply_rondel},
    ),
    Decision.SWISS_BANK: (rondel.legal_swiss, {SwissBankForce: rondel.apply_swiss}),
    Decision.BUILD_FACTORY: (economy.legal_factory, {BuildFactory: economy.apply_factory}),
    Decision.PRODUCE: (economy.legal_production, {Produce: economy.apply_production}),
    Decision.IMPORT: (economy.legal_import, {Import: economy.apply_import}),
    Decision.INVEST: (
        investing.legal_invest,
        {Buy: investing.apply_buy, Pass: investing.apply_pass},
    ),
    Decision.BOND_CHOICE: (
        investing.legal_invest,
        {Buy: investing.apply_buy, Pass: investing.apply_pass},
    ),
}
DECISIONS.update(maneuver.DECISIONS)

# Handlers for an action that the engine listed for the position it is applied to: they skip
# the checks that listing it made (``apply``); every other action takes ``DECISIONS``.
LISTED: dict[tuple[Decision, type[Action]], Callable[..., None]] = {
    (Decision.RONDEL, ChooseRondel): partial(rondel.apply_rondel, listed=True),
    **{(Decision.MANEUVER, cls): handler for cls, handler in maneuver.LISTED.items()},
    (Decision.BATTLE, Fight): partial(battles.apply_battle_fight, listed=True),
}

NATION_ACTIONS = (
    ChooseRondel,
    BuildFactory,
    Produce,
    Import,
    MoveFleet,
    MoveArmy,
    ChangeStatus,
    Fight,
    NoFight,
    DestroyFactory,
    EndManeuver,
    CanalPassage,
)

# Exact classes for the quick checks in ``apply`` (isinstance against an abstract base class
# costs more than a whole small rule step); other classes take the isinstance tests.
_NATION_ACTION_TYPES = frozenset(NATION_ACTIONS)
_ACTION_TYPES = frozenset({*NATION_ACTIONS, Buy, Pass, SwissBankForce, Donate})


def _is_nation_action(action: Action) -> bool:
    kind = type(action)
    if kind in _ACTION_TYPES:
        return kind in _NATION_ACTION_TYPES
    return isinstance(action, NATION_ACTIONS)


DECISION_WORDS = {
    Decision.RONDEL: "choose a rondel space",
    Decision.SWISS_BANK: "decide whether to force a stop on Investor",
    # (said as "Anna must ... now" to an action out of turn: a step a nation may leave out,
    # as building no factory, importing nothing or not investing, is a decision "on" it)
    Decision.BUILD_FACTORY: "decide on a factory",
    Decision.PRODUCE: "decide on production",
    Decision.IMPORT: "decide on imports",
    Decision.MANEUVER: "maneuver",
    Decision.BATTLE: "decide on a battle",
    Decision.CANAL: "answer whether a unit may pass through a canal",
    Decision.INVEST: "decide whether to invest",
    Decision.BOND_CHOICE: "choose a bond",
}


def advance(s: GameState, ev: Events) -> None:
    """Run automatic steps until someone must decide or the game is over."""
    while s.awaiting_kind is None and not s.finished:
        if not s.todo:
            next_turn(s, ev)
            continue
        step = s.todo[0]
        s.todo = s.todo[1:]
        STEPS[step[0]](s, ev, *step[1:])


def next_turn(s: GameState, ev: Events) -> None:
    if s.ending:
        finish(s, ev)
        return
    nations = len(s.government)
    cur = s.turn
    order = range(nations) if cur == NO else (*turn_order_after(s, cur), cur)
    for n in order:
        if s.government[n] != NO:
            if cur == NO or n <= cur:
                s.round += 1
            s.turn = n
            s.turn_ctx = None
            gov = s.players[s.government[n]]
            say(ev, s, n, f"— round {s.round}: {possessive(nname(s, n))} turn ({gov}) —")
            push(s, ("rondel_decision",))  # rondel.step_rondel_decision
            return
    say(ev, s, None, "no nation has a government: the game ends")
    finish(s, ev)


def finish(s: GameState, ev: Events) -> None:
    from rules.scoring import result_of

    s.finished = True
    s.awaiting_kind = None
    res = result_of(s)
    say(ev, s, None, f"game over: {res.describe()}")


def awaiting(s: GameState) -> Awaiting | None:
    if s.finished or s.awaiting_kind is None:
        return None
    nation = code(s, s.awaiting_nation) if s.awaiting_nation != NO else None
    return Awaiting(s.players[s.awaiting_player], s.awaiting_kind, nation)


def legal_actions(s: GameState) -> list[Action]:
    """The legal actions now. The position remembers the objects listed (``s.listed``), so
    that applying one of them skips the checks its listing already made."""
    if s.finished or s.awaiting_kind is None:
        return []
    found = DECISIONS[s.awaiting_kind][0](s)  # (each decision's own action class)
    s.listed = Listing(found)  # (the lister's own list: never changed, never handed out)
    return list(found)


def apply(s: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Return the position after ``action`` and its events; ``s`` is never changed (but for
    the actions it remembers having listed)."""
    listed = s.listed
    if listed is not None and listed.holds(action):
        return apply_listed(s, action)
    problem = action_problem(action)
    if problem is not None:
        raise IllegalAction(problem)
    if s.finished:
        raise IllegalAction("the game is over; no more actions can be taken")
    new = s.fork()
    ev: Events = []
    if type(action) is Donate or (type(action) not in _ACTION_TYPES and isinstance(action, Donate)):
        _donate(new, action, ev)
        return new, ev
    kind = s.awaiting_kind
    if kind is None:
        raise IllegalAction("nobody has a decision to take")
    _check_actor(s, action, kind)
    handlers = DECISIONS[kind][1]
    handler = handlers.get(type(action))
    if handler is None:
        raise IllegalAction(
            f"{s.players[s.awaiting_player]} must {DECISION_WORDS.get(kind, kind)} now, "
            f"not '{action.notation()}'"
        )
    handler(new, action, ev)
    advance(new, ev)
    return new, ev


def apply_listed(s: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """``apply`` for an action the engine listed for this very position (``s.listed`` holds
    it; callers check that first): it is well formed, it is the deciding player's or
    nation's, and its handler's own checks passed when it was listed (``LISTED`` holds the
    handlers that then skip them)."""
    kind = s.awaiting_kind
    assert kind is not None  # (a position awaiting nobody lists nothing)
    new = s.fork()
    ev: Events = []
    cls = type(action)
    handler = LISTED.get((kind, cls)) or DECISIONS[kind][1][cls]
    handler(new, action, ev)
    advance(new, ev)
    if s.known is not None:  # (the next list starts from this one's: rules.maneuver_moves)
        new.known = after_move(s, action)
    return new, ev


def _check_actor(s: GameState, action: Action, kind: Decision) -> None:
    who = s.players[s.awaiting_player]
    words = DECISION_WORDS.get(kind, kind)
    if _is_nation_action(action):
        n = nation_index(s, action.actor)
        if n != s.awaiting_nation:
            if s.awaiting_nation == NO:
                raise IllegalAction(f"{who} must {words} now, not act for {nname(s, n)}")
            raise IllegalAction(
                f"it is {who}'s decision for {nname(s, s.awaiting_nation)} "
                f"({words}), not {possessive(nname(s, n))}"
            )
        return
    player = player_index(s, action.actor)
    if player != s.awaiting_player:
        what = f" for {nname(s, s.awaiting_nation)}" if s.awaiting_nation != NO else ""
        raise IllegalAction(f"it is {who}'s turn to {words}{what}, not {action.actor}'s")


def donation_refusal(s: GameState, p: int, amount: int) -> str | None:
    """Why player ``p`` cannot donate ``amount`` M now, or None: he can (RULES.md §1.5: a
    player may give cash to a treasury at any time). Also what the app's donation box says
    while it stays open for another amount."""
    if s.finished:
        return "the game is over; no more actions can be taken"
    if amount < 1:
        return "a donation is at least 1M"
    if amount > s.cash[p]:
        return f"{s.players[p]} cannot donate {amount}M with only {s.cash[p]}M in cash"
    return None


def _donate(s: GameState, a: Donate, ev: Events) -> None:
    p = player_index(s, a.player)
    n = nation_index(s, a.nation)
    refusal = donation_refusal(s, p, a.amount)
    if refusal is not None:
        raise IllegalAction(refusal)
    s.cash[p] -= a.amount
    s.treasury[n] += a.amount
    say(ev, s, n, f"{a.player} donates {a.amount}M to {possessive(nname(s, n))} treasury")


def start(s: GameState) -> list[Event]:
    """Run the automatic steps of a freshly set-up position up to the first decision."""
    ev: Events = []
    advance(s, ev)
    return ev
