"""The short, hand-written form of a position (docs/POSITIONS.md): a small TOML file read with
the standard library's ``tomllib``, turned into the position document of docs/STATE.md that
``rules.position`` checks. Only what differs from an empty board needs writing::

    players = ["Anna", "Ben"]
    to_move = "GE maneuver"

    [Anna]
    bonds = ["GE 9"]

    [Ben]
    bonds = ["GB 9"]

    [GE]
    armies = { cologne = 2, holland = 1 }

    [GB]
    fleets = { north_sea = 1 }

Everything left out takes the value of a fresh board: factories on the starting cities, no
units, no flags, no money, nations on no rondel space, the investor card beside the first
nation's government, round 1. ``game = "2030"`` sets the position on the world board of
Imperial 2030 (nations RU CN IN BR US EU). Errors name the key (``GE.armies.colonge: no
region ...``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from rules.actions import RONDEL_SPACES
from rules.decisions import OLD_WORDS, SPACE_OF, Decision
from rules.errors import SetupError
from rules.game import Game
from rules.games import GAMES, game_info
from rules.position import STATE_FORMAT, PositionError
from rules.position_decision import NATION_DECISIONS
from rules.position_toml import load_short_toml
from rules.ruleset import RuleSet
from rules.safe_file import MAX_BYTES, FileProblem, read_regular
from rules.setup import board_for, check_players

TOP_KEYS = {
    "players",
    "game",
    "edition",
    "variant",
    "options",
    "round",
    "to_move",
    "turn",
    "investor_card",
    "bank",
    "game_ending",
}
NATION_KEYS = {
    "governor",
    "treasury",
    "power",
    "tax",
    "rondel",
    "factories",
    "armies",
    "friendly_armies",
    "fleets",
    "flags",
}
PLAYER_KEYS = {"cash", "bonds"}
# ``to_move`` words: the nation decisions, and a player's investment on the Investor space
TO_MOVE = (*NATION_DECISIONS, Decision.INVEST)


def read_position_file(path: Path) -> dict[str, Any]:
    """A position file (the JSON of ``imperial state --json`` or the short form), or ``-``
    for standard input, as the document ``rules.position.read_position`` reads. Raises
    PositionError (a one-line message)."""
    return read_position_text(position_source(path))


def position_source(path: Path) -> str:
    """The text of a position file, or of standard input for ``-``: at most MAX_BYTES of
    UTF-8, like a save file; more is refused, never cut (what follows would be lost)."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        raw: bytes | str = stream.read(MAX_BYTES + 1) if stream else sys.stdin.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise PositionError(
                f"is more than {MAX_BYTES} bytes, too big for a position (at most {MAX_BYTES})"
            )
        where = "standard input"
    else:
        try:
            raw = read_regular(path)
        except FileProblem as exc:
            raise PositionError(f"{path}: {exc}") from None
        where = str(path)
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PositionError(f"{where}: not UTF-8 text") from None


def is_json_text(text: str) -> bool:
    """A position in the JSON form starts with ``{``; anything else is read as the short form."""
    return text.lstrip().startswith("{")


def read_position_text(text: str) -> dict[str, Any]:
    """JSON when the text starts with ``{``, else the short TOML form."""
    if is_json_text(text):
        from rules.savefile import SaveError, parse_json

        try:
            return parse_json(text, "position")
        except SaveError as exc:
            raise PositionError(str(exc).removeprefix("position: ")) from None
    return short_form_document(load_short_toml(text))


def _fail(where: str, message: str) -> PositionError:
    return PositionError(f"{where}: {message}")


def _show(value: Any) -> str:
    from rules.savefile import printable

    return printable(json.dumps(value, default=str, ensure_ascii=False), 40)


