"""What an action changed, in words: the figures that differ between two state summaries
(``imperial apply --dry-run`` shows them under the events)."""

from __future__ import annotations

from rules.summary import NationSummary, PlayerSummary, RegionSummary, Summary


def _units(region: RegionSummary) -> dict[tuple[str, str, bool | None], int]:
    return {(u["nation"], u["kind"], u["hostile"]): u["count"] for u in region["units"]}


def _unit_words(nation: str, kind: str, hostile: bool | None) -> str:
    status = "" if hostile is None else " (hostile)" if hostile else " (friendly)"
    return f"{nation} {'armies' if kind == 'army' else 'fleets'}{status}"


def summary_changes(before: Summary, after: Summary) -> list[str]:
    """One line per changed figure: cash, bonds, governments, the investor card, treasuries,
    power, tax, rondel, factories, flags and units, then whose decision comes next."""
    out: list[str] = []
    for old, new in zip(before["players"], after["players"], strict=True):
        out += _player_changes(old, new)
    for code, nation in after["nations"].items():
        out += _nation_changes(code, before["nations"][code], nation)
    for rid, region in after["regions"].items():
        out += _region_changes(rid, before["regions"][rid], region)
    aw = after["awaiting"]
    if after["finished"] and not before["finished"]:
        out.append(f"the game ends: {after.get('winner')} wins")
    elif aw is not None and aw != before["awaiting"]:
        who = f"{aw['player']} decides {aw['kind']}"
        out.append(f"next: {who}" + (f" for {aw['nation']}" if aw["nation"] else ""))
    return out


def _player_changes(old: PlayerSummary, new: PlayerSummary) -> list[str]:
    out: list[str] = []
    name = new["name"]
    if old["cash"] != new["cash"]:
        out.append(f"{name}: cash {old['cash']}M -> {new['cash']}M")
    old_bonds = {(b["nation"], b["value"]) for b in old["bonds"]}
    new_bonds = {(b["nation"], b["value"]) for b in new["bonds"]}
    for nation, value in sorted(new_bonds - old_bonds):
        out.append(f"{name}: takes the {nation} {value}M bond")
    for nation, value in sorted(old_bonds - new_bonds):
        out.append(f"{name}: returns the {nation} {value}M bond")
    if new["investor_card"] and not old["investor_card"]:
        out.append(f"{name}: now holds the investor card")
    return out


def _nation_changes(code: str, old: NationSummary, new: NationSummary) -> list[str]:
    out: list[str] = []
    if old["governor"] != new["governor"]:
        out.append(f"{code}: governor {old['governor'] or 'none'} -> {new['governor']}")
    for words, was, now, unit in (
        ("treasury", old["treasury"], new["treasury"], "M"),
        ("power", old["power"], new["power"], ""),
        ("tax chart", old["tax_level"], new["tax_level"], ""),
    ):
        if was != now:
            out.append(f"{code}: {words} {was}{unit} -> {now}{unit}")
    if old["rondel"] != new["rondel"]:
        out.append(f"{code}: rondel {old['rondel'] or 'start'} -> {new['rondel']}")
    return out


def _region_changes(rid: str, old: RegionSummary, new: RegionSummary) -> list[str]:
    out: list[str] = []
    if old["factory"] != new["factory"]:
        out.append(
            f"{rid}: {new['factory']} factory built"
            if new["factory"]
            else f"{rid}: {old['factory']} factory destroyed"
        )
    if old["flag"] != new["flag"]:
        out.append(f"{rid}: flag {old['flag'] or 'none'} -> {new['flag'] or 'none'}")
    a, b = _units(old), _units(new)
    for key in sorted(set(a) | set(b), key=str):
        was, now = a.get(key, 0), b.get(key, 0)
        if was != now:
            out.append(f"{rid}: {_unit_words(*key)} {was} -> {now}")
    return out
