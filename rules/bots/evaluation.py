"""How much a position is worth to each player: the score if the game ended now, projected to
the end of the game, plus what governments and treasuries are worth.

The final score is cash plus, for every bond, its interest times the power factor of its
nation. A position in the middle of the game is judged by the score it is heading for:

* each nation's power is projected to the end of the game from what it taxes now (factories
  and flags), and the bond factor is read smoothly from that projection (power / 5, at most
  5), so that progress between two multiples of five counts;
* the game's remaining length is estimated from the nation closest to 25 power points;
* bonds also earn interest until the end, paid from the treasury: each bond counts its interest
  for the Investor turns still to come, scaled down when the treasury cannot pay;
* a treasury is worth something to the nation's bondholders (it pays their interest and builds
  factories), shared by interest;
* governing a nation is worth a fixed premium (the governor decides what the nation does and
  collects the tax success bonus).

``utility`` turns values into what a player wants: his own value against the best rival's,
which is what winning is about. Personalities are other ``Weights``, never other code.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.bots.features import (
    FEATURES,
    NationFigures,
    nation_figures,
    player_features,
    power_per_taxation,
)
from rules.state import NO, GameState

WIN_POWER = 25


@dataclass(frozen=True, slots=True)
class Weights:
    """The terms of the evaluation. A personality is a different set of weights."""

    learned: int = 4  # which fitted weight table (0: the hand-made projection below)
    cash: float = 1.0  # multiplies what cash is worth
    units: float = 1.0  # multiplies what the governed nations' units are worth
    rival: float = 1.0  # weight of the best rival's value in ``utility`` (0: play for score)
    pace: float = 1.0  # how fast the hand-made projection expects the game to end
    # least weight of "governments" in every phase (None: the fit's own). The fits (greedy
    # self-play, where every governor plays alike) find a government worth -1.4 to -4 points
    # beyond what its nation taxes and holds; a search player who runs a nation better than
    # the others might count its control for more. Tried for the strong level (+2): it
    # governed more nation turns and won no more games (docs/BOTS.md); no level uses it.
    government_floor: float | None = None


DEFAULT = Weights()


@dataclass(slots=True)
class Outlook:
    """The projection shared by all players' values: per nation its projected power factor,
    the interest payments still to come, and who governs."""

    rounds_left: float
    factor: list[float]  # smooth projected power factor
    payouts: list[float]  # interest payments still to come (expected)
    governor: list[int]


def outlook(
    s: GameState, w: Weights = DEFAULT, figures: list[NationFigures] | None = None
) -> Outlook:
    figures = figures or nation_figures(s)
    # power points per taxation (by the game's tax rule), about one taxation in three turns
    gains = [power_per_taxation(s, f.tax) / 3.0 for f in figures]
    # the game ends when the first nation reaches 25 power points
    rounds = 30.0
    for n, f in enumerate(figures):
        if s.government[n] != NO or f.governor != NO:
            rounds = min(rounds, (WIN_POWER - s.power[n]) / max(0.8, gains[n] * w.pace))
    rounds = max(0.0, rounds)
    factor = []
    payouts = []
    turns = rounds / 4.0  # about one Investor turn in four
    for n, f in enumerate(figures):
        projected = min(WIN_POWER, s.power[n] + gains[n] * rounds)
        factor.append(min(5.0, projected / 5.0))
        if f.owed and turns > 0:
            income = max(0, f.tax - f.units) * rounds / 3.0
            can_pay = min(1.0, (s.treasury[n] + income) / (f.owed * turns))
            payouts.append(turns * can_pay)
        else:
            payouts.append(0.0)
    return Outlook(rounds, factor, payouts, [f.governor for f in figures])


def final_values(s: GameState) -> list[float]:
    """The scores of a finished game."""
    out = [float(c) for c in s.cash]
    for n, owners in enumerate(s.bond_owner):
        f = s.power[n] // 5
        for k, o in enumerate(owners):
            if o != NO:
                out[o] += (k + 1) * f
    return out


def values(s: GameState, w: Weights = DEFAULT) -> list[float]:
    """Every player's projected worth."""
    if s.finished:
        return final_values(s)
    figures = nation_figures(s)
    if w.learned:
        return learned_values(s, TABLES[w.learned], figures, w)
    look = outlook(s, w, figures)
    out = [w.cash * c for c in s.cash]
    for n, f in enumerate(figures):
        if f.owed:
            per_interest = look.factor[n] + 0.25 * look.payouts[n] + 0.35 * s.treasury[n] / f.owed
            for p, i in enumerate(f.shares):
                if i:
                    out[p] += i * per_interest
        if f.governor != NO:
            out[f.governor] += 3.0 + 0.25 * w.units * min(8, f.units)
    return out