def short_form_document(short: dict[str, Any]) -> dict[str, Any]:
    """The position document a short form describes; ``rules.position`` checks the rest."""
    players = short.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _fail("players", 'must list the players in seating order: ["Anna", "Ben"]')
    game = short.get("game", "imperial")
    if game not in GAMES:
        raise _fail("game", f"must be one of {', '.join(GAMES)}, not {_show(game)}")
    codes = game_info(game).nations
    try:
        check_players(players, game)
    except SetupError as exc:
        raise _fail("players", str(exc)) from None
    for key, value in short.items():
        if key in TOP_KEYS or key in codes or key in players:
            continue
        what = "table" if isinstance(value, dict) else "key"
        raise _fail(
            _key(key),
            f"unknown {what}: not a setting ({', '.join(sorted(TOP_KEYS))}), a nation "
            f"({' '.join(codes)}) or a player ({', '.join(players)})",
        )
    edition = short.get("edition", game_info(game).editions[0])
    variant = short.get("variant", "standard")
    options = short.get("options", {})
    if not isinstance(options, dict):
        raise _fail("options", 'must be a table: options = { bank = "limited" }')
    try:
        rules = RuleSet.preset(edition, variant, game).with_options(**options)
    except (ValueError, TypeError) as exc:
        raise _fail("options" if options else "edition", str(exc)) from None
    board = board_for(rules)

    doc_players = [_player(short.get(p, {}), p) for p in players]
    nations: dict[str, Any] = {}
    regions: dict[str, Any] = {
        r.id: {"factory": r.factory_type if r.starting_factory else None, "flag": None, "units": []}
        for r in board.regions
    }
    for code in codes:
        table = short.get(code, {})
        if not isinstance(table, dict):
            raise _fail(code, f"must be a table: [{code}]")
        nations[code] = _nation(table, code, regions, board)
    round_ = short.get("round", 1)
    doc: dict[str, Any] = {"format": STATE_FORMAT}
    if game != "imperial":
        doc["game"] = game
    doc |= {
        "edition": edition,
        "variant": variant,
        "players": doc_players,
        "nations": nations,
        "regions": regions,
        "turn": {"round": round_, "nation": None},
        "awaiting": None,
        "finished": False,
        "position": {
            "version": 1,
            "options": rules.options(),
            "game_ending": short.get("game_ending", False),
        },
    }
    if "bank" in short:
        doc["position"]["bank"] = short["bank"]
    holder = short.get("investor_card")
    if holder is not None:
        if holder not in players:
            raise _fail("investor_card", f"must be a player, not {_show(holder)}")
        doc_players[players.index(holder)]["investor_card"] = True
    _to_move(short, doc, players)
    return doc


