"""Bonds panel: per player the bonds held (and cash where visible); per nation the bonds still
available, each player's credit and the government, and who could take that government at
their next investment (``rules.takeover``). One line each, wrapped between whole
pieces, so the panel stays readable in 38 columns."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from imperial_tui.app.widgets.base import Chunks, Panel, nation_text
from rules.state import NO
from rules.takeover import takeovers


class BondsPanel(Panel):
    def key(self, session: Any) -> Any:
        s = session.view.state
        costs = s.rules.bond_costs
        players = tuple(
            (
                name,
                s.cash[p] if session.shows_cash_of(name) else None,
                tuple(
                    (s.board.codes[n], costs[k])
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
                s.board.codes[n],
                tuple(costs[k] for k, o in enumerate(s.bond_owner[n]) if o == NO),
                tuple(s.credit(p, n) for p in range(len(s.players))),
                s.government[n],
                tuple(
                    t.parts()
                    for t in takeovers(s, n, lambda p: session.shows_cash_of(s.players[p]))[:2]
                ),
            )
            for n in range(len(s.bond_owner))
        )
        return players, nations, s.players, self.g.overflow

    def render_key(self, key: Any) -> Any:
        """One line per player, then one per nation; a line too long for the panel wraps
        under itself between whole pieces (a bond, a player's credit), never inside one."""
        players, nations, names, overflow = key
        lines: list[Any] = [Text(f"{'player':10} {'cash':>4}  bonds", style="dim")]
        card = None
        for name, cash, bonds, has_card in players:
            head = Text(f"{name[:10]:10} {'?' if cash is None else cash:>4}  ")
            pieces = [nation_text(code, str(value)) for code, value in bonds]
            lines.append(Chunks(head, pieces or [Text("-", style="dim")], overflow))
            if has_card:
                card = name
        if card is not None:
            lines.append(Text(f"investor card: {card}", style="dim"))
        lines.append(Text(""))
        head = ("available", "| credit", "(* governs)")
        lines.append(Chunks(Text("   "), [Text(h, style="dim") for h in head], overflow))
        for code, avail, credits, gov, risks in nations:
            pieces = [Text(str(v)) for v in avail] or [Text("-")]
            parts = [(p, c) for p, c in enumerate(credits) if c]
            for i, (p, c) in enumerate(parts):
                piece = Text("| ", style="dim") if i == 0 else Text()
                piece.append(f"{names[p][:10]} {c}" + ("*" if p == gov else ""))
                if i < len(parts) - 1:
                    piece.append(",")
                pieces.append(piece)
            if not parts:
                pieces.append(Text("| -", style="dim"))
            lines.append(Chunks(nation_text(code, " "), pieces, overflow))
            for who, how, credit in risks:  # who could take it at their next investment
                pieces = [Text(f"at risk: {who}"), Text(how), Text(credit)]
                for piece in pieces:
                    piece.stylize("yellow")
                lines.append(Chunks(Text("   "), pieces, overflow))
        return Group(*lines)
