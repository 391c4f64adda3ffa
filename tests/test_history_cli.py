"""Quick rules checks from the shell: ``log``, ``show/state/moves --at N``, ``undo``,
``apply --dry-run`` and ``explain``, and the one-line errors of every wrong command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from play_helpers import random_game
from typer.testing import CliRunner

from imperial_tui.cli import app
from rules import Game
from rules.explain import ALL_REFS, explain
from rules.history import turn_logs
from rules.position_text import read_position_text
from rules.savefile import load_game, save_game

ENTRY = "another nation's home province"
runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})

RAIL = """
players = ["Anna", "Ben"]
to_move = "GE maneuver"
[Anna]
bonds = ["GE 9"]
[Ben]
bonds = ["RU 9"]
[GE]
armies = { hamburg = 1, cologne = 2 }
[RU]
armies = { berlin = 1 }
"""


@pytest.fixture
def played(tmp_path: Path) -> tuple[Game, Path]:
    game = random_game(3, 60)
    path = tmp_path / "g.json"
    save_game(game, path)
    return game, path


@pytest.fixture
def rail_file(tmp_path: Path) -> Path:
    path = tmp_path / "rail.json"
    save_game(Game.from_position(read_position_text(RAIL)), path)
    return path


def replayed(game: Game, n: int) -> Game:
    """A fresh game with the first ``n`` actions applied: what ``--at n`` must show."""
    fresh = Game(game.setup)
    for action in game.history[:n]:
        fresh.apply(action)
    return fresh


def _one_line(result: object, code: int) -> str:
    assert result.exit_code == code, result.output  # type: ignore[attr-defined]
    err = result.stderr  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --------------------------------------------------------------------------- --at


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), actions=st.integers(1, 200), data=st.data())
def test_state_and_show_at_n_equal_replaying_n_actions(
    tmp_path_factory: pytest.TempPathFactory, seed: int, actions: int, data: st.DataObject
) -> None:
    game = random_game(seed, actions)
    path = tmp_path_factory.mktemp("at") / "g.json"
    save_game(game, path)
    n = data.draw(st.integers(0, len(game.history)))
    expected = replayed(game, n)
    state = runner.invoke(app, ["state", str(path), "--json", "--at", str(n)])
    assert json.loads(state.stdout) == expected.summary()
    shown = runner.invoke(app, ["show", str(path), "--at", str(n)])
    from rich.console import Console

    from imperial_tui.render.show import render_game

    console = Console(width=80, no_color=True, file=open("/dev/null", "w"), record=True)  # noqa: SIM115
    console.print(render_game(expected, limit=40))
    assert shown.stdout.strip() == console.export_text().strip()
    moves = runner.invoke(app, ["moves", str(path), "--json", "--at", str(n)])
    assert [m["notation"] for m in json.loads(moves.stdout)] == [
        str(a) for a in expected.legal_actions()
    ]


def test_at_counts_back_from_the_end_and_refuses_out_of_range(played: tuple[Game, Path]) -> None:
    game, path = played
    back = runner.invoke(app, ["state", str(path), "--json", "--at", "-1"])
    assert json.loads(back.stdout) == replayed(game, len(game.history) - 1).summary()
    err = _one_line(runner.invoke(app, ["state", str(path), "--at", "999"]), 2)
    assert f"has {len(game.history)} actions" in err


# --------------------------------------------------------------------------- log


def test_log_numbers_actions_with_their_events_grouped_by_turn(played: tuple[Game, Path]) -> None:
    game, path = played
    text = runner.invoke(app, ["log", str(path)]).stdout
    assert text.startswith("Round 1: Austria-Hungary's turn")
    for number, action in enumerate(game.history, start=1):
        assert f"{number:>4} {action}\n" in text
    doc = json.loads(runner.invoke(app, ["log", str(path), "--json"]).stdout)
    numbers = [a["number"] for t in doc["turns"] for a in t["actions"]]
    assert numbers == list(range(1, len(game.history) + 1)) and doc["actions"] == len(numbers)
    # every event of the game appears once, in order, headings as the turns' headings
    flat = []
    for t in doc["turns"]:
        if t["heading"] != "set-up":
            flat.append("— " + t["heading"] + " —")
        flat += [e["text"] for e in t["events"]]
        for a in t["actions"]:
            flat += [e["text"] for e in a["events"]]
    assert flat == [e.text for e in game.events()]
    assert all(t["nation"] for t in doc["turns"] if t["heading"] != "set-up")


def test_log_of_a_position_game_opens_with_the_position(rail_file: Path) -> None:
    game = load_game(rail_file).game
    groups = turn_logs(game)
    assert groups[0].heading == "set-up"
    assert groups[0].events[0].text.startswith("the game starts from a given position")
    out = runner.invoke(app, ["log", str(rail_file)]).stdout
    assert "(no actions yet)" in out


# --------------------------------------------------------------------------- undo


def test_undo_takes_back_n_actions_atomically(played: tuple[Game, Path]) -> None:
    game, path = played
    total = len(game.history)
    result = runner.invoke(app, ["undo", str(path), "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"undone: {game.history[-1]}")
    loaded = load_game(path).game
    assert loaded.summary() == replayed(game, total - 3).summary()
    before = path.read_bytes()
    err = _one_line(runner.invoke(app, ["undo", str(path), str(total)]), 1)
    assert "nothing was undone" in err and path.read_bytes() == before
    _one_line(runner.invoke(app, ["undo", str(path), "0"]), 2)
    # a game with no action yet says so in words ("has only 0 actions" before)
    fresh = path.with_name("fresh.json")
    assert (
        runner.invoke(app, ["new", "-p", "Anna,Ben", "--seed", "1", "-s", str(fresh)]).exit_code
        == 0
    )
    err = _one_line(runner.invoke(app, ["undo", str(fresh), "1"]), 1)
    assert "has no action since the set-up; nothing was undone" in err


# --------------------------------------------------------------------------- dry run


def test_apply_dry_run_shows_events_and_changes_and_saves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    runner.invoke(app, ["new", "-p", "Anna,Ben", "--deal", "Anna=AH,Ben=IT", "-s", str(path)])
    before = path.read_bytes()
    result = runner.invoke(app, ["apply", str(path), "--dry-run", "AH rondel taxation"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Austria-Hungary taxes 4M" in out
    assert "AH: treasury 13M -> 17M" in out and "AH: rondel start -> taxation" in out
    assert "next: Ben decides rondel for IT" in out and "Not saved (--dry-run)" in out
    assert path.read_bytes() == before
    bad = runner.invoke(app, ["apply", str(path), "-n", "AH rondel nowhere"])
    assert bad.exit_code == 1 and "nothing would be saved" in bad.stderr
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- explain


def test_explain_cites_the_rule_and_the_province_that_cuts_the_rail(rail_file: Path) -> None:
    result = runner.invoke(app, ["explain", str(rail_file), "GE move army hamburg -> danzig"])
    assert result.exit_code == 1
    first = " ".join(result.stdout.split("\n  ")[0].split())
    assert first == (
        "illegal: an army may use rail only through its own home provinces not occupied by "
        "hostile armies; Berlin holds a hostile RU army (Maneuver, rail)"
    )
    assert "RULES.md §5.4.2" in result.stdout and "imperial rules maneuver" in result.stdout
    legal = runner.invoke(app, ["explain", str(rail_file), "GE move army cologne -> munich"])
    assert legal.exit_code == 0
    assert "legal: by rail through German Empire's own unoccupied home provinces" in legal.stdout
    assert "German Empire moves an army from Cologne to Munich" in legal.stdout
    assert load_game(rail_file).game.history == []  # nothing saved


@pytest.mark.parametrize(
    ("action", "legal", "section"),
    [
        ("GE move army hamburg -> holland", True, "Maneuver, armies"),
        ("GE move army cologne -> vienna hostile", True, "Maneuver, rail"),
        ("GE move army hamburg -> north_sea", False, "Maneuver, armies"),
        ("GE move army hamburg -> norway", False, "Maneuver, armies"),
        ("GE move army hamburg -> holland hostile", False, f"Maneuver, {ENTRY}"),
        ("GE move fleet hamburg -> north_sea", False, "Maneuver, fleets"),
        ("GE rondel taxation", False, "Sequence of play, whose decision"),
        ("Ben buys GE 12", False, "Sequence of play, whose decision"),
        ("GE army fights RU army in berlin", False, "Maneuver, battles"),
        ("GE end maneuver", True, "Maneuver, flags"),
        ("Anna donates 3 to GE", False, "Money, donations"),
        ("castle kingside", False, "Action notation, docs/ACTIONS.md"),
    ],
)
def test_explain_names_the_rule_for_each_kind(
    rail_file: Path, action: str, legal: bool, section: str
) -> None:
    answer = explain(load_game(rail_file).game, action)
    assert answer.legal is legal, answer.headline()
    assert answer.rule.short() == section
    assert answer.headline().endswith(f"({section})")


def test_every_cited_rules_page_exists() -> None:
    from imperial_tui.render.rules_text import topics

    assert {ref.page for ref in ALL_REFS} <= set(topics())


def test_explain_rondel_costs_and_the_first_placement() -> None:
    game = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    assert explain(game, "AH rondel taxation").why.startswith("the first placement is free")
    game = Game.from_position(
        read_position_text(
            """
            players = ["Anna", "Ben"]
            to_move = "AH rondel"
            [Anna]
            bonds = ["AH 9"]
            cash = 3
            [AH]
            rondel = "factory"
            """
        )
    )
    answer = explain(game, "AH rondel import")
    assert answer.legal
    assert answer.why.startswith("4 spaces clockwise: 2M from Anna's own cash")
    assert "passes Investor" in answer.why
    too_far = explain(game, "AH rondel taxation")
    assert not too_far.legal and too_far.rule.short() == "Rondel, moving the marker"
    too_dear = explain(game, "AH rondel maneuver2")
    assert not too_dear.legal and too_dear.rule.short() == "Rondel, cost of the move"


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "args",
    [
        ["nonsense"],
        ["apply"],
        ["show", "--limit", "-1", "g.json"],
        ["show", "--limit", "lots", "g.json"],
        ["state", "--bogus", "g.json"],
        ["undo", "g.json", "x"],
        ["explain", "g.json"],
        ["log"],
        ["new"],
        ["new", "-p", "Anna,Ben", "--option", "dragons=yes"],
        ["new", "-p", "Anna,Ben", "--seed", "1", "--deal", "Anna=AH,Ben=IT"],
    ],
)
def test_every_wrong_command_line_is_one_line_and_exit_2(args: list[str]) -> None:
    err = _one_line(runner.invoke(app, args), 2)
    assert err.startswith("imperial: ")
    assert "╭" not in err and "Usage:" not in err


@pytest.mark.parametrize("command", ["log", "undo", "explain"])
def test_new_commands_have_help_with_examples(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0 and "Examples" in result.stdout


def test_dry_run_changes_name_units_by_nation_and_status() -> None:
    from rules.changes import summary_changes

    game = Game.from_position(read_position_text(RAIL))
    before = game.summary()
    game.apply("GE move army hamburg -> berlin")
    game.apply("GE army fights RU army in berlin")
    changes = summary_changes(before, game.summary())
    assert "hamburg: GE armies 1 -> 0" in changes
    assert "berlin: RU armies (hostile) 1 -> 0" in changes
    assert not any(c.startswith("next:") for c in changes)  # still GE's Maneuver
