"""Who could take a government at their next investment, and with which bond: the warning a
governor needs before the Investor comes round.

Each challenger's cheapest purchase (a bond still available, or a trade-up of one they hold)
after which ``investing.government_after_buy`` — the function the engine's own preview uses,
with the government check's order and tie rule — gives them the nation, as if nobody else
bought meanwhile. A purchase the challenger cannot pay is left out where their cash is known
(``cash_known``); where it is secret the warning says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.investing import _available, _payment_ok, _upgrade_targets, government_after_buy
from rules.state import NO, GameState


@dataclass(frozen=True, slots=True)
class Takeover:
    """``player`` takes the nation by buying the ``value``M bond (returning ``returning``M):
    ``price`` in cash, their credit then ``credit`` against the governor's ``held``."""

    player: str
    value: int
    returning: int | None
    price: int
    credit: int
    held: int
    affordable: bool | None  # None: their cash is secret to the one asking

    def parts(self) -> tuple[str, str, str]:
        """('Ben', 'with the 6M bond', '(18 > 16M)'): pieces a narrow panel wraps between."""
        how = (
            f"trading up {self.returning}M to {self.value}M"
            if self.returning is not None
            else f"with the {self.value}M bond"
        )
        cash = ", if the cash is there" if self.affordable is None else ""
        return self.player, how, f"({self.credit} > {self.held}M{cash})"

    def words(self) -> str:
        """'Ben with the 6M bond (18 > 16M)', 'Ben trading up 2M to 9M (17 > 16M)'."""
        return " ".join(self.parts())


def takeovers(
    s: GameState, n: int, cash_known: Callable[[int], bool] = lambda p: True
) -> list[Takeover]:
    """Each other player's cheapest purchase that would take nation ``n`` from its governor,
    cheapest first; [] when nobody governs it or nobody can."""
    gov = s.government[n]
    if gov == NO:
        return []
    costs = s.rules.bond_costs
    avail = _available(s, n)
    out: list[Takeover] = []
    for p in range(len(s.players)):
        if p == gov:
            continue
        owned = [k for k, o in enumerate(s.bond_owner[n]) if o == p]
        options = [(k, None) for k in avail] + [
            (k, j) for j in owned for k in _upgrade_targets(s, n, j, avail)
        ]
        known = cash_known(p)
        for k, j in sorted(options, key=lambda o: (costs[o[0]] - _cost(s, o[1]), o[0])):
            price = costs[k] - _cost(s, j)
            if known and (price > s.cash[p] or not _payment_ok(s, p, n, k, j)):
                continue
            returning = costs[j] if j is not None else None
            if government_after_buy(s, p, n, costs[k], returning) != p:
                continue
            credit = s.credit(p, n) + price
            held = s.credit(gov, n)
            out.append(
                Takeover(s.players[p], costs[k], returning, price, credit, held, known or None)
            )
            break
    out.sort(key=lambda t: (t.price, t.player))
    return out


def _cost(s: GameState, k: int | None) -> int:
    return s.rules.bond_costs[k] if k is not None else 0
