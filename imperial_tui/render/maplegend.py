"""The map's legend: what its walls, glyphs and unit tokens mean, with this board's own
regions and nations as the examples, then this map file's straits, canals, edges that wrap,
rail-less provinces and borders a rule option leaves out, all from data. Printed under
``imperial show --map``; no Textual import.
"""

from __future__ import annotations

from rich.text import Text

from imperial_tui.render.mapglyphs import HEAVY, LIGHT, map_glyphs
from maps import Board


def legend_lines(board: Board, ascii_only: bool) -> list[Text]:
    """What the symbols mean (the examples are this board's own regions and nations), then
    this map file's straits, canals, edges that wrap, rail-less provinces and borders a rule
    option leaves out (all from data)."""
    g = map_glyphs(ascii_only)
    layout = board.layout
    dash = "-" if ascii_only else "–"
    thin = g.wall((0, 0, LIGHT, LIGHT)) * 2
    heavy = g.wall((0, 0, HEAVY, HEAVY)) * 2
    occupied_glyphs = g.armaments_occupied + ("" if ascii_only else g.shipyard_occupied)
    home, owner, neutral, other = _examples(board)
    pad = " " * (len(home) + len(owner) + 3)
    lines = [
        Text(
            f"{thin} border   {heavy} touching, no border   {g.wave} sea   {g.blocked} impassable",
            style="dim",
        ),
        Text(
            f"{home}{g.armaments} {owner}  label, factory ({g.armaments} armaments, {g.shipyard}"
            f" shipyard, {occupied_glyphs} occupied), owner",
            style="dim",
        ),
        Text(
            f"{neutral} {other}{pad[len(neutral) + len(other) + 1 :]}(reversed) the flag on "
            "neutral land or a sea",
            style="dim",
        ),
        Text(
            f"{owner}2{pad[3:]}two armies of {owner} (fleets at sea); {owner}1f a fleet in port;",
            style="dim",
        ),
        Text(
            f"{pad}{other}2! hostile, {other}1= friendly armies in a foreign home province",
            style="dim",
        ),
        Text(
            f"{neutral}{g.destination}{pad[len(neutral) + 1 :]}where the chosen unit may move",
            style="dim",
        ),
    ]
    if layout is None:
        return lines
    label = layout.labels
    for strait in layout.straits:
        pair = f"{label[strait.a]}{dash}{label[strait.b]}"
        if strait.open and not board.borders(strait.a, strait.b):
            option = next(
                (o for o, a, b in board.optional_borders if {a, b} == {strait.a, strait.b}),
                "",
            )
            lines.append(Text(f"{pair}: no border in this game (rule option {option})"))
            continue
        if strait.open:
            mark = g.open_strait
            where = f" (via {label[strait.via]})" if strait.via else ""
        else:
            mark = g.closed_strait if strait.at is not None else " "
            where = ""
        lines.append(Text(f"{mark} {pair}{where}: {strait.note}", style="dim"))
    for canal in layout.canals:
        pair = f"{label[canal.a]}{dash}{label[canal.b]}"
        where = f" through {label[canal.via]}" if canal.via else ""
        note = f": {canal.note}" if canal.note else ""
        lines.append(Text(f"{g.canal} {pair}{where}, the {canal.name}{note}", style="dim"))
    if layout.wraps:
        pairs = ", ".join(f"{label[w.a]}{dash}{label[w.b]}" for w in layout.wraps)
        west = next((g.wrap_west + label[i] for _, i, at in layout.wrap_marks() if not at[0]), "")
        east = next((label[i] + g.wrap_east for _, i, at in layout.wrap_marks() if at[0]), "")
        lines.append(
            Text(
                f"{' '.join(filter(None, (west, east)))} at an edge: the region beside it borders"
                f" the one named, across the edge (the world is round east-west): {pairs}",
                style="dim",
            )
        )
    for r in board.regions:
        if r.kind == "province" and not r.rail:
            lines.append(Text(f"  {label[r.id]}: no rail (an island)", style="dim"))
    return lines


def _examples(board: Board) -> tuple[str, str, str, str]:
    """For the legend: the label of a home province with armaments and its owner, the label
    of a neutral region and another nation, all of this board (no map's names in code)."""

    def label(rid: str) -> str:
        return board.layout.labels[rid] if board.layout else rid[:3].upper()

    owner = board.nations[0].code
    home = next(
        (r for r in board.regions if r.nation == owner and r.factory_type == "armaments"),
        next(r for r in board.regions if r.nation == owner),
    )
    neutral = next((r for r in board.regions if r.kind == "land"), home)
    other = board.nations[1].code if len(board.nations) > 1 else owner
    return label(home.id), owner, label(neutral.id), other
