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
    PRODUCE = "produce"  # once "production": still read in positions (``OLD_WORDS``)
    IMPORT = "import"
    MANEUVER = "maneuver"
    BATTLE = "battle"  # fight or let pass, asked of each nation whose units meet
    INVEST = "invest"
    BOND_CHOICE = "bond_choice"  # the experienced set-up's bond rounds
    CANAL = "canal"  # Imperial 2030: may a unit pass through a canal


# the rondel space (without its number) a nation's decision is taken on
SPACE_OF: dict[Decision, str] = {
    Decision.BUILD_FACTORY: "factory",
    Decision.PRODUCE: "production",
    Decision.IMPORT: "import",
    Decision.MANEUVER: "maneuver",
}

# words positions written before a decision was renamed may still use
OLD_WORDS: dict[str, Decision] = {"production": Decision.PRODUCE}


def decision_named(word: object) -> Decision | None:
    """The decision a position or a JSON document names (the old words too); None for any
    other value."""
    if not isinstance(word, str):
        return None
    if word in OLD_WORDS:
        return OLD_WORDS[word]
    try:
        return Decision(word)
    except ValueError:
        return None
