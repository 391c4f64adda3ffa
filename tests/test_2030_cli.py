"""Imperial 2030 on the command line: ``imperial new --game 2030``, show/moves/apply/explain/
log/--at/undo on a world game, ``show --region``, positions with ``game = "2030"``, the
options of each game and ``imperial rules 2030``; saves name the game, old saves are
Imperial."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app
from rules.options import OPTIONS
from rules.savefile import load_game

runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
DEAL = "Anna=RU,Ben=CN,Cleo=IN,Dan=BR"


def new_world(path: Path, *extra: str) -> str:
    result = runner.invoke(
        app,
        [
            "new",
            "--game",
            "2030",
            "-p",
            "Anna,Ben,Cleo,Dan",
            "--deal",
            DEAL,
            "-s",
            str(path),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def world(tmp_path: Path) -> Path:
    path = tmp_path / "world.json"
    new_world(path)
    return path


def test_new_game_2030_sets_up_the_world_and_names_the_game_in_the_save(world: Path):
    doc = json.loads(world.read_text())
    assert doc["game"] == "2030" and doc["edition"] == "2010"
    assert "canal_refusal" in doc["options"]
    assert "black_sea_eastern_mediterranean" not in doc["options"]
    loaded = load_game(world)
    assert loaded.game.rules.game == "2030"
    out = runner.invoke(app, ["show", str(world)]).stdout
    assert "Round 1, RU's turn. Anna decides: rondel for RU" in out
    assert "Rio de Janeiro" in out and "US" in out


def test_new_game_2030_prints_the_game_and_the_deal(tmp_path: Path):
    out = new_world(tmp_path / "w.json")
    assert out.startswith("Imperial 2030 (standard variant): Anna, Ben, Cleo, Dan")
    assert "Dan drew BR" in out
    assert "Investor card: Ben" in out


def test_state_text_names_imperial_2030_not_an_imperial_edition(world: Path):
    out = runner.invoke(app, ["state", str(world)]).stdout
    assert out.splitlines()[0] == "Imperial 2030, standard variant"


def test_new_game_default_stays_imperial(tmp_path: Path):
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["new", "-p", "Anna,Ben", "--seed", "1", "-s", str(path)])
    assert result.exit_code == 0
    doc = json.loads(path.read_text())
    assert doc["game"] == "imperial" and doc["edition"] == "first"
    assert "game" not in json.loads(runner.invoke(app, ["state", str(path), "--json"]).stdout)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--edition", "first"], "Imperial 2030 is played with the 2010 rules"),
        (["--option", "black_sea_eastern_mediterranean=false"], "applies only to Imperial"),
        (["--deal", "Anna=AH,Ben=IT,Cleo=FR,Dan=GB"], "cannot be dealt"),
    ],
)
def test_new_game_2030_refuses_what_belongs_to_imperial(tmp_path: Path, extra, message):
    args = ["new", "--game", "2030", "-p", "Anna,Ben,Cleo,Dan", "-s", str(tmp_path / "x.json")]
    if "--deal" not in extra:
        args += ["--seed", "1"]
    result = runner.invoke(app, args + extra)
    assert result.exit_code != 0
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_new_game_unknown_game_is_a_usage_error(tmp_path: Path):
    result = runner.invoke(
        app, ["new", "--game", "2040", "-p", "Anna,Ben", "-s", str(tmp_path / "x.json")]
    )
    assert result.exit_code == 2
    assert "unknown game '2040'; choose one of imperial, 2030" in result.stderr


def test_moves_apply_log_explain_undo_and_at_on_a_world_game(world: Path):
    moves = runner.invoke(app, ["moves", str(world)]).stdout
    assert "RU rondel taxation" in moves
    result = runner.invoke(app, ["apply", str(world), "RU rondel maneuver2"])
    assert result.exit_code == 0, result.output
    assert "Russia has no units to maneuver" in result.stdout
    assert "China's turn" in runner.invoke(app, ["log", str(world)]).stdout
    explained = runner.invoke(app, ["explain", str(world), "CN rondel import"]).stdout
    assert explained.startswith("legal")
    bad = runner.invoke(app, ["apply", str(world), "AH rondel import"])
    assert bad.exit_code == 1 and "there is no nation 'AH'; nations are RU CN IN BR US EU" in (
        bad.stderr
    )
    before = runner.invoke(app, ["show", str(world), "--at", "0"]).stdout
    assert "Round 1, RU's turn" in before
    assert runner.invoke(app, ["undo", str(world)]).exit_code == 0
    assert len(load_game(world).game.history) == 0


def test_show_region_tells_who_controls_a_canal_and_the_wrap(world: Path):
    out = runner.invoke(app, ["show", str(world), "--region", "colombia"]).stdout
    assert "Controls the Panama Canal" in " ".join(out.split())
    out = runner.invoke(app, ["show", str(world), "--region", "North Pacific"]).stdout
    flat = " ".join(out.split())
    assert "Across the edge of the map it borders the China Sea and the Sea of Japan" in flat
    assert "The Panama Canal joins it to the Caribbean Sea" in flat


def test_show_map_draws_the_world_board_with_its_canals_and_wrap(world: Path):
    result = runner.invoke(app, ["show", str(world), "--map"])
    assert result.exit_code == 0, result.output
    for code in ("MOS", "NYC", "COL", "NAF", "BRA"):
        assert code in result.stdout
    assert "\u2261" in result.stdout  # a canal
    assert "\u2190SOJ" in result.stdout  # the wrap: the Sea of Japan across the west edge
    assert "Traceback" not in result.output


def test_canal_decision_from_the_command_line(tmp_path: Path):
    position = tmp_path / "canal.toml"
    position.write_text(
        'game = "2030"\n'
        'players = ["Anna", "Ben"]\n'
        'to_move = "US maneuver"\n'
        "[Anna]\n"
        'bonds = ["US 9"]\n'
        "[Ben]\n"
        'bonds = ["BR 9"]\n'
        "[US]\n"
        "fleets = { caribbean_sea = 1 }\n"
        "[BR]\n"
        'flags = ["colombia"]\n',
        encoding="utf-8",
    )
    path = tmp_path / "canal.json"
    result = runner.invoke(app, ["new", "--position", str(position), "-s", str(path)])
    assert result.exit_code == 0, result.output
    crossing = "US move fleet caribbean_sea -> north_pacific"
    dry = runner.invoke(app, ["apply", str(path), "--dry-run", crossing]).stdout
    assert "next: Ben decides canal for BR" in dry
    result = runner.invoke(app, ["apply", str(path), crossing])
    assert result.exit_code == 0, result.output
    moves = runner.invoke(app, ["moves", str(path)]).stdout
    assert "BR allows US through panama" in moves and "BR refuses US through panama" in moves
    why = runner.invoke(app, ["explain", str(path), "BR refuses US through panama"]).stdout
    assert "Imperial 2030, canals" in why
    result = runner.invoke(app, ["apply", str(path), "BR allows US through panama"])
    assert result.exit_code == 0, result.output
    assert "Brazil lets a fleet of United States through the Panama Canal" in result.stdout
    state = json.loads(runner.invoke(app, ["state", str(path), "--json"]).stdout)
    assert state["game"] == "2030"
    assert state["regions"]["north_pacific"]["units"] == [
        {"nation": "US", "kind": "fleet", "count": 1, "hostile": None}
    ]


def test_options_of_each_game(world: Path):
    out = runner.invoke(app, ["options", "--game", "2030"]).stdout
    assert "canal_refusal" in out and "rondel_extra_cost" in out
    assert "armies_may_enter_dublin" not in out
    out = runner.invoke(app, ["options", "--game", "imperial"]).stdout
    assert "canal_refusal" not in out and "armies_may_enter_dublin" in out
    everything = runner.invoke(app, ["options"]).stdout
    assert all(name in everything for name in OPTIONS)
    assert "(Imperial 2030 only)" in everything and "(Imperial only)" in everything
    rows = {r["name"]: r for r in json.loads(runner.invoke(app, ["options", "--json"]).stdout)}
    assert rows["canal_refusal"]["games"] == ["2030"] and rows["canal_refusal"]["defaults"] == {}
    assert rows["canal_refusal"]["default_2030"] == "unit"
    assert rows["tie_break"]["games"] == ["imperial", "2030"]
    assert rows["thirty_million_bond"]["default_2030"] is True
    assert "default_2030" not in rows["armies_may_enter_dublin"]


def test_rules_2030_page_lists_the_differences_and_their_options():
    out = " ".join(runner.invoke(app, ["rules", "2030"]).stdout.split())
    assert "IMPERIAL 2030: WHAT DIFFERS" in out
    assert "CN 10 armies/6 fleets" in out and "US 1 armaments + 3 shipyards" in out
    assert "China at 11 power points pays 3M" in out
    assert "16-17M: 9 pp, 5M" in out and "18-23M: 10 pp, 5M" in out
    assert "Panama Canal joins the Caribbean Sea and the North Pacific" in out
    assert "canal_refusal: 2030 unit" in out


def test_old_save_without_a_game_loads_as_imperial(tmp_path: Path):
    path = tmp_path / "old.json"
    result = runner.invoke(app, ["new", "-p", "Anna,Ben", "--seed", "2", "-s", str(path)])
    assert result.exit_code == 0
    doc = json.loads(path.read_text())
    del doc["game"]
    path.write_text(json.dumps(doc))
    assert load_game(path).game.rules.game == "imperial"
    doc["game"] = "2040"
    path.write_text(json.dumps(doc))
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 1
    assert '"game" must be one of imperial, 2030, not "2040"' in result.stderr


def test_a_save_with_an_option_of_the_other_game_is_refused(world: Path):
    doc = json.loads(world.read_text())
    doc["options"]["armies_may_enter_dublin"] = True
    world.write_text(json.dumps(doc))
    result = runner.invoke(app, ["show", str(world)])
    assert result.exit_code == 1
    assert "rule option armies_may_enter_dublin does not apply to Imperial 2030" in result.stderr
