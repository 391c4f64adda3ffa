"""Rondel panel: the eight spaces clockwise with every nation's marker and, while a nation is
choosing its space, each space's cost and a one-line preview (from ``rules.preview``). While
the nation is busy with what its space does (importing, a Maneuver, a battle, investors...)
the panel says so instead of showing a preview that no longer applies."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from imperial_tui.app.widgets.base import Hanging, Panel, nation_text
from rules.actions import RONDEL_SPACES
from rules.decisions import Decision
from rules.preview import rondel_preview
from rules.rondel import SPACE_NAMES

# What the acting nation is busy with, by decision kind, after "AH is on Import: ".
DOING = {
    Decision.SWISS_BANK: "Swiss bank may force Investor",
    Decision.BUILD_FACTORY: "building a factory",
    Decision.PRODUCE: "producing",
    Decision.IMPORT: "importing",
    Decision.MANEUVER: "maneuvering",
    Decision.BATTLE: "a battle",
    Decision.INVEST: "bonds on sale",
    Decision.BOND_CHOICE: "choosing a bond",
    Decision.CANAL: "a canal question",
}


class RondelPanel(Panel):
    SHARED = True

    def key(self, session: Any) -> Any:
        s = session.view.state
        on = tuple(
            tuple(s.board.codes[n] for n in range(len(s.rondel)) if s.rondel[n] == i)
            for i in range(len(RONDEL_SPACES))
        )
        acting = s.board.codes[s.turn] if s.turn >= 0 and not s.finished else None
        aw = session.view.awaiting
        choosing = acting is not None and aw is not None and aw.kind == Decision.RONDEL
        # with hidden cash the preview never tells the viewer what the chooser has
        cash_visible = aw is None or session.shows_cash_of(aw.player)
        previews = (
            tuple(
                (p.space, p.cost, p.reason, p.text) for p in rondel_preview(s, None, cash_visible)
            )
            if choosing
            else ()
        )
        doing = ""
        if acting and not choosing:
            where = RONDEL_SPACES[s.rondel[s.turn]] if s.rondel[s.turn] >= 0 else None
            space = SPACE_NAMES[where] if where else "the rondel"
            busy = DOING.get(aw.kind, aw.kind) if aw is not None else ""
            doing = f"{acting} is on {space}" + (f": {busy}" if busy else "")
        return on, acting, previews, self.g.marker, doing, self.g.overflow

    def render_key(self, key: Any) -> Any:
        on, acting, previews, marker, doing, overflow = key
        lines: list[Any] = []

        def line() -> Text:
            lines.append(Text(no_wrap=True, overflow=overflow))
            return lines[-1]

        if doing:
            lines.append(Text(doing, style="bold"))
        else:
            line().append(f"{acting} to move" if acting else "", style="bold")
        line().append(
            f"{'space':12}{'cost':>5}  on" if previews else f"{'space':12}       on", style="dim"
        )
        by_space = {p[0]: p for p in previews}
        for i, space in enumerate(RONDEL_SPACES):
            label = SPACE_NAMES[space] + (space[-1] if space[-1] in "12" else "")
            p = by_space.get(space)
            if p is None:
                cost, does, style = "", "", ""
            elif p[1] is None:
                here = p[2] == "here now"
                cost, does, style = ("now" if here else "-"), ("" if here else p[2]), "dim"
            else:
                cost, does, style = (f"{p[1]}M" if p[1] else "free"), p[3], ""
            out = line()
            out.append(f"{label:12}", style="bold" if style == "" and p else "")
            out.append(f"{cost:>5}  ", style=style)
            for j, c in enumerate(on[i]):
                if j:
                    out.append(" ")
                out.append_text(nation_text(c, marker if c == acting else ""))
            if acting and does:
                # wrapped under itself: the whole preview stays readable in a narrow column
                lines.append(Hanging(Text("   "), Text(does, style=style or "italic")))
        return Group(*lines)
