"""The state summary of docs/STATE.md: the one stable document that outside tools read.

It is computed from the position; ``rules.position`` reads it back (with its ``position`` block,
which carries what the tables do not show) to start a game from it. Keys are never renamed or
dropped without raising ``format``.
"""

from __future__ import annotations

from typing import Any

from rules.actions import RONDEL_SPACES
from rules.position import position_block
from rules.scoring import result_of
from rules.state import NO, GameState

FORMAT = "imperial-state/1"


def summary(s: GameState) -> dict[str, Any]:
    costs = s.rules.bond_costs
    board = s.board
    codes = board.codes
    players = []
    # Swiss banks are handed out at the end of the set-up (the experienced bond rounds)
    swiss = s.rules.swiss_banks and not any(step[0] == "setup_done" for step in s.todo)
    for p, name in enumerate(s.players):
        bonds = [
            {"nation": codes[n], "value": costs[k], "interest": k + 1}
            for n in range(len(s.bond_owner))
            for k, o in enumerate(s.bond_owner[n])
            if o == p
        ]
        governs = [codes[n] for n in s.governs(p)]
        players.append(
            {
                "name": name,
                "cash": s.cash[p],
                "bonds": bonds,
                "governs": governs,
                "investor_card": s.investor_card == p,
                "swiss_bank": bool(swiss and not governs),
            }
        )
    nations: dict[str, Any] = {}
    for n, c in enumerate(codes):
        gov = s.government[n]
        nations[c] = {
            "governor": s.players[gov] if gov != NO else None,
            "treasury": s.treasury[n],
            "power": s.power[n],
            "tax_level": s.tax_level[n],
            "rondel": RONDEL_SPACES[s.rondel[n]] if s.rondel[n] != NO else None,
            "bonds_available": [costs[k] for k, o in enumerate(s.bond_owner[n]) if o == NO],
            "supply": {
                "armies": s.armies_in_supply(n),
                "fleets": s.fleets_in_supply(n),
                "flags": s.flags_in_supply(n),
                "factories_built": len(s.factories_of(n)),
            },
        }
    regions: dict[str, Any] = {}
    for r in board.regions:
        i = r.index
        units = []
        foreign_home = r.kind == "province"
        for n, c in enumerate(codes):
            armies = s.armies[n][i]
            if armies:
                if foreign_home and board.owner[i] != n:
                    hostile = armies - s.friendly[n][i]
                    if hostile:
                        units.append(
                            {"nation": c, "kind": "army", "count": hostile, "hostile": True}
                        )
                    if s.friendly[n][i]:
                        units.append(
                            {
                                "nation": c,
                                "kind": "army",
                                "count": s.friendly[n][i],
                                "hostile": False,
                            }
                        )
                else:
                    units.append({"nation": c, "kind": "army", "count": armies, "hostile": None})
            if s.fleets[n][i]:
                units.append(
                    {"nation": c, "kind": "fleet", "count": s.fleets[n][i], "hostile": None}
                )
        regions[r.id] = {
            "factory": r.factory_type if s.factory[i] else None,
            "flag": codes[s.flag[i]] if s.flag[i] != NO else None,
            "units": units,
        }
    awaiting = None
    if not s.finished and s.awaiting_kind is not None:
        awaiting = {
            "player": s.players[s.awaiting_player],
            "kind": s.awaiting_kind,
            "nation": codes[s.awaiting_nation] if s.awaiting_nation != NO else None,
        }
    out: dict[str, Any] = {"format": FORMAT}
    if s.rules.game != "imperial":
        # Imperial 2030 says so; an Imperial document stays as it always was (no "game")
        out["game"] = s.rules.game
    out |= {
        "edition": s.rules.edition,
        "variant": s.rules.variant,
        "players": players,
        "nations": nations,
        "regions": regions,
        "turn": {
            "round": s.round,
            "nation": codes[s.turn] if s.turn != NO else None,
        },
        "awaiting": awaiting,
        "finished": s.finished,
        "scores": None,
        "winner": None,
        "position": position_block(s),
    }
    if s.finished:
        res = result_of(s)
        out["scores"] = res.scores
        out["winner"] = res.winner
        out["winners"] = list(res.winners)
        out["decided_by"] = res.decided_by
    return out
