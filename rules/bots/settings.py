"""How hard a search level thinks: ``SearchSettings`` and the levels' own settings.

Kept apart from the search itself so that the playouts (``rules.bots.playout``) and their
worker processes (``rules.bots.parallel``) read the settings without importing the search.
docs/BOTS.md has the tournaments that chose these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.machine import usable_cores


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How hard a search level thinks."""

    budget: float = 1.0  # seconds a decision at most
    playouts: int = 150  # playouts a decision at most (reproducible below the time limit)
    horizon: int = 6  # nation turns played forward after the current one
    candidates: int = 8  # bonds considered (the best by a quick estimate, and passing)
    plans: int = 6  # Maneuver plans considered
    noise: float = 0.6  # randomness of the playouts' rules of thumb
    explore: float = 0.15  # how often a simulated greedy player takes the rules of thumb's choice
    jitter: float = 0.5  # random points added to a simulated greedy player's scores
    rollout: str = "greedy"  # "greedy": with greedy look-ahead; "quick": rules of thumb only
    processes: int = 1  # processes playing the playouts (the caller counts as one; 0: auto)
    prune_idle: int = 1  # drop rondel spaces whose turn changes nothing (if any other does)
    end_horizon: int = 0  # nation turns played forward near the end (0: ``horizon``)
    end_power: int = 18  # "near the end": the strongest nation has this many power points
    win_bonus: float = 0.0  # points for winning, added to a playout that reaches the end
    far_horizon: int = 0  # nation turns played forward while the table is predictable (0: off)
    predictable: float = 0.9  # share of the others' rondel choices greedy must have predicted
    watch_least: int = 8  # ... out of at least this many (``rules.bots.opponents``)
    far_exact: bool = False  # ... and then the playouts' other seats play greedy's exact moves
    exact_others: bool = False  # set for a decision by ``far_exact`` (``rules.bots.playout``)
    # -- the strong level's additions (off by default: the other levels play as they did) ---
    soft_model: bool = False  # copy each other player as far as he is predicted (not 0/1)
    trust_low: float = 0.7  # predicted share at which a player is not copied at all ...
    trust_high: float = 0.9  # ... and from which he is copied exactly
    exact_seats: tuple[float, ...] = ()  # set for a decision: per seat, chance of exact play
    aimed_plans: bool = False  # Maneuver plans by aim (``rules.bots.plans``)
    use_turn: bool = False  # never decline the action of the rondel space just chosen
    prior_weight: float = 0.0  # futures the quick prior counts as when candidates are ranked
    narrow: bool = False  # judge only the candidates the time left allows two futures each
    rollout_eval: int = 0  # evaluation table of the simulated greedy choices (0: the bot's)
    rollout_width: int = 0  # rondel spaces a simulated greedy player tries (0: every one)
    others_temperature: float = 0.0  # the other seats' simulated choices: a softmax of greedy's
    # values at this many points over every option (0: as the searching player's own seat)
    read_tempers: bool = False  # tell apart how each other player plays (with the softmax's
    # temperature; ``rules.bots.opponents``) and play his seat so in the playouts
    seat_tempers: tuple[tuple[float, ...], ...] = ()  # set for a decision: per seat, the
    # chance of each of ``rules.bots.personalities.TEMPERS`` (empty: the plain one)
    maneuver_time: float = 1.0  # a Maneuver plan's time limit, in ``budget``s
    invest_time: float = 1.0  # a bond's, in ``budget``s
    minor_time: float = 1.0  # a battle's, a factory site's or a Swiss bank's, in ``budget``s
    turn_time: float = 0.0  # all of one nation turn's decisions, in ``budget``s (0: no limit)


MOST_PROCESSES = 2  # what ``processes=0`` uses at most (1.5x the playouts measured on 2 cores)


def auto_processes() -> int:
    """Processes for ``processes=0``: the cores this process may use, at most two."""
    return min(MOST_PROCESSES, usable_cores())


# The playout counts are what these budgets allow on a small machine (about 4 and 6 ms a
# playout, the strong level on two cores), so a seeded bot usually replays exactly; the time
# limits keep a busy or slow machine from making the player wait.
NORMAL = SearchSettings(budget=0.25, playouts=50, horizon=4, candidates=5, plans=3)
