"""Positions (docs/POSITIONS.md): a game starts from the state summary of docs/STATE.md or from
the short hand-written form, replays exactly from its save, and every invalid position is
refused with one line naming the field."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from play_helpers import pick, play_until, random_game
from typer.testing import CliRunner

from imperial_tui.cli import app
from rules import Game, RuleSet
from rules.position import PositionError, read_position
from rules.position_text import read_position_text
from rules.savefile import load_game, save_game

runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
ROOT = Path(__file__).resolve().parent.parent

# The issue's example: "GE armies in Cologne (2) and Holland, GB fleet in North Sea, GE to
# maneuver".
COLOGNE = """
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
"""


def from_text(text: str) -> Game:
    return Game.from_position(read_position_text(text))


def same_future(a: Game, b: Game, rng: random.Random, steps: int = 12) -> None:
    """Both games accept the same actions with the same events and summaries."""
    for _ in range(steps):
        if a.awaiting is None:
            assert b.awaiting is None
            return
        legal = a.legal_actions()
        assert [str(x) for x in legal] == [str(x) for x in b.legal_actions()]
        action = pick(rng, legal)
        assert [e.text for e in a.apply(action)] == [e.text for e in b.apply(action)]
        assert a.summary() == b.summary()


# --------------------------------------------------------------------------- round trip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), actions=st.integers(0, 400))
def test_position_round_trip_at_any_point_fixes_the_game_exactly(seed: int, actions: int) -> None:
    """The summary of any position, read back, gives the same summary, the same legal actions
    and the same future, at random points of random games (mid-Maneuver, mid-battle, in bond
    rounds and investor queues alike)."""
    game = random_game(seed, actions)
    doc = game.summary()
    again = Game.from_position(json.loads(json.dumps(doc)))
    assert again.summary() == doc
    same_future(game.copy(), again, random.Random(seed))


@pytest.mark.parametrize(
    ("kind", "rules"),
    [
        ("battle", RuleSet.preset("first").with_options(battle_sequence="until_declined")),
        ("battle", RuleSet.preset("2010")),
        ("bond_choice", RuleSet.preset("first", "experienced")),
        ("maneuver", RuleSet.preset("first", "no-investor-card")),
        ("invest", RuleSet.preset("2010", "no-investor-card")),
        ("produce", RuleSet.preset("first")),
        ("import", RuleSet.preset("first")),
    ],
)
def test_position_round_trip_in_each_kind_of_decision(kind: str, rules: RuleSet) -> None:
    """Every decision chain the summary's tables cannot show (the battle's nations still to
    ask, the Swiss banks still to ask, the bond round, the Maneuver so far) is carried."""
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"][: 2 + seed % 3], rules=rules, seed=seed)
        if play_until(game, kind, rng):
            for _ in range(rng.randint(0, 2)):  # a step or two into the chain
                if game.awaiting and game.awaiting.kind == kind and kind == "maneuver":
                    game.apply(pick(rng, game.legal_actions()))
            doc = game.summary()
            again = Game.from_position(doc)
            assert again.summary() == doc
            same_future(game, again, rng, steps=30)
            return
    pytest.fail(f"no {kind} decision came up")


def test_position_round_trip_while_the_swiss_banks_are_asked() -> None:
    game = from_text(
        """
        players = ["Anna", "Ben", "Cleo", "Dan"]
        edition = "2010"
        to_move = "IT rondel"
        [Anna]
        cash = 10
        bonds = ["IT 9"]
        [Ben]
        bonds = ["AH 9"]
        [IT]
        rondel = "production1"
        treasury = 10
        """
    )
    game.apply("IT rondel taxation")  # passes Investor: Cleo, then Dan, may force a stop
    assert game.awaiting.kind == "swiss_bank" and game.awaiting.player == "Cleo"
    game.apply("Cleo lets IT pass")
    doc = game.summary()
    assert doc["position"]["turn_context"]["queue"] == ["Dan"]
    again = Game.from_position(doc)
    assert again.summary() == doc
    same_future(game, again, random.Random(1))


def test_cli_state_json_new_position_state_json_identical(tmp_path: Path) -> None:
    game = random_game(7, 150)
    save = tmp_path / "g.json"
    save_game(game, save)
    printed = runner.invoke(app, ["state", str(save), "--json"])
    assert printed.exit_code == 0
    position = tmp_path / "pos.json"
    position.write_text(printed.stdout)
    made = runner.invoke(app, ["new", "--position", str(position), "-s", str(tmp_path / "p.json")])
    assert made.exit_code == 0, made.output
    again = runner.invoke(app, ["state", str(tmp_path / "p.json"), "--json"])
    assert again.stdout == printed.stdout


def test_position_save_records_the_position_and_replays_exactly(tmp_path: Path) -> None:
    game = from_text(COLOGNE)
    game.apply("GE move army cologne -> belgium")
    game.apply("GE move army holland -> belgium")
    path = tmp_path / "p.json"
    save_game(game, path)
    doc = json.loads(path.read_text())
    assert doc["version"] == 2 and doc["deal"] is None and doc["seed"] is None
    assert doc["position"]["awaiting"] == {"player": "Anna", "kind": "maneuver", "nation": "GE"}
    loaded = load_game(path).game
    assert loaded.summary() == game.summary()
    assert [str(a) for a in loaded.history] == [str(a) for a in game.history]


def test_undo_stops_at_the_position(tmp_path: Path) -> None:
    game = from_text(COLOGNE)
    start = game.summary()
    game.apply("GE move army cologne -> belgium")
    game.undo()
    assert game.summary() == start
    with pytest.raises(IndexError):
        game.undo()
    path = tmp_path / "p.json"
    save_game(game, path)
    result = runner.invoke(app, ["undo", str(path)])
    assert result.exit_code == 1
    assert "since the position it starts from" in result.stderr
    assert load_game(path).game.summary() == start


# --------------------------------------------------------------------------- the short form


def test_short_form_of_the_issue_example() -> None:
    game = from_text(COLOGNE)
    s = game.summary()
    assert s["awaiting"] == {"player": "Anna", "kind": "maneuver", "nation": "GE"}
    assert s["nations"]["GE"]["governor"] == "Anna" and s["nations"]["GB"]["governor"] == "Ben"
    assert s["nations"]["GE"]["rondel"] == "maneuver1"
    assert s["regions"]["cologne"]["units"] == [
        {"nation": "GE", "kind": "army", "count": 2, "hostile": None}
    ]
    assert s["regions"]["north_sea"]["units"][0]["nation"] == "GB"
    assert s["regions"]["berlin"]["factory"] == "armaments"  # starting factories by default
    legal = {str(a) for a in game.legal_actions()}
    assert "GE move army cologne -> munich" in legal
    assert "GE move army holland -> belgium" in legal
    assert "GE end maneuver" in legal


def test_short_form_every_example_in_positions_md_starts_a_game() -> None:
    doc = (ROOT / "docs" / "POSITIONS.md").read_text(encoding="utf-8")
    examples = re.findall(r"```toml\n(.*?)```", doc, flags=re.DOTALL)
    assert len(examples) >= 3
    for text in examples:
        game = from_text(text)
        assert game.awaiting is not None and game.legal_actions()


def test_short_form_investor_decision_and_explicit_fields() -> None:
    game = from_text(
        """
        players = ["Anna", "Ben", "Cleo"]
        edition = "2010"
        options = { bank = "limited" }
        round = 4
        turn = "IT"
        to_move = "Ben invest"
        bank = 200

        [Anna]
        cash = 12
        bonds = ["IT 9", "IT 2"]
        [Ben]
        cash = 7
        bonds = ["AH 9"]
        [IT]
        treasury = 3
        power = 6
        tax = 8
        flags = ["tunis"]
        friendly_armies = { vienna = 1 }
        """
    )
    s = game.summary()
    assert s["awaiting"] == {"player": "Ben", "kind": "invest", "nation": None}
    assert s["players"][1]["investor_card"] and s["turn"] == {"round": 4, "nation": "IT"}
    assert s["regions"]["vienna"]["units"][0]["hostile"] is False
    assert s["position"]["bank"] == 200 and s["position"]["options"]["bank"] == "limited"
    assert "Ben buys IT 4" in {str(a) for a in game.legal_actions()}


# --------------------------------------------------------------------------- invalid positions


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


_TIE = _edit(_edit(COLOGNE, '"GE 9"', '"GE 6"'), '"GB 9"', '"GB 9", "GE 2", "GE 4"')
_FLEET_ON_LAND = _edit(COLOGNE, "fleets = { north_sea = 1 }", "fleets = { holland = 1 }")
_FLEET_IN_PORT = _edit(COLOGNE, "fleets = { north_sea = 1 }", "fleets = { hamburg = 1 }")
INVALID_SHORT = [
    # unit limits
    (_edit(COLOGNE, "cologne = 2", "cologne = 9"), "GE.armies", "GE has only 8"),
    # armies only on land, fleets only at sea or in a port
    (_edit(COLOGNE, "holland = 1", "north_sea = 1"), "GE.armies.north_sea", "armies stand only"),
    (_FLEET_ON_LAND, "GB.fleets.holland", "land region"),
    (_FLEET_IN_PORT, "GB.fleets.hamburg", "not a GB port"),
    # factories only on factory sites
    (_edit(COLOGNE, "[GB]", '[GB]\nfactories = ["wales"]'), "GB.factories[0]", "GB home city"),
    # flags only in neutral regions
    (_edit(COLOGNE, "[GB]", '[GB]\nflags = ["berlin"]'), "berlin (flags)", "home province"),
    # bonds each owned once, values that exist
    (_edit(COLOGNE, 'bonds = ["GB 9"]', 'bonds = ["GE 9"]'), "Ben.bonds[0]", "exists once"),
    (_edit(COLOGNE, 'bonds = ["GB 9"]', 'bonds = ["GB 7"]'), "Ben.bonds[0].value", "bond value"),
    # governments consistent with bonds (or given)
    (_edit(COLOGNE, "[GE]", '[GE]\ngovernor = "Ben"'), "GE.governor", "most credit governs"),
    (_TIE, "GE.governor", "same credit"),
    # money non-negative
    (_edit(COLOGNE, 'bonds = ["GE 9"]', 'bonds = ["GE 9"]\ncash = -1'), "Anna.cash", "from 0"),
    (_edit(COLOGNE, "[GE]", "[GE]\ntreasury = -5"), "GE.treasury", "from 0"),
    # the decision and the rest of the file
    (_edit(COLOGNE, "GE maneuver", "GE dance"), "to_move", "must be a nation"),
    (_edit(COLOGNE, "[GE]", '[GE]\nrondel = "taxation"'), "GE.rondel", "stands on maneuver1"),
    (_edit(COLOGNE, "[GE]", "[GE]\ntax = 20"), "GE.tax", "from 5 to 15"),
    (_edit(COLOGNE, "holland = 1", "atlantis = 1"), "GE.armies.atlantis", "no such region"),
    (_edit(COLOGNE, "[GE]", "[GE]\ntresury = 5"), "GE.tresury", "unknown key"),
    (COLOGNE + '\n[Cleo]\ncash = 3\n', "Cleo", "unknown table"),
    (_edit(COLOGNE, '"Anna", "Ben"', '"Anna", "anna"'), "players", "two players"),
    (COLOGNE + "[AH]\nfleets = { trieste = 7 }\n", "AH.fleets", "AH has only 6"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "field", "words"), INVALID_SHORT)
def test_invalid_short_form_names_the_field(text: str, field: str, words: str) -> None:
    with pytest.raises(PositionError) as info:
        from_text_with_fields(text)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{field}: "), message
    assert words in message


def from_text_with_fields(text: str) -> Game:
    """As the command line reads a short form: errors name the short form's keys."""
    from rules.position_text import short_form_field

    doc = read_position_text(text)
    try:
        return Game.from_position(doc)
    except PositionError as exc:
        raise PositionError(short_form_field(str(exc), doc)) from None


