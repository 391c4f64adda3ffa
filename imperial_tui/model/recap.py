""" "Since your last turn": what changed for one player between two positions, most important
first, computed from two state summaries (docs/STATE.md) and the actions in between.

Rules-free on purpose: every figure comes from the engine's summaries (governors, bonds, cash,
power, tax chart, flags, factories, units) and the recorded actions (a battle is a ``battle``
action). Which summaries to compare is the app's business: the position right after the
player's previous decision, and now (``Since``). No Textual import.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Importance, lowest first: what a player must know before deciding comes first.
END = -1
YOUR_GOVERNMENT = 0
BONDS_IN_YOURS = 1
OTHER_GOVERNMENT = 2
YOUR_CASH = 3
POWER_YOURS = 4
YOUR_HOMES = 5
POWER = 6
FLAGS = 7
BATTLES = 8
FACTORIES = 9


@dataclass(frozen=True, slots=True)
class RecapLine:
    """One change in words; ``nation`` (a code) is shown coloured in front of it."""

    rank: int
    text: str
    nation: str | None = None


@dataclass(slots=True)
class Recap:
    """The changes for ``player`` from action ``start`` to action ``end`` (numbers of actions
    taken), and who took the actions in between."""

    player: str
    start: int
    end: int
    actors: list[str] = field(default_factory=list)
    lines: list[RecapLine] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.lines


def _credit(summary: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """nation -> player -> credit (sum of the bonds' values)."""
    out: dict[str, dict[str, int]] = {}
    for p in summary["players"]:
        for b in p["bonds"]:
            out.setdefault(b["nation"], {}).setdefault(p["name"], 0)
            out[b["nation"]][p["name"]] += b["value"]
    return out


def _factor(power: int) -> int:
    """The power factor as the score counts it (0-4: 0 ... 25: 5), for the words only."""
    return min(5, power // 5)


def _hostile(region: Mapping[str, Any]) -> dict[str, int]:
    return {u["nation"]: u["count"] for u in region["units"] if u["hostile"] is True}


# the engine's words for what pays a player (rules.investing, rules.taxation), and the cause
CASH_CAUSES = (
    ("pays interest", "{} interest"),
    ("holds the investor card: receives", "the investor card"),
    ("success bonus", "{} success bonus"),
    ("Swiss bank", "{} Swiss bank"),
)


def cash_causes(events: Iterable[Any], player: str) -> list[str]:
    """Why the player's cash changed, from the events that name them: 'AH interest', 'the
    investor card' (each once, in the order they happened)."""
    out: list[str] = []
    for event in events:
        text = event.text
        if player not in text:
            continue
        for words, cause in CASH_CAUSES:
            if words in text:
                said = cause.format(event.nation or "").strip()
                if said not in out:
                    out.append(said)
                break
    return out


def recap(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    player: str,
    actions: Iterable[Any] = (),
    *,
    hidden_cash: bool = False,
    home_of: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    events: Iterable[Any] = (),
) -> list[RecapLine]:
    """The changes that matter to ``player`` between two summaries, most important first.

    ``actions`` are the actions taken in between (battles are read from them); ``home_of``
    maps a home province's id to its nation's code (to say "armies occupy Vienna (AH)" after
    the occupier's coloured code);
    ``names`` maps region ids (and canal ids) to printed names; ``events`` (the engine's
    events in between) give the causes of the player's cash change. Only the player's own
    cash is mentioned (the recap is theirs), so hidden cash stays hidden; ``hidden_cash`` is
    kept for the day a line about other players' money is added."""
    names = names or {}
    home_of = home_of or {}

    def rname(rid: str) -> str:
        return names.get(rid, rid)

    out: list[RecapLine] = []
    old_players = {p["name"]: p for p in before["players"]}
    new_players = {p["name"]: p for p in after["players"]}
    mine_now = set(new_players[player]["governs"]) if player in new_players else set()
    mine_before = set(old_players[player]["governs"]) if player in old_players else set()
    held = (
        {b["nation"] for who in (old_players, new_players) for b in who[player]["bonds"]}
        | mine_now
        | mine_before
    )

    # -- governments --------------------------------------------------------------------------
    for code, nation in after["nations"].items():
        old, new = before["nations"][code]["governor"], nation["governor"]
        if old == new:
            continue
        if player in (old, new):
            if new == player:
                text = "you now govern it" + (f" (taken from {old})" if old else "")
            elif new is None:
                text = "you lost the government: nobody governs it"
            else:
                text = f"{new} took the government from you"
            out.append(RecapLine(YOUR_GOVERNMENT, text, code))
        elif old is None:
            out.append(RecapLine(OTHER_GOVERNMENT, f"{new} now governs it", code))
        else:
            out.append(RecapLine(OTHER_GOVERNMENT, f"{new} took the government from {old}", code))

    # -- bonds bought in nations the player holds, in the words of the purchase itself ------------
    credit_now = _credit(after)
    for a in actions:
        if getattr(a, "kind", "") != "buy" or a.player == player or a.nation not in held:
            continue
        credit = credit_now.get(a.nation, {})
        what = (
            f"traded up to the {a.value}M bond, returning the {a.returning}M"
            if a.returning
            else f"bought the {a.value}M bond"
        )
        governor = after["nations"][a.nation]["governor"]
        holders = sorted(credit.items(), key=lambda kv: (-kv[1], kv[0] != governor, kv[0]))
        shown = [
            f"{'you' if who == player else who} {value}M" + (" governs" if who == governor else "")
            for who, value in holders
            if value
        ]
        text = f"{a.player} {what} (credit: {', '.join(shown)})"
        out.append(RecapLine(BONDS_IN_YOURS, text, a.nation))

    # -- the player's cash and the investor card ------------------------------------------------
    if player in new_players:
        was, now = old_players[player]["cash"], new_players[player]["cash"]
        if now != was:
            sign = "+" if now > was else "-"
            causes = cash_causes(events, player)
            why = f": {', '.join(causes)}" if causes else ""
            text = f"your cash {was}M -> {now}M ({sign}{abs(now - was)}M{why})"
            out.append(RecapLine(YOUR_CASH, text))
        if new_players[player]["investor_card"] and not old_players[player]["investor_card"]:
            out.append(RecapLine(YOUR_CASH, "you now hold the investor card"))

    # -- power and tax ------------------------------------------------------------------------
    for code, nation in after["nations"].items():
        old = before["nations"][code]
        bits = []
        if nation["power"] != old["power"]:
            f_old, f_new = _factor(old["power"]), _factor(nation["power"])
            factor = f" (factor {f_old} -> {f_new})" if f_new != f_old else ""
            bits.append(f"power {old['power']} -> {nation['power']}{factor}")
        if nation["tax_level"] != old["tax_level"]:
            bits.append(f"tax chart {old['tax_level']} -> {nation['tax_level']}")
        if bits:
            out.append(RecapLine(POWER_YOURS if code in held else POWER, "; ".join(bits), code))

    # -- the player's home provinces occupied or freed ------------------------------------------
    for rid, region in after["regions"].items():
        owner = home_of.get(rid)
        if owner is None or owner not in (mine_now | mine_before):
            continue
        was, now = _hostile(before["regions"][rid]), _hostile(region)
        for code in sorted(set(was) | set(now)):
            if now.get(code, 0) > was.get(code, 0):
                out.append(RecapLine(YOUR_HOMES, f"armies occupy {rname(rid)} ({owner})", code))
            elif now.get(code, 0) == 0 and was.get(code, 0):
                out.append(RecapLine(YOUR_HOMES, f"{rname(rid)} ({owner}) is free again", owner))

    # -- flags --------------------------------------------------------------------------------
    taken: dict[tuple[str | None, str | None], list[str]] = {}
    for rid, region in after["regions"].items():
        old_flag, new_flag = before["regions"][rid]["flag"], region["flag"]
        if old_flag != new_flag:
            taken.setdefault((new_flag, old_flag), []).append(rname(rid))
    for (new_flag, old_flag), where in sorted(taken.items(), key=lambda kv: str(kv[0])):
        places = ", ".join(sorted(where))
        if new_flag is None:
            text = f"lost the flag{'s' if len(where) > 1 else ''} of {places}"
            out.append(RecapLine(FLAGS, text, old_flag))
        else:
            text = f"planted flag{'s' if len(where) > 1 else ''} in {places}"
            text += f", taken from {old_flag}" if old_flag else ""
            out.append(RecapLine(FLAGS, text, new_flag))

    # -- battles ------------------------------------------------------------------------------
    for a in actions:
        if getattr(a, "kind", "") == "battle":
            text = (
                f"{a.unit} and {a.target} {a.target_unit} fought in {rname(a.region)}: "
                "one of each removed"
            )
            out.append(RecapLine(BATTLES, text, a.nation))

    # -- canals (Imperial 2030): who let whom through, who refused -----------------------------
    for a in actions:
        if getattr(a, "kind", "") == "canal":
            canal = rname(a.canal)
            verb = f"let {a.mover} through" if a.allow else f"refused {a.mover} passage through"
            out.append(RecapLine(BATTLES, f"{verb} the {canal}", a.nation))

    # -- factories ----------------------------------------------------------------------------
    for rid, region in after["regions"].items():
        old_fac, new_fac = before["regions"][rid]["factory"], region["factory"]
        if old_fac == new_fac:
            continue
        owner = home_of.get(rid)
        if new_fac:
            what = "a shipyard" if new_fac == "shipyard" else "an armaments factory"
            out.append(RecapLine(FACTORIES, f"built {what} in {rname(rid)}", owner))
        else:
            out.append(RecapLine(FACTORIES, f"factory in {rname(rid)} destroyed", owner))

    if after["finished"] and not before["finished"]:
        winners = after.get("winners") or [after.get("winner")]
        out.append(RecapLine(END, f"the game is over: {' and '.join(map(str, winners))} won"))
    out.sort(key=lambda line: line.rank)
    return out
