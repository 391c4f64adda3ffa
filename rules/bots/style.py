"""The tendencies of the rules of thumb: personalities change these numbers, never the code."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """Tendencies of the rules of thumb (personalities change these, not the code)."""

    aggression: float = 1.0  # weight of battles, hostile entries and factory destruction
    expansion: float = 1.0  # weight of new flags
    thrift: float = 1.0  # dislike of paying the rondel fee and of idle treasuries
    noise: float = 0.0  # random spread added to scores (rollouts use some)


PLAIN = Style()
