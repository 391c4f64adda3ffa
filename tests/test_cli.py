"""The ``imperial`` command line: each sub-command on real save files, the one-line errors and
exit codes a script can rely on, and the import hygiene that keeps Textual out of it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app
from rules import parse_action
from rules.actions import NotationError
from rules.options import OPTIONS
from rules.savefile import load_game

runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
DEAL = "Anna=AH,Ben=IT,Cleo=FR,Dan=GB"

STATE_KEYS = {
    "format",
    "edition",
    "variant",
    "players",
    "nations",
    "regions",
    "turn",
    "awaiting",
    "finished",
    "scores",
}
PLAYER_KEYS = {"name", "cash", "bonds", "governs", "investor_card", "swiss_bank"}
NATION_KEYS = {"governor", "treasury", "power", "tax_level", "rondel", "bonds_available", "supply"}
SUPPLY_KEYS = {"armies", "fleets", "flags", "factories_built"}
REGION_KEYS = {"factory", "flag", "units"}
UNIT_KEYS = {"nation", "kind", "count", "hostile"}


def _new(path: Path, *extra: str) -> None:
    result = runner.invoke(
        app, ["new", "--players", "Anna,Ben,Cleo,Dan", "--deal", DEAL, "--save", str(path), *extra]
    )
    assert result.exit_code == 0, result.output


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    _new(path)
    return path


def _one_error_line(result: object) -> str:
    text = result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert text.count("\n") == 1, text
    return text


# --------------------------------------------------------------------------- new


def test_new_prints_the_set_up_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["new", "-p", "Anna,Ben,Cleo,Dan", "--deal", DEAL, "-s", str(path)])
    assert result.exit_code == 0, result.output
    assert "Anna governs AH" in result.stdout
    assert "Investor card:" in result.stdout
    assert "Anna decides: rondel for AH" in result.stdout
    assert load_game(path).game.players == ("Anna", "Ben", "Cleo", "Dan")


def test_new_with_options_edition_and_seed(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["-p", "Anna,Ben,Cleo,Dan", "--edition", "2010", "--option", "bank=limited"]
    result = runner.invoke(
        app, ["new", *args, "-o", "swiss_banks=false", "--seed", "9", "--save", str(path)]
    )
    assert result.exit_code == 0, result.output
    game = load_game(path).game
    assert game.rules.edition == "2010"
    assert game.rules.bank == "limited" and game.rules.swiss_banks is False
    assert game.setup.seed == 9


def test_new_with_a_deal_by_hand_records_no_seed(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _new(path)
    assert json.loads(path.read_text())["seed"] is None
    both = runner.invoke(
        app, ["new", "-p", "Anna,Ben", "--deal", "Anna=AH,Ben=IT", "--seed", "3", "-s", str(path)]
    )
    assert both.exit_code == 2
    assert "--seed" in _one_error_line(both) and "--deal" in both.stderr


def test_new_experienced_variant(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(
        app,
        [
            "new",
            "-p",
            "Anna,Ben,Cleo",
            "--variant",
            "experienced",
            "--deal",
            "Ben",
            "-s",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Ben chooses first" in result.stdout
    assert json.loads(path.read_text())["deal"] == {"starter": "Ben"}


def test_new_refuses_to_overwrite_without_force(game_file: Path) -> None:
    before = game_file.read_bytes()
    result = runner.invoke(app, ["new", "-p", "Anna,Ben", "-s", str(game_file)])
    assert result.exit_code == 2
    assert "already exists" in _one_error_line(result)
    assert game_file.read_bytes() == before
    result = runner.invoke(app, ["new", "-p", "Anna,Ben", "-s", str(game_file), "--force"])
    assert result.exit_code == 0
    assert load_game(game_file).game.players == ("Anna", "Ben")


def test_new_without_save_names_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new", "-p", "Anna,Ben,Cleo"])
    assert result.exit_code == 0, result.output
    files = list(tmp_path.glob("imperial-*.json"))
    assert len(files) == 1
    assert f"saved to {files[0].name}" in result.stdout
    load_game(files[0])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-p", "Anna"], "2 to 6 players"),
        (["-p", "Anna,Ben", "--option", "dragons=true"], "unknown rule option"),
        (["-p", "Anna,Ben", "--option", "bank=weird"], "bank"),
        (["-p", "Anna,Ben", "--option", "bank"], "NAME=VALUE"),
        (["-p", "Anna,Ben", "--edition", "1999"], "edition"),
        (["-p", "Anna,Ben", "--variant", "solo"], "variant"),
        (["-p", "Anna,Ben", "--deal", "Anna=AH,Zed=IT"], "Zed"),
    ],
)
def test_new_bad_arguments(tmp_path: Path, args: list[str], expected: str) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["new", *args, "-s", str(path)])
    assert result.exit_code == 2
    assert expected in _one_error_line(result)
    assert not path.exists()


# --------------------------------------------------------------------------- state


def test_state_json_is_the_summary_exactly(game_file: Path) -> None:
    result = runner.invoke(app, ["state", str(game_file), "--json"])
    assert result.exit_code == 0, result.output
    summary = load_game(game_file).game.summary()
    assert result.stdout == json.dumps(summary, indent=2, ensure_ascii=False) + "\n"


def test_state_json_keys_as_in_state_md(game_file: Path) -> None:
    runner.invoke(app, ["apply", str(game_file), "AH rondel import", "AH import army vienna"])
    doc = json.loads(runner.invoke(app, ["state", str(game_file), "--json"]).stdout)
    assert set(doc) >= STATE_KEYS
    assert doc["format"] == "imperial-state/1"
    assert [p["name"] for p in doc["players"]] == ["Anna", "Ben", "Cleo", "Dan"]
    for player in doc["players"]:
        assert set(player) == PLAYER_KEYS
        for bond in player["bonds"]:
            assert set(bond) == {"nation", "value", "interest"}
    assert list(doc["nations"]) == ["AH", "IT", "FR", "GB", "GE", "RU"]
    for nation in doc["nations"].values():
        assert set(nation) == NATION_KEYS
        assert set(nation["supply"]) == SUPPLY_KEYS
    assert "switzerland" not in doc["regions"]
    for region in doc["regions"].values():
        assert set(region) == REGION_KEYS
        for unit in region["units"]:
            assert set(unit) == UNIT_KEYS
    assert doc["regions"]["vienna"]["units"] == [
        {"nation": "AH", "kind": "army", "count": 1, "hostile": None}
    ]
    assert set(doc["turn"]) == {"round", "nation"}
    assert set(doc["awaiting"]) == {"player", "kind", "nation"}
    assert doc["finished"] is False and doc["scores"] is None


def test_state_text(game_file: Path) -> None:
    result = runner.invoke(app, ["state", str(game_file)])
    assert result.exit_code == 0
    assert result.stdout.startswith("Imperial, first edition, standard variant\n")
    assert "Anna decides rondel for AH" in result.stdout
    assert "AH Anna" in result.stdout


# --------------------------------------------------------------------------- show


def test_show_fits_80_columns_without_colour(game_file: Path) -> None:
    runner.invoke(
        app,
        [
            "apply",
            str(game_file),
            "AH rondel import",
            "AH import army vienna",
            "AH import fleet trieste",
            "AH import done",
        ],
    )
    result = runner.invoke(app, ["show", str(game_file)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b[" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    for code in ("AH", "IT", "FR", "GB", "GE", "RU"):
        assert code in out
    for heading in ("Nations", "Players", "Rondel", "Regions"):
        assert heading in out
    assert "Trieste" in out and "AH 1F" in out and "AH 1A" in out
    assert "Ben decides: rondel for IT" in out
    assert "IT rondel taxation" in out


def test_show_limits_the_options(game_file: Path) -> None:
    result = runner.invoke(app, ["show", str(game_file), "--limit", "3"])
    assert "and 5 more" in result.stdout


# --------------------------------------------------------------------------- moves


def test_moves_json_shape(game_file: Path) -> None:
    result = runner.invoke(app, ["moves", str(game_file), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 8
    for row in rows:
        assert set(row) == {"notation", "player", "kind", "nation"}
        assert row["player"] == "Anna" and row["kind"] == "rondel" and row["nation"] == "AH"
    assert rows[0]["notation"] == "AH rondel factory"


def test_moves_text(game_file: Path) -> None:
    result = runner.invoke(app, ["moves", str(game_file)])
    assert result.stdout.splitlines()[0] == "Anna decides (rondel, AH):"
    assert "  AH rondel import" in result.stdout.splitlines()


# --------------------------------------------------------------------------- apply


def test_apply_saves_once_and_prints_events(game_file: Path) -> None:
    result = runner.invoke(
        app,
        ["apply", str(game_file), "AH rondel import", "AH import army vienna", "AH import done"],
    )
    assert result.exit_code == 0, result.output
    assert "AH import army vienna\n  " in result.stdout
    assert "Ben decides: rondel for IT" in result.stdout
    loaded = load_game(game_file)
    assert [str(a) for a in loaded.game.history] == [
        "AH rondel import",
        "AH import army vienna",
        "AH import done",
    ]


def test_apply_keeps_controllers_app_and_created(game_file: Path) -> None:
    doc = json.loads(game_file.read_text())
    doc["players"][1]["controller"] = "bot:greedy"
    doc["app"] = {"theme": "light"}
    game_file.write_text(json.dumps(doc))
    assert runner.invoke(app, ["apply", str(game_file), "AH rondel factory"]).exit_code == 0
    after = json.loads(game_file.read_text())
    assert after["players"][1]["controller"] == "bot:greedy"
    assert after["app"] == {"theme": "light"}
    assert after["created"] == doc["created"]


def test_apply_illegal_action_changes_nothing(game_file: Path) -> None:
    before = game_file.read_bytes()
    result = runner.invoke(
        app, ["apply", str(game_file), "AH rondel import", "AH import fleet vienna"]
    )
    assert result.exit_code == 1
    line = _one_error_line(result)
    assert line.startswith("illegal: ")
    assert "'AH import fleet vienna'" in line and "action 2 of 2" in line
    assert game_file.read_bytes() == before


def test_apply_text_that_is_not_an_action(game_file: Path) -> None:
    before = game_file.read_bytes()
    result = runner.invoke(app, ["apply", str(game_file), "castle kingside"])
    assert result.exit_code == 1
    assert _one_error_line(result).startswith("illegal: ")
    assert game_file.read_bytes() == before


# --------------------------------------------------------------------------- bad saves


@pytest.mark.parametrize(
    "command",
    [["state"], ["state", "--json"], ["show"], ["moves"], ["apply", "--", "AH rondel import"]],
)
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"hello": "world"}', "not an imperial save file"),
        ('{"format": "imperial-save", "version": 99}', "newer"),
    ],
)
def test_bad_save_gives_one_line_and_exit_1(
    tmp_path: Path, command: list[str], content: str, expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    args = [command[0], str(path), *[c for c in command[1:] if c != "--"]]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert expected in _one_error_line(result)
    assert path.read_text() == content


def test_illegal_action_inside_a_save(game_file: Path) -> None:
    runner.invoke(app, ["apply", str(game_file), "AH rondel import", "AH import done"])
    doc = json.loads(game_file.read_text())
    doc["actions"][1] = "AH import fleet vienna"
    game_file.write_text(json.dumps(doc))
    result = runner.invoke(app, ["show", str(game_file)])
    assert result.exit_code == 1
    line = _one_error_line(result)
    assert f"{game_file}: action 2 'AH import fleet vienna' is illegal: " in line


def test_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", str(tmp_path / "nope.json")])
    assert result.exit_code == 1
    assert "no such file" in _one_error_line(result)


# --------------------------------------------------------------------------- options, help


def test_options_lists_every_option() -> None:
    result = runner.invoke(app, ["options"])
    assert result.exit_code == 0
    for name in OPTIONS:
        assert name in result.stdout
    rows = json.loads(runner.invoke(app, ["options", "--json"]).stdout)
    assert [r["name"] for r in rows] == list(OPTIONS)
    assert set(rows[0]["defaults"]) == {"first", "2010"}


@pytest.mark.parametrize("command", ["new", "state", "show", "moves", "apply", "options"])
def test_every_command_has_help_with_examples(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Examples" in result.stdout


def test_top_level_help_and_version() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("new", "state", "show", "moves", "apply", "options"):
        assert command in result.stdout
    assert runner.invoke(app, ["--version"]).stdout.startswith("imperial ")


# --------------------------------------------------------------------------- the map


SGR_COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def _labels() -> list[str]:
    from maps import load_board

    return list(load_board().layout.labels.values())


def test_show_map_at_80_columns_without_colour_has_every_label(game_file: Path) -> None:
    """NO_COLOR=1 at 80 columns: not one colour code, every line fits, every region's label
    is there, and the nations still read (by their codes)."""
    runner.invoke(app, ["apply", str(game_file), "AH rondel import", "AH import army vienna"])
    for env in ({}, {"FORCE_COLOR": "1"}):  # as a pipe, and as if on a terminal
        result = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80", **env}).invoke(
            app, ["show", str(game_file), "--map"]
        )
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert not SGR_COLOUR.search(out), out[:300]
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)  # bold and reverse may stay
        assert max(len(line.rstrip()) for line in plain.splitlines()) <= 80
        for label in _labels():
            assert re.search(rf"\b{label}\b", plain), label
        assert "│VIE■AH│" in plain  # label, armaments factory, owner
        assert "│AH1   │" in plain  # the imported army, on the line below
        assert "≈ BUL–TUR" in out  # the straits, from the map file


def test_show_map_in_ascii(game_file: Path) -> None:
    result = runner.invoke(app, ["--ascii", "show", str(game_file), "--map"])
    assert result.exit_code == 0, result.output
    assert all(ord(c) < 128 for c in result.stdout)
    assert "+------+" in result.stdout and "|BER#GE|" in result.stdout


def test_show_region_answers_who_can_reach_it(game_file: Path) -> None:
    runner.invoke(app, ["apply", str(game_file), "AH rondel import", "AH import army vienna"])
    result = runner.invoke(app, ["show", str(game_file), "--region", "venice"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Venice (VEN)" in out and "home province of IT" in out
    assert "Borders by land: Florence (FLO), Genoa (GEN), Rome (ROM), Trieste (TRI)" in out
    assert "AH 1 army in Vienna (one step)" in out
    bad = runner.invoke(app, ["show", str(game_file), "--region", "atlantis"])
    assert bad.exit_code == 2
    assert "no region 'atlantis'" in bad.stderr


# --------------------------------------------------------------------------- import hygiene


def test_headless_commands_do_not_import_textual(game_file: Path) -> None:
    """`imperial --help`, `state` and `show` must not pull in Textual (fast start, and they
    work where Textual cannot). Checked in a fresh interpreter, as Harlequin does."""
    script = textwrap.dedent(
        f"""
        import sys
        import imperial_tui
        import imperial_tui.cli as cli
        assert "textual" not in sys.modules, "importing imperial_tui.cli imported textual"
        for args in (["--help"], ["state", {str(game_file)!r}, "--json"],
                     ["state", {str(game_file)!r}], ["show", {str(game_file)!r}],
                     ["show", {str(game_file)!r}, "--map"],
                     ["show", {str(game_file)!r}, "--region", "BER"],
                     ["moves", {str(game_file)!r}], ["options"]):
            try:
                cli.app(args, standalone_mode=False)
            except SystemExit:
                pass
            assert "textual" not in sys.modules, f"{{args}} imported textual"
        print("clean")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "80"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("clean")


