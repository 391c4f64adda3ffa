"""Flags (tax markers): placed at the end of a Maneuver in every region a nation holds alone,
replaced when another nation holds it alone, and, by rule option, moved at once when a
region's last occupant leaves or is destroyed."""

from __future__ import annotations

from rules.common import Events, nname, possessive, rname, say
from rules.geometry import where
from rules.state import MAP, NO, GameState


def flag_region(s: GameState, r: int) -> bool:
    return s.board.regions[r].kind != "province"


def sole_occupant(s: GameState, r: int) -> int:
    """The one nation with units in r, or NO (none, or several)."""
    found = NO
    for m, (armies, fleets) in enumerate(zip(s.armies, s.fleets, strict=True)):
        if armies[r] or fleets[r]:
            if found != NO:
                return NO
            found = m
    return found


def set_flag(s: GameState, r: int, m: int, ev: Events) -> None:
    """``m`` occupies r alone: its flag replaces any other (if it has one left)."""
    old = s.flag[r]
    if old == m:
        return
    s.own(MAP)
    if old != NO:
        s.flag[r] = NO
    if s.flags_in_supply(m) > 0:
        s.flag[r] = m
        if old != NO:
            say(
                ev,
                s,
                m,
                f"{possessive(nname(s, m))} flag replaces {possessive(nname(s, old))} in "
                f"{rname(s, r)}",
            )
        else:
            say(ev, s, m, f"{nname(s, m)} places a flag in {rname(s, r)}")
    elif old != NO:
        say(
            ev,
            s,
            m,
            f"{possessive(nname(s, old))} flag is removed from {rname(s, r)}; {nname(s, m)} has "
            "no flag left to place",
        )
    if (
        old != NO
        and s.rules.returned_flag_placement == "immediate"
        and s.flags_in_supply(old) == 1  # (it had none left: RULES.md §5.4.6)
    ):
        place_returned(s, old, ev)


def place_returned(s: GameState, m: int, ev: Events) -> None:
    """A flag came back to ``m``, whose flags were all on the board: it may go at once to an
    unmarked region ``m`` holds alone ("supply exhausted", RULES.md §5.4.6). A nation with
    flags left places them only at its own flag step, as any other flag (``after_battle``)."""
    for r in range(len(s.board.regions)):
        if s.flags_in_supply(m) <= 0:
            return
        if flag_region(s, r) and s.flag[r] == NO and sole_occupant(s, r) == m:
            s.own(MAP)
            s.flag[r] = m
            say(ev, s, m, f"{nname(s, m)} places a returned flag in {rname(s, r)}")


def after_departure(s: GameState, r: int, ev: Events) -> None:
    if not s.rules.flag_transfer_on_departure or not flag_region(s, r):
        return
    m = sole_occupant(s, r)
    if m != NO and m != s.turn and s.flag[r] not in (NO, m):
        set_flag(s, r, m, ev)


def after_battle(s: GameState, r: int, ev: Events) -> None:
    """An inactive nation left alone by a battle takes the region's flag at once. An unmarked
    region gets no flag out of turn: its flag is placed at the nation's own flag step."""
    if not flag_region(s, r):
        return
    m = sole_occupant(s, r)
    if m != NO and m != s.turn and s.flag[r] not in (NO, m):
        set_flag(s, r, m, ev)


def place_flags(s: GameState, n: int, ev: Events) -> None:
    regions = s.board.regions
    # (only where ``n`` has a unit can it be the sole occupant: a few regions, in order)
    for r in sorted({*where(s.armies[n]), *where(s.fleets[n])}):
        if regions[r].kind != "province" and sole_occupant(s, r) == n and s.flag[r] != n:
            set_flag(s, r, n, ev)
