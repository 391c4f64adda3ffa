"""The score screen: each player's calculation (interest x power factor per bond, plus cash)
and the rule that decided the winner."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from imperial_tui.screens.guard import DismissFromTop, GuardedScreen
from imperial_tui.widgets.base import nation_text
from rules import Result


def score_table(result: Result, times: str = "×") -> Table:
    table = Table(expand=True, show_edge=False, pad_edge=False)
    table.add_column("player", no_wrap=True)
    table.add_column("bonds: interest × factor", ratio=1)
    table.add_column("cash", justify="right")
    table.add_column("total", justify="right")
    ranked = sorted(result.players, key=lambda p: -p.total)
    for p in ranked:
        calc = Text()
        for i, b in enumerate(p.bonds):
            if i:
                calc.append(" + ")
            calc.append_text(nation_text(b.nation, str(b.value)))
            calc.append(f" {b.interest}{times}{b.factor}={b.points}")
        name = Text(p.name, style="bold" if p.name in result.winners else "")
        table.add_row(name, calc, str(p.cash), Text(str(p.total), style="bold"))
    return table


class GameOverScreen(DismissFromTop, GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "back to the board", id="over.back"),
        Binding("ctrl+n", "app.new_game", "new game", id="over.new"),
    ]

    def __init__(self, result: Result, ascii_only: bool = False) -> None:
        super().__init__()
        self.result = result
        self.times = "x" if ascii_only else "×"

    def compose(self) -> ComposeResult:
        r = self.result
        if len(r.winners) == 1:
            head = f"[b]{r.winners[0]} wins[/b] - decided by: {r.decided_by}"
        else:
            head = f"[b]Shared victory: {' and '.join(r.winners)}[/b] - {r.decided_by}"
        with VerticalScroll(id="score"):
            yield Static("Game over", classes="title")
            yield Static(head)
            yield Static(score_table(r, self.times))
            yield Static(
                "Power factor: 0-4 pp 0, 5-9 1, 10-14 2, 15-19 3, 20-24 4, 25 5. "
                "Treasuries count for nothing.",
                classes="hint",
            )
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
