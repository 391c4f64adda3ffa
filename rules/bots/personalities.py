"""Personalities: the same search with other weights and tendencies, never other code.

* warmonger: values its armies and fleets more, fights, occupies and destroys factories
  eagerly (``Style.aggression``), and minds its rival less than its own growth.
* banker: a cautious investor; values cash more, pays rondel fees reluctantly, avoids battles.

The same personalities, with the plain player's, are what the strong level's table watch
tells apart in the other players (``TEMPERS``, ``rules.bots.opponents``): which of them
explains a player's rondel choices best, so that its playouts play each seat in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.bots.evaluation import DEFAULT, Weights
from rules.bots.style import PLAIN, Style

PERSONALITIES: dict[str, tuple[Weights, Style]] = {
    "warmonger": (Weights(learned=DEFAULT.learned, units=1.6, cash=0.9), Style(aggression=2.2)),
    "banker": (
        Weights(learned=DEFAULT.learned, cash=1.15, units=0.7),
        Style(aggression=0.4, thrift=1.8),
    ),
}


@dataclass(frozen=True, slots=True)
class Temper:
    """A way of playing another player may have: the weights his choices look like they
    maximise, and the tendencies of his moves."""

    name: str
    weights: Weights
    style: Style
    prior: float  # its chance before any of the player's choices was seen


# the plain player first: most players are taken for him until their choices say otherwise
# (one choice twice as likely under another temper moves a third of his chance to it)
TEMPERS: tuple[Temper, ...] = (
    Temper("plain", DEFAULT, PLAIN, 0.8),
    *(Temper(name, weights, style, 0.1) for name, (weights, style) in PERSONALITIES.items()),
)
