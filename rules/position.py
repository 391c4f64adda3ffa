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
from rules.actions import NATION_CODES, RONDEL_SPACES
from rules.economy import ImportContext, ProductionContext, _producible
from rules.errors import SetupError
from rules.investing import ALL, InvestContext
from rules.maneuver import BattleContext, ManeuverContext
from rules.rondel import PendingMove
from rules.ruleset import EDITIONS, OPTIONS, VARIANTS, RuleSet
from rules.setup import board_for, check_players, place_investor_card
from rules.state import NO, GameState

STATE_FORMAT = "imperial-state/1"
POSITION_VERSION = 1
MAX_MONEY = 1_000_000  # far beyond any game (the bank holds 380M), far below trouble
MAX_ROUND = 10_000

# Decisions that a nation's government takes for the nation whose turn it is.
NATION_DECISIONS = ("rondel", "build_factory", "production", "import", "maneuver")
DECISIONS = (*NATION_DECISIONS, "swiss_bank", "battle", "invest", "bond_choice")
# The arguments of each engine step besides the state: "nation" and "player" by name, "player?"
# a player or nobody (the government check counts from the investor card then).
STEP_ARGS: dict[str, tuple[str, ...]] = {
    "factory": (),
    "production": (),
    "import": (),
    "taxation": (),
    "maneuver": (),
    "investor": (),
    "passed_investor": (),
    "investor_card": (),
    "free_investors": (),
    "government_check": ("player?",),
    "pass_card": (),
    "auction": ("nation", "player"),
    "setup_done": (),
    "end_turn": (),
    "nation_round": ("nation", "player"),
    "free_round": (),
    "rondel_decision": (),
}
# Derived figures of the summary: recomputed from the position, ignored when read.
DERIVED_TOP = {"scores", "winner", "winners", "decided_by"}
DERIVED_NATION = {"bonds_available", "supply"}
DERIVED_PLAYER = {"swiss_bank"}


class PositionError(SetupError):
    """A position cannot be read: one line naming the field and what is wrong with it."""


# =========================================================================== writing


def position_block(s: GameState) -> dict[str, Any]:
    """What the summary must carry besides its tables to fix the position exactly."""
    players, board = s.players, s.board
    claims = {
        NATION_CODES[n]: players[p]
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
        words.append(NATION_CODES[value] if kind == "nation" else s.players[value])
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
            "asking": [NATION_CODES[m] for m in ctx.asking],
            "any_unit": ctx.any_unit,
            "fought": ctx.fought,
        }
    if isinstance(ctx, InvestContext):
        return {
            "nations": [NATION_CODES[n] for n in ctx.nations],
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
        return {
            "kind": "maneuver",
            "armies_phase": tc.armies_phase,
            "moved_armies": [
                {"region": board.id(r), "friendly": f, "count": c}
                for (r, f), c in sorted(tc.moved_armies.items())
            ],
            "moved_fleets": {board.id(r): c for r, c in sorted(tc.moved_fleets.items())},
            "convoy_used": {board.id(r): c for r, c in sorted(tc.convoy_used.items())},
        }
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


def _fail(where: str, message: str) -> PositionError:
    return PositionError(f"{where}: {message}" if where else message)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, where: str, low: int, high: int) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}, not {_show(value)}")
    return int(value)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"must be true or false, not {_show(value)}")
    return value


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"must be an object, not {_show(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {_show(value)}")
    return value


