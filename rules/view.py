"""What one player may see of a game: the per-player view (OpenSpiel's observer, for
Imperial's one secret).

Personal cash may be kept secret; bonds, treasuries and everything on the board are open
(RULES.md, "Hidden information?"). Every payment is public, though (the set-up money, bond
purchases, interest, bonuses, the investor card's 2M, rondel fees, donations), so an
attentive player can keep a tally of everyone's cash from the moves alone. A view is the game
with each secret figure replaced by that tally: never the figure in the position, and so never
anything derived from it. Positions kept for undo and for the history are scrubbed the same
way, so stepping back through a view shows nothing more.

The view is a ``Game``: panels, previews, explanations and bots read it exactly as they read
the game itself. Front ends still show a secret player's cash as unknown
(``GameView.shows_cash_of``); the tally is what a computer player plays with.
"""

from __future__ import annotations

from typing import TypeVar

from rules import engine
from rules.game import Game, Ply


class PublicTally:
    """Everyone's cash as the public payments leave it: the start's cash (set-up money, or
    the position a game started from) plus, for every action, what it paid and was paid.
    Kept between calls: only actions new since the last call are counted, and an undo drops
    what it took back. A change that no action made (a position edited by hand) is not a
    payment, so the tally never learns it."""

    __slots__ = ("_plies", "_scrubbed", "_setup", "_start", "cash")

    def __init__(self) -> None:
        self._setup: object = None
        self._start: list[int] = []
        self._plies: list[Ply] = []  # the game's plies counted so far
        self.cash: list[list[int]] = []  # the tally before each counted ply, then after all
        # per set of hidden seats: the game's plies with their hidden cash replaced, so far
        self._scrubbed: dict[tuple[int, ...], list[Ply]] = {}

    def count(self, game: Game) -> list[int]:
        """The tally after ``game``'s last action."""
        if self._setup is not game.setup:
            self._setup = game.setup
            self._start = list(Game(game.setup).state.cash)
            self._plies, self.cash, self._scrubbed = [], [self._start], {}
        plies = game.plies
        same = 0
        for counted, ply in zip(self._plies, plies, strict=False):
            if counted is not ply:
                break
            same += 1
        del self._plies[same:]
        del self.cash[same + 1 :]
        for hidden in self._scrubbed.values():
            del hidden[same:]
        for ply in plies[same:]:
            after, _ = engine.apply(ply.before, ply.action)
            paid = [a - b for a, b in zip(after.cash, ply.before.cash, strict=True)]
            self.cash.append([c + d for c, d in zip(self.cash[-1], paid, strict=True)])
            self._plies.append(ply)
        return self.cash[-1]

    def scrubbed(self, game: Game, hide: tuple[int, ...]) -> list[Ply]:
        """``game``'s plies with the cash of the seats ``hide`` replaced by the tally in every
        position kept for undo (after ``count``): made once per ply and set of seats."""
        done = self._scrubbed.setdefault(hide, [])
        for k in range(len(done), len(game.plies)):
            ply = game.plies[k]
            before = ply.before.fork()
            for i in hide:
                before.cash[i] = self.cash[k][i]
            done.append(Ply(ply.action, before, ply.events))
        return list(done)


class GameView(Game):
    """A game as ``viewer`` may see it (None: a spectator, who sees no secret cash).
    ``secret``: the players whose cash is secret to the viewer; their figures in this game
    are the public tally."""

    viewer: str | None
    secret: frozenset[str]

    def shows_cash_of(self, player: str) -> bool:
        """Whether a screen may show ``player``'s cash to this viewer."""
        return player not in self.secret

    def copy(self) -> GameView:
        other = GameView.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._state = self._state.copy()
        other.plies = list(self.plies)
        return other


def secret_players(game: Game, viewer: str | None, hidden_cash: bool) -> frozenset[str]:
    """Whose cash ``viewer`` may not know: with hidden cash, everyone else's while the game
    runs (the final scoring counts cash openly)."""
    if not hidden_cash or game.is_over:
        return frozenset()
    return frozenset(p for p in game.players if p != viewer)


V = TypeVar("V", bound=GameView)


def view_of(
    game: Game,
    viewer: str | None,
    hidden_cash: bool,
    tally: PublicTally | None = None,
    kind: type[V] = GameView,  # type: ignore[assignment]
) -> V:
    """``game`` as ``viewer`` may see it. ``tally``: a ``PublicTally`` kept by the caller
    between calls (the game itself, a bot, a server table), so that a view after a move costs
    only that move. ``kind``: a subclass of ``GameView`` that adds what a front end shows
    beside the game (the server's chat lines)."""
    view = kind.__new__(kind)
    view.setup = game.setup
    view.start_events = game.start_events
    view.viewer = viewer
    view.secret = secret_players(game, viewer, hidden_cash)
    state = game.state.copy()
    view._state = state
    if not view.secret:
        view.plies = list(game.plies)
        return view
    tally = tally or PublicTally()
    known = tally.count(game)
    hide = tuple(i for i, p in enumerate(game.players) if p in view.secret)
    for i in hide:
        state.cash[i] = known[i]
    view.plies = tally.scrubbed(game, hide)
    return view
