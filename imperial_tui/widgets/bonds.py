"""Bonds panel: per player the bonds held (and cash where visible); per nation the bonds still
available, each player's credit and the government."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from imperial_tui.widgets.base import Panel, nation_text
from rules.actions import NATION_CODES
from rules.state import NO


class BondsPanel(Panel):
    def key(self, session: Any) -> Any:
        s = session.game.state
        costs = s.rules.bond_costs
        players = tuple(
            (
                name,
                s.cash[p] if session.shows_cash_of(name) else None,
                tuple(
                    (NATION_CODES[n], costs[k])
                    for n in range(len(s.bond_owner))
                    for k, o in enumerate(s.bond_owner[n])
                    if o == p
                ),
                s.investor_card == p,
            )
            for p, name in enumerate(s.players)
        )
        nations = tuple(
            (
                NATION_CODES[n],
                tuple(costs[k] for k, o in enumerate(s.bond_owner[n]) if o == NO),
                tuple(s.credit(p, n) for p in range(len(s.players))),
                s.government[n],
            )
            for n in range(len(s.bond_owner))
        )
        return players, nations, s.players

    def render_key(self, key: Any) -> Any:
        players, nations, names = key
        ptab = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False)
        ptab.add_column("player", no_wrap=True)
        ptab.add_column("cash", justify="right", no_wrap=True)
        ptab.add_column("bonds", ratio=1)
        for name, cash, bonds, card in players:
            line = Text()
            for i, (code, value) in enumerate(bonds):
                if i:
                    line.append(" ")
                line.append_text(nation_text(code, str(value)))
            ptab.add_row(
                name + (" (card)" if card else ""), "?" if cash is None else str(cash), line
            )
        ntab = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False)
        ntab.add_column("", no_wrap=True)
        ntab.add_column("available", ratio=1)
        ntab.add_column("credit by player", ratio=1)
        for code, avail, credits, gov in nations:
            parts = [
                f"{names[p][:6]} {c}" + ("*" if p == gov else "")
                for p, c in enumerate(credits)
                if c
            ]
            ntab.add_row(
                nation_text(code), " ".join(map(str, avail)) or "-", ", ".join(parts) or "-"
            )
        return Group(ptab, Text(""), Text("* = government", style="dim"), ntab)
