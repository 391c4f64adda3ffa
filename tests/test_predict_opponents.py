"""The model-of-the-others tool (benchmarks/predict_opponents.py) watches a level's choices
and reports how greedy's exact rule and the strong level's simulated players predicted them."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import predict_opponents


def test_the_watched_levels_rondel_and_bond_choices_are_scored_against_the_models() -> None:
    seen: dict[str, predict_opponents.Seen] = {}
    predict_opponents.watch_game(["normal", "greedy"], "normal", 7, 3, seen, budget=0.005)
    rondel, bonds = seen["rondel"], seen["invest"]
    assert rondel.count > 10 and bonds.count > 0
    # every chance is a share of the draws, and each rondel choice was ranked
    assert all(c in (0, 1 / 3, 2 / 3, 1) for c in rondel.chances + bonds.chances)
    assert sum(rondel.ranks.values()) == rondel.count
    assert 0 <= rondel.greedy_hits <= rondel.count
    lines = predict_opponents.report(seen)
    assert lines[0].startswith(f"rondel: {rondel.count} decisions; greedy's exact rule")
    assert sum("softmax" in line for line in lines) == len(predict_opponents.TEMPERATURES)


def test_a_softmax_of_equal_values_spreads_the_chance_evenly() -> None:
    looks = {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}
    assert predict_opponents.softmax_chance(looks, "b", 2.0) == pytest.approx(0.25)
    assert predict_opponents.softmax_chance(looks, "e", 2.0) == 0.0


def test_the_tool_refuses_a_table_without_the_watched_level(capsys) -> None:
    with pytest.raises(SystemExit):
        predict_opponents.main(["greedy", "greedy", "--watch", "normal"])
    assert "no seat plays normal" in capsys.readouterr().err


def test_a_recorded_tournament_game_is_replayed_and_its_choices_scored(tmp_path, capsys) -> None:
    """The tool scores the models on a tournament's own games (``--record``): the same
    decisions as watching the game being played, without asking any bot again."""
    import tournament

    spec = tournament.GameSpec(0, ("greedy", "random"), "first", "standard", 11, None, False)
    record = tournament.play_game(spec)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(dataclasses.asdict(record)) + "\n")
    predict_opponents.main(["--record", str(path), "--games", "0", "--watch", "greedy"])
    out = capsys.readouterr().out
    assert out.startswith(f"greedy's choices at 1 recorded games of {path}, 30 draws")
    # greedy's exact rule is greedy: it predicts every one of greedy's own choices
    assert "greedy's exact rule chose the same in 100%" in out
    # and what the strong level's table watch made of the watched seat by the game's end
    assert "the table watch's reading at each game's end (softmax at 2 points)" in out
    assert out.rstrip().endswith("of 1 seats")


def test_the_model_is_strongs_settings_with_the_changes_named() -> None:
    model = predict_opponents.model_settings("others_temperature=3,rollout_width=0")
    assert (model.others_temperature, model.rollout_width) == (3.0, 0)
    assert model.horizon == predict_opponents.STRONG.horizon
    with pytest.raises(ValueError, match="not a setting"):
        predict_opponents.model_settings("temperature=3")
