"""The decisions the engine asks players for: one word each, shared by ``Awaiting.kind``, the
engine's decision table, positions, the app's help pages and the bots.

A ``StrEnum``: a member is its word (``Decision.BATTLE == "battle"``), so saves, positions
and JSON output read and write plain words.
"""

from __future__ import annotations

from enum import StrEnum


class Decision(StrEnum):
    RONDEL = "rondel"  # the government moves its nation's marker
    SWISS_BANK = "swiss_bank"  # a Swiss bank may force a stop on the Investor space
    BUILD_FACTORY = "build_factory"
    PRODUCE = "production"
    IMPORT = "import"
    MANEUVER = "maneuver"
    BATTLE = "battle"  # fight or let pass, asked of each nation whose units meet
    INVEST = "invest"
    BOND_CHOICE = "bond_choice"  # the experienced set-up's bond rounds
