"""v: who is winning. The score if the game ended now (the engine's ``provisional_result``),
the power track with each nation's factor, and the score after every round."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from imperial_tui.app.screens.guard import DismissFromTop, GuardedScreen
from imperial_tui.app.widgets.footer import KeysFooter
from imperial_tui.model.session import SessionView
from imperial_tui.render.show import revenue_column
from imperial_tui.render.standings import leader_text, power_table, rounds_table, standings_table
from imperial_tui.render.style import nation_style


def hidden_players(session: SessionView) -> set[str]:
    """Players whose cash the viewer may not see (hidden cash)."""
    return {p for p in session.view.players if not session.shows_cash_of(p)}


class StandingsScreen(DismissFromTop, GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,v,q", "close", "back to the board", id="standings.back"),
        Binding("pagedown,space", "scroll(1)", "scroll", id="standings.down", show=False),
        Binding("pageup", "scroll(-1)", "scroll up", id="standings.up", show=False),
    ]

    def __init__(self, session: SessionView, ascii_only: bool = False) -> None:
        super().__init__()
        self.session = session
        self.times = "x" if ascii_only else "×"

    def compose(self) -> ComposeResult:
        game = self.session.view
        hidden = hidden_players(self.session)
        result = game.provisional_result()
        state = game.state
        title = (
            "Standings (final): victory points"
            if game.is_over
            else f"Standings (round {state.round}): victory points if the game ended now"
        )
        with VerticalScroll(id="standings"):
            yield Static(title, classes="title")
            yield Static(
                Group(
                    standings_table(result, hidden, self.times, nation_style),
                    Text(leader_text(result, hidden, final=game.is_over), style="italic"),
                ),
                id="standings-now",
            )
            yield Static("Power track", classes="section")
            yield Static(power_table(game, self.times, nation_style), id="standings-power")
            tax = (
                "Revenue: what a Taxation would bring now (Imperial 2030 keeps no tax chart)."
                if revenue_column(state.rules)
                else "Tax chart: 2-5 for a tax of 5M or less."
            )
            yield Static(
                f"Factor: 0-4 power points 0, 5-9 1, 10-14 2, 15-19 3, 20-24 4, 25 5. {tax}",
                classes="hint",
            )
            yield Static("Victory points by round", classes="section")
            yield Static(rounds_table(game, hidden, self.times == "x"), id="standings-rounds")
        yield KeysFooter()

    def action_scroll(self, pages: int) -> None:
        body = self.query_one("#standings", VerticalScroll)
        if pages > 0:
            body.scroll_page_down()
        else:
            body.scroll_page_up()

    def action_close(self) -> None:
        self.dismiss(None)
