"""``Game``: the public face of the engine, shaped like python-chess's Board and OpenSpiel's
state: ``awaiting`` (who decides what), ``legal_actions()``, ``apply()``, ``undo()``,
``copy()``, ``result()``. Every front end (command line, app, bots, tests) uses only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules import engine
from rules.actions import Action, parse_action
from rules.common import possessive
from rules.errors import IllegalAction
from rules.position import PositionError, read_position
from rules.ruleset import RuleSet
from rules.scoring import Result, result_of
from rules.setup import Deal, check_players, new_state, parse_deal, random_deal
from rules.state import ALL_GROUPS, Awaiting, Event, GameState
from rules.summary import Summary, summary

if TYPE_CHECKING:
    from rules.view import GameView


@dataclass(frozen=True)
class Setup:
    """What fixes a game before its first action: recorded in the save header. A game that
    starts from a position (``rules.position``) records the position document instead of a
    deal; its ``deal`` is empty."""

    players: tuple[str, ...]
    rules: RuleSet
    deal: Deal
    seed: int | None = None
    position: Mapping[str, Any] | None = None


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
        self.plies: list[Ply] = []
        if setup.position is not None:
            start = read_position(setup.position)
            if start.players != setup.players or start.rules != setup.rules:
                raise PositionError("the position's players and rules differ from the game's")
            self._state: GameState = start.state
            self.start_events: list[Event] = [Event(_position_words(start.state))]
            return
        self._state = new_state(setup.players, setup.rules, setup.deal)
        self.start_events = engine.start(self._state)

    @property
    def state(self) -> GameState:
        """The current position, owning all its fields: callers may read it freely (and tests
        may set up positions in it) without touching the positions kept for undo."""
        s = self._state
        if s.shared:
            s.own(ALL_GROUPS)
        s.listed = None  # (a position set up by hand is checked afresh)
        s.known = None
        return s

    @state.setter
    def state(self, value: GameState) -> None:
        self._state = value

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
        rules = rules or RuleSet()
        names = check_players(list(players), rules.game)
        if deal is not None:
            seed = None  # a deal given by hand was not shuffled with any seed
        if isinstance(deal, str):
            deal = parse_deal(deal, names, rules)
        if deal is None:
            if seed is None:
                import random  # (only a new deal needs it: a loaded save names its deal)

                seed = random.SystemRandom().randrange(2**31)
            deal = random_deal(names, rules, seed)
        return cls(Setup(names, rules, deal, seed))

    @classmethod
    def from_position(cls, doc: Mapping[str, Any]) -> Game:
        """A game that starts from a position (docs/POSITIONS.md): the state summary with its
        ``position`` block. Raises PositionError (a SetupError) naming the field at fault.
        ``undo`` stops at the position: it is the game's start."""
        start = read_position(doc)
        canonical = summary(start.state)  # what the save records, whatever form was given
        return cls(Setup(start.players, start.rules, Deal({}), None, canonical))

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
        return engine.awaiting(self._state)

    @property
    def is_over(self) -> bool:
        return self._state.finished

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current decision, one small step each (donations,
        allowed at any time, are not listed: see ``can_donate``)."""
        return engine.legal_actions(self._state)

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, action: Action | str) -> list[Event]:
        """Perform an action (or its notation). Raises IllegalAction, changing nothing."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        before = self._state
        listed = before.listed
        if listed is not None and listed.holds(action):  # (named as at set-up, and legal)
            new, events = engine.apply_listed(before, action)
        else:
            action = self._canonical(action)
            new, events = engine.apply(before, action)
        before.listed = None  # (kept for undo, it need not keep its move list too)
        before.known = None
        self.plies.append(Ply(action, before, events))
        self._state = new
        return events

    def _canonical(self, action: Action) -> Action:
        """The action with a player's name spelt as at set-up (notation ignores case, the
        history and the save record one spelling)."""
        name = getattr(action, "player", None)
        if isinstance(name, str) and name not in self.players:
            for player in self.players:
                if player.casefold() == name.casefold():
                    return replace(action, player=player)  # type: ignore[call-arg]  # it has (name)
        return action

    def undo(self) -> Action:
        """Take back the last action; returns it. Raises IndexError at the start."""
        if not self.plies:
            raise IndexError("nothing to undo")
        ply = self.plies.pop()
        self._state = ply.before
        return ply.action

    def copy(self) -> Game:
        """An independent game at the same position (history shared, not copied)."""
        other = Game.__new__(Game)
        other.setup = self.setup
        other._state = self._state.copy()
        other.start_events = self.start_events
        other.plies = list(self.plies)
        return other

    def result(self) -> Result | None:
        return result_of(self._state) if self._state.finished else None

    def provisional_result(self) -> Result:
        """The scores as if the game ended now."""
        return result_of(self._state)

    def summary(self) -> Summary:
        """The state summary of spec/STATE.md."""
        return summary(self._state)

    def view_for(self, viewer: str | None, hidden_cash: bool) -> GameView:
        """The game as ``viewer`` (None: a spectator) may see it: with ``hidden_cash``, every
        other player's cash is the tally of the public moves, in the position and in every
        position kept for undo (``rules.view``). The tally is kept with this game, so a
        view after a move costs only that move."""
        from rules.view import PublicTally, view_of

        tally = self.__dict__.get("_tally")
        if tally is None:
            tally = self.__dict__["_tally"] = PublicTally()
        return view_of(self, viewer, hidden_cash, tally)

    def can_donate(self, player: str) -> int:
        """How much ``player`` could donate now (0 when he cannot)."""
        if self._state.finished or player not in self.players:
            return 0
        return self._state.cash[self.players.index(player)]

    def donation_refusal(self, player: str, amount: int) -> str | None:
        """Why ``player`` cannot donate ``amount`` M now, or None: the engine's own reason
        (``engine.donation_refusal``), for a front end that asks before it applies."""
        if player not in self.players:
            return f"{player!r} is not a player in this game"
        return engine.donation_refusal(self._state, self.players.index(player), amount)

    @property
    def history(self) -> list[Action]:
        return [p.action for p in self.plies]

    def events(self) -> list[Event]:
        """The whole log: set-up events then each action's events."""
        out = list(self.start_events)
        for p in self.plies:
            out.extend(p.events)
        return out


def _position_words(s: GameState) -> str:
    """The log's first line for a game started from a position."""
    if s.finished:
        return "the game starts from a given position: the game is over"
    where = (
        f"round {s.round}, {possessive(s.board.nations[s.turn].name)} turn"
        if s.turn >= 0
        else "set-up"
    )
    return f"the game starts from a given position ({where})"