def _player(table: Any, name: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _fail(name, f"must be a table: [{name}]")
    for key in table:
        if key not in PLAYER_KEYS:
            raise _fail(
                f"{name}.{_key(key)}", f"unknown key (keys: {', '.join(sorted(PLAYER_KEYS))})"
            )
    bonds = []
    raw = table.get("bonds", [])
    if not isinstance(raw, list):
        raise _fail(f"{name}.bonds", 'must be a list such as ["GE 9", "IT 4"]')
    for i, text in enumerate(raw):
        words = text.split() if isinstance(text, str) else []
        if len(words) != 2 or not words[1].isdigit():
            raise _fail(
                f"{name}.bonds[{i}]", f'must be a nation and a value, "GE 9", not {_show(text)}'
            )
        bonds.append({"nation": words[0].upper(), "value": int(words[1])})
    return {"name": name, "cash": table.get("cash", 0), "bonds": bonds}


def _nation(
    table: dict[str, Any], code: str, regions: dict[str, Any], board: Any
) -> dict[str, Any]:
    for key in table:
        if key not in NATION_KEYS:
            raise _fail(
                f"{code}.{_key(key)}", f"unknown key (keys: {', '.join(sorted(NATION_KEYS))})"
            )
    nation: dict[str, Any] = {
        "treasury": table.get("treasury", 0),
        "power": table.get("power", 0),
        "tax_level": table.get("tax", 5),
        "rondel": table.get("rondel"),
    }
    if "governor" in table:
        nation["governor"] = table["governor"]
    if "factories" in table:
        _factories(table["factories"], code, regions, board)
    for key, kind, hostile in (
        ("armies", "army", None),
        ("friendly_armies", "army", False),
        ("fleets", "fleet", None),
    ):
        units = table.get(key, {})
        if isinstance(units, list):
            units = _unit_list(units, f"{code}.{key}")
        if not isinstance(units, dict):
            raise _fail(f"{code}.{key}", "must be a table of region = count: { cologne = 2 }")
        for rid, count in units.items():
            if rid not in regions:
                raise _fail(f"{code}.{key}.{_key(rid)}", "no such region on the map")
            entry: dict[str, Any] = {"nation": code, "kind": kind, "count": count}
            if hostile is False:
                entry["hostile"] = False
            regions[rid]["units"].append(entry)
    flags = table.get("flags", [])
    if not isinstance(flags, list):
        raise _fail(f"{code}.flags", 'must list regions: ["holland", "north_sea"]')
    for i, rid in enumerate(flags):
        if not isinstance(rid, str) or rid not in regions:
            raise _fail(f"{code}.flags[{i}]", f"no region {_show(rid)} on the map")
        there = regions[rid]["flag"]
        if there == code:
            raise _fail(
                f"{code}.flags[{i}]", f"{_show(rid)} is listed twice; a region holds one flag"
            )
        if there is not None:
            raise _fail(
                f"{code}.flags[{i}]",
                f"{_show(rid)} already holds {there}'s flag ({there}.flags); a region holds one "
                "flag",
            )
        regions[rid]["flag"] = code
    return nation


def _factories(sites: Any, code: str, regions: dict[str, Any], board: Any) -> None:
    """``factories = ["berlin", "hamburg"]``: exactly the nation's cities with a factory, each
    named once (a city holds one factory)."""
    if not isinstance(sites, list):
        raise _fail(f"{code}.factories", 'must list cities: ["berlin", "hamburg"]')
    home = {board.regions[r].id for r in board.home[board.codes.index(code)]}
    for rid in home:
        regions[rid]["factory"] = None
    for i, rid in enumerate(sites):
        if not isinstance(rid, str) or rid not in home:
            raise _fail(f"{code}.factories[{i}]", f"{_show(rid)} is not a {code} home city")
        if regions[rid]["factory"] is not None:
            raise _fail(
                f"{code}.factories[{i}]", f"{_show(rid)} is listed twice; a city holds one factory"
            )
        regions[rid]["factory"] = board[rid].factory_type


def _unit_list(units: list[Any], where: str) -> dict[str, int]:
    """The list form of units, ``["holland", "cologne", "cologne"]``: each entry is one unit,
    so a region named twice holds two (the reader then checks the nation's unit limits)."""
    counts: dict[str, int] = {}
    for i, rid in enumerate(units):
        if not isinstance(rid, str):
            raise _fail(f"{where}[{i}]", f"must be a region, not {_show(rid)}")
        counts[rid] = counts.get(rid, 0) + 1
    return counts


def _key(text: Any) -> str:
    """A key of the file inside a field name, cut: a hostile file's keys may be any length."""
    from rules.savefile import printable

    return printable(str(text), 40)


def _to_move(short: dict[str, Any], doc: dict[str, Any], players: list[str]) -> None:
    """``to_move = "GE maneuver"`` (a nation's decision) or ``"Anna invest"`` (the investor
    card holder invests; ``turn`` names the nation that landed on or passed Investor)."""
    text = short.get("to_move")
    words = text.split() if isinstance(text, str) else []
    if len(words) == 2 and words[1] in OLD_WORDS:  # "GE production", the word before "produce"
        words = [words[0], OLD_WORDS[words[1]]]
    if len(words) != 2 or words[1] not in TO_MOVE:
        raise _fail(
            "to_move",
            f'must be a nation and its decision ({", ".join(NATION_DECISIONS)}), e.g. "GE '
            f'maneuver", or a player who invests, e.g. "Anna invest"; not {_show(text)}',
        )
    who, kind = words
    nations = doc["nations"]
    codes = tuple(nations)
    if kind == Decision.INVEST:
        if who not in players:
            raise _fail("to_move", f"{_show(who)} is not a player")
        turn = short.get("turn")
        if turn not in codes:
            raise _fail("turn", f'names the nation whose turn it is, e.g. turn = "{codes[1]}"')
        doc["turn"]["nation"] = turn
        if nations[turn]["rondel"] is None:
            nations[turn]["rondel"] = "investor"
        doc["awaiting"] = {"player": who, "kind": Decision.INVEST, "nation": None}
        if not any(p.get("investor_card") for p in doc["players"]):
            doc["players"][players.index(who)]["investor_card"] = True
        return
    if who.upper() not in codes:
        raise _fail("to_move", f"{_show(who)} is not a nation code ({' '.join(codes)})")
    code = who.upper()
    if "turn" in short and short["turn"] != code:
        raise _fail("turn", f"it is {code}'s decision, so it is {code}'s turn")
    doc["turn"]["nation"] = code
    if kind != "rondel" and nations[code]["rondel"] is None:
        space = SPACE_OF[kind]
        nations[code]["rondel"] = next(s for s in RONDEL_SPACES if s.rstrip("12") == space)
    governor = _governor(doc, code)
    doc["awaiting"] = {"player": governor, "kind": kind, "nation": code}


def _governor(doc: dict[str, Any], code: str) -> str | None:
    """The nation's governor as the position will read it: given, or the most credit."""
    nation = doc["nations"][code]
    if "governor" in nation:
        return nation["governor"]
    credit: dict[str, int] = {}
    for p in doc["players"]:
        for bond in p["bonds"]:
            if bond["nation"] == code and isinstance(bond["value"], int):
                credit[p["name"]] = credit.get(p["name"], 0) + bond["value"]
    if not credit:
        raise _fail(f"{code}.governor", f"{code} decides: give it a governor or bonds")
    best = max(credit.values())
    # on a tie the position's reader asks for the governor (after checking the bonds)
    return next(name for name, c in credit.items() if c == best)


def game_from_position_file(path: Path) -> Game:
    """A game starting from a position file (``-``: standard input); errors about a short
    form name its own keys."""
    return game_from_position_text(position_source(path))


def game_from_position_text(text: str) -> Game:
    """A game starting from a position's text, JSON or the short form."""
    return game_from_document(read_position_text(text), short=not is_json_text(text))


def game_from_document(doc: dict[str, Any], short: bool) -> Game:
    """A game from a position document; ``short``: it was built from a short form, whose
    errors name the short form's keys (``GE.tax``, not ``nations.GE.tax_level``)."""
    try:
        return Game.from_position(doc)
    except PositionError as exc:
        if not short:
            raise
        raise PositionError(short_form_field(str(exc), doc)) from None


def short_form_field(message: str, doc: dict[str, Any]) -> str:
    """A reader's message about the document, with the field named as the short form's key
    (``nations.GE.tax_level`` -> ``GE.tax``, ``players[0].cash`` -> ``Anna.cash``)."""
    field, sep, rest = message.partition(": ")
    if not sep:
        return message
    new = field
    m = re.fullmatch(r"nations\.(\w+)\.(\w+)", field)
    if m:
        new = f"{m[1]}.{'tax' if m[2] == 'tax_level' else m[2]}"
    m = re.fullmatch(r"players\[(\d+)\](.*)", field)
    if m and int(m[1]) < len(doc["players"]):
        new = doc["players"][int(m[1])]["name"] + m[2]
    m = re.fullmatch(r"regions\.(\w+)\.units\[(\d+)\].*", field)
    if m and m[1] in doc["regions"]:
        units = doc["regions"][m[1]]["units"]
        if int(m[2]) < len(units):
            u = units[int(m[2])]
            key = "fleets" if u["kind"] == "fleet" else "armies"
            if u.get("hostile") is False:
                key = "friendly_armies"
            new = f"{u['nation']}.{key}.{m[1]}"
    m = re.fullmatch(r"regions \((\w+) (armies|fleets|flags)\)", field)
    if m:
        new = f"{m[1]}.{m[2]}"
    m = re.fullmatch(r"regions\.(\w+)\.(flag|factory)", field)
    if m:
        new = f"{m[1]} ({'flags' if m[2] == 'flag' else 'factories'})"
    if field.startswith(("awaiting", "turn.nation")):
        new = "to_move"
    if field.startswith("position.options"):
        new = field.removeprefix("position.")
    if field in ("position.bank", "position.game_ending"):
        new = field.removeprefix("position.")
    if field == "turn.round":
        new = "round"
    return f"{new}{sep}{rest}"