def _json_case(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(from_text(COLOGNE).summary())
    change(doc)
    return doc


def _set(path: str, value: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        *keys, last = path.split("/")
        node = doc
        for k in keys:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(last) if last.isdigit() else last] = value

    return change


INVALID_JSON = [
    (_set("format", "chess"), "format"),
    (_set("players/0/cash", -3), "players[0].cash"),
    (_set("players/0/cash", 10**300), "players[0].cash"),
    (_set("nations/GE/power", 26), "nations.GE.power"),
    (_set("nations/GE/rondel", "casino"), "nations.GE.rondel"),
    (_set("regions/cologne/units/0/count", 0), "regions.cologne.units[0].count"),
    (_set("regions/cologne/units/0/hostile", True), "regions.cologne.units[0].hostile"),
    (_set("regions/cologne/factory", "shipyard"), "regions.cologne.factory"),
    (_set("regions/holland/factory", "armaments"), "regions.holland.factory"),
    (_set("regions/narnia", {"units": []}), "regions.narnia"),
    (_set("awaiting/player", "Ben"), "awaiting.player"),
    (_set("awaiting/kind", "nap"), "awaiting.kind"),
    (_set("awaiting", None), "awaiting"),
    (_set("turn/nation", "RU"), "awaiting.nation"),
    (_set("players/1/investor_card", True), "players[1].investor_card"),
    (_set("players/0/governs", []), "players[0].governs"),
    (_set("position/version", 99), "position.version"),
    (_set("position/steps", ["teleport"]), "position.steps[0]"),
    (_set("position/options/bank", "swiss"), "position.options.bank"),
    (
        _set("position/turn_context", {"kind": "maneuver", "moved_fleets": {"cologne": 3}}),
        "position.turn_context.moved_fleets",
    ),
    (_set("position/decision", {"pending": []}), "position.decision"),
    (_set("position/flag_claims", {"GE": "Ben"}), "position.flag_claims.GE"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "field"), INVALID_JSON)
def test_invalid_json_position_names_the_field(change: Any, field: str) -> None:
    doc = _json_case(change)
    with pytest.raises(PositionError) as info:
        read_position(doc)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{field}: "), message


def test_cli_new_position_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(_edit(COLOGNE, "cologne = 2", "cologne = 9"))
    result = runner.invoke(app, ["new", "--position", str(bad), "-s", str(tmp_path / "g.json")])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"imperial: {bad}: GE.armies: ")
    assert not (tmp_path / "g.json").exists()
    broken = tmp_path / "broken.toml"
    broken.write_text("players = [")
    result = runner.invoke(app, ["new", "--position", str(broken), "-s", str(tmp_path / "g.json")])
    assert result.exit_code == 1 and "TOML" in result.stderr
    both = runner.invoke(app, ["new", "--position", str(bad), "-p", "Anna,Ben"])
    assert both.exit_code == 2 and "--players" in both.stderr


