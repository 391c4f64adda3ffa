"""`imperial play FILE` keeps what the save holds beside the game: the computer players'
reasons, the pause setting, and the warnings of its reading (shown in the app). It saves
changed seats at once, so anything it dropped was gone from the file (found by playing it);
a save it only opens is not written at all (another app showing it is not disturbed)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from imperial_tui.cli import app, quick
from imperial_tui.model.reasons import Reason
from imperial_tui.model.session import Session
from rules import Game, RuleSet
from rules.controllers import Controller

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
REASON = "taxation: tax 4M: treasury +2M, power +0"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A game of 30 random actions with a reason for action 3 and pause "turn"."""
    game = Game.new(PLAYERS, RuleSet(), seed=3)
    rng = random.Random(3)
    while len(game.plies) < 30:
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "game.json"
    reasons = {3: Reason(str(game.plies[2].action), REASON)}
    session = Session(game, dict.fromkeys(PLAYERS, "human"), path, reasons=reasons, pause="turn")
    session.save()
    return path


def opened_by_play(path: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    """The session `imperial play FILE` hands to the app (the app itself not started)."""
    import imperial_tui.app

    shown: list[Session] = []
    monkeypatch.setattr(imperial_tui.app, "run_app", lambda app: shown.append(app.session))
    assert quick.answer(["play", str(path)]) == 0
    return shown[0]


def test_play_keeps_the_reasons_and_the_pause_in_the_app_and_in_the_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = opened_by_play(saved, monkeypatch)
    assert session.reasons[3].text == REASON and session.pause == "turn"
    again = Session.load(saved)  # what play wrote before the app started
    assert again.reasons[3].text == REASON and again.pause == "turn"


def test_play_hands_the_warnings_of_the_save_to_the_app(
    saved: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(saved.read_text(encoding="utf-8"))
    doc["app"]["pace"] = "fast"
    saved.write_text(json.dumps(doc), encoding="utf-8")
    session = opened_by_play(saved, monkeypatch)
    assert any("pace" in warning for warning in session.warnings), session.warnings
    assert "pace" in capsys.readouterr().err  # (also said before the app starts)


def test_seats_given_to_play_keep_the_rest_of_the_save(saved: Path) -> None:
    """`imperial play FILE --bot Ben=greedy`: the seat changes, the rest stays."""
    session = quick.reseat(Session.load(saved), {"Ben": Controller("bot:greedy")})
    assert session.controllers["Ben"] == "bot:greedy" and session.bot_for("Ben") is not None
    assert session.reasons[3].text == REASON and session.pause == "turn"
    session.save()
    again = Session.load(saved)
    assert again.reasons[3].text == REASON and again.controllers["Ben"] == "bot:greedy"
    session.close_bots()


def test_opening_a_save_in_play_leaves_its_bytes_and_time_alone(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second `imperial play FILE` of a save open in another window: nothing is written, so
    the first window does not see the file changed (no "reload?" for nothing)."""
    first = Session.load(saved)  # the window already showing it
    old = saved.stat().st_mtime_ns - 5_000_000_000  # (a write now would show on any disk)
    os.utime(saved, ns=(old, old))
    before = saved.read_bytes()
    opened_by_play(saved, monkeypatch)
    assert saved.read_bytes() == before
    assert saved.stat().st_mtime_ns == old
    assert not first.file_changed()


def test_play_with_seats_changed_on_the_command_line_saves_them(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import imperial_tui.app

    shown: list[Session] = []
    monkeypatch.setattr(imperial_tui.app, "run_app", lambda app: shown.append(app.session))
    done = CliRunner().invoke(app, ["play", str(saved), "--bot", "Ben=greedy"])
    assert done.exit_code == 0, done.output
    assert Session.load(saved).controllers["Ben"] == "bot:greedy"
    assert not shown[0].file_changed()  # (the app knows the file as written)
    shown[0].close_bots()


def test_play_upgrades_a_save_of_an_older_form(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save written before the pause setting existed gets it written on opening; only when
    and by which program it was saved differing is no reason to write."""
    doc = json.loads(saved.read_text(encoding="utf-8"))
    doc["saved"], doc["program"] = "2020-01-01T00:00:00+00:00", "imperial 0.0.1"
    saved.write_text(json.dumps(doc), encoding="utf-8")
    before = saved.read_bytes()
    opened_by_play(saved, monkeypatch)
    assert saved.read_bytes() == before
    del doc["app"]["pause"]
    saved.write_text(json.dumps(doc), encoding="utf-8")
    session = opened_by_play(saved, monkeypatch)
    app_settings = json.loads(saved.read_text(encoding="utf-8"))["app"]
    assert app_settings["pause"] == "off" and app_settings["reasons"]  # (the rest stays)
    assert not session.file_changed()
