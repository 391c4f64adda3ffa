"""How predictable the other players at the table are.

A search player's playouts simulate greedy players in every seat. Against greedy players that
simulation is exact, and looking many nation turns ahead pays; against players who think
further it is an approximation that drifts with every simulated turn, and a far horizon then
judges futures that will not happen (measured: looking 10 nation turns ahead won 85% of 40
games against three greedy players but 9 of 30 against three normal ones). So a search player
with ``SearchSettings.far_horizon`` watches the table as a player does: for each rondel choice
another player makes, it asks what the greedy rule would have chosen there, and looks far
ahead only while the table plays as predicted. The strong level does (10 nation turns once 4
choices were seen and 90% of them predicted, 6 otherwise); docs/BOTS.md has the tournaments.

A player is not always a greedy player gone astray: he may fight more, or hoard his cash.
With ``SearchSettings.read_tempers`` the watch also asks, for each of his rondel and bond
choices, how likely each way of playing (``rules.bots.personalities.TEMPERS``: the plain player's
weights and tendencies, the warmonger's, the banker's) made it, as a softmax of greedy's
look-ahead with that temper's weights (``others_temperature`` points, the model the playouts
draw from); the playouts then play each seat with its likeliest tempers
(``rules.bots.playout.seat_players``).

Only public moves are used: the position before each choice is a replay of the game's moves
from its set-up (``rules.bots.knowledge.Replay``), so with hidden cash the
other players' cash stays what the moves say, never what the position holds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping
from typing import TypeVar

from rules import engine
from rules.actions import Action, ChooseRondel
from rules.bots.evaluation import utility, values
from rules.bots.greedy import greedy_rondel, rondel_looks
from rules.bots.knowledge import Replay
from rules.bots.personalities import TEMPERS
from rules.bots.policy import Policy, overdue_taxation
from rules.bots.style import PLAIN
from rules.errors import IllegalAction
from rules.game import Game, Ply
from rules.state import GameState

K = TypeVar("K", bound=Hashable)
# the least chance a temper is credited with for a choice: one odd choice is no proof
FLOOR = 0.01


def softmax_chance(looks: Mapping[K, float], chosen: K, temperature: float) -> float:
    """The chance a softmax of the look-ahead's values (``temperature`` points: the larger,
    the more even) gives the choice made; none for a space the look-ahead did not value."""
    if chosen not in looks:
        return 0.0
    top = max(looks.values())
    total = sum(math.exp((v - top) / temperature) for v in looks.values())
    return math.exp((looks[chosen] - top) / temperature) / total


def greedy_prediction(plies: list[Ply], s: GameState, actions: list[Action]) -> Action:
    """The rondel space the greedy player picks here: taxation when it is overdue, else
    greedy's own choice (``rules.bots.greedy.greedy_rondel``)."""
    overdue = overdue_taxation(plies, s, actions)
    if overdue is not None:
        return overdue
    return greedy_rondel(s, actions, Policy(random.Random(0), PLAIN))


