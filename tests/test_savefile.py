"""Save files: the round trip, the atomic write and one clear line for every broken file.

A save is the game's record (header + actions in notation); loading replays it, so these tests
check both that a save reproduces the position exactly and that a damaged or foreign file fails
with a SaveError whose message names the file in one line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rules import Game, RuleSet
from rules.program_version import installed_version, program_version
from rules.savefile import FORMAT, VERSION, SaveError, load_game, save_game

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def played_game(steps: int = 40, players: list[str] | None = None, **kw: Any) -> Game:
    """A game a few dozen actions in, chosen deterministically among the legal ones so that
    the test covers several kinds of decisions without depending on any one rule."""
    game = Game.new(players or PLAYERS, seed=kw.pop("seed", 11), **kw)
    for i in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply(legal[(i * 7) % len(legal)])
    return game


def write_doc(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Game, Path]:
    game = played_game()
    path = tmp_path / "game.json"
    save_game(game, path)
    return game, path


# --------------------------------------------------------------------------- round trip


def test_round_trip_gives_identical_summary_and_history(saved: tuple[Game, Path]) -> None:
    game, path = saved
    loaded = load_game(path)
    assert loaded.game.summary() == game.summary()
    assert [str(a) for a in loaded.game.history] == [str(a) for a in game.history]
    assert loaded.game.setup == game.setup


def test_program_version_is_what_importlib_metadata_says() -> None:
    """The save's "program" field is read from the installed metadata without
    importlib.metadata (20-30 ms at the app's start, issue 26): the same answer."""
    from importlib.metadata import version

    assert installed_version() == version("imperial")
    assert program_version() == f"imperial {version('imperial')}"


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        # the first folder on the path holding the distribution answers, names normalised
        ({"a/Imperial-9.1.dist-info/METADATA": "Name: imperial\nVersion: 9.1\n"}, "9.1"),
        ({"a/x.txt": "", "b/imperial-2.0.dist-info/METADATA": "Version: 2.0\n"}, "2.0"),
        ({"a/other-1.0.dist-info/METADATA": "Version: 1.0\n"}, None),
        # left to importlib.metadata: an egg-info, no Version header before the body
        ({"a/imperial-3.0.egg-info/PKG-INFO": "Version: 3.0\n"}, None),
        ({"a/imperial-4.0.dist-info/METADATA": "Name: imperial\n\nVersion: 4.0\n"}, None),
    ],
)
def test_installed_version_finds_the_metadata_as_importlib_does(
    entries: dict[str, str],
    expected: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, text in entries.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr("sys.path", [str(tmp_path / "a"), str(tmp_path / "b")])
    assert installed_version() == expected


def test_header_fields(saved: tuple[Game, Path]) -> None:
    game, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    # a game from the set-up keeps version 1, which older programs read; VERSION is the
    # highest this program reads (2: a game that starts from a position)
    assert doc["format"] == FORMAT and doc["version"] == 1 <= VERSION
    assert doc["program"].startswith("imperial ")
    assert doc["edition"] == "first" and doc["variant"] == "standard"
    assert doc["options"] == RuleSet().options()
    assert doc["players"] == [{"name": p, "controller": "human"} for p in PLAYERS]
    assert doc["seed"] == 11
    assert set(doc["deal"]["cards"]) == set(PLAYERS)
    assert isinstance(doc["created"], str) and isinstance(doc["saved"], str)
    assert doc["app"] == {}
    assert doc["actions"] == [str(a) for a in game.history]


def test_controllers_app_and_created_survive(tmp_path: Path) -> None:
    game = played_game(5)
    path = tmp_path / "g.json"
    app = {"theme": "dark", "hidden_cash": True}
    save_game(game, path, controllers={"Ben": "bot:greedy"}, app=app, created="2024-01-02T03:04")
    loaded = load_game(path)
    assert loaded.controllers == {
        "Anna": "human",
        "Ben": "bot:greedy",
        "Cleo": "human",
        "Dan": "human",
    }
    assert loaded.app == app
    assert loaded.header["created"] == "2024-01-02T03:04"
    assert "actions" not in loaded.header


def test_experienced_variant_and_donation_round_trip(tmp_path: Path) -> None:
    rules = RuleSet.preset("2010", "experienced")
    game = Game.new(PLAYERS, rules=rules, deal="Cleo")
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    if game.can_donate("Anna"):
        game.apply("Anna donates 1 to AH")
    path = tmp_path / "exp.json"
    save_game(game, path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["deal"] == {"starter": "Cleo"}
    loaded = load_game(path)
    assert loaded.game.summary() == game.summary()
    assert loaded.game.rules == rules


def test_changed_options_round_trip(tmp_path: Path) -> None:
    rules = RuleSet.preset("first").with_options(bank="limited", tie_break="highest_bond")
    game = Game.new(PLAYERS[:3], rules=rules, seed=4)
    path = tmp_path / "g.json"
    save_game(game, path)
    assert load_game(path).game.rules == rules


def test_option_missing_from_an_older_save_takes_the_preset(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["options"]["bank"]
    write_doc(path, doc)
    assert load_game(path).game.rules.bank == RuleSet.preset("first").bank


def test_unknown_controller_player_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="Zed"):
        save_game(played_game(1), tmp_path / "g.json", controllers={"Zed": "human"})


# --------------------------------------------------------------------------- atomic write


def _only_file(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_failed_fsync_leaves_the_old_file(
    saved: tuple[Game, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, path = saved
    before = path.read_bytes()
    game.apply(game.legal_actions()[0])

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(SaveError, match="No space left on device"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert _only_file(path.parent) == ["game.json"]  # the temporary file is gone


def test_failed_replace_leaves_the_old_file(
    saved: tuple[Game, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, path = saved
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveError, match="cannot save"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert _only_file(path.parent) == ["game.json"]


def test_unserialisable_app_settings_leave_the_old_file(saved: tuple[Game, Path]) -> None:
    game, path = saved
    before = path.read_bytes()
    with pytest.raises(SaveError):
        save_game(game, path, app={"bad": object()})
    assert path.read_bytes() == before


def test_save_keeps_file_permissions(saved: tuple[Game, Path]) -> None:
    game, path = saved
    path.chmod(0o640)
    save_game(game, path)
    assert path.stat().st_mode & 0o777 == 0o640


# --------------------------------------------------------------------------- broken files


def _message(path: Path) -> str:
    with pytest.raises(SaveError) as info:
        load_game(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    return message


def test_missing_file(tmp_path: Path) -> None:
    assert "no such file" in _message(tmp_path / "nope.json")


def test_directory(tmp_path: Path) -> None:
    assert "directory" in _message(tmp_path)


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b"\xff\xfe\x00\x81garbage")
    assert "not an imperial save" in _message(path)


def test_corrupt_json(saved: tuple[Game, Path]) -> None:
    _, path = saved
    path.write_bytes(path.read_bytes()[:200])
    assert "not valid JSON" in _message(path)


@pytest.mark.parametrize("doc", [{"a": 1}, [1, 2], "text", {"format": "other-save"}])
def test_foreign_json(tmp_path: Path, doc: Any) -> None:
    assert "not an imperial save file" in _message(write_doc(tmp_path / "g.json", doc))


def test_newer_version(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["version"] = VERSION + 1
    message = _message(write_doc(path, doc))
    assert "newer" in message and f"version {VERSION + 1}" in message


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("version", "1", '"version"'),
        ("edition", "third", '"edition"'),
        ("variant", 3, '"variant"'),
        ("options", [], '"options"'),
        ("players", "Anna,Ben", '"players"'),
        ("players", [{"name": "Anna"}], "bad players"),
        ("players", [{"name": "Anna"}, {"name": "anna"}], "bad players"),
        ("players", [{"name": "Anna", "controller": 3}, {"name": "Ben"}], "controller"),
        ("seed", "x", '"seed"'),
        ("deal", [], '"deal"'),
        ("deal", {"starter": "Anna"}, '"deal"'),
        ("app", [], '"app"'),
        ("created", 5, '"created"'),
        ("actions", "AH rondel import", '"actions"'),
    ],
)
def test_ill_typed_fields(saved: tuple[Game, Path], key: str, value: Any, expected: str) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc[key] = value
    assert expected in _message(write_doc(path, doc))


@pytest.mark.parametrize(
    "key", ["edition", "variant", "options", "players", "seed", "deal", "actions"]
)
def test_missing_field(saved: tuple[Game, Path], key: str) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc[key]
    assert f'"{key}" is missing' in _message(write_doc(path, doc))


def test_unknown_option(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["options"]["dragons"] = True
    assert "unknown rule option 'dragons'" in _message(write_doc(path, doc))


def test_option_with_a_wrong_value_or_type(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["options"]["swiss_banks"] = 1  # 1 is not true
    assert "swiss_banks" in _message(write_doc(path, doc))


def test_deal_that_breaks_the_set_up_rules(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    cards = doc["deal"]["cards"]
    first, second = PLAYERS[0], PLAYERS[1]
    cards[first] = list(cards[second])
    assert "bad deal" in _message(write_doc(path, doc))


def test_illegal_action_names_number_text_and_reason(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"][36] = "AH import fleet vienna"
    message = _message(write_doc(path, doc))
    assert message.startswith(f"{path}: action 37 'AH import fleet vienna' is illegal: ")
    assert len(message) > len(f"{path}: action 37 'AH import fleet vienna' is illegal: ")


def test_text_that_is_not_an_action(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"][0] = "castle kingside"
    assert "action 1 'castle kingside' is not an action" in _message(write_doc(path, doc))


def test_non_string_action(saved: tuple[Game, Path]) -> None:
    _, path = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"][2] = {"move": 1}
    assert "action 3 must be a string" in _message(write_doc(path, doc))


def test_layout_is_valid_json_with_one_action_per_line(tmp_path: Path) -> None:
    game = played_game(6)
    path = tmp_path / "g.json"
    app = {"note": "Wien – Triest, ü", "nested": {"a": [1, 2, {"b": None}]}}
    doc = save_game(game, path, app=app)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == doc
    assert "Wien – Triest, ü" in text  # UTF-8, not \\u escapes
    lines = [line.rstrip(",") for line in text.splitlines()]
    for action in doc["actions"]:
        assert f'    "{action}"' in lines
