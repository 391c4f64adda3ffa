"""The ASCII region list: regions grouped by nation, neutral land and sea, each with its
factory, units by nation (hostile/friendly), flag; filter by nation; last turn's changes
marked."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from imperial_tui.widgets.base import Panel, nation_text
from rules.actions import NATION_CODES


def unit_words(units: list[dict[str, Any]], times: str) -> Text:
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


class RegionsPanel(Panel):
    """Filtered by ``nation_filter`` (a code, or None for all)."""

    nation_filter: str | None = None

    def key(self, session: Any) -> Any:
        board = session.game.state.board
        regions = session.game.summary()["regions"]
        rows = []
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
                    tuple(tuple(sorted(u.items())) for u in info["units"]),
                    info["flag"],
                    r.id in session.changed,
                )
            )
        return tuple(rows), self.nation_filter, self.g

    def render_key(self, key: Any) -> Any:
        rows, flt, g = key
        out = Text(no_wrap=True, overflow="ellipsis")
        groups: list[tuple[str, str]] = [(c, c) for c in NATION_CODES]
        groups += [("land", "NEUTRAL LAND"), ("sea", "SEAS")]
        header = f"{'':2}{'region':16}{'fac':4}{'flg':4}units"
        out.append(header + "\n", style="dim")
        if flt:
            out.append(f"filter: {flt} (f, then enter: all regions)\n", style="italic")
        for gid, title in groups:
            if gid in NATION_CODES:
                members = [x for x in rows if x[2] == "province" and x[3] == gid]
            else:
                members = [x for x in rows if x[2] == gid]
            if flt:
                members = [
                    x
                    for x in members
                    if x[3] == flt or x[6] == flt or any(dict(u)["nation"] == flt for u in x[5])
                ]
            if not members:
                continue
            if gid in NATION_CODES:
                out.append_text(nation_text(gid, " HOME"))
                out.append("\n")
            else:
                out.append(title + "\n", style="bold")
            for _rid, name, _kind, _owner, fac, units, flag, changed in members:
                out.append(
                    (g.changed if changed else " ") + " ", style="bold reverse" if changed else ""
                )
                out.append(f"{name[:15]:16}")
                out.append(f"{(g.factory if fac == 'armaments' else 'S' if fac else ''):4}")
                if flag:
                    out.append_text(nation_text(flag))
                    out.append("  ")
                else:
                    out.append(f"{g.dash:4}")
                out.append_text(unit_words([dict(u) for u in units], g.times))
                out.append("\n")
        out.append(
            f"{g.changed} changed since the previous turn; {g.factory} armaments, S shipyard",
            style="dim",
        )
        return out