def utility(vals: list[float], p: int, w: Weights = DEFAULT) -> float:
    """What player ``p`` wants: his value against the best rival's."""
    best = max((v for q, v in enumerate(vals) if q != p), default=0.0)
    return vals[p] - w.rival * best


def player_utility(s: GameState, p: int, w: Weights = DEFAULT) -> float:
    return utility(values(s, w), p, w)


# ------------------------------------------------------------------------------ learned model

# rows of feature weights from the game's start to its end (phase_weights blends two)
WeightTable = tuple[tuple[float, ...], ...]
PHASE_WEIGHTS: WeightTable = (
    (2.510, 0.403, 0.766, 1.621, 0.377, -0.439, 0.708, -0.229, 1.579, -0.211, 0.302, 0.328),
    (1.708, 0.420, 0.670, 0.559, 0.049, 0.686, 0.940, -0.500, 0.775, 0.054, -0.332, -0.042),
    (1.704, 0.936, 0.488, 0.565, 0.086, -0.521, 3.744, -0.873, 0.778, 0.041, -0.176, 0.117),
    (0.995, 0.726, 0.327, 0.197, -0.150, -0.251, 5.575, -1.107, 0.299, 0.137, -0.141, -0.320),
    (1.235, 0.614, 0.227, -0.078, 0.219, -0.292, 8.172, -1.172, -0.397, 0.129, -0.285, -0.532),
)


PHASE_WEIGHTS_2 = (
    (2.433, -1.406, 0.645, 0.753, 1.041, 1.455, -2.642, 0.427, 0.682, -0.101, 0.310, 0.159),
    (1.975, 0.686, 0.457, 0.832, -0.003, 0.785, -7.723, 0.485, 0.836, -0.082, -0.347, -0.171),
    (1.594, 0.701, 0.309, 0.465, 0.454, 0.372, -5.007, 0.560, 0.194, -0.082, 0.018, 0.189),
    (1.189, 0.718, 0.155, 0.303, 0.137, 0.495, -8.521, 0.546, 0.270, 0.012, 0.458, 0.071),
    (1.155, 0.809, 0.078, 0.664, -0.344, 0.341, -5.790, 0.221, 0.201, 0.019, 0.293, -0.002),
)