class TableWatch:
    """Counts how many of the other players' rondel choices the greedy rule predicted (and,
    with a ``temperature``, how likely each temper made them). Keeps its replay between
    decisions, so each decision looks only at the moves since the last (an undo or another
    game starts it afresh)."""

    __slots__ = ("_me", "_replay", "agreed", "by_player", "fit", "seen", "temperature")

    def __init__(self, temperature: float = 0.0) -> None:
        self._replay = Replay()
        self._me: str | None = None
        self.temperature = temperature  # the softmax the tempers are judged by (0: not judged)
        self.agreed = 0
        self.seen = 0
        self.by_player: dict[int, list[int]] = {}  # seat -> [choices seen, as predicted]
        self.fit: dict[int, list[float]] = {}  # seat -> log-likelihood of each of TEMPERS

    def update(self, game: Game, me: str) -> None:
        """Look at the rondel choices made since the last call by players other than ``me``."""
        if self._replay.sync(game, restart=self._me != me):
            self._me = me
            self.agreed = self.seen = 0
            self.by_player = {}
            self.fit = {}
        replay = self._replay.game
        assert replay is not None
        for action in self._replay.new_moves(game):
            aw = replay.awaiting
            theirs = aw is not None and aw.player != me
            if theirs and self.temperature and replay._state.awaiting_kind == "invest":
                self._judge_bond(replay._state, action)
            if isinstance(action, ChooseRondel) and theirs:
                s = replay._state
                legal = engine.legal_actions(s)
                if len(legal) > 1:
                    hit = self._judge(replay.plies, s, legal, action) == action
                    self.seen += 1
                    self.agreed += hit
                    counts = self.by_player.setdefault(s.awaiting_player, [0, 0])
                    counts[0] += 1
                    counts[1] += hit
            try:
                replay.apply(action)
            except IllegalAction:
                # the moves do not replay from the set-up (a position edited by hand): the
                # watch has seen what it could; it starts afresh if the game is undone
                self._replay = Replay()
                self._me = None
                return

    def _judge(self, plies: list[Ply], s: GameState, legal: list[Action], chosen: Action) -> Action:
        """Greedy's prediction of this rondel choice; with a ``temperature``, each temper's
        log-likelihood of it added to the player's fit (not for an overdue taxation: every
        temper takes it)."""
        if not self.temperature:
            return greedy_prediction(plies, s, legal)
        overdue = overdue_taxation(plies, s, legal)
        if overdue is not None:
            return overdue
        fit = self.fit.setdefault(s.awaiting_player, [0.0] * len(TEMPERS))
        predicted: Action = legal[0]
        for i, temper in enumerate(TEMPERS):
            quiet = Policy(random.Random(0), temper.style)
            looks: dict[Action, float] = dict(rondel_looks(s, legal, quiet, temper.weights))
            if i == 0:  # the plain temper is greedy's own (the first best, as greedy_rondel)
                predicted = max(looks, key=looks.__getitem__)
            chance = softmax_chance(looks, chosen, self.temperature)
            fit[i] += math.log(max(FLOOR, chance))
        return predicted

    def _judge_bond(self, s: GameState, chosen: Action) -> None:
        """Each temper's log-likelihood of this bond choice (or passing) added to the
        investor's fit: a softmax of what each bond leaves him, by the temper's weights (as
        the greedy player values a bond, ``rules.bots.greedy.greedy_invest``)."""
        legal = engine.legal_actions(s)
        if len(legal) < 2:
            return
        p = s.awaiting_player
        fit = self.fit.setdefault(p, [0.0] * len(TEMPERS))
        after = [(a, engine.apply(s, a)[0]) for a in legal]
        for i, temper in enumerate(TEMPERS):
            w = temper.weights
            looks = {a: utility(values(then, w), p, w) for a, then in after}
            fit[i] += math.log(max(FLOOR, softmax_chance(looks, chosen, self.temperature)))

    def tempers(self, player: int) -> tuple[float, ...]:
        """How likely each of TEMPERS is to be ``player``'s, by his choices seen: its
        prior times its likelihood of them, in proportion (Bayes' rule)."""
        fit = self.fit.get(player) or [0.0] * len(TEMPERS)
        top = max(fit)
        odds = [t.prior * math.exp(f - top) for t, f in zip(TEMPERS, fit, strict=True)]
        total = sum(odds)
        return tuple(o / total for o in odds)

    def predictable(self, share: float, least: int) -> bool:
        """At least ``least`` choices seen, and at least ``share`` of them as predicted."""
        return self.seen >= least and self.agreed >= share * self.seen

    def trust(self, player: int, low: float, high: float, least: int) -> float:
        """How far the playouts may copy ``player`` exactly, from 0 to 1: 0 until ``least``
        of his choices were seen or while at most ``low`` of them were predicted, 1 from
        ``high`` on, in proportion between (a soft switch instead of all or nothing)."""
        seen, agreed = self.by_player.get(player, (0, 0))
        if seen < least:
            return 0.0
        rate = agreed / seen
        return min(1.0, max(0.0, (rate - low) / (high - low)))
