"""End of the game: victory points and the tie-breaks, with the rule that decided."""

from __future__ import annotations

from dataclasses import dataclass

from rules.state import GameState


def power_factor(points: int) -> int:
    """0-4: 0, 5-9: 1, 10-14: 2, 15-19: 3, 20-24: 4, 25: 5."""
    return min(5, points // 5)


@dataclass(frozen=True, slots=True)
class BondScore:
    nation: str
    value: int
    interest: int
    factor: int

    @property
    def points(self) -> int:
        return self.interest * self.factor


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    bonds: tuple[BondScore, ...]
    cash: int

    @property
    def total(self) -> int:
        return sum(b.points for b in self.bonds) + self.cash


@dataclass(frozen=True, slots=True)
class Result:
    """Scores in seating order, the winner(s) and the rule that decided."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    decided_by: str

    @property
    def scores(self) -> dict[str, int]:
        return {p.name: p.total for p in self.players}

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def describe(self) -> str:
        # (the winner first among those tied on points: a tie-break decided it)
        ranked = sorted(self.players, key=lambda p: (-p.total, p.name not in self.winners))
        table = ", ".join(f"{p.name} {p.total}" for p in ranked)
        if len(self.winners) == 1:
            return f"{self.winners[0]} wins ({self.decided_by}); {table}"
        return f"shared victory of {' and '.join(self.winners)} (a full tie); {table}"


def result_of(s: GameState) -> Result:
    costs = s.rules.bond_costs
    scores = []
    for p, name in enumerate(s.players):
        bonds = tuple(
            BondScore(s.board.codes[n], costs[k], k + 1, power_factor(s.power[n]))
            for n in range(len(s.bond_owner))
            for k, o in enumerate(s.bond_owner[n])
            if o == p
        )
        scores.append(PlayerScore(name, bonds, s.cash[p]))
    best = max(p.total for p in scores)
    tied = [p for p, sc in enumerate(scores) if sc.total == best]
    if len(tied) == 1:
        return Result(tuple(scores), (s.players[tied[0]],), "most victory points")
    for group in _nation_groups(s):
        values = {p: _tie_value(s, p, group) for p in tied}
        top = max(values.values())
        tied = [p for p in tied if values[p] == top]
        if len(tied) == 1:
            names = "+".join(s.board.codes[n] for n in group)
            what = "highest bond" if s.rules.tie_break == "highest_bond" else "credit"
            return Result(
                tuple(scores),
                (s.players[tied[0]],),
                f"tie on points broken by {what} in {names}",
            )
    return Result(tuple(scores), tuple(s.players[p] for p in tied), "full tie: shared victory")


def _nation_groups(s: GameState) -> list[tuple[int, ...]]:
    """Nations from the strongest down; equal power in turn order or together (option)."""
    order = sorted(range(len(s.power)), key=lambda n: (-s.power[n], n))
    if s.rules.tie_break_equal_power == "turn_order":
        return [(n,) for n in order]
    groups: list[tuple[int, ...]] = []
    for n in order:
        if groups and s.power[groups[-1][0]] == s.power[n]:
            groups[-1] = (*groups[-1], n)
        else:
            groups.append((n,))
    return groups


def _tie_value(s: GameState, p: int, group: tuple[int, ...]) -> int:
    costs = s.rules.bond_costs
    if s.rules.tie_break == "highest_bond":
        return max(
            (costs[k] for n in group for k, o in enumerate(s.bond_owner[n]) if o == p), default=0
        )
    return sum(s.credit(p, n) for n in group)


def current_scores(s: GameState) -> dict[str, int]:
    """What each player would score if the game ended now."""
    return result_of(s).scores


__all__ = ["BondScore", "PlayerScore", "Result", "current_scores", "power_factor", "result_of"]
