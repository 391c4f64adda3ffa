"""The ASCII region list: regions grouped by nation, neutral land and sea, each with its
factory, units by nation (hostile/friendly), flag; filter by nation; last turn's changes
marked. Focused (tab), up/down pick a region and enter shows its details, as on the map."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.widget import Widget

from imperial_tui.app.widgets.base import Panel, nation_text
from imperial_tui.model.session import SessionView
from imperial_tui.render.style import Glyphs
from imperial_tui.render.words import short_name
from rules.summary import UnitSummary

# a unit as the key holds it: nation, kind, count, hostile (True, False or None)
UnitRow = tuple[str, str, int, bool | None]
# id, name, kind, home nation, factory, units, flag, changed since the previous turn
RegionRow = tuple[str, str, str, str | None, str | None, tuple[UnitRow, ...], str | None, bool]
# the regions, the game's nation codes, the nation filter, the glyphs, the region picked,
# whether the list has the keys
RegionsKey = tuple[tuple[RegionRow, ...], tuple[str, ...], str | None, Glyphs, str | None, bool]


def unit_words(units: list[UnitSummary], times: str) -> Text:
    out = Text()
    for i, u in enumerate(units):
        if i:
            out.append(", ")
        out.append_text(nation_text(u["nation"]))
        word = u["kind"] + (f"{times}{u['count']}" if u["count"] > 1 else "")
        if u["hostile"] is True:
            word += " hostile"
        elif u["hostile"] is False:
            word += " friendly"
        out.append(" " + word)
    return out


def _unit(nation: str, kind: str, count: int, hostile: bool | None) -> UnitSummary:
    return {"nation": nation, "kind": kind, "count": count, "hostile": hostile}


class RegionsPanel(Panel[RegionsKey], can_focus=True):
    """Filtered by ``nation_filter`` (a code, or None for all). ``selected`` is the region
    picked with up/down while the panel has the focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "pick(-1)", "previous", show=False, id="regions.up"),
        Binding("down", "pick(1)", "next", show=False, id="regions.down"),
        Binding("enter,i", "details", "region details", id="regions.details"),
    ]

    @dataclass
    class Picked(Message):
        """Enter on a region of the list: show its details (and put the map cursor there)."""

        region: str

    nation_filter: str | None = None

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.selected: str | None = None
        self._shown: tuple[str, ...] = ()  # region ids in the order listed
        self._lines: dict[str, int] = {}  # region id -> its line

    def on_focus(self) -> None:
        self._repaint()

    def on_blur(self) -> None:
        self._repaint()

    def _repaint(self) -> None:
        from imperial_tui.app.base import game_app

        session = game_app(self).session
        if session is not None:
            self.show(session)

    def action_pick(self, step: int) -> None:
        if not self._shown:
            return
        if self.selected not in self._shown:
            index = 0 if step > 0 else len(self._shown) - 1
        else:
            index = max(0, min(len(self._shown) - 1, self._shown.index(self.selected) + step))
        self.selected = self._shown[index]
        self._repaint()
        line = self._lines.get(self.selected)
        scroll = self.parent  # the scrolling container around the list
        if line is not None and isinstance(scroll, Widget):
            scroll.scroll_to_region(
                Region(0, max(0, line - 1), 1, 3), animate=False, immediate=True
            )

    def action_details(self) -> None:
        if self.selected is None and self._shown:
            self.selected = self._shown[0]
        if self.selected is not None:
            self.post_message(self.Picked(self.selected))

    def key(self, session: SessionView) -> RegionsKey:
        board = session.view.state.board
        regions = session.view.summary()["regions"]
        rows: list[RegionRow] = []
        for r in board.regions:
            info = regions.get(r.id)
            if info is None:
                continue
            rows.append(
                (
                    r.id,
                    r.name,
                    r.kind,
                    r.nation,
                    info["factory"],
                    tuple(
                        (u["nation"], u["kind"], u["count"], u["hostile"]) for u in info["units"]
                    ),
                    info["flag"],
                    r.id in session.changed,
                )
            )
        codes = tuple(board.codes)  # the game's nations in turn order: its home groups
        return tuple(rows), codes, self.nation_filter, self.g, self.selected, self.has_focus

    def render_key(self, key: RegionsKey) -> RenderableType:
        rows, codes, flt, g, selected, focused = key
        shown: list[str] = []
        lines: dict[str, int] = {}
        out = Text(no_wrap=True, overflow=g.overflow)
        groups: list[tuple[str, str]] = [(c, c) for c in codes]
        groups += [("land", "NEUTRAL LAND"), ("sea", "SEAS")]
        header = f"{'':2}{'region':16}{'fac':4}{'flg':4}units"
        out.append(header + "\n", style="dim")
        if flt:
            out.append(f"filter: {flt} (f, then enter: all regions)\n", style="italic")
        for gid, title in groups:
            if gid in codes:
                members = [x for x in rows if x[2] == "province" and x[3] == gid]
            else:
                members = [x for x in rows if x[2] == gid]
            if flt:
                members = [
                    x
                    for x in members
                    if x[3] == flt or x[6] == flt or any(u[0] == flt for u in x[5])
                ]
            if not members:
                continue
            if gid in codes:
                out.append_text(nation_text(gid, " HOME"))
                out.append("\n")
            else:
                out.append(title + "\n", style="bold")
            for rid, name, _kind, _owner, fac, units, flag, changed in members:
                shown.append(rid)
                lines[rid] = out.plain.count("\n")
                out.append(
                    (g.changed if changed else " ") + " ", style="bold reverse" if changed else ""
                )
                picked = focused and rid == selected
                out.append(f"{short_name(name, 15):16}", style="bold reverse" if picked else "")
                out.append(
                    f"{(g.armaments if fac == 'armaments' else g.shipyard if fac else ''):4}"
                )
                if flag:
                    out.append_text(nation_text(flag))
                    out.append("  ")
                else:
                    out.append(f"{g.dash:4}")
                out.append_text(unit_words([_unit(*u) for u in units], g.times))
                out.append("\n")
        out.append(
            f"{g.changed} changed since the previous turn; {g.armaments} armaments, "
            f"{g.shipyard} shipyard",
            style="dim",
        )
        if focused:
            out.append("\nup/down pick a region, enter: its details", style="dim")
        self._shown = tuple(shown)
        self._lines = lines
        return out
