"""Bonds panel: per player the bonds held (and cash where visible); per nation the bonds still
available, each player's credit and the government, and who could take that government at
their next investment (``rules.takeover``). One line each, wrapped between whole
pieces, so the panel stays readable in 38 columns. A nation the viewer governs that could be
taken is warned about first, above the players: at 80x24 the nations' lines are below what
the panel shows without scrolling."""

from __future__ import annotations

from rich.console import Group, OverflowMethod, RenderableType
from rich.text import Text

from imperial_tui.app.widgets.base import Chunks, Panel, nation_text
from imperial_tui.model.session import SessionView
from rules.state import NO
from rules.takeover import takeovers

# a player: name, cash (None: hidden from this viewer), bonds (nation, value), investor card
PlayerRow = tuple[str, int | None, tuple[tuple[str, int], ...], bool]
# a nation: code, bonds still available, each player's credit, governor (a player's index),
# who could take it at their next investment (``Takeover.parts``)
NationRow = tuple[str, tuple[int, ...], tuple[int, ...], int, tuple[tuple[str, str, str], ...]]
# ... and the viewer (whose governments are warned about first)
BondsKey = tuple[
    tuple[PlayerRow, ...], tuple[NationRow, ...], tuple[str, ...], OverflowMethod, str | None
]


class BondsPanel(Panel[BondsKey]):
    def key(self, session: SessionView) -> BondsKey:
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
        return players, nations, s.players, self.g.overflow, session.viewer

    def render_key(self, key: BondsKey) -> RenderableType:
        """One line per player, then one per nation; a line too long for the panel wraps
        under itself between whole pieces (a bond, a player's credit), never inside one.
        The viewer's governments at risk come first (and not again under the nation)."""
        players, nations, names, overflow, viewer = key
        lines: list[RenderableType] = []
        first = {
            code
            for code, _, _, gov, risks in nations
            if risks and viewer is not None and gov != NO and names[gov] == viewer
        }
        for code, _, _, _, risks in nations:
            if code in first:
                for risk in risks:
                    lines.append(risk_line(nation_text(code, " "), risk, overflow))
        if first:
            lines.append(Text(""))
        lines.append(Text(f"{'player':10} {'cash':>4}  bonds", style="dim"))
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
        titles = ("available", "| credit", "(* governs)")
        lines.append(Chunks(Text("   "), [Text(t, style="dim") for t in titles], overflow))
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
            if code in first:
                continue  # (warned about at the top)
            for risk in risks:  # who could take it at their next investment
                lines.append(risk_line(Text("   "), risk, overflow))
        return Group(*lines)


def risk_line(head: Text, risk: tuple[str, str, str], overflow: OverflowMethod) -> Chunks:
    """'at risk: Ben', 'with the 6M bond', '(18 > 16M)' in yellow after ``head``, wrapped
    between those pieces."""
    who, how, credit = risk
    pieces = [Text(f"at risk: {who}"), Text(how), Text(credit)]
    for piece in pieces:
        piece.stylize("yellow")
    return Chunks(head, pieces, overflow)
