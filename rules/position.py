"""Positions: a game's state written down and read back, as FEN is for chess.

A position is the state summary of docs/STATE.md (what ``imperial state --json`` prints) with
its ``position`` block: the few things the summary's tables do not show but the rules need to
go on exactly (the rule options, the bank, the steps still to come this turn, the current
decision's own data, the Maneuver so far, pending flag claims). ``position_block`` writes that
block; ``read_position`` checks a whole document and builds the engine's state from it.

Every problem is a ``PositionError`` whose message is one line starting with the field it is
about (``nations.GE.treasury: ...``), so that a hand-edited position can be fixed quickly.
The short hand-written form of docs/POSITIONS.md is turned into the same document by
``rules.position_text``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from maps import Board
from rules.actions import RONDEL_SPACES
from rules.canals import CanalRequest
from rules.decisions import Decision
from rules.economy import ImportContext, ProductionContext, _producible
from rules.errors import SetupError
from rules.games import GAMES, game_info
from rules.investing import InvestContext
from rules.maneuver import BattleContext, ManeuverContext
from rules.options import OPTIONS
from rules.position_decision import MAX_MONEY, STEP_ARGS, TurnReader
from rules.position_fields import (
    PositionError,
    bool_field,
    fail,
    int_field,
    is_int,
    known_fields,
    list_field,
    nation_field,
    obj_field,
    player_field,
    region_field,
    show,
)
from rules.rondel import PendingMove
from rules.ruleset import EDITIONS, VARIANTS, RuleSet
from rules.setup import board_for, check_players, place_investor_card
from rules.state import NO, GameState

__all__ = [
    "POSITION_VERSION",
    "STATE_FORMAT",
    "Position",
    "PositionError",
    "position_block",
    "read_position",
]

STATE_FORMAT = "imperial-state/1"
POSITION_VERSION = 1
# Derived figures of the summary: recomputed from the position, ignored when read.
DERIVED_TOP = {"scores", "winner", "winners", "decided_by"}
DERIVED_NATION = {"bonds_available", "supply"}
DERIVED_PLAYER = {"swiss_bank"}


# =========================================================================== writing


def position_block(s: GameState) -> dict[str, Any]:
    """What the summary must carry besides its tables to fix the position exactly."""
    players, board = s.players, s.board
    claims = {
        s.board.codes[n]: players[p]
        for n, p in enumerate(s.flag_claim)
        if p != NO and s.government[n] == NO
    }
    return {
        "version": POSITION_VERSION,
        "options": s.rules.options(),
        "bank": s.bank,
        "steps": [_step_text(s, step) for step in s.todo],
        "decision": _decision_data(s, board),
        "turn_context": _turn_context_data(s, board),
        "flag_claims": claims,
        "game_ending": s.ending,
        "free_invested": [players[p] for p in sorted(s.free_invested)],
    }


def _step_text(s: GameState, step: tuple[Any, ...]) -> str:
    name, args = step[0], step[1:]
    words = [name]
    for kind, value in zip(STEP_ARGS[name], args, strict=True):
        if value == NO:
            continue
        words.append(s.board.codes[value] if kind == "nation" else s.players[value])
    return " ".join(words)


def _decision_data(s: GameState, board: Board) -> dict[str, Any] | None:
    ctx = s.ctx
    if ctx is None or isinstance(ctx, PendingMove):  # a pending move is the turn context
        return None
    if isinstance(ctx, ProductionContext):
        return {"pending": [board.id(r) for r in ctx.pending]}
    if isinstance(ctx, ImportContext):
        return {"imported": ctx.count}
    if isinstance(ctx, BattleContext):
        return {
            "region": board.id(ctx.region),
            "unit": ctx.unit,
            "friendly": ctx.friendly,
            "asking": [s.board.codes[m] for m in ctx.asking],
            "any_unit": ctx.any_unit,
            "fought": ctx.fought,
            **({"switched": True} if ctx.switched else {}),  # written only when true
        }
    if isinstance(ctx, CanalRequest):
        return {
            "move": str(ctx.move),
            "asking": [
                {"canal": board.canals[c].id, "nation": s.board.codes[m]} for c, m in ctx.asking
            ],
        }
    if isinstance(ctx, InvestContext):
        return {
            "nations": [s.board.codes[n] for n in ctx.nations],
            "queue": [s.players[p] for p in ctx.queue],
            "auction": ctx.auction,
            "free_round": ctx.free_round,
        }
    raise TypeError(f"no position form for decision data {type(ctx).__name__}")


def _turn_context_data(s: GameState, board: Board) -> dict[str, Any] | None:
    tc = s.turn_ctx
    if tc is None:
        return None
    if isinstance(tc, ManeuverContext):
        data: dict[str, Any] = {
            "kind": "maneuver",
            "armies_phase": tc.armies_phase,
            "moved_armies": [
                {"region": board.id(r), "friendly": f, "count": c}
                for (r, f), c in sorted(tc.moved_armies.items())
            ],
            "moved_fleets": {board.id(r): c for r, c in sorted(tc.moved_fleets.items())},
            "convoy_used": {board.id(r): c for r, c in sorted(tc.convoy_used.items())},
        }
        if tc.canal_refused:  # Imperial 2030 only
            data["canal_refused"] = [
                {
                    "region": board.id(r),
                    "unit": unit,
                    "canal": board.canals[c].id,
                    "asked": s.board.codes[m],
                    "count": count,
                }
                for (r, unit, c, m), count in sorted(tc.canal_refused.items())
            ]
        return data
    if isinstance(tc, PendingMove):
        return {
            "kind": "rondel_move",
            "origin": RONDEL_SPACES[tc.origin],
            "target": RONDEL_SPACES[tc.target],
            "queue": [s.players[p] for p in tc.queue],
        }
    raise TypeError(f"no position form for turn data {type(tc).__name__}")


# =========================================================================== reading


@dataclass(frozen=True, slots=True)
class Position:
    """A checked position: the players, the rules and the state to start a game from."""

    players: tuple[str, ...]
    rules: RuleSet
    state: GameState


def read_position(doc: Any) -> Position:
    """Check a position document (docs/STATE.md plus its ``position`` block; the block may be
    left out for the simple decisions, see docs/POSITIONS.md) and build the state. Raises
    PositionError naming the field."""
    return _Reader(doc).read()


class _Reader:
    """Reads one document; each method checks one part and names its fields in errors."""

    def __init__(self, doc: Any) -> None:
        self.doc = obj_field(doc, "")
        self.block: Mapping[str, Any] | None = None
        self.governors: dict[int, int | None] = {}

    # -- the whole document -----------------------------------------------------------------
    def read(self) -> Position:
        doc = self.doc
        known_fields(
            doc,
            "",
            {
                "format",
                "game",
                "edition",
                "variant",
                "players",
                "nations",
                "regions",
                "turn",
                "awaiting",
                "finished",
                "position",
            }
            | DERIVED_TOP,
        )
        if doc.get("format") != STATE_FORMAT:
            raise fail("format", f'must be "{STATE_FORMAT}" (the state summary of docs/STATE.md)')
        if "position" in doc:
            self.block = obj_field(doc["position"], "position")
            known_fields(
                self.block,
                "position",
                {
                    "version",
                    "options",
                    "bank",
                    "steps",
                    "decision",
                    "turn_context",
                    "flag_claims",
                    "game_ending",
                    "free_invested",
                },
            )
            version = self.block.get("version")
            if not is_int(version) or version < 1:
                raise fail("position.version", f"must be a whole number, not {show(version)}")
            if version > POSITION_VERSION:
                raise fail(
                    "position.version",
                    f"is {version}: written by a newer program; this one reads version "
                    f"{POSITION_VERSION}",
                )
        rules = self._rules()
        players = self._players_names(rules.game)
        board = board_for(rules)
        s = GameState(
            rules=rules,
            board=board,
            players=players,
            cash=[0] * len(players),
            bank=rules.bank_notes_total,
            treasury=[0] * 6,
            power=[0] * 6,
            tax_level=[5] * 6,
            rondel=[NO] * 6,
            government=[NO] * 6,
            bond_owner=[[NO] * len(rules.bond_costs) for _ in range(6)],
            armies=[bytearray(len(board.regions)) for _ in range(6)],
            fleets=[bytearray(len(board.regions)) for _ in range(6)],
            friendly=[bytearray(len(board.regions)) for _ in range(6)],
            factory=[False] * len(board.regions),
            flag=[NO] * len(board.regions),
            investor_card=NO,
            flag_min_bond=[2] * 6,
            flag_claim=[NO] * 6,
        )
        self._player_figures(s)
        self._nations(s)
        self._regions(s)
        self._limits(s)
        turn = TurnReader(doc, self.block)
        turn.read(s)
        self._governments(s)
        self._investor_card(s, turn.card_holder_invests)
        if not s.finished and s.awaiting_kind is not None:
            turn.check_decider(s, s.awaiting_kind)
        self._sanity(s)
        return Position(players, rules, s)

    # -- rules and players ------------------------------------------------------------------
    def _rules(self) -> RuleSet:
        game = self.doc.get("game", "imperial")
        if game not in GAMES:
            raise fail("game", f"must be one of {', '.join(GAMES)}, not {show(game)}")
        edition = self.doc.get("edition", game_info(game).editions[0])
        variant = self.doc.get("variant", "standard")
        if edition not in EDITIONS:
            raise fail("edition", f"must be one of {', '.join(EDITIONS)}, not {show(edition)}")
        if variant not in VARIANTS:
            raise fail("variant", f"must be one of {', '.join(VARIANTS)}, not {show(variant)}")
        options = obj_field(self.block.get("options", {}) if self.block else {}, "position.options")
        for name, value in options.items():
            info = OPTIONS.get(name)
            where = f"position.options.{name}"
            if info is None:
                raise fail(where, "no such rule option (see `imperial options`)")
            if game not in info.games:
                raise fail(where, f"does not apply to {game_info(game).title}")
            if not any(type(value) is type(c) and value == c for c in info.choices):
                choices = ", ".join(repr(c) for c in info.choices)
                raise fail(where, f"cannot be {show(value)}; choose {choices}")
        try:
            return RuleSet.preset(edition, variant, game).with_options(**options)
        except ValueError as exc:
            raise fail("edition", str(exc)) from None

    def _players_names(self, game: str) -> tuple[str, ...]:
        entries = list_field(self.doc.get("players"), "players")
        names = []
        for i, entry in enumerate(entries):
            entry = obj_field(entry, f"players[{i}]")
            if not isinstance(entry.get("name"), str):
                raise fail(f"players[{i}].name", "must be the player's name")
            names.append(entry["name"])
        try:
            return check_players(names, game)
        except SetupError as exc:
            raise fail("players", str(exc)) from None

    def _player_figures(self, s: GameState) -> None:
        costs = s.rules.bond_costs
        for p, entry in enumerate(self.doc["players"]):
            where = f"players[{p}]"
            known_fields(
                entry,
                where,
                {"name", "cash", "bonds", "governs", "investor_card"} | DERIVED_PLAYER,
            )
            s.cash[p] = int_field(entry.get("cash", 0), f"{where}.cash", 0, MAX_MONEY)
            for j, bond in enumerate(list_field(entry.get("bonds", []), f"{where}.bonds")):
                bw = f"{where}.bonds[{j}]"
                bond = obj_field(bond, bw)
                known_fields(bond, bw, {"nation", "value", "interest"})
                n = nation_field(bond.get("nation"), f"{bw}.nation", s.board.codes)
                value = bond.get("value")
                if not is_int(value) or value not in costs:
                    raise fail(
                        f"{bw}.value",
                        f"must be a bond value ({', '.join(map(str, costs))}), not {show(value)}",
                    )
                k = costs.index(value)
                if "interest" in bond and bond["interest"] != k + 1:
                    raise fail(
                        f"{bw}.interest",
                        f"the {value}M bond pays {k + 1}, not {bond['interest']!r}",
                    )
                owner = s.bond_owner[n][k]
                if owner != NO:
                    raise fail(
                        bw,
                        f"the {s.board.codes[n]} {value}M bond is already held by "
                        f"{s.players[owner]}; each bond exists once",
                    )
                s.bond_owner[n][k] = p

    # -- nations ----------------------------------------------------------------------------
    def _nations(self, s: GameState) -> None:
        nations = obj_field(self.doc.get("nations", {}), "nations")
        for code in nations:
            if code not in s.board.codes:
                raise fail(
                    f"nations.{code}", f"no such nation; nations are {' '.join(s.board.codes)}"
                )
        for n, code in enumerate(s.board.codes):
            where = f"nations.{code}"
            entry = obj_field(nations.get(code, {}), where)
            known_fields(
                entry,
                where,
                {"governor", "treasury", "power", "tax_level", "rondel"} | DERIVED_NATION,
            )
            gov = entry.get("governor")
            if "governor" in entry:
                self.governors[n] = (
                    None if gov is None else player_field(gov, f"{where}.governor", s)
                )
            s.treasury[n] = int_field(entry.get("treasury", 0), f"{where}.treasury", 0, MAX_MONEY)
            s.power[n] = int_field(entry.get("power", 0), f"{where}.power", 0, 25)
            s.tax_level[n] = int_field(entry.get("tax_level", 5), f"{where}.tax_level", 5, 15)
            space = entry.get("rondel")
            if space is not None and space not in RONDEL_SPACES:
                raise fail(
                    f"{where}.rondel",
                    f"must be a rondel space ({' '.join(RONDEL_SPACES)}) or null, not "
                    f"{show(space)}",
                )
            s.rondel[n] = RONDEL_SPACES.index(space) if space is not None else NO

    # -- the board --------------------------------------------------------------------------
    def _regions(self, s: GameState) -> None:
        board = s.board
        regions = obj_field(self.doc.get("regions", {}), "regions")
        for rid, entry in regions.items():
            where = f"regions.{rid}"
            r = region_field(rid, where, s)
            reg = board.regions[r]
            entry = obj_field(entry, where)
            known_fields(entry, where, {"factory", "flag", "units"})
            factory = entry.get("factory")
            if factory is not None:
                if reg.factory_type is None:
                    raise fail(f"{where}.factory", f"{reg.name} is not a factory site (a city)")
                if factory != reg.factory_type:
                    raise fail(
                        f"{where}.factory",
                        f"{reg.name} takes {'an' if reg.factory_type == 'armaments' else 'a'} "
                        f"{reg.factory_type} factory, not {show(factory)}",
                    )
                s.factory[r] = True
            flag = entry.get("flag")
            if flag is not None:
                m = nation_field(flag, f"{where}.flag", s.board.codes)
                if reg.kind == "province":
                    raise fail(
                        f"{where}.flag",
                        f"{reg.name} is a home province; flags stand only in neutral lands "
                        "and seas",
                    )
                s.flag[r] = m
            seen: set[tuple[int, str, bool | None]] = set()
            for i, unit in enumerate(list_field(entry.get("units", []), f"{where}.units")):
                self._unit(
                    s, r, obj_field(unit, f"{where}.units[{i}]"), f"{where}.units[{i}]", seen
                )

    def _unit(
        self,
        s: GameState,
        r: int,
        unit: Mapping[str, Any],
        where: str,
        seen: set[tuple[int, str, bool | None]],
    ) -> None:
        board = s.board
        reg = board.regions[r]
        known_fields(unit, where, {"nation", "kind", "count", "hostile"})
        n = nation_field(unit.get("nation"), f"{where}.nation", s.board.codes)
        kind = unit.get("kind")
        if kind not in ("army", "fleet"):
            raise fail(f"{where}.kind", f'must be "army" or "fleet", not {show(kind)}')
        count = int_field(unit.get("count", 1), f"{where}.count", 1, 255)
        hostile = unit.get("hostile")
        foreign_home = board.owner[r] not in (NO, n)
        if hostile is not None:
            bool_field(hostile, f"{where}.hostile")
            if kind != "army" or not foreign_home:
                raise fail(
                    f"{where}.hostile",
                    "only armies in another nation's home province are hostile or friendly; "
                    "leave it null here",
                )
        key = (n, kind, (hostile is not False) if foreign_home and kind == "army" else None)
        if key in seen:
            raise fail(where, f"{s.board.codes[n]} {kind}s are listed twice in {reg.name}")
        seen.add(key)
        if kind == "army":
            if reg.kind == "sea":
                raise fail(where, f"armies stand only on land; {reg.name} is a sea")
            s.armies[n][r] += count
            if foreign_home and hostile is False:
                s.friendly[n][r] += count
            return
        if reg.kind == "land":
            raise fail(where, f"fleets are at sea or in a port; {reg.name} is a land region")
        if reg.kind == "province" and (board.owner[r] != n or board.harbour_sea[r] == NO):
            raise fail(
                where,
                f"a fleet on land lies in one of its own nation's ports; {reg.name} is not a "
                f"{s.board.codes[n]} port",
            )
        s.fleets[n][r] += count

    def _limits(self, s: GameState) -> None:
        for n, info in enumerate(s.board.nations):
            code = s.board.codes[n]
            armies, fleets = sum(s.armies[n]), sum(s.fleets[n])
            if armies > info.armies:
                raise fail(
                    f"regions ({code} armies)",
                    f"{armies} {code} armies on the board; {code} has only {info.armies}",
                )
            if fleets > info.fleets:
                raise fail(
                    f"regions ({code} fleets)",
                    f"{fleets} {code} fleets on the board; {code} has only {info.fleets}",
                )
            flags = s.flag.count(n)
            if flags > s.rules.flags_per_nation:
                raise fail(
                    f"regions ({code} flags)",
                    f"{flags} {code} flags on the board; each nation has "
                    f"{s.rules.flags_per_nation}",
                )

    # -- governments and the investor card --------------------------------------------------
    def _governments(self, s: GameState) -> None:
        pending_check = s.awaiting_kind in (Decision.INVEST, Decision.BOND_CHOICE) or any(
            step[0] in ("government_check", "auction") for step in s.todo
        )
        for n, code in enumerate(s.board.codes):
            credits = [s.credit(p, n) for p in range(len(s.players))]
            best = max(credits)
            if n in self.governors:
                gov = self.governors[n]
            elif best > 0:
                holders = [s.players[p] for p, c in enumerate(credits) if c == best]
                if len(holders) > 1:
                    raise fail(
                        f"nations.{code}.governor",
                        f"{' and '.join(holders)} hold the same credit in {code} ({best}M): "
                        "name the governor",
                    )
                gov = credits.index(best)
            else:
                gov = None
            s.government[n] = NO if gov is None else gov
            if gov is not None and best > 0 and credits[gov] < best and not pending_check:
                top = s.players[credits.index(best)]
                raise fail(
                    f"nations.{code}.governor",
                    f"{s.players[gov]} holds {credits[gov]}M of {code} bonds but {top} holds "
                    f"{best}M; the player with the most credit governs",
                )
            if s.flag_claim[n] != NO and gov is not None:
                raise fail(f"position.flag_claims.{code}", f"{code} already has a government")
        # An ungoverned nation goes to the first player who grants it a bond of at least this:
        # the set-up rule's value (every bond in the experienced variant).
        undealt = s.rules.unassigned_flag_min_bond if s.rules.variant != "experienced" else 2
        s.flag_min_bond = [2 if g != NO else undealt for g in s.government]
        for i, entry in enumerate(self.doc["players"]):
            if "governs" not in entry:
                continue
            governs = list_field(entry["governs"], f"players[{i}].governs")
            actual = [s.board.codes[n] for n in s.governs(i)]
            if sorted(map(str, governs)) != sorted(actual):
                raise fail(
                    f"players[{i}].governs",
                    f"says {' '.join(map(str, governs)) or 'nothing'} but the nations' governors "
                    f"make it {' '.join(actual) or 'nothing'}; change both or leave it out",
                )

    def _investor_card(self, s: GameState, card_holder_invests: bool) -> None:
        holders = [i for i, e in enumerate(self.doc["players"]) if e.get("investor_card", False)]
        for i, e in enumerate(self.doc["players"]):
            if "investor_card" in e:
                bool_field(e["investor_card"], f"players[{i}].investor_card")
        setting_up = any(step[0] == "setup_done" for step in s.todo)
        if not s.rules.uses_investor_card or setting_up:
            if holders:
                why = (
                    "the set-up is not over" if setting_up else "this variant has no investor card"
                )
                raise fail(f"players[{holders[0]}].investor_card", f"must be false: {why}")
            s.investor_card = NO
            return
        if len(holders) > 1:
            raise fail(
                f"players[{holders[1]}].investor_card", "only one player holds the investor card"
            )
        if holders:
            s.investor_card = holders[0]
        else:
            place_investor_card(s)  # as at the set-up: left of the first government
        if card_holder_invests and s.awaiting_player != s.investor_card:
            raise fail(
                "awaiting.player",
                f"{s.players[s.awaiting_player]} invests, but {s.players[s.investor_card]} holds "
                "the investor card (give position.steps and position.decision for the other "
                "investors)",
            )

    def _sanity(self, s: GameState) -> None:
        """The engine's own functions must be able to go on from here."""
        from rules import engine

        if s.finished:
            return
        try:
            actions = engine.legal_actions(s)
        except Exception as exc:  # a position the rules cannot continue from
            raise fail(
                "awaiting",
                f"the rules cannot go on from this position ({type(exc).__name__}: {exc})",
            ) from None
        if not actions:
            raise fail("awaiting", f"{s.players[s.awaiting_player]} would have nothing to choose")
        if s.awaiting_kind == Decision.PRODUCE and not _producible(s, s.turn, s.ctx.pending):
            raise fail("position.decision.pending", "no factory left that can produce")
