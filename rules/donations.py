"""The donation route: what a nation's decision could do after its government donates.

A player may donate personal cash to any treasury at any time (RULES.md §1.5), and the rules
name the case that matters: "The government may first donate personal cash so the treasury
can pay" (§5.1, Factory), "after any donation by the government" (§5.3, Import). So an action
that is illegal only because the treasury is short is one donation away, and ``explain`` and
``moves`` say so: "Anna may donate 2M first (`Anna donates 2 to AH`)".

Nothing here knows what anything costs: the donation and then the action are applied through
the engine (``rules.engine.apply``, on the immutable state, nothing changed), and the least
donation that makes the action legal is found by bisection, since a larger treasury never
makes a Factory or an Import illegal.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import engine
from rules.actions import Action, Donate
from rules.errors import IllegalAction
from rules.game import Game
from rules.state import GameState


@dataclass(frozen=True, slots=True)
class DonationRoute:
    """``player`` may donate ``amount`` to ``nation`` first; then ``action`` is legal."""

    player: str
    nation: str
    amount: int
    action: Action

    @property
    def donation(self) -> Donate:
        return Donate(self.player, self.nation, self.amount)

    def words(self) -> str:
        """``Anna may donate 2M first (`Anna donates 2 to AH`)``."""
        return f"{self.player} may donate {self.amount}M first (`{self.donation}`)"


def _legal_after(s: GameState, donation: Donate, action: Action) -> bool:
    try:
        after, _events = engine.apply(s, donation)
        engine.apply(after, action)
    except IllegalAction:
        return False
    return True


def _donor(game: Game, action: Action) -> tuple[str, str, int] | None:
    """(the deciding player, the nation, its cash) when ``action`` is the decision of a
    nation, which its government may pay for; None otherwise (a player's own investment is
    paid from his cash: a donation never helps it)."""
    awaiting = game.awaiting
    if awaiting is None or awaiting.nation is None:
        return None
    if not isinstance(action, engine.NATION_ACTIONS) or action.actor != awaiting.nation:
        return None
    cash = game.can_donate(awaiting.player)
    if cash < 1:
        return None
    return awaiting.player, awaiting.nation, cash


def donation_route(game: Game, action: Action) -> DonationRoute | None:
    """The least donation of the deciding player after which the illegal ``action`` is legal,
    or None (it is legal already, or no donation of his makes it so)."""
    donor = _donor(game, action)
    if donor is None:
        return None
    player, nation, cash = donor
    s = game.state
    try:
        engine.apply(s, action)
    except IllegalAction:
        pass
    else:
        return None  # legal as it is
    if not _legal_after(s, Donate(player, nation, cash), action):
        return None
    low, high = 1, cash  # the least amount that works lies in [low, high]
    while low < high:
        middle = (low + high) // 2
        if _legal_after(s, Donate(player, nation, middle), action):
            high = middle
        else:
            low = middle + 1
    return DonationRoute(player, nation, low, action)


def donation_routes(game: Game) -> list[DonationRoute]:
    """The actions of the current decision that only a donation of the deciding player makes
    legal, in the engine's order, each with the least donation."""
    awaiting = game.awaiting
    if awaiting is None or awaiting.nation is None:
        return []
    cash = game.can_donate(awaiting.player)
    if cash < 1:
        return []
    try:
        richer, _events = engine.apply(game.state, Donate(awaiting.player, awaiting.nation, cash))
    except IllegalAction:
        return []
    now = set(game.legal_actions())
    routes = []
    for action in engine.legal_actions(richer):
        if action not in now:
            route = donation_route(game, action)
            if route is not None:
                routes.append(route)
    return routes