def test_cli_new_position_from_standard_input(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["new", "--position", "-", "-s", str(save)], input=COLOGNE)
    assert result.exit_code == 0, result.output
    assert load_game(save).game.awaiting.kind == "maneuver"


def test_position_json_without_its_block_reads_simple_decisions() -> None:
    """A summary written by an older program (no position block) still reads for a decision
    taken at the start of what it belongs to."""
    doc = from_text(COLOGNE).summary()
    del doc["position"]
    assert Game.from_position(doc).summary()["awaiting"]["kind"] == "maneuver"


def test_the_position_reader_knows_every_engine_step_and_decision() -> None:
    """A new engine step or decision kind must be given a written form here, or positions
    with it could not be read back."""
    from rules import engine
    from rules.position_decision import DECISIONS, STEP_ARGS

    assert set(STEP_ARGS) == set(engine.STEPS)
    assert set(DECISIONS) == set(engine.DECISIONS)


def test_the_produce_decision_is_read_by_its_old_name_too() -> None:
    """The Production decision is called ``produce``, like its action (``GE produce berlin``);
    positions written when it was called ``production`` still read, in both forms."""
    text = """
players = ["Anna", "Ben"]
to_move = "GE production"

[Anna]
bonds = ["GE 9"]

[Ben]
bonds = ["GB 9"]

[GE]
factories = ["berlin"]
"""
    game = from_text(text)
    assert game.awaiting is not None and game.awaiting.kind == "produce"
    assert str(game.legal_actions()[0]).startswith("GE produce")
    doc = json.loads(json.dumps(game.summary()))
    assert doc["awaiting"]["kind"] == "produce"
    doc["awaiting"]["kind"] = "production"  # a JSON position of before the rename
    again = Game.from_position(doc)
    assert again.awaiting is not None and again.awaiting.kind == "produce"
