"""What an action changed, in words: the figures that differ between two state summaries
(``imperial apply --dry-run`` shows them under the events)."""

from __future__ import annotations

from typing import Any


def _units(region: dict[str, Any]) -> dict[tuple[str, str, Any], int]:
    return {(u["nation"], u["kind"], u["hostile"]): u["count"] for u in region["units"]}


def _unit_words(nation: str, kind: str, hostile: Any) -> str:
    status = {True: " (hostile)", False: " (friendly)"}.get(hostile, "")
    return f"{nation} {'armies' if kind == 'army' else 'fleets'}{status}"


def summary_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """One line per changed figure: cash, bonds, governments, the investor card, treasuries,
    power, tax, rondel, factories, flags and units, then whose decision comes next."""
    out: list[str] = []
    for old, new in zip(before["players"], after["players"], strict=True):
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
    for code, new in after["nations"].items():
        old = before["nations"][code]
        if old["governor"] != new["governor"]:
            out.append(f"{code}: governor {old['governor'] or 'none'} -> {new['governor']}")
        for key, words, unit in (
            ("treasury", "treasury", "M"),
            ("power", "power", ""),
            ("tax_level", "tax chart", ""),
        ):
            if old[key] != new[key]:
                out.append(f"{code}: {words} {old[key]}{unit} -> {new[key]}{unit}")
        if old["rondel"] != new["rondel"]:
            out.append(f"{code}: rondel {old['rondel'] or 'start'} -> {new['rondel']}")
    for rid, new in after["regions"].items():
        old = before["regions"][rid]
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
            if a.get(key, 0) != b.get(key, 0):
                out.append(f"{rid}: {_unit_words(*key)} {a.get(key, 0)} -> {b.get(key, 0)}")
    aw = after["awaiting"]
    if after["finished"] and not before["finished"]:
        out.append(f"the game ends: {after.get('winner')} wins")
    elif aw is not None and aw != before["awaiting"]:
        who = f"{aw['player']} decides {aw['kind']}"
        out.append(f"next: {who}" + (f" for {aw['nation']}" if aw["nation"] else ""))
    return out
