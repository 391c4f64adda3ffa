"""``Game``: the public face of the engine, shaped like python-chess's Board and OpenSpiel's
state: ``awaiting`` (who decides what), ``legal_actions()``, ``apply()``, ``undo()``,
``copy()``, ``result()``. Every front end (command line, app, bots, tests) uses only this.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules import engine
from rules.actions import Action, parse_action
from rules.errors import IllegalAction
from rules.ruleset import RuleSet
from rules.scoring import Result, result_of
from rules.setup import Deal, check_players, new_state, parse_deal, random_deal
from rules.state import Awaiting, Event, GameState
from rules.summary import summary


@dataclass(frozen=True)
class Setup:
    """What fixes a game before its first action: recorded in the save header."""

    players: tuple[str, ...]
    rules: RuleSet
    deal: Deal
    seed: int | None = None


@dataclass(slots=True)
class Ply:
    """One applied action with the position before it and the events it produced."""

    action: Action
    before: GameState
    events: list[Event] = field(default_factory=list)


class Game:
    """A game of Imperial from set-up to result."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.state: GameState = new_state(setup.players, setup.rules, setup.deal)
        self.start_events: list[Event] = engine.start(self.state)
        self.plies: list[Ply] = []

    # -- creation ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: list[str] | tuple[str, ...],
        rules: RuleSet | None = None,
        seed: int | None = None,
        deal: str | Deal | None = None,
    ) -> Game:
        """Set up a game: flag cards dealt as given (``deal``), or shuffled with ``seed``."""
        names = check_players(list(players))
        rules = rules or RuleSet()
        if isinstance(deal, str):
            deal = parse_deal(deal, names, rules)
        if deal is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            deal = random_deal(names, rules, seed)
        return cls(Setup(names, rules, deal, seed))

    # -- the decision interface --------------------------------------------------------------
    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def awaiting(self) -> Awaiting | None:
        """Who must decide what next (None once the game is over)."""
        return engine.awaiting(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.finished

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current decision, one small step each (donations,
        allowed at any time, are not listed: see ``can_donate``)."""
        return engine.legal_actions(self.state)

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, action: Action | str) -> list[Event]:
        """Perform an action (or its notation). Raises IllegalAction, changing nothing."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        new, events = engine.apply(self.state, action)
        self.plies.append(Ply(action, self.state, events))
        self.state = new
        return events

    def undo(self) -> Action:
        """Take back the last action; returns it. Raises IndexError at the start."""
        if not self.plies:
            raise IndexError("nothing to undo")
        ply = self.plies.pop()
        self.state = ply.before
        return ply.action

    def copy(self) -> Game:
        """An independent game at the same position (history shared, not copied)."""
        other = Game.__new__(Game)
        other.setup = self.setup
        other.state = self.state.copy()
        other.start_events = self.start_events
        other.plies = list(self.plies)
        return other

    def result(self) -> Result | None:
        return result_of(self.state) if self.state.finished else None

    def provisional_result(self) -> Result:
        """The scores as if the game ended now."""
        return result_of(self.state)

    def summary(self) -> dict[str, Any]:
        """The state summary of spec/STATE.md."""
        return summary(self.state)

    def can_donate(self, player: str) -> int:
        """How much ``player`` could donate now (0 when he cannot)."""
        if self.state.finished or player not in self.players:
            return 0
        return self.state.cash[self.players.index(player)]

    @property
    def history(self) -> list[Action]:
        return [p.action for p in self.plies]

    def events(self) -> list[Event]:
        """The whole log: set-up events then each action's events."""
        out = list(self.start_events)
        for p in self.plies:
            out.extend(p.events)
        return out
