"""Computer players. A bot sees the game and returns one of ``game.legal_actions()``.

Bots only read the public API (``awaiting``, ``legal_actions``, ``copy``/``apply`` for look-ahead
and ``state`` for figures); they never decide what is legal, so they keep working when the engine
learns new decisions (any unknown kind falls back to a safe generic choice).
No user-interface imports here: the app runs bots in a worker thread, the CLI runs them inline.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from rules.actions import NATION_CODES, Action
from rules.game import Game
from rules.state import NO, GameState

BOT_LEVELS = ("random", "greedy")


@dataclass(frozen=True, slots=True)
class Choice:
    """A bot's decision with its reason: a short line in plain words that the app shows in
    the log ("buys GE 9: takes the government"), empty when there is nothing to say."""

    action: Action
    reason: str = ""


class Bot(Protocol):
    """Anything that picks an action for the decision ``game.awaiting`` describes."""

    name: str

    def choose(self, game: Game) -> Action: ...

    def decide(self, game: Game) -> Choice: ...


class SeededBot:
    """What every shipped bot shares: its own random generator (reproducible with a seed)."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @staticmethod
    def options(game: Game) -> list[Action]:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("there is no decision to take: the game is over")
        return actions

    def choose(self, game: Game) -> Action:
        return self.decide(game).action

    def decide(self, game: Game) -> Choice:
        return Choice(self.choose(game))


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions: a baseline and a fuzzer for the engine."""

    name = "random"

    def choose(self, game: Game) -> Action:
        return self.rng.choice(self.options(game))


# Kinds that end a multi-step decision or decline something: the safe generic fallback.
_CLOSING_KINDS = ("end_maneuver", "no_battle", "pass")


def _is_done(action: Action) -> bool:
    text = str(action)
    return text.endswith(
        (" done", " build no factory", " end maneuver", " does not fight", " passes")
    ) or text.endswith(" pass")


def player_value(s: GameState, p: int) -> float:
    """A smooth estimate of what player ``p`` is worth: bonds count by interest times a
    power factor that grows continuously (so progress before a multiple of 5 counts too)."""
    value = float(s.cash[p])
    for n, owners in enumerate(s.bond_owner):
        factor = min(5.0, s.power[n] / 5.0)
        for k, o in enumerate(owners):
            if o == p:
                value += (k + 1) * (factor + 0.6)
    return value


def nation_value(s: GameState, n: int) -> float:
    """How strong a nation looks to its government beyond power points."""
    return (
        s.power[n] * 1.2
        + s.treasury[n] * 0.35
        + len(s.factories_of(n)) * 2.5
        + s.units_of(n) * 0.8
        + s.flag.count(n) * 1.0
    )


class GreedyBot(SeededBot):
    """Plays sensibly with one nation turn of look-ahead.

    Rondel: tries every legal space, plays the rest of the nation's turn with simple defaults
    on a copy, and keeps the space that raises the governor's value and the nation's strength
    most (so it taxes when taxing pays, builds when a factory is affordable, imports/produces
    when units are short). Maneuver: fights when a battle wins material, moves units onto
    neutral land and seas without its flag, ends when nothing useful remains. Investing:
    buys the bond that gains or keeps a government, else the best-value bond, and passes
    when nothing is affordable.
    """

    name = "greedy"

    def choose(self, game: Game) -> Action:
        actions = self.options(game)
        if len(actions) == 1:
            return actions[0]
        kind = game.awaiting.kind if game.awaiting else ""
        if kind == "rondel":
            return self._rondel(game, actions)
        if kind in ("invest", "bond_choice"):
            return self._invest(game, actions)
        return self._default(game.state, actions)

    # -- nation decisions -------------------------------------------------------------------
    def _default(self, s: GameState, actions: list[Action]) -> Action:
        """Sensible choice for a step inside a nation turn (also used in the look-ahead)."""
        kinds = {a.kind for a in actions}
        n = s.turn
        if "build_factory" in kinds:
            builds = [a for a in actions if getattr(a, "region", None)]
            return builds[0] if builds else actions[-1]
        if "produce" in kinds:
            return next((a for a in actions if getattr(a, "region", "") == "all"), actions[0])
        if "import" in kinds:
            owed = sum(s.interest_owed(n)) if n != NO else 0
            units = [a for a in actions if getattr(a, "unit", None)]
            if units and s.treasury[n] - 1 >= owed // 2:
                armies = [a for a in units if a.unit == "army"]
                # spread armies over provinces that hold the fewest units
                pool = armies or units
                return min(pool, key=lambda a: self._crowd(s, a))
            return next((a for a in actions if _is_done(a)), actions[-1])
        if "swiss_bank" in kinds:
            return next(a for a in actions if not getattr(a, "force", True))
        if "no_battle" in kinds or "end_maneuver" in kinds:
            fight = self._paying_fight(s, actions)
            if fight is not None:
                return fight
        if kinds & {"move_army", "move_fleet"}:
            move = self._expanding_move(s, actions)
            if move is not None:
                return move
        for k in _CLOSING_KINDS:
            for a in actions:
                if a.kind == k:
                    return a
        done = [a for a in actions if _is_done(a)]
        return done[0] if done else actions[0]

    @staticmethod
    def _crowd(s: GameState, a: Action) -> int:
        r = s.board.index.get(getattr(a, "region", "") or "", 0)
        return sum(s.armies[m][r] + s.fleets[m][r] for m in range(len(s.armies)))

    @staticmethod
    def _paying_fight(s: GameState, actions: list[Action]) -> Action | None:
        """A battle that wins material (battles remove one unit of each side): defend a home
        province against hostile units, or clear a region we then hold alone (its flag)."""
        best: Action | None = None
        best_score = 0.0
        for a in actions:
            if a.kind != "battle":
                continue
            m = NATION_CODES.index(a.actor)
            t = NATION_CODES.index(a.target)
            r = s.board.index[a.region]
            mine = s.armies[m][r] + s.fleets[m][r]
            theirs = s.armies[t][r] + s.fleets[t][r]
            others = [
                q
                for q in range(len(NATION_CODES))
                if q not in (m, t) and (s.armies[q][r] or s.fleets[q][r])
            ]
            owner = s.board.owner[r]
            hostile = s.armies[t][r] - s.friendly[t][r] + s.fleets[t][r]
            score = 0.0
            if owner == m and hostile > 0:
                score = 3.0 + (2.0 if s.factory[r] else 0.0)  # protect taxes and factories
            elif mine > 1 and theirs == 1 and not others and owner in (NO, t):
                score = 2.0 if s.flag[r] != m else 1.0  # we stay alone: the flag is ours
            if score > best_score:
                best, best_score = a, score
        return best

    @staticmethod
    def _expanding_move(s: GameState, actions: list[Action]) -> Action | None:
        """The move that plants a new flag: into neutral land (best) or sea that does not
        carry the mover's flag, holds no foreign units and none of the mover's units yet (so
        two units never chase the same flag). None when no move gains anything: the bot then
        ends its Maneuver, so it never wanders."""
        best: Action | None = None
        best_score = 0.0
        for a in actions:
            dest = getattr(a, "dest", None)
            if dest is None or getattr(a, "status", None) == "hostile":
                continue
            r = s.board.index.get(dest)
            if r is None:
                continue
            n = NATION_CODES.index(a.actor) if a.actor in NATION_CODES else NO
            region = s.board.regions[r]
            if region.kind == "province" or s.flag[r] == n:
                continue
            if s.foreign_units_in(r, n) or s.armies[n][r] or s.fleets[n][r]:
                continue
            origin = s.board.index.get(getattr(a, "origin", ""), -1)
            if origin >= 0 and s.board.owner[origin] == n and s.foreign_units_in(origin, n):
                continue  # do not leave a home province to foreign units
            score = (3.0 if region.kind == "land" else 2.0) + (0.5 if s.flag[r] != NO else 0.0)
            score -= 0.1 * len(getattr(a, "convoy", ()))
            if score > best_score:
                best, best_score = a, score
        return best

    def _rondel(self, game: Game, actions: list[Action]) -> Action:
        s = game.state
        n, gov = s.turn, s.government[s.turn]
        base_p = player_value(s, gov)
        base_n = nation_value(s, n)
        best, best_score = actions[0], float("-inf")
        for a in actions:
            trial = game.copy()
            trial.apply(a)
            self._finish_turn(trial, n)
            t = trial.state
            score = (player_value(t, gov) - base_p) + 0.5 * (nation_value(t, n) - base_n)
            score += self.rng.random() * 0.01  # break exact ties without bias
            if score > best_score:
                best, best_score = a, score
        return best

    def _finish_turn(self, game: Game, n: int, limit: int = 40) -> None:
        """Play the rest of nation ``n``'s turn with the defaults (investors pass)."""
        for _ in range(limit):
            aw = game.awaiting
            if aw is None:
                return
            other_turn = aw.nation != NATION_CODES[n] or aw.kind == "rondel"
            if other_turn and aw.kind not in ("invest", "bond_choice", "swiss_bank"):
                return
            actions = game.legal_actions()
            if not actions:
                return
            if aw.kind in ("invest", "bond_choice"):
                pick = next((a for a in actions if a.kind == "pass"), actions[-1])
            else:
                pick = self._default(game.state, actions)
            game.apply(pick)

    # -- investing ---------------------------------------------------------------------------
    def _invest(self, game: Game, actions: list[Action]) -> Action:
        s = game.state
        p = s.awaiting_player
        costs = s.rules.bond_costs
        best: Action | None = None
        best_score = 0.0
        for a in actions:
            if a.kind != "buy":
                continue
            n = NATION_CODES.index(a.nation)
            k = costs.index(a.value)
            price = a.value - (a.returning or 0)
            interest = k + 1 - (costs.index(a.returning) + 1 if a.returning else 0)
            mine = s.credit(p, n) + price
            others = max((s.credit(q, n) for q in range(len(s.players)) if q != p), default=0)
            score = interest * (1.0 + s.power[n] / 6.0)
            if mine > others and s.government[n] != p:
                score += 12  # gains the government
            elif s.government[n] == p and others + 9 >= s.credit(p, n):
                score += 6  # keeps a threatened government
            score += price * 0.1  # spend money: idle cash earns nothing
            if score > best_score:
                best, best_score = a, score
        if best is not None:
            return best
        return next((a for a in actions if a.kind == "pass"), actions[-1])


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot by level name (``random`` or ``greedy``)."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot level {level!r}; choose {', '.join(BOT_LEVELS)}")


def play_out(game: Game, bots: dict[str, Bot], max_actions: int = 20000) -> int:
    """Let bots (by player name) play until the game ends; returns the number of actions."""
    done = 0
    while game.awaiting is not None and done < max_actions:
        bot = bots[game.awaiting.player]
        game.apply(bot.choose(game))
        done += 1
    return done
