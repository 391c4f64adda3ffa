"""Reading a position's turn: whose decision it is, the steps still to come this turn, the
decision's own data and the turn's (the Maneuver so far, a rondel move the Swiss banks are
asked about, a move waiting for a canal's answer), and whether the player and nation deciding
are the ones the rules ask."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.actions import RONDEL_SPACES, MoveArmy, MoveFleet, NotationError, parse_action
from rules.canals import CANAL, CanalRequest
from rules.decisions import SPACE_OF, Decision, decision_named
from rules.economy import ImportContext, ProductionContext
from rules.investing import ALL, InvestContext
from rules.maneuver import BattleContext, ManeuverContext
from rules.position_fields import (
    bool_field,
    fail,
    int_field,
    known_fields,
    list_field,
    nation_field,
    obj_field,
    player_field,
    region_field,
    show,
)
from rules.rondel import PendingMove
from rules.state import NO, GameState

MAX_MONEY = 1_000_000  # far beyond any game (the bank holds 380M), far below trouble
MAX_ROUND = 10_000
# Decisions that a nation's government takes for the nation whose turn it is.
NATION_DECISIONS = (
    Decision.RONDEL,
    Decision.BUILD_FACTORY,
    Decision.PRODUCE,
    Decision.IMPORT,
    Decision.MANEUVER,
)
DECISIONS = (
    *NATION_DECISIONS,
    Decision.SWISS_BANK,
    Decision.BATTLE,
    Decision.CANAL,
    Decision.INVEST,
    Decision.BOND_CHOICE,
)
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


class TurnReader:
    """Reads ``turn``, ``finished``, ``awaiting`` and the turn's part of the ``position``
    block into a state whose players, nations and board are already read."""

    def __init__(self, doc: Mapping[str, Any], block: Mapping[str, Any] | None) -> None:
        self.doc = doc
        self.block = block
        self.card_holder_invests = False  # checked once the investor card is known

    def read(self, s: GameState) -> None:
        self._turn_and_decision(s)

    # -- turn, decision, steps --------------------------------------------------------------
    def _turn_and_decision(self, s: GameState) -> None:
        doc, block = self.doc, self.block
        turn = obj_field(doc.get("turn", {"round": 0, "nation": None}), "turn")
        known_fields(turn, "turn", {"round", "nation"})
        s.round = int_field(turn.get("round", 0), "turn.round", 0, MAX_ROUND)
        nation = turn.get("nation")
        s.turn = NO if nation is None else nation_field(nation, "turn.nation", s.board.codes)
        s.finished = bool_field(doc.get("finished", False), "finished")
        awaiting = doc.get("awaiting")
        if block is not None:
            s.bank = int_field(block.get("bank", s.bank), "position.bank", -MAX_MONEY, MAX_MONEY)
            s.ending = bool_field(block.get("game_ending", False), "position.game_ending")
            free = list_field(block.get("free_invested", []), "position.free_invested")
            s.free_invested = frozenset(
                player_field(p, f"position.free_invested[{i}]", s) for i, p in enumerate(free)
            )
            claims = obj_field(block.get("flag_claims", {}), "position.flag_claims")
            for code, name in claims.items():
                n = nation_field(code, f"position.flag_claims.{code}", s.board.codes)
                s.flag_claim[n] = player_field(name, f"position.flag_claims.{code}", s)
        if s.rules.bank == "limited" and s.bank < 0:
            raise fail("position.bank", "a limited bank cannot hold less than 0")
        if s.finished:
            if awaiting is not None:
                raise fail("awaiting", "must be null when the game is finished")
            s.todo = ()
            return
        if awaiting is None:
            raise fail("awaiting", "must say who decides what (the game is not finished)")
        aw = obj_field(awaiting, "awaiting")
        known_fields(aw, "awaiting", {"player", "kind", "nation"})
        kind = decision_named(aw.get("kind"))
        if kind not in DECISIONS:
            raise fail(
                "awaiting.kind",
                f"must be one of {', '.join(DECISIONS)}, not {show(aw.get('kind'))}",
            )
        player = player_field(aw.get("player"), "awaiting.player", s)
        anation = aw.get("nation")
        n = NO if anation is None else nation_field(anation, "awaiting.nation", s.board.codes)
        s.awaiting_kind, s.awaiting_player, s.awaiting_nation = kind, player, n
        if block is not None and "steps" in block:
            s.todo = self._steps(s, list_field(block["steps"], "position.steps"))
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
                raise fail(where, f'must be a step such as "end_turn", not {show(text)}')
            name, *words = text.split()
            if name not in STEP_ARGS:
                raise fail(where, f"no step {name!r} (steps: {', '.join(STEP_ARGS)})")
            kinds = STEP_ARGS[name]
            optional = sum(1 for k in kinds if k.endswith("?"))
            if not len(kinds) - optional <= len(words) <= len(kinds):
                raise fail(where, f"{name} takes {' '.join(kinds) or 'nothing'}")
            args: list[int] = []
            for k, kind in enumerate(kinds):
                if k >= len(words):
                    args.append(NO)
                elif kind.startswith("nation"):
                    args.append(nation_field(words[k], where, s.board.codes))
                else:
                    args.append(player_field(words[k], where, s))
            out.append((name, *args))
        return tuple(out)

    def _default_steps(self, s: GameState, kind: str) -> tuple[tuple[Any, ...], ...]:
        """The steps after a decision taken at the start of what it belongs to; a position in
        the middle of a chain of decisions (battles, bond rounds, Swiss banks) says its steps."""
        if kind == Decision.RONDEL:
            return ()
        if kind in (
            Decision.BUILD_FACTORY,
            Decision.PRODUCE,
            Decision.IMPORT,
            Decision.MANEUVER,
            CANAL,
        ):
            return (("end_turn",),)
        if kind == Decision.INVEST and s.awaiting_nation == NO and s.rules.uses_investor_card:
            self.card_holder_invests = True  # checked once the investor card is known
            return (("free_investors",), ("government_check", NO), ("pass_card",), ("end_turn",))
        raise fail(
            "position.steps",
            f"a position awaiting {kind} must give the steps still to come "
            "(print one with `imperial state --json` to see them)",
        )

    def _turn_context(self, s: GameState, data: Any, kind: str) -> Any:
        if data is None:
            if kind in (Decision.MANEUVER, Decision.BATTLE, CANAL):
                if kind == Decision.BATTLE:
                    raise fail(
                        "position.turn_context", "a battle happens during a Maneuver: give it"
                    )
                return ManeuverContext()
            if kind == Decision.SWISS_BANK:
                raise fail("position.turn_context", "a Swiss bank decision needs the rondel move")
            return None
        where = "position.turn_context"
        data = obj_field(data, where)
        tkind = data.get("kind")
        if tkind == "maneuver":  # the turn context of a Maneuver (not a decision)
            known_fields(
                data,
                where,
                {
                    "kind",
                    "armies_phase",
                    "moved_armies",
                    "moved_fleets",
                    "convoy_used",
                    "canal_refused",
                },
            )
            moved: dict[tuple[int, bool], int] = {}
            for i, m in enumerate(
                list_field(data.get("moved_armies", []), f"{where}.moved_armies")
            ):
                mw = f"{where}.moved_armies[{i}]"
                m = obj_field(m, mw)
                known_fields(m, mw, {"region", "friendly", "count"})
                r = region_field(m.get("region"), f"{mw}.region", s)
                key = (r, bool_field(m.get("friendly", False), f"{mw}.friendly"))
                moved[key] = int_field(m.get("count"), f"{mw}.count", 1, 255)
            fleets = self._counts(s, data.get("moved_fleets", {}), f"{where}.moved_fleets")
            used = self._counts(s, data.get("convoy_used", {}), f"{where}.convoy_used")
            phase = bool_field(data.get("armies_phase", False), f"{where}.armies_phase")
            if s.turn == NO:
                raise fail(where, "a Maneuver needs the nation whose turn it is (turn.nation)")
            n = s.turn
            for (r, f), c in moved.items():
                have = s.friendly[n][r] if f else s.armies[n][r] - s.friendly[n][r]
                if c > have:
                    raise fail(
                        f"{where}.moved_armies", f"more moved armies than stand in {s.board.id(r)}"
                    )
            for r, c in fleets.items():
                if c > s.fleets[n][r]:
                    raise fail(
                        f"{where}.moved_fleets", f"more moved fleets than lie in {s.board.id(r)}"
                    )
            for r, c in used.items():
                if c > s.fleets[n][r]:
                    raise fail(
                        f"{where}.convoy_used", f"more carrying fleets than lie in {s.board.id(r)}"
                    )
            refused = self._refusals(s, data.get("canal_refused", []), f"{where}.canal_refused")
            return ManeuverContext(moved, fleets, used, phase, refused)
        if tkind == "rondel_move":
            known_fields(data, where, {"kind", "origin", "target", "queue"})
            spaces = {sp: i for i, sp in enumerate(RONDEL_SPACES)}
            origin, target = data.get("origin"), data.get("target")
            if origin not in spaces:
                raise fail(f"{where}.origin", f"must be a rondel space, not {show(origin)}")
            if target not in spaces:
                raise fail(f"{where}.target", f"must be a rondel space, not {show(target)}")
            queue = tuple(
                player_field(p, f"{where}.queue[{i}]", s)
                for i, p in enumerate(list_field(data.get("queue", []), f"{where}.queue"))
            )
            if not queue:
                raise fail(f"{where}.queue", "names the Swiss bank holders still to be asked")
            return PendingMove(spaces[origin], spaces[target], queue)
        raise fail(f"{where}.kind", f'must be "maneuver" or "rondel_move", not {show(tkind)}')

    def _refusals(self, s: GameState, value: Any, where: str) -> dict:
        """Imperial 2030: the units refused passage through a canal this Maneuver."""
        out: dict[tuple[int, str, int, int], int] = {}
        ids = {canal.id: i for i, canal in enumerate(s.board.canals)}
        for i, entry in enumerate(list_field(value, where)):
            ew = f"{where}[{i}]"
            entry = obj_field(entry, ew)
            known_fields(entry, ew, {"region", "unit", "canal", "asked", "count"})
            r = region_field(entry.get("region"), f"{ew}.region", s)
            unit = entry.get("unit")
            if unit not in ("army", "fleet"):
                raise fail(f"{ew}.unit", f'must be "army" or "fleet", not {show(unit)}')
            canal = entry.get("canal")
            if canal not in ids:
                raise fail(f"{ew}.canal", f"no canal {show(canal)} on this map")
            m = nation_field(entry.get("asked"), f"{ew}.asked", s.board.codes)
            out[(r, unit, ids[canal], m)] = int_field(entry.get("count", 1), f"{ew}.count", 1, 255)
        return out

    def _counts(self, s: GameState, value: Any, where: str) -> dict[int, int]:
        out = {}
        for rid, count in obj_field(value, where).items():
            r = region_field(rid, f"{where}.{rid}", s)
            out[r] = int_field(count, f"{where}.{rid}", 1, 255)
        return out

    def _decision(self, s: GameState, kind: str, data: Any) -> Any:
        where = "position.decision"
        if kind in (Decision.RONDEL, Decision.BUILD_FACTORY, Decision.MANEUVER):
            if data is not None:
                raise fail(where, f"must be null for a {kind} decision")
            return None
        if kind == Decision.SWISS_BANK:
            if data is not None:
                raise fail(where, "must be null: the Swiss bank's move is in turn_context")
            if not isinstance(s.turn_ctx, PendingMove):
                raise fail("position.turn_context", "a Swiss bank decision needs the rondel move")
            return s.turn_ctx
        if kind == Decision.PRODUCE:
            n = s.turn
            if data is None:
                pending = (
                    tuple(r for r in s.factories_of(n) if not s.occupied(r)) if n != NO else ()
                )
                return ProductionContext(pending)
            data = obj_field(data, where)
            known_fields(data, where, {"pending"})
            pending = tuple(
                region_field(r, f"{where}.pending[{i}]", s)
                for i, r in enumerate(list_field(data.get("pending", []), f"{where}.pending"))
            )
            for r in pending:
                if n == NO or not s.factory[r] or s.board.owner[r] != n:
                    raise fail(
                        f"{where}.pending",
                        f"{s.board.id(r)} is not a factory of the nation producing",
                    )
            return ProductionContext(pending)
        if kind == Decision.IMPORT:
            if data is None:
                return ImportContext()
            data = obj_field(data, where)
            known_fields(data, where, {"imported"})
            return ImportContext(int_field(data.get("imported", 0), f"{where}.imported", 0, 2))
        if kind == CANAL:
            return self._canal(s, data, where)
        if kind == Decision.BATTLE:
            if data is None:
                raise fail(where, "a battle decision needs its region, unit and nations to ask")
            data = obj_field(data, where)
            known_fields(
                data,
                where,
                {"region", "unit", "friendly", "asking", "any_unit", "fought", "switched"},
            )
            r = region_field(data.get("region"), f"{where}.region", s)
            unit = data.get("unit")
            if unit not in ("army", "fleet"):
                raise fail(f"{where}.unit", f'must be "army" or "fleet", not {show(unit)}')
            asking = tuple(
                nation_field(m, f"{where}.asking[{i}]", s.board.codes)
                for i, m in enumerate(list_field(data.get("asking"), f"{where}.asking"))
            )
            if not asking:
                raise fail(
                    f"{where}.asking",
                    "names the nations still to be asked, first the one asked now",
                )
            return BattleContext(
                r,
                unit,
                bool_field(data.get("friendly", False), f"{where}.friendly"),
                asking,
                bool_field(data.get("any_unit", False), f"{where}.any_unit"),
                bool_field(data.get("fought", False), f"{where}.fought"),
                bool_field(data.get("switched", False), f"{where}.switched"),
            )
        # invest, bond_choice
        if data is None:
            if kind == Decision.INVEST and s.awaiting_nation == NO:
                return InvestContext(ALL)
            raise fail(
                where, f"a {kind} decision needs its nations and the players still to invest"
            )
        data = obj_field(data, where)
        known_fields(data, where, {"nations", "queue", "auction", "free_round"})
        nations = tuple(
            nation_field(m, f"{where}.nations[{i}]", s.board.codes)
            for i, m in enumerate(list_field(data.get("nations"), f"{where}.nations"))
        )
        queue = tuple(
            player_field(p, f"{where}.queue[{i}]", s)
            for i, p in enumerate(list_field(data.get("queue", []), f"{where}.queue"))
        )
        if not nations:
            raise fail(f"{where}.nations", "names the nations the player may invest in")
        return InvestContext(
            nations,
            queue,
            bool_field(data.get("auction", False), f"{where}.auction"),
            bool_field(data.get("free_round", False), f"{where}.free_round"),
        )

    def _canal(self, s: GameState, data: Any, where: str) -> CanalRequest:
        """A move waiting for the canal controllers' answers (Imperial 2030)."""
        if data is None:
            raise fail(where, "a canal decision needs the move asked for and the canals to ask")
        data = obj_field(data, where)
        known_fields(data, where, {"move", "asking"})
        try:
            move = parse_action(data.get("move"))
        except NotationError as exc:
            raise fail(f"{where}.move", str(exc)) from None
        if not isinstance(move, MoveFleet | MoveArmy):
            raise fail(f"{where}.move", "must be a fleet or army move in notation")
        if s.turn == NO or move.nation != s.board.codes[s.turn]:
            raise fail(f"{where}.move", "must be a move of the nation whose turn it is")
        ids = {canal.id: i for i, canal in enumerate(s.board.canals)}
        asking = []
        for i, entry in enumerate(list_field(data.get("asking"), f"{where}.asking")):
            ew = f"{where}.asking[{i}]"
            entry = obj_field(entry, ew)
            known_fields(entry, ew, {"canal", "nation"})
            if entry.get("canal") not in ids:
                raise fail(f"{ew}.canal", f"no canal {show(entry.get('canal'))} on this map")
            m = nation_field(entry.get("nation"), f"{ew}.nation", s.board.codes)
            asking.append((ids[entry["canal"]], m))
        if not asking:
            raise fail(f"{where}.asking", "names the canals still to answer, the one asked first")
        return CanalRequest(move, tuple(asking))

    def check_decider(self, s: GameState, kind: str) -> None:
        """The player and nation of ``awaiting`` must be the ones the rules ask."""
        n, p = s.awaiting_nation, s.awaiting_player
        code = s.board.codes[n] if n != NO else None
        if kind in NATION_DECISIONS or kind == Decision.SWISS_BANK:
            if s.turn == NO:
                raise fail("turn.nation", f"a {kind} decision needs the nation whose turn it is")
            if n != s.turn:
                raise fail(
                    "awaiting.nation",
                    f"must be {s.board.codes[s.turn]}, whose turn it is, not {code}",
                )
        if kind == Decision.BATTLE:
            asking = s.ctx.asking
            if n != asking[0]:
                raise fail(
                    "awaiting.nation", f"must be {s.board.codes[asking[0]]}, the nation asked first"
                )
        if kind == CANAL:
            if s.turn == NO:
                raise fail("turn.nation", "a canal decision needs the nation whose turn it is")
            asked = s.ctx.asking[0][1]
            if n != asked:
                raise fail(
                    "awaiting.nation", f"must be {s.board.codes[asked]}, the nation asked first"
                )
        if kind in NATION_DECISIONS or kind in (Decision.BATTLE, CANAL):
            governor = s.government[n] if n != NO else NO
            if governor == NO:
                raise fail(f"nations.{code}.governor", f"{code} decides {kind}: name its governor")
            if governor != p:
                raise fail(
                    "awaiting.player",
                    f"{code}'s governor {s.players[governor]} decides for it, not {s.players[p]}",
                )
        space = s.rondel[s.turn] if s.turn != NO else NO
        if kind in (Decision.BUILD_FACTORY, Decision.PRODUCE, Decision.IMPORT, Decision.MANEUVER):
            wanted = [i for i, sp in enumerate(RONDEL_SPACES) if sp.rstrip("12") == SPACE_OF[kind]]
            if space not in wanted:
                where = f"nations.{s.board.codes[s.turn]}.rondel"
                raise fail(
                    where,
                    f"{s.board.codes[s.turn]} decides {kind}, so it stands on "
                    f"{' or '.join(RONDEL_SPACES[i] for i in wanted)}, not "
                    f"{RONDEL_SPACES[space] if space != NO else 'nothing'}",
                )
        if kind == Decision.SWISS_BANK:
            pm: PendingMove = s.turn_ctx
            if space != pm.origin:
                raise fail(
                    "position.turn_context.origin", "must be where the nation stands on the rondel"
                )
            if pm.queue[0] != p:
                raise fail(
                    "awaiting.player", "must be the first Swiss bank holder of turn_context.queue"
                )
        if kind in (Decision.INVEST, Decision.BOND_CHOICE):
            if kind == Decision.BOND_CHOICE and n == NO:
                raise fail("awaiting.nation", "a bond choice is about one nation's bonds")
            if n != NO and n not in s.ctx.nations:
                raise fail("awaiting.nation", f"{code} is not among position.decision.nations")