def test_every_notation_in_actions_md_parses_back() -> None:
    """docs/ACTIONS.md is what players copy from: each example must read and print back."""
    doc = (Path(__file__).parent.parent / "docs" / "ACTIONS.md").read_text(encoding="utf-8")
    examples = re.findall(r"^\| `([^`]+)` \|", doc, flags=re.MULTILINE)
    assert len(examples) >= 20
    for text in examples:
        assert str(parse_action(text)) == text


def test_notation_ignores_the_case_of_ascii_letters_only() -> None:
    """Notation is ASCII but for players' names: keywords and codes read in any case, while
    look-alike letters and digits of other scripts are refused with the usual hint."""
    assert str(parse_action("ah ROndel Import")) == "AH rondel import"
    assert str(parse_action("zoë BUYS it 12 returning it 4")) == "zoë buys IT 12 returning IT 4"
    for text in ("Anna buys IT \u0661\u0662", "AH rondel \u212aactory", "AH rondel \u017fteuer"):
        with pytest.raises(NotationError, match=r"is not an action; try e\.g\."):
            parse_action(text)


def test_every_kind_of_action_is_read_after_the_word_that_names_it() -> None:
    """parse_action tries only the patterns of the word after the nation or player: each kind
    of action must be listed under its word, or its notation would never read."""
    from rules.actions import _KINDS_BY_WORD, _SOURCES

    assert {name for _, name in _SOURCES} == {k for kinds in _KINDS_BY_WORD.values() for k in kinds}
    for source, name in _SOURCES:
        token = source.split(" ")[1]  # "rondel", "buys", "(?P<unit>army|fleet)", ...
        words = [word for word in _KINDS_BY_WORD if re.fullmatch(token, word)]
        assert words and all(name in _KINDS_BY_WORD[word] for word in words), (name, token)


