"""One region in words: what is there, whom it borders (by land and by sea), who can reach it
in their next Maneuver and the rules that apply there. No Textual import: the app's region
details and ``imperial show --region`` print the same text.

Everything is read from the engine (``rules.reach``) and the board, so the answer to "can
Italy reach Venice next turn?" is the one the engine would give.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from imperial_tui.render.style import NATION_STYLE
from rules.reach import Reach, reach, rules_here

HOW_WORDS = {"step": "one step", "rail": "by rail", "convoy": "by convoy", "sail": "sails in"}


def _name(board: Any, rid: str) -> str:
    label = board.layout.labels.get(rid) if board.layout else None
    name = board.regions[board.index[rid]].name
    return f"{name} ({label})" if label else name


def plural(unit: str, count: int) -> str:
    if count == 1:
        return unit
    return "armies" if unit == "army" else unit + "s"


def _units(units: list[dict[str, Any]]) -> Text:
    out = Text()
    for i, u in enumerate(units):
        if i:
            out.append(", ")
        out.append(u["nation"], style=NATION_STYLE.get(u["nation"], ""))
        out.append(f" {u['count']} {plural(u['kind'], u['count'])}")
        if u["hostile"] is True:
            out.append(" hostile", style="bold")
        elif u["hostile"] is False:
            out.append(" friendly")
    return out


def _reach_line(board: Any, r: Reach) -> str:
    where = board.regions[board.index[r.origin]].name
    what = f"{r.count} {plural(r.unit, r.count)}"
    how = HOW_WORDS[r.how]
    if r.convoy:
        how += " via " + ", ".join(board[c].name for c in r.convoy)
    if r.friendly_only:
        how += ", friendly only"
    return f"{what} in {where} ({how})"


def region_text(game: Any, rid: str, ascii_only: bool = False) -> Text:
    """The details of one region (an impassable one too) for a player; plain ASCII in
    ASCII mode (region names are ASCII in the map file)."""
    s = game.state
    board = s.board
    dash = "-" if ascii_only else "–"
    dot = "-" if ascii_only else "·"
    out = Text()
    if rid not in board.index:  # an impassable region: drawn, never entered
        layout = board.layout
        name = layout.names.get(rid, rid) if layout else rid
        label = layout.labels.get(rid, "") if layout else ""
        out.append(f"{name} ({label})\n", style="bold")
        out.append("Impassable: no unit may enter it, and it borders no region.")
        return out
    r = board.index[rid]
    region = board.regions[r]
    info = game.summary()["regions"][rid]
    out.append(_name(board, rid), style="bold")
    kind = {"province": "home province", "land": "neutral land", "sea": "sea"}[region.kind]
    out.append(f" {dot} {kind}")
    if region.nation:
        out.append(" of ")
        out.append(region.nation, style=NATION_STYLE.get(region.nation, ""))
    if info["factory"]:
        out.append(f" {dot} {info['factory']} factory")
    if info["flag"]:
        out.append(f" {dot} flag ")
        out.append(info["flag"], style=NATION_STYLE.get(info["flag"], ""))
    out.append("\nUnits: ")
    out.append_text(_units(info["units"]) if info["units"] else Text(dash))
    land = sorted(board.land_neighbours[r], key=lambda i: board.regions[i].name)
    sea = sorted(board.sea_neighbours[r], key=lambda i: board.regions[i].name)
    if land:
        out.append("\nBorders by land: " + ", ".join(_name(board, board.id(i)) for i in land))
    if sea:
        word = "Seas next to it: " if region.kind == "sea" else "Coast on: "
        out.append("\n" + word + ", ".join(_name(board, board.id(i)) for i in sea))
    rail = sorted(board.rail_links[r], key=lambda i: board.regions[i].name)
    if rail and region.nation:
        out.append(
            f"\nRail ({region.nation}, while not occupied): "
            + ", ".join(board.regions[i].name for i in rail)
        )
    out.append("\n\nCan reach it in their next Maneuver", style="bold")
    out.append(" (fleets where they stand now):", style="dim")
    found = reach(s, r)
    if not found:
        out.append(f"\n  {dash} nobody")
    for code in dict.fromkeys(x.nation for x in found):
        out.append("\n  ")
        out.append(code, style=NATION_STYLE.get(code, ""))
        out.append(" " + "; ".join(_reach_line(board, x) for x in found if x.nation == code))
    out.append("\n\nRules here:", style="bold")
    for line in rules_here(s, r):
        out.append(f"\n  {dot} {line}")
    return out
