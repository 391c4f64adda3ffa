"""Personalities: the same search with other weights and tendencies, never other code.

* warmonger: values its armies and fleets more, fights, occupies and destroys factories
  eagerly (``Style.aggression``), and minds its rival less than its own growth.
* banker: a cautious investor; values cash more, pays rondel fees reluctantly, avoids battles.
"""

from __future__ import annotations

from rules.bots.evaluation import DEFAULT, Weights
from rules.bots.style import Style

PERSONALITIES: dict[str, tuple[Weights, Style]] = {
    "warmonger": (Weights(learned=DEFAULT.learned, units=1.6, cash=0.9), Style(aggression=2.2)),
    "banker": (
        Weights(learned=DEFAULT.learned, cash=1.15, units=0.7),
        Style(aggression=0.4, thrift=1.8),
    ),
}
