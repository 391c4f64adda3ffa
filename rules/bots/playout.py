"""One playout: the game played forward from a position by simulated players, to a horizon
some nation turns ahead, and judged there by the evaluation.

The simulated players are greedy players (one nation turn of look-ahead for the rondel, one
purchase of look-ahead for bonds) with some randomness, so that the futures differ: now and
then they take the rules of thumb's choice instead, and the rules of thumb add noise to their
scores; with ``SearchSettings.others_temperature`` the other seats' choices are a softmax of
greedy's values (``simulated_pick``). With ``SearchSettings.exact_others`` (set while the
table plays as greedy players do, ``rules.bots.opponents``) the other seats play greedy's
exact choices instead, with greedy's own code and weights, and only the searching player's
own seat varies from future to future. With ``SearchSettings.seat_tempers`` each other seat
plays with the weights and tendencies of the temper drawn for it (``seat_players``).
Module-level functions, so that worker processes can run them too.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import TYPE_CHECKING

from rules import engine
from rules.actions import Action, Pass
from rules.bots.evaluation import Weights, utility, values
from rules.bots.greedy import (
    IDLE_TURN,
    changes_anything,
    finish_turn,
    greedy_invest,
    greedy_rondel,
)
from rules.bots.personalities import TEMPERS
from rules.bots.policy import Policy
from rules.bots.style import PLAIN, Style
from rules.state import GameState

if TYPE_CHECKING:
    from rules.bots.settings import SearchSettings

STEPS = 600  # actions a playout plays at most (a nation turn is rarely 30)


def playout(s: GameState, me: int, seed: int, settings: SearchSettings, weights: Weights) -> float:
    """Play forward from ``s`` to the horizon and return what the end is worth to ``me``."""
    rng = random.Random(seed)
    policy = Policy(rng, Style(noise=settings.noise))
    horizon = horizon_for(s, settings)
    exact = exact_players(s, me, settings, rng)
    quiet = Policy(random.Random(0), PLAIN)
    simulated = Weights(learned=settings.rollout_eval) if settings.rollout_eval else weights
    seats = seat_players(len(s.players), me, settings, simulated, policy, rng)
    turns = 0
    for _ in range(STEPS):
        if s.finished or s.awaiting_kind is None:
            break
        if s.awaiting_kind == "rondel":
            turns += 1
            if turns > horizon:
                break
        actions = engine.legal_actions(s)
        p = s.awaiting_player
        seat_weights, seat_policy = seats[p] if 0 <= p < len(seats) else (simulated, policy)
        if p in exact:
            a = greedy_choice(s, actions, quiet)
        elif settings.rollout == "greedy" and s.awaiting_kind in ("rondel", "invest"):
            a = simulated_pick(s, actions, seat_policy, rng, seat_weights, settings, me)
        else:
            a, _ = seat_policy.pick(s, actions)
        s, _ = engine.apply(s, a)
    return judge(s, me, settings, weights)


def exact_players(s: GameState, me: int, settings: SearchSettings, rng: random.Random) -> set[int]:
    """The seats a playout plays with greedy's exact choices: every other seat with
    ``exact_others``; with ``exact_seats`` (the soft model) each seat with its own chance,
    drawn once for the whole playout (a future in which that player plays as greedy does)."""
    if settings.exact_others:
        return {p for p in range(len(s.players)) if p != me}
    out = set()
    for p, chance in enumerate(settings.exact_seats):
        if p != me and chance > 0 and (chance >= 1 or rng.random() < chance):
            out.add(p)
    return out


def seat_players(
    players: int,
    me: int,
    settings: SearchSettings,
    weights: Weights,
    policy: Policy,
    rng: random.Random,
) -> list[tuple[Weights, Policy]]:
    """Per seat, the weights and rules of thumb its simulated player plays a playout with:
    ``weights`` and ``policy`` (the plain temper), or for another seat with
    ``seat_tempers`` a temper drawn by its chances, once for the whole playout (a future in
    which that player plays so; ``rules.bots.opponents`` tells the tempers apart)."""
    seats = [(weights, policy)] * players
    for p, chances in enumerate(settings.seat_tempers):
        if p == me or p >= players or not chances:
            continue
        draw, i = rng.random(), 0
        while i < len(chances) - 1 and draw >= chances[i]:
            draw -= chances[i]
            i += 1
        if i:  # (0 is the plain temper: as the other seats)
            temper = TEMPERS[i]
            seats[p] = (temper.weights, Policy(rng, replace(temper.style, noise=settings.noise)))
    return seats


def greedy_choice(s: GameState, actions: list[Action], quiet: Policy) -> Action:
    """What the greedy player chooses here (``rules.bots.greedy``: its look-ahead for the rondel
    and bonds, the rules of thumb without noise for the rest). A greedy choice is a function
    of the position alone, and the playouts of one decision meet the same positions again
    and again (the others' turns before the searching player's own moves make the futures
    differ): the look-ahead's answers are remembered (``_KNOWN``)."""
    if len(actions) == 1:
        return actions[0]
    kind = s.awaiting_kind
    if kind not in ("rondel", "invest"):
        return quiet.pick(s, actions)[0]
    key = position_key(s)
    if key is not None:
        key = (key, tuple(actions))
        known = _KNOWN.get(key)
        if known is not None:
            return known
    choice = greedy_rondel(s, actions, quiet) if kind == "rondel" else greedy_invest(s, actions)
    if key is not None:
        if len(_KNOWN) >= KNOWN_KEPT:
            _KNOWN.clear()
        _KNOWN[key] = choice
    return choice