def _known(obj: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    for key in obj:
        if key not in allowed:
            prefix = f"{where}." if where else ""
            choices = ", ".join(sorted(allowed))
            raise _fail(f"{prefix}{key}", f"unknown field (fields here: {choices})")


class _Reader:
    """Reads one document; each method checks one part and names its fields in errors."""

    def __init__(self, doc: Any) -> None:
        self.doc = _obj(doc, "")
        self.block: Mapping[str, Any] | None = None
        self.governors: dict[int, int | None] = {}
        self.card_holder_invests = False

    # -- the whole document -----------------------------------------------------------------
    def read(self) -> Position:
        doc = self.doc
        _known(
            doc,
            "",
            {
                "format",
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
            raise _fail("format", f'must be "{STATE_FORMAT}" (the state summary of docs/STATE.md)')
        if "position" in doc:
            self.block = _obj(doc["position"], "position")
            _known(
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
            if not _is_int(version) or version < 1:
                raise _fail("position.version", f"must be a whole number, not {_show(version)}")
            if version > POSITION_VERSION:
                raise _fail(
                    "position.version",
                    f"is {version}: written by a newer program; this one reads version "
                    f"{POSITION_VERSION}",
                )
        rules = self._rules()
        players = self._players_names()
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
        self._turn_and_decision(s)
        self._governments(s)
        self._investor_card(s)
        if not s.finished:
            self._check_decider(s, s.awaiting_kind or "")
        self._sanity(s)
        return Position(players, rules, s)

    # -- rules and players ------------------------------------------------------------------
    def _rules(self) -> RuleSet:
        edition = self.doc.get("edition", "first")
        variant = self.doc.get("variant", "standard")
        if edition not in EDITIONS:
            raise _fail("edition", f"must be one of {', '.join(EDITIONS)}, not {_show(edition)}")
        if variant not in VARIANTS:
            raise _fail("variant", f"must be one of {', '.join(VARIANTS)}, not {_show(variant)}")
        options = _obj(self.block.get("options", {}) if self.block else {}, "position.options")
        for name, value in options.items():
            info = OPTIONS.get(name)
            where = f"position.options.{name}"
            if info is None:
                raise _fail(where, "no such rule option (see `imperial options`)")
            if not any(type(value) is type(c) and value == c for c in info.choices):
                choices = ", ".join(repr(c) for c in info.choices)
                raise _fail(where, f"cannot be {_show(value)}; choose {choices}")
        return RuleSet.preset(edition, variant).with_options(**options)

    def _players_names(self) -> tuple[str, ...]:
        entries = _list(self.doc.get("players"), "players")
        names = []
        for i, entry in enumerate(entries):
            entry = _obj(entry, f"players[{i}]")
            if not isinstance(entry.get("name"), str):
                raise _fail(f"players[{i}].name", "must be the player's name")
            names.append(entry["name"])
        try:
            return check_players(names)
        except SetupError as exc:
            raise _fail("players", str(exc)) from None

    def _player_figures(self, s: GameState) -> None:
        costs = s.rules.bond_costs
        for p, entry in enumerate(self.doc["players"]):
            where = f"players[{p}]"
            _known(
                entry,
                where,
                {"name", "cash", "bonds", "governs", "investor_card"} | DERIVED_PLAYER,
            )
            s.cash[p] = _int(entry.get("cash", 0), f"{where}.cash", 0, MAX_MONEY)
            for j, bond in enumerate(_list(entry.get("bonds", []), f"{where}.bonds")):
                bw = f"{where}.bonds[{j}]"
                bond = _obj(bond, bw)
                _known(bond, bw, {"nation", "value", "interest"})
                n = self._nation(bond.get("nation"), f"{bw}.nation")
                value = bond.get("value")
                if not _is_int(value) or value not in costs:
                    raise _fail(
                        f"{bw}.value",
                        f"must be a bond value ({', '.join(map(str, costs))}), not {_show(value)}",
                    )
                k = costs.index(value)
                if "interest" in bond and bond["interest"] != k + 1:
                    raise _fail(f"{bw}.interest", f"the {value}M bond pays {k + 1}, not {bond['interest']!r}")
                owner = s.bond_owner[n][k]
                if owner != NO:
                    raise _fail(
                        bw,
                        f"the {NATION_CODES[n]} {value}M bond is already held by "
                        f"{s.players[owner]}; each bond exists once",
                    )
                s.bond_owner[n][k] = p

    def _nation(self, value: Any, where: str) -> int:
        if value not in NATION_CODES:
            raise _fail(where, f"must be a nation code ({' '.join(NATION_CODES)}), not {_show(value)}")
        return NATION_CODES.index(value)

    def _player(self, value: Any, where: str, s: GameState) -> int:
        if value not in s.players:
            raise _fail(where, f"must be a player ({', '.join(s.players)}), not {_show(value)}")
        return s.players.index(value)

    def _region(self, value: Any, where: str, s: GameState) -> int:
        if not isinstance(value, str) or value not in s.board.index:
            if value in s.board.impassable:
                raise _fail(where, f"{value} is impassable: nothing can stand there")
            raise _fail(where, f"no region {_show(value)} on the map")
        return s.board.index[value]

    # -- nations ----------------------------------------------------------------------------
    def _nations(self, s: GameState) -> None:
        nations = _obj(self.doc.get("nations", {}), "nations")
        for code in nations:
            if code not in NATION_CODES:
                raise _fail(f"nations.{code}", f"no such nation; nations are {' '.join(NATION_CODES)}")
        for n, code in enumerate(NATION_CODES):
            where = f"nations.{code}"
            entry = _obj(nations.get(code, {}), where)
            _known(
                entry,
                where,
                {"governor", "treasury", "power", "tax_level", "rondel"} | DERIVED_NATION,
            )
            gov = entry.get("governor")
            if "governor" in entry:
                self.governors[n] = (
                    None if gov is None else self._player(gov, f"{where}.governor", s)
                )
            s.treasury[n] = _int(entry.get("treasury", 0), f"{where}.treasury", 0, MAX_MONEY)
            s.power[n] = _int(entry.get("power", 0), f"{where}.power", 0, 25)
            s.tax_level[n] = _int(entry.get("tax_level", 5), f"{where}.tax_level", 5, 15)
            space = entry.get("rondel")
            if space is not None and space not in RONDEL_SPACES:
                raise _fail(
                    f"{where}.rondel",
                    f"must be a rondel space ({' '.join(RONDEL_SPACES)}) or null, not "
                    f"{_show(space)}",
                )
            s.rondel[n] = RONDEL_SPACES.index(space) if space is not None else NO

    # -- the board --------------------------------------------------------------------------
    def _regions(self, s: GameState) -> None:
        board = s.board
        regions = _obj(self.doc.get("regions", {}), "regions")
        for rid, entry in regions.items():
            where = f"regions.{rid}"
            r = self._region(rid, where, s)
            reg = board.regions[r]
            entry = _obj(entry, where)
            _known(entry, where, {"factory", "flag", "units"})
            factory = entry.get("factory")
            if factory is not None:
                if reg.factory_type is None:
                    raise _fail(f"{where}.factory", f"{reg.name} is not a factory site (a city)")
                if factory != reg.factory_type:
                    raise _fail(
                        f"{where}.factory",
                        f"{reg.name} takes a {reg.factory_type} factory, not {_show(factory)}",
                    )
                s.factory[r] = True
            flag = entry.get("flag")
            if flag is not None:
                m = self._nation(flag, f"{where}.flag")
                if reg.kind == "province":
                    raise _fail(
                        f"{where}.flag",
                        f"{reg.name} is a home province; flags stand only in neutral lands and seas",
                    )
                s.flag[r] = m
            seen: set[tuple[int, str, bool | None]] = set()
            for i, unit in enumerate(_list(entry.get("units", []), f"{where}.units")):
                self._unit(s, r, _obj(unit, f"{where}.units[{i}]"), f"{where}.units[{i}]", seen)

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
        _known(unit, where, {"nation", "kind", "count", "hostile"})
        n = self._nation(unit.get("nation"), f"{where}.nation")
        kind = unit.get("kind")
        if kind not in ("army", "fleet"):
            raise _fail(f"{where}.kind", f'must be "army" or "fleet", not {_show(kind)}')
        count = _int(unit.get("count", 1), f"{where}.count", 1, 255)
        hostile = unit.get("hostile")
        foreign_home = board.owner[r] not in (NO, n)
        if hostile is not None:
            _bool(hostile, f"{where}.hostile")
            if kind != "army" or not foreign_home:
                raise _fail(
                    f"{where}.hostile",
                    "only armies in another nation's home province are hostile or friendly; "
                    "leave it null here",
                )
        key = (n, kind, (hostile is not False) if foreign_home and kind == "army" else None)
        if key in seen:
            raise _fail(where, f"{NATION_CODES[n]} {kind}s are listed twice in {reg.name}")
        seen.add(key)
        if kind == "army":
            if reg.kind == "sea":
                raise _fail(where, f"armies stand only on land; {reg.name} is a sea")
            s.armies[n][r] += count
            if foreign_home and hostile is False:
                s.friendly[n][r] += count
            return
        if reg.kind == "land":
            raise _fail(where, f"fleets are at sea or in a port; {reg.name} is a land region")
        if reg.kind == "province" and (board.owner[r] != n or board.harbour_sea[r] == NO):
            raise _fail(
                where,
                f"a fleet on land lies in one of its own nation's ports; {reg.name} is not a "
                f"{NATION_CODES[n]} port",
            )
        s.fleets[n][r] += count

    def _limits(self, s: GameState) -> None:
        for n, info in enumerate(s.board.nations):
            code = NATION_CODES[n]
            armies, fleets = sum(s.armies[n]), sum(s.fleets[n])
            if armies > info.armies:
                raise _fail(
                    f"regions ({code} armies)",
                    f"{armies} {code} armies on the board; {code} has only {info.armies}",
                )
            if fleets > info.fleets:
                raise _fail(
                    f"regions ({code} fleets)",
                    f"{fleets} {code} fleets on the board; {code} has only {info.fleets}",
                )
            flags = s.flag.count(n)
            if flags > s.rules.flags_per_nation:
                raise _fail(
                    f"regions ({code} flags)",
                    f"{flags} {code} flags on the board; each nation has "
                    f"{s.rules.flags_per_nation}",
                )

    # -- turn, decision, steps --------------------------------------------------------------
    def _turn_and_decision(self, s: GameState) -> None:
        doc, block = self.doc, self.block
        turn = _obj(doc.get("turn", {"round": 0, "nation": None}), "turn")
        _known(turn, "turn", {"round", "nation"})
        s.round = _int(turn.get("round", 0), "turn.round", 0, MAX_ROUND)
        nation = turn.get("nation")
        s.turn = NO if nation is None else self._nation(nation, "turn.nation")
        s.finished = _bool(doc.get("finished", False), "finished")
        awaiting = doc.get("awaiting")
        if block is not None:
            s.bank = _int(block.get("bank", s.bank), "position.bank", -MAX_MONEY, MAX_MONEY)
            s.ending = _bool(block.get("game_ending", False), "position.game_ending")
            free = _list(block.get("free_invested", []), "position.free_invested")
            s.free_invested = frozenset(
                self._player(p, f"position.free_invested[{i}]", s) for i, p in enumerate(free)
            )
            claims = _obj(block.get("flag_claims", {}), "position.flag_claims")
            for code, name in claims.items():
                n = self._nation(code, f"position.flag_claims.{code}")
                s.flag_claim[n] = self._player(name, f"position.flag_claims.{code}", s)
        if s.rules.bank == "limited" and s.bank < 0:
            raise _fail("position.bank", "a limited bank cannot hold less than 0")
        if s.finished:
            if awaiting is not None:
                raise _fail("awaiting", "must be null when the game is finished")
            s.todo = ()
            return
        if awaiting is None:
            raise _fail("awaiting", "must say who decides what (the game is not finished)")
        aw = _obj(awaiting, "awaiting")
        _known(aw, "awaiting", {"player", "kind", "nation"})
        kind = aw.get("kind")
        if kind not in DECISIONS:
            raise _fail("awaiting.kind", f"must be one of {', '.join(DECISIONS)}, not {_show(kind)}")
        player = self._player(aw.get("player"), "awaiting.player", s)
        anation = aw.get("nation")
        n = NO if anation is None else self._nation(anation, "awaiting.nation")
        s.awaiting_kind, s.awaiting_player, s.awaiting_nation = kind, player, n
        if block is not None and "steps" in block:
            s.todo = self._steps(s, _list(block["steps"], "position.steps"))
        else:
            s.todo = self._default_steps(s, kind)
        decision = block.get("decision") if block is not None else None
        turn_data = block.get("turn_context") if block is not None else None
        s.turn_ctx = self._turn_context(s, turn_data, kind)
        s.ctx = self._decision(s, kind, decision)

    def _steps(self, s: GameState, steps: list[Any]) -> tuple[tuple[Any, ...], ...]:
        out = []
        for i, text in enumerate(steps):
            where = f"position.steps[{i}]"
            if not isinstance(text, str) or not text.split():
                raise _fail(where, f"must be a step such as \"end_turn\", not {_show(text)}")
            name, *words = text.split()
            if name not in STEP_ARGS:
                raise _fail(where, f"no step {name!r} (steps: {', '.join(STEP_ARGS)})")
            kinds = STEP_ARGS[name]
            optional = sum(1 for k in kinds if k.endswith("?"))
            if not len(kinds) - optional <= len(words) <= len(kinds):
                raise _fail(where, f"{name} takes {' '.join(kinds) or 'nothing'}")
            args: list[int] = []
            for k, kind in enumerate(kinds):
                if k >= len(words):
                    args.append(NO)
                elif kind.startswith("nation"):
                    args.append(self._nation(words[k], where))
                else:
                    args.append(self._player(words[k], where, s))
            out.append((name, *args))
        return tuple(out)

    def _default_steps(self, s: GameState, kind: str) -> tuple[tuple[Any, ...], ...]:
        """The steps after a decision taken at the start of what it belongs to; a position in
        the middle of a chain of decisions (battles, bond rounds, Swiss banks) says its steps."""
        if kind == "rondel":
            return ()
        if kind in ("build_factory", "production", "import", "maneuver"):
            return (("end_turn",),)
        if kind == "invest" and s.awaiting_nation == NO and s.rules.uses_investor_card:
            self.card_holder_invests = True  # checked once the investor card is known
            return (("free_investors",), ("government_check", NO), ("pass_card",), ("end_turn",))
        raise _fail(
            "position.steps",
            f"a position awaiting {kind} must give the steps still to come "
            "(print one with `imperial state --json` to see them)",
        )

    def _turn_context(self, s: GameState, data: Any, kind: str) -> Any:
        if data is None:
            if kind in ("maneuver", "battle"):
                if kind == "battle":
                    raise _fail("position.turn_context", "a battle happens during a Maneuver: give it")
                return ManeuverContext()
            if kind == "swiss_bank":
                raise _fail("position.turn_context", "a Swiss bank decision needs the rondel move")
            return None
        where = "position.turn_context"
        data = _obj(data, where)
        tkind = data.get("kind")
        if tkind == "maneuver":
            _known(data, where, {"kind", "armies_phase", "moved_armies", "moved_fleets", "convoy_used"})
            moved: dict[tuple[int, bool], int] = {}
            for i, m in enumerate(_list(data.get("moved_armies", []), f"{where}.moved_armies")):
                mw = f"{where}.moved_armies[{i}]"
                m = _obj(m, mw)
                _known(m, mw, {"region", "friendly", "count"})
                r = self._region(m.get("region"), f"{mw}.region", s)
                key = (r, _bool(m.get("friendly", False), f"{mw}.friendly"))
                moved[key] = _int(m.get("count"), f"{mw}.count", 1, 255)
            fleets = self._counts(s, data.get("moved_fleets", {}), f"{where}.moved_fleets")
            used = self._counts(s, data.get("convoy_used", {}), f"{where}.convoy_used")
            phase = _bool(data.get("armies_phase", False), f"{where}.armies_phase")
            if s.turn == NO:
                raise _fail(where, "a Maneuver needs the nation whose turn it is (turn.nation)")
            n = s.turn
            for (r, f), c in moved.items():
                have = s.friendly[n][r] if f else s.armies[n][r] - s.friendly[n][r]
                if c > have:
                    raise _fail(f"{where}.moved_armies", f"more moved armies than stand in {s.board.id(r)}")
            for r, c in fleets.items():
                if c > s.fleets[n][r]:
                    raise _fail(f"{where}.moved_fleets", f"more moved fleets than lie in {s.board.id(r)}")
            for r, c in used.items():
                if c > s.fleets[n][r]:
                    raise _fail(f"{where}.convoy_used", f"more carrying fleets than lie in {s.board.id(r)}")
            return ManeuverContext(moved, fleets, used, phase)
        if tkind == "rondel_move":
            _known(data, where, {"kind", "origin", "target", "queue"})
            spaces = {sp: i for i, sp in enumerate(RONDEL_SPACES)}
            origin, target = data.get("origin"), data.get("target")
            if origin not in spaces:
                raise _fail(f"{where}.origin", f"must be a rondel space, not {_show(origin)}")
            if target not in spaces:
                raise _fail(f"{where}.target", f"must be a rondel space, not {_show(target)}")
            queue = tuple(
                self._player(p, f"{where}.queue[{i}]", s)
                for i, p in enumerate(_list(data.get("queue", []), f"{where}.queue"))
            )
            if not queue:
                raise _fail(f"{where}.queue", "names the Swiss bank holders still to be asked")
            return PendingMove(spaces[origin], spaces[target], queue)
        raise _fail(f"{where}.kind", f'must be "maneuver" or "rondel_move", not {_show(tkind)}')

    def _counts(self, s: GameState, value: Any, where: str) -> dict[int, int]:
        out = {}
        for rid, count in _obj(value, where).items():
            r = self._region(rid, f"{where}.{rid}", s)
            out[r] = _int(count, f"{where}.{rid}", 1, 255)
        return out

    def _decision(self, s: GameState, kind: str, data: Any) -> Any:
        where = "position.decision"
        if kind in ("rondel", "build_factory", "maneuver"):
            if data is not None:
                raise _fail(where, f"must be null for a {kind} decision")
            return None
        if kind == "swiss_bank":
            if data is not None:
                raise _fail(where, "must be null: the Swiss bank's move is in turn_context")
            if not isinstance(s.turn_ctx, PendingMove):
                raise _fail("position.turn_context", "a Swiss bank decision needs the rondel move")
            return s.turn_ctx
        if kind == "production":
            n = s.turn
            if data is None:
                pending = tuple(r for r in s.factories_of(n) if not s.occupied(r)) if n != NO else ()
                return ProductionContext(pending)
            data = _obj(data, where)
            _known(data, where, {"pending"})
            pending = tuple(
                self._region(r, f"{where}.pending[{i}]", s)
                for i, r in enumerate(_list(data.get("pending", []), f"{where}.pending"))
            )
            for r in pending:
                if n == NO or not s.factory[r] or s.board.owner[r] != n:
                    raise _fail(f"{where}.pending", f"{s.board.id(r)} is not a factory of the nation producing")
            return ProductionContext(pending)
        if kind == "import":
            if data is None:
                return ImportContext()
            data = _obj(data, where)
            _known(data, where, {"imported"})
            return ImportContext(_int(data.get("imported", 0), f"{where}.imported", 0, 2))
        if kind == "battle":
            if data is None:
                raise _fail(where, "a battle decision needs its region, unit and nations to ask")
            data = _obj(data, where)
            _known(data, where, {"region", "unit", "friendly", "asking", "any_unit", "fought"})
            r = self._region(data.get("region"), f"{where}.region", s)
            unit = data.get("unit")
            if unit not in ("army", "fleet"):
                raise _fail(f"{where}.unit", f'must be "army" or "fleet", not {_show(unit)}')
            asking = tuple(
                self._nation(m, f"{where}.asking[{i}]")
                for i, m in enumerate(_list(data.get("asking"), f"{where}.asking"))
            )
            if not asking:
                raise _fail(f"{where}.asking", "names the nations still to be asked, first the one asked now")
            return BattleContext(
                r,
                unit,
                _bool(data.get("friendly", False), f"{where}.friendly"),
                asking,
                _bool(data.get("any_unit", False), f"{where}.any_unit"),
                _bool(data.get("fought", False), f"{where}.fought"),
            )
        # invest, bond_choice
        if data is None:
            if kind == "invest" and s.awaiting_nation == NO:
                return InvestContext(ALL)
            raise _fail(where, f"a {kind} decision needs its nations and the players still to invest")
        data = _obj(data, where)
        _known(data, where, {"nations", "queue", "auction", "free_round"})
        nations = tuple(
            self._nation(m, f"{where}.nations[{i}]")
            for i, m in enumerate(_list(data.get("nations"), f"{where}.nations"))
        )
        queue = tuple(
            self._player(p, f"{where}.queue[{i}]", s)
            for i, p in enumerate(_list(data.get("queue", []), f"{where}.queue"))
        )
        if not nations:
            raise _fail(f"{where}.nations", "names the nations the player may invest in")
        return InvestContext(
            nations,
            queue,
            _bool(data.get("auction", False), f"{where}.auction"),
            _bool(data.get("free_round", False), f"{where}.free_round"),
        )

    def _check_decider(self, s: GameState, kind: str) -> None:
        """The player and nation of ``awaiting`` must be the ones the rules ask."""
        n, p = s.awaiting_nation, s.awaiting_player
        code = NATION_CODES[n] if n != NO else None
        if kind in NATION_DECISIONS or kind == "swiss_bank":
            if s.turn == NO:
                raise _fail("turn.nation", f"a {kind} decision needs the nation whose turn it is")
            if n != s.turn:
                raise _fail(
                    "awaiting.nation",
                    f"must be {NATION_CODES[s.turn]}, whose turn it is, not {code}",
                )
        if kind == "battle":
            asking = s.ctx.asking
            if n != asking[0]:
                raise _fail("awaiting.nation", f"must be {NATION_CODES[asking[0]]}, the nation asked first")
        if kind in NATION_DECISIONS or kind == "battle":
            governor = s.government[n] if n != NO else NO
            if governor == NO:
                raise _fail(f"nations.{code}.governor", f"{code} decides {kind}: name its governor")
            if governor != p:
                raise _fail(
                    "awaiting.player",
                    f"{code}'s governor {s.players[governor]} decides for it, not {s.players[p]}",
                )
        space = s.rondel[s.turn] if s.turn != NO else NO
        if kind in ("build_factory", "production", "import", "maneuver"):
            wanted = [i for i, sp in enumerate(RONDEL_SPACES) if sp.rstrip("12") == kind.removeprefix("build_")]
            if space not in wanted:
                where = f"nations.{NATION_CODES[s.turn]}.rondel"
                raise _fail(
                    where,
                    f"{NATION_CODES[s.turn]} decides {kind}, so it stands on "
                    f"{' or '.join(RONDEL_SPACES[i] for i in wanted)}, not "
                    f"{RONDEL_SPACES[space] if space != NO else 'nothing'}",
                )
        if kind == "swiss_bank":
            pm: PendingMove = s.turn_ctx
            if space != pm.origin:
                raise _fail("position.turn_context.origin", "must be where the nation stands on the rondel")
            if pm.queue[0] != p:
                raise _fail("awaiting.player", "must be the first Swiss bank holder of turn_context.queue")
        if kind in ("invest", "bond_choice"):
            if kind == "bond_choice" and n == NO:
                raise _fail("awaiting.nation", "a bond choice is about one nation's bonds")
            if n != NO and n not in s.ctx.nations:
                raise _fail("awaiting.nation", f"{code} is not among position.decision.nations")

    # -- governments and the investor card --------------------------------------------------
    def _governments(self, s: GameState) -> None:
        pending_check = s.awaiting_kind in ("invest", "bond_choice") or any(
            step[0] in ("government_check", "auction") for step in s.todo
        )
        for n, code in enumerate(NATION_CODES):
            credits = [s.credit(p, n) for p in range(len(s.players))]
            best = max(credits)
            if n in self.governors:
                gov = self.governors[n]
            elif best > 0:
                holders = [s.players[p] for p, c in enumerate(credits) if c == best]
                if len(holders) > 1:
                    raise _fail(
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
                raise _fail(
                    f"nations.{code}.governor",
                    f"{s.players[gov]} holds {credits[gov]}M of {code} bonds but {top} holds "
                    f"{best}M; the player with the most credit governs",
                )
            if s.flag_claim[n] != NO and gov is not None:
                raise _fail(f"position.flag_claims.{code}", f"{code} already has a government")
        # An ungoverned nation goes to the first player who grants it a bond of at least this:
        # the set-up rule's value (every bond in the experienced variant).
        undealt = s.rules.unassigned_flag_min_bond if s.rules.variant != "experienced" else 2
        s.flag_min_bond = [2 if g != NO else undealt for g in s.government]
        for i, entry in enumerate(self.doc["players"]):
            if "governs" not in entry:
                continue
            governs = _list(entry["governs"], f"players[{i}].governs")
            actual = [NATION_CODES[n] for n in s.governs(i)]
            if sorted(map(str, governs)) != sorted(actual):
                raise _fail(
                    f"players[{i}].governs",
                    f"says {' '.join(map(str, governs)) or 'nothing'} but the nations' governors "
                    f"make it {' '.join(actual) or 'nothing'}; change both or leave it out",
                )

    def _investor_card(self, s: GameState) -> None:
        holders = [i for i, e in enumerate(self.doc["players"]) if e.get("investor_card", False)]
        for i, e in enumerate(self.doc["players"]):
            if "investor_card" in e:
                _bool(e["investor_card"], f"players[{i}].investor_card")
        setting_up = any(step[0] == "setup_done" for step in s.todo)
        if not s.rules.uses_investor_card or setting_up:
            if holders:
                why = "the set-up is not over" if setting_up else "this variant has no investor card"
                raise _fail(f"players[{holders[0]}].investor_card", f"must be false: {why}")
            s.investor_card = NO
            return
        if len(holders) > 1:
            raise _fail(f"players[{holders[1]}].investor_card", "only one player holds the investor card")
        if holders:
            s.investor_card = holders[0]
        else:
            place_investor_card(s)  # as at the set-up: left of the first government
        if self.card_holder_invests and s.awaiting_player != s.investor_card:
            raise _fail(
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
            raise _fail(
                "awaiting", f"the rules cannot go on from this position ({type(exc).__name__}: {exc})"
            ) from None
        if not actions:
            raise _fail("awaiting", f"{s.players[s.awaiting_player]} would have nothing to choose")
        if s.awaiting_kind == "production" and not _producible(s, s.turn, s.ctx.pending):
            raise _fail("position.decision.pending", "no factory left that can produce")
