"""The tournament tool (benchmarks/tournament.py) runs a tiny tournament: seats rotate, the
report has win rates with confidence intervals, scores, decision times and game lengths.
No timing is asserted: the machine is shared."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import tournament  # noqa: E402


def test_a_tiny_tournament_rotates_seats_and_reports() -> None:
    report = tournament.run_tournament(("normal", "greedy"), games=2, jobs=1, budget=0.005)
    assert len(report.records) == 2
    first, second = (r.spec for r in report.records)
    assert first.levels == ("normal", "greedy") and second.levels == ("greedy", "normal")
    assert first.seed == second.seed  # one deal, played from both seats
    assert all(r.finished for r in report.records)
    summary = report.summary()
    assert summary["normal"]["wins"] + summary["greedy"]["wins"] == pytest.approx(2)
    assert 0 <= summary["normal"]["low"] <= summary["normal"]["rate"] <= summary["normal"]["high"]
    assert summary["normal"]["decisions"] > 0
    text = report.text()
    assert "95% CI" in text and "decision median" in text and "game length" in text


def test_levels_with_settings_and_the_command_line(capsys: pytest.CaptureFixture) -> None:
    bot = tournament.build_bot("strong:budget=0.5,horizon=2,eval=0", seed=1)
    assert bot.settings.horizon == 2 and bot.budget == 0.5 and bot.weights.learned == 0
    tournament.main(["random", "random", "random", "--games", "3", "--edition", "both"])
    out = capsys.readouterr().out
    assert "3 games of 3 players" in out and "random x3" in out


def test_confidence_intervals() -> None:
    low, high = tournament.wilson(80, 100)
    assert 0.70 < low < 0.80 < high < 0.88
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_a_tiny_mixed_table_reports_the_exact_model_share() -> None:
    """A search level at a table of different opponents: the report says how many of its
    searched decisions copied the table exactly (the figure that tells whether a win rate was
    earned against players it simulates or against players it cannot copy)."""
    levels = ("strong:processes=1,playouts=4,horizon=1,far_horizon=2", "banker", "greedy")
    report = tournament.run_tournament(levels, games=3, jobs=1, budget=0.005)
    assert len(report.records) == 3 and all(r.finished for r in report.records)
    assert {r.spec.levels[0] for r in report.records} == set(levels)  # seats rotated
    share = report.model_share()
    searched, exact = share[levels[0]]
    assert searched > 0 and 0 <= exact <= searched
    assert "banker" in share and "greedy" not in share  # greedy does not search
    text = report.text()
    assert "exact model of the table" in text and "searched decisions" in text
    assert all(r.moves and len(r.moves) == r.actions for r in report.records)
    for r in report.records:  # a nation turn's time is the sum of its decisions' times
        for level, took in r.times.items():
            assert sum(r.turn_times[level]) == pytest.approx(sum(took))
            assert len(r.turn_times[level]) <= len(took)


def test_bot_habits_counts_wasted_turns_and_idle_units(capsys: pytest.CaptureFixture) -> None:
    import bot_habits

    bot_habits.main(["--levels", "greedy,random", "--games", "2", "--jobs", "1", "--seed", "4"])
    out = capsys.readouterr().out
    assert "2 games of 2 players (greedy, random), seeds 4-5" in out
    for line in ("wasted rondel choices", "declined actions", "units idle 5 Maneuvers"):
        assert line in out
    assert out.count("seat-games") == 2


def test_bot_habits_reads_records_of_tables_of_different_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    import bot_habits

    two, three = tmp_path / "two.jsonl", tmp_path / "three.jsonl"
    tournament.main(["greedy", "random", "--games", "2", "--seed", "5", "--record", str(two)])
    tournament.main(["greedy", "random", "random", "--games", "3", "--record", str(three)])
    capsys.readouterr()
    bot_habits.main(["--records", str(two), str(three)])
    out = capsys.readouterr().out
    assert out.startswith("5 games of 2 and 3 players (greedy, random)")
    assert "greedy (5 seat-games" in out and "random (8 seat-games" in out


def test_a_tiny_tournament_on_the_world_board(capsys: pytest.CaptureFixture) -> None:
    tournament.main(["random", "random", "--games", "2", "--game", "2030"])
    out = capsys.readouterr().out
    assert "2 games of Imperial 2030 of 2 players" in out
    with pytest.raises(SystemExit):
        tournament.main(["random", "random", "--game", "2030", "--edition", "first"])


def test_score_gap_splits_a_recorded_games_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    import score_gap

    record = tmp_path / "games.jsonl"
    tournament.main(["greedy", "random", "--games", "2", "--seed", "5", "--record", str(record)])
    capsys.readouterr()
    tally = score_gap.count([str(record)], "greedy")
    assert tally.seats == {"greedy": 2, "random": 2}
    json_lines = [json.loads(x) for x in record.read_text().splitlines()]
    for level in ("greedy", "random"):  # score = cash + bonds (interest x final factor)
        c = tally.sums[level]
        assert c["score"] == c["cash"] + c["bonds"]
    assert sum(tally.parts[w]["games"] for w in (True, False)) == len(json_lines) == 2
    score_gap.main([str(record), "--level", "greedy"])
    out = capsys.readouterr().out
    assert "greedy (2 seat-games)" in out and "a governed turn" in out
    assert "margin over the best other seat" in out
    assert "interest in the strongest nation" in out