KNOWN_KEPT = 20000  # greedy choices remembered (a few kilobytes each)
_KNOWN: dict[tuple[object, ...], Action] = {}


def position_key(s: GameState) -> tuple[object, ...] | None:
    """Everything a greedy choice depends on, as a hashable value (None if some part of the
    decision's data cannot be hashed)."""
    key = (
        s.awaiting_kind,
        s.awaiting_player,
        s.awaiting_nation,
        s.turn,
        s.round,
        tuple(s.cash),
        s.bank,
        tuple(s.treasury),
        tuple(s.power),
        tuple(s.tax_level),
        tuple(s.rondel),
        tuple(s.government),
        tuple(map(tuple, s.bond_owner)),
        b"".join(s.armies),
        b"".join(s.fleets),
        b"".join(s.friendly),
        tuple(s.factory),
        tuple(s.flag),
        s.investor_card,
        tuple(s.flag_min_bond),
        tuple(s.flag_claim),
        s.todo,
        s.ctx,
        s.turn_ctx,
        s.ending,
        s.free_invested,
        s.board.name,
        s.board.removed_edges,
        s.rules,
        s.players,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def horizon_for(s: GameState, settings: SearchSettings) -> int:
    """Nation turns to play forward from ``s``: further near the end of the game, where the
    evaluation's smooth projection of the power factors is least exact and the playouts can
    reach the real final score."""
    if settings.end_horizon and max(s.power) >= settings.end_power:
        return settings.end_horizon
    return settings.horizon


def judge(s: GameState, me: int, settings: SearchSettings, weights: Weights) -> float:
    """What the position at a playout's end is worth to ``me``: his value against the best
    rival's, and for a game that ended there and that ``me`` won, ``win_bonus`` points more
    (a won game is what counts, not the margin)."""
    u = utility(values(s, weights), me, weights)
    if s.finished and u > 0:
        u += settings.win_bonus
    return u


def simulated_pick(
    s: GameState,
    actions: list[Action],
    policy: Policy,
    rng: random.Random,
    weights: Weights,
    settings: SearchSettings,
    me: int,
) -> Action:
    """A simulated greedy player's rondel or bond choice in a playout of ``me``'s search: the
    searching player's own seat with ``settings.jitter`` and ``rollout_width``, the other
    seats with ``settings.others_temperature`` if it is set (a softmax over every option)."""
    if settings.others_temperature > 0 and s.awaiting_player != me:
        jitter, width, temperature = 0.0, 0, settings.others_temperature
    else:
        jitter, width, temperature = settings.jitter, settings.rollout_width, 0.0
    return greedy_pick(
        s, actions, policy, rng, weights, settings.explore, jitter, width, temperature
    )


def greedy_pick(
    s: GameState,
    actions: list[Action],
    policy: Policy,
    rng: random.Random,
    weights: Weights,
    explore: float = 0.15,
    jitter: float = 0.5,
    width: int = 0,
    temperature: float = 0.0,
) -> Action:
    """A greedy player's choice in a playout: one nation turn of look-ahead for the rondel,
    one purchase of look-ahead for bonds (the few best by the quick estimate). ``explore``:
    how often it takes the rules of thumb's choice instead; ``jitter``: random points on its
    scores (so that the futures differ); ``width``: rondel spaces tried at most (the best
    by the rules of thumb's quick values; 0: every one).

    With a ``temperature`` (points) the noise is Gumbel's instead of ``jitter``'s, which
    makes the choice a draw from a softmax of the values: every option keeps a chance that
    falls smoothly with its distance from the best. That is how well another player's real
    choices are predicted (``benchmarks/predict_opponents.py``: a softmax at 2 points fits
    the normal level's rondel and bond choices best, far better than a near-greedy pick);
    the uniform jitter never picks an option more than ``jitter`` points behind."""
    if rng.random() < explore:
        return policy.pick(s, actions)[0]
    if s.awaiting_kind == "rondel":
        who = s.government[s.turn]
        quiet: Policy | None = Policy(rng, PLAIN)
        options = actions
        if width and len(actions) > width:
            ranked = sorted(policy.rondel_scores(s, actions), key=lambda t: t[0], reverse=True)
            options = [a for _, a in ranked[:width]]
    else:
        who = s.awaiting_player
        scored = sorted(policy.invest_scores(s, actions), key=lambda t: t[0], reverse=True)
        options = [a for _, a in scored[:4]]
        options += [a for a in actions if isinstance(a, Pass) and a not in options]
        quiet = None
    best, best_u = options[0], float("-inf")
    for a in options:
        after, _ = engine.apply(s, a)
        idle = 0.0
        if quiet is not None:
            played = finish_turn(after, quiet)
            if not changes_anything(s, played):
                idle = IDLE_TURN  # as the greedy player does: a turn that changes nothing
            after = played
        if temperature > 0:
            noise = -temperature * math.log(max(rng.expovariate(1.0), 1e-300))  # Gumbel
        else:
            noise = rng.random() * jitter
        u = utility(values(after, weights), who, weights) + noise - idle
        if u > best_u:
            best, best_u = a, u
    return best
