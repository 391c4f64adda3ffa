"""Small helpers shared by the rule modules: names for messages, money flows, awaiting."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.state import NO, Event, GameState

if TYPE_CHECKING:
    from rules.actions import Action

Events = list[Event]

# A decision's row in the engine's table (``rules.engine.DECISIONS``): its legal actions, and
# the handler of each action class that answers it. A handler takes the position, its own
# action class and the events (``Callable[...]``: the classes differ from row to row).
DecisionRule = tuple[
    Callable[[GameState], "Sequence[Action]"], "dict[type[Action], Callable[..., None]]"
]


def code(s: GameState, n: int) -> str:
    """The code of nation ``n`` in this game (``AH`` .. ``RU``, or ``RU`` .. ``EU`` in 2030)."""
    return s.board.codes[n]


def nation_index(s: GameState, text: str) -> int:
    """The nation a code in notation names in this game."""
    codes = s.board.codes
    if text in codes:
        return codes.index(text)
    raise IllegalAction(f"there is no nation {text!r}; nations are {' '.join(codes)}")


def nname(s: GameState, n: int) -> str:
    return s.board.nations[n].name


def possessive(name: str) -> str:
    """ "Italy's", "the United States'" (Imperial 2030): a name that ends in s takes only the
    apostrophe ("United States's" read wrong to a rules lawyer)."""
    return name + ("'" if name.endswith("s") else "'s")


def rname(s: GameState, r: int) -> str:
    return s.board.regions[r].name


def region_index(s: GameState, region_id: str) -> int:
    r = s.board.index.get(region_id)
    if r is None:
        if region_id in s.board.impassable:
            name = region_id.replace("_", " ").title()  # (the board keeps only their ids)
            raise IllegalAction(f"{name} is impassable: no unit may ever enter it")
        raise IllegalAction(f"there is no region {region_id!r} on the map")
    return r


def player_index(s: GameState, name: str) -> int:
    """The seat of a player named in notation; case is ignored, as everywhere in the notation
    (set-up refuses two names that differ only in case)."""
    try:
        return s.players.index(name)
    except ValueError:
        folded = name.casefold()
        for p, player in enumerate(s.players):
            if player.casefold() == folded:
                return p
        raise IllegalAction(
            f"there is no player {name!r}; players are {', '.join(s.players)}"
        ) from None


def counted(count: int, one: str, many: str) -> str:
    """'1 factory', '0 factories', '2 factories': a count with its noun, as said."""
    return f"{count} {one if count == 1 else many}"


def power_gain(name: str, points: int, before: int, after: int) -> str:
    """The power-track line: the points actually gained, and the track's end when it cut
    them ('gains 9 power points (16 → 25, the end of the track; tax gave 10)')."""
    gained = after - before
    if gained == points:
        return f"{name} gains {counted(points, 'power point', 'power points')} ({before} → {after})"
    return (
        f"{name} gains {gained} power point{'s' * (gained != 1)} ({before} → {after}, the end "
        f"of the track; its tax gave {points})"
    )


def say(ev: Events, s: GameState, n: int | None, text: str) -> None:
    ev.append(Event(text, s.board.codes[n] if n is not None and n != NO else None))


def bank_pays(s: GameState, amount: int) -> int:
    """Money leaving the bank. With a limited bank it pays only what it holds."""
    if amount <= 0:
        return 0
    if s.rules.bank == "limited":
        amount = min(amount, max(0, s.bank))
    s.bank -= amount
    return amount


def await_decision(
    s: GameState, kind: Decision, player: int, nation: int = NO, ctx: Any = None
) -> None:
    s.awaiting_kind = kind
    s.awaiting_player = player
    s.awaiting_nation = nation
    s.ctx = ctx


def clear_await(s: GameState) -> None:
    s.awaiting_kind = None
    s.awaiting_player = NO
    s.awaiting_nation = NO
    s.ctx = None


def push(s: GameState, *steps: tuple[Any, ...]) -> None:
    """Put steps in front of the remaining steps of the turn."""
    s.todo = (*steps, *s.todo)


def seats_from(s: GameState, player: int) -> list[int]:
    """All players clockwise, starting with ``player``."""
    n = len(s.players)
    return [(player + i) % n for i in range(n)]


def clockwise_after(s: GameState, player: int) -> list[int]:
    """Every other player, clockwise from ``player``'s left neighbour."""
    n = len(s.players)
    return [(player + i) % n for i in range(1, n)]


def money(m: int) -> str:
    return f"{m}M"
