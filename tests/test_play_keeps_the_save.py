"""`imperial play FILE` keeps what the save holds beside the game: the computer players'
reasons, the pause setting, and the warnings of its reading (shown in the app). It saves
the seats at once, so anything it dropped was gone from the file (found by playing it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from imperial_tui.cli import quick
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