PHASE_WEIGHTS_3 = (
    (2.693, -0.172, 0.752, 1.134, 1.117, 1.731, 1.468, -0.080, 0.971, -0.066, 0.480, 0.417),
    (2.144, 0.752, 0.415, 1.029, 0.341, 1.553, -6.243, 0.542, 0.721, -0.164, 0.362, 0.584),
    (1.779, 0.948, 0.224, 0.584, 0.247, 0.774, -6.496, 0.665, 0.210, -0.111, -0.116, 0.216),
    (1.327, 0.905, 0.163, 0.292, 0.121, 0.507, -4.478, 0.190, 0.213, -0.015, -0.247, -0.019),
    (1.034, 0.879, 0.109, 0.160, 0.020, -0.006, -2.379, 0.052, 0.018, 0.009, -0.060, -0.065),
)
PHASE_WEIGHTS_4 = (
    (2.645, -0.101, 0.734, 1.016, 1.076, 1.653, -0.007, 0.098, 1.105, -0.133, -0.059, 0.414),
    (2.038, 0.678, 0.473, 0.784, 0.506, 1.181, -4.071, 0.286, 0.598, -0.112, 0.255, 0.413),
    (1.684, 0.855, 0.276, 0.603, 0.259, 0.666, -3.785, 0.171, 0.286, -0.037, 0.030, 0.164),
    (1.356, 0.840, 0.200, 0.206, 0.280, 0.411, -3.004, 0.073, 0.269, -0.005, -0.136, 0.052),
    (1.027, 0.877, 0.099, 0.188, -0.074, 0.141, -1.396, -0.087, 0.103, 0.010, 0.007, -0.022),
)
# A table with the features above and ``EXTRA_FEATURES`` (the rondel's tempo, the investor
# card, governments at risk, armies next to factories, idle units), fitted by
# benchmarks/fit_evaluation.py --extended on greedy games and games between search levels.
# The strong level judges the end of its playouts with it (``STRONG_WEIGHTS``), while its
# simulated greedy players keep table 4 (docs/BOTS.md, "its own evaluation: table 5").
PHASE_WEIGHTS_5 = (
    (
        2.128,
        1.738,
        0.311,
        1.040,
        -0.188,
        2.090,
        -3.948,
        0.561,
        0.548,
        -0.073,
        0.498,
        0.774,
        1.851,
        0.772,
        5.151,
        -1.299,
        -0.465,
        -0.254,
        0.004,
        0.269,
    ),
    (
        1.865,
        1.306,
        0.216,
        0.847,
        -0.062,
        1.569,
        -5.535,
        0.653,
        -0.219,
        -0.113,
        0.244,
        0.413,
        0.198,
        0.412,
        3.424,
        -0.711,
        -0.629,
        -0.225,
        0.006,
        1.056,
    ),
    (
        1.423,
        0.926,
        0.160,
        0.722,
        -0.420,
        1.053,
        -8.688,
        0.249,
        0.698,
        -0.014,
        0.022,
        0.186,
        0.657,
        0.921,
        3.005,
        1.352,
        1.032,
        -0.180,
        0.000,
        -0.043,
    ),
    (
        1.494,
        0.850,
        0.148,
        0.520,
        -0.164,
        0.288,
        -6.960,
        0.019,
        0.697,
        0.035,
        0.193,
        0.144,
        0.453,
        0.528,
        2.070,
        0.381,
        -0.787,
        0.004,
        -0.020,
        -0.413,
    ),
    (
        1.197,
        0.996,
        0.039,
        -0.214,
        0.176,
        -0.255,
        -2.763,
        0.109,
        0.040,
        0.012,
        0.049,
        0.092,
        0.741,
        0.507,
        1.217,
        0.721,
        -0.685,
        0.043,
        -0.019,
        -0.145,
    ),
)
TABLES = {
    1: PHASE_WEIGHTS,
    2: PHASE_WEIGHTS_2,
    3: PHASE_WEIGHTS_3,
    4: PHASE_WEIGHTS_4,
    5: PHASE_WEIGHTS_5,
}


def phase_weights(max_power: int, table: WeightTable = PHASE_WEIGHTS) -> list[float]:
    x = max(0.0, min(len(table) - 1.0, (max_power - 2.5) / 5.0))
    i = min(len(table) - 2, int(x))
    f = x - i
    return [a * (1 - f) + b * f for a, b in zip(table[i], table[i + 1], strict=True)]


def learned_values(
    s: GameState,
    table: WeightTable = PHASE_WEIGHTS,
    figures: list[NationFigures] | None = None,
    w: Weights = DEFAULT,
) -> list[float]:
    coef = phase_weights(max(s.power), table)
    if w.cash != 1.0:
        coef[0] *= w.cash
        coef[11] *= w.cash
    if w.units != 1.0:
        coef[8] *= w.units
    if w.government_floor is not None and coef[6] < w.government_floor:
        coef[6] = w.government_floor
    rows = player_features(s, figures, extended=len(coef) > len(FEATURES))
    return [sum(a * b for a, b in zip(coef, row, strict=True)) for row in rows]