# --------------------------------------------------------------------------- play, rules, bots


def test_new_with_bots_marks_the_seats_and_play_headless_runs_them(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    bots = ["--bot", "Ben=greedy", "--bot", "Cleo=random"]
    made = runner.invoke(app, ["new", "-p", "Anna,Ben,Cleo", "--seed", "5", *bots, "-s", str(save)])
    assert made.exit_code == 0, made.output
    assert "Computer players: Ben (greedy), Cleo (random)" in made.output
    doc = json.loads(save.read_text())
    assert [p["controller"] for p in doc["players"]] == ["human", "bot:greedy", "bot:random"]
    # Anna (human) decides first or after the computers: play --headless stops there
    played = runner.invoke(app, ["play", str(save), "--headless"])
    assert played.exit_code == 0, played.output
    loaded = load_game(save)
    assert loaded.controllers["Ben"] == "bot:greedy"
    assert loaded.game.awaiting is not None and loaded.game.awaiting.player == "Anna"
    assert "Anna must decide" in played.output


def test_play_headless_with_bots_plays_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "duel.json"
    _new(save)
    names = load_game(save).game.players
    bots = [arg for n in names for arg in ("--bot", f"{n}=greedy")]
    played = runner.invoke(app, ["play", str(save), *bots, "--headless"])
    assert played.exit_code == 0, played.output
    assert "Game over" in played.output
    assert load_game(save).game.is_over


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("Zed=greedy", "'Zed' is not a player"),
        ("Anna=clever", "the level must be one of random, greedy, normal, strong"),
        ("Anna", "the level must be one of"),
    ],
)
def test_bot_option_refuses_unknown_names_and_levels(tmp_path: Path, bad: str, why: str) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, ["new", "-p", "Anna,Ben", "--bot", bad, "--save", str(save)])
    assert result.exit_code == 2
    assert why in " ".join(result.output.split())
    assert not save.exists()


def test_every_computer_level_is_accepted_and_saved(tmp_path: Path) -> None:
    from rules.bots import LEVELS

    for level in LEVELS:
        save = tmp_path / f"{level}.json"
        result = runner.invoke(
            app, ["new", "-p", "Anna,Ben", "--bot", f"Ben={level}", "--save", str(save)]
        )
        assert result.exit_code == 0, result.output
        assert load_game(save).controllers["Ben"] == f"bot:{level}"


def test_rules_prints_every_page_or_one_topic() -> None:
    everything = runner.invoke(app, ["rules"])
    assert everything.exit_code == 0
    assert "Topics:" in everything.output and "maneuver" in everything.output
    one = runner.invoke(app, ["rules", "maneuver"])
    assert one.exit_code == 0
    assert one.output.startswith("MANEUVER")
    unknown = runner.invoke(app, ["rules", "nonsense"])
    assert unknown.exit_code == 2
