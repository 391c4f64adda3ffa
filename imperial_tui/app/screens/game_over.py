"""The score screen: each player's calculation (interest x power factor per bond, plus cash)
and the rule that decided the winner."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from imperial_tui.app.screens.guard import DismissFromTop, GuardedScreen
from imperial_tui.app.widgets.footer import KeysFooter
from imperial_tui.render.standings import rounds_table, standings_table
from imperial_tui.render.style import nation_style
from rules import Game, Result
from rules.economy import WIN_POWER


class GameOverScreen(DismissFromTop, GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: closed at once, so an Enter typed right after reaches the board
        Binding("escape,enter", "close", "back to the board", id="over.back", priority=True),
        Binding("ctrl+n", "app.new_game", "new game", id="over.new"),
        Binding("pagedown,space", "scroll(1)", "scroll", id="over.down", show=False),
        Binding("pageup", "scroll(-1)", "scroll up", id="over.up", show=False),
    ]

    def __init__(self, result: Result, ascii_only: bool = False, game: Game | None = None) -> None:
        super().__init__()
        self.result = result
        self.times = "x" if ascii_only else "×"
        self.game = game  # for the score round by round

    def compose(self) -> ComposeResult:
        r = self.result
        if len(r.winners) == 1:
            head = f"[b]{r.winners[0]} wins[/b] - decided by: {r.decided_by}"
        else:
            head = f"[b]Shared victory: {' and '.join(r.winners)}[/b] - a full tie"
        with VerticalScroll(id="score"):
            yield Static("Game over", classes="title")
            ended = self._how_it_ended()
            if ended:
                yield Static(ended)
            yield Static(head)
            yield Static(standings_table(r, (), self.times, nation_style))
            yield Static(
                "Power factor: 0-4 pp 0, 5-9 1, 10-14 2, 15-19 3, 20-24 4, 25 5. "
                "Treasuries count for nothing.",
                classes="hint",
            )
            if self.game is not None:
                yield Static("Victory points by round", classes="section")
                yield Static(rounds_table(self.game, (), self.times == "x"), id="score-rounds")
        yield KeysFooter()

    def _how_it_ended(self) -> str:
        """Which nation ended the game, and when (a player who only sees this screen after a
        computer's Taxation had to open the log to learn it)."""
        game = self.game
        if game is None:
            return ""
        s = game.state
        ended = [n for n, power in enumerate(s.power) if power >= WIN_POWER]
        if not ended:
            return ""
        names = " and ".join(s.board.nations[n].name for n in ended)
        return f"{names} reached {WIN_POWER} power points in round {s.round}: the game ended."

    def action_scroll(self, pages: int) -> None:
        body = self.query_one("#score", VerticalScroll)
        if pages > 0:
            body.scroll_page_down()
        else:
            body.scroll_page_up()

    def action_close(self) -> None:
        self.dismiss(None)
