"""The paired comparison of two runs on the same deals (benchmarks/paired.py): games are
matched by deal and seat order, the level is found in its seat whatever its settings, and
the margin's change is the mean of the pairs' differences."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402


def record(seed: int, index: int, levels: list[str], scores: list[int]) -> str:
    best = max(scores)
    winners = [i for i, x in enumerate(scores) if x == best]
    shares = [1 / len(winners) if i in winners else 0.0 for i in range(len(scores))]
    spec = {"seed": seed, "index": index, "levels": levels}
    return json.dumps({"spec": spec, "scores": scores, "shares": shares})


def test_games_are_paired_by_deal_and_seat_order_and_the_margin_change_is_averaged(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    base = [
        record(7, 0, ["strong", "normal"], [100, 110]),  # margin -10, lost
        record(7, 1, ["normal", "strong"], [90, 120]),  # margin +30, won
        record(8, 2, ["strong", "normal"], [100, 100]),  # margin 0, shared
    ]
    new = [
        record(7, 0, ["strong:budget=1.0", "normal"], [115, 110]),  # +5: 15 better
        record(7, 1, ["normal", "strong:budget=1.0"], [90, 115]),  # +25: 5 worse
        record(9, 2, ["strong:budget=1.0", "normal"], [200, 100]),  # another deal: unpaired
    ]
    (tmp_path / "a.jsonl").write_text("\n".join(base) + "\n")
    (tmp_path / "b.jsonl").write_text("\n".join(new) + "\n")
    result = paired.compare(
        paired.read([tmp_path / "a.jsonl"], "strong"), paired.read([tmp_path / "b.jsonl"], "strong")
    )
    assert result.pairs == 2
    assert result.base_wins == 1 and result.new_wins == 2
    assert (result.better, result.worse) == (1, 1)
    assert result.change == pytest.approx(5.0)  # (15 - 5) / 2
    assert result.error == pytest.approx(10.0)  # stdev of (15, -5) over sqrt(2)
    paired.main(["strong", "--base", str(tmp_path / "a.jsonl"), "--new", str(tmp_path / "b.jsonl")])
    out = capsys.readouterr().out
    assert "2 paired games" in out and "+5.0 points a game" in out


def test_a_level_must_sit_in_exactly_one_seat() -> None:
    assert paired.matches("strong:budget=1.0", "strong")
    assert not paired.matches("strong", "strong:budget=1.0")
    with pytest.raises(SystemExit, match="not in one seat"):
        paired.seats([record(1, 0, ["normal", "normal"], [1, 2])], "strong")


def test_a_missing_or_foreign_file_is_a_one_line_reason(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="No such file"):
        paired.read([tmp_path / "still-running.jsonl"], "strong")
    (tmp_path / "notes.jsonl").write_text("not json\n")
    with pytest.raises(SystemExit, match="not a tournament record"):
        paired.read([tmp_path / "notes.jsonl"], "strong")
    (tmp_path / "other.jsonl").write_text('{"spec": {}}\n')
    with pytest.raises(SystemExit, match="not a tournament record"):
        paired.read([tmp_path / "other.jsonl"], "strong")
