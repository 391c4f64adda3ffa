"""Bots: random and greedy games run to the end, in Python and from the command line; the
greedy bot beats the random one; the headless commands never import Textual."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import Game
from rules.bots import GreedyBot, RandomBot, make_bot, play_out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_vs_greedy_runs_to_the_end(seed: int) -> None:
    game = Game.new(["Rita", "Greg", "Rolf", "Gina"], seed=seed)
    bots = {
        "Rita": RandomBot(seed),
        "Greg": GreedyBot(seed),
        "Rolf": RandomBot(seed + 9),
        "Gina": GreedyBot(seed + 9),
    }
    played = play_out(game, bots)
    assert game.is_over, f"not over after {played} actions"
    result = game.result()
    assert result is not None and result.winners


def test_greedy_beats_random_most_of_the_time() -> None:
    wins = 0
    for seed in range(6):
        game = Game.new(["Rita", "Greg"], seed=seed)
        play_out(game, {"Rita": RandomBot(seed), "Greg": GreedyBot(seed)})
        wins += game.result().winners == ("Greg",)
    assert wins >= 5


def test_bots_return_only_legal_actions_and_do_not_touch_the_game() -> None:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=4, rules=None)
    bot = make_bot("greedy", 1)
    for _ in range(60):
        before = game.summary()
        action = bot.choose(game)
        assert game.summary() == before
        assert str(action) in {str(a) for a in game.legal_actions()}
        game.apply(action)


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imperial_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def test_random_vs_greedy_from_the_command_line(tmp_path: Path) -> None:
    save = tmp_path / "duel.json"
    made = run_cli("new", "-p", "Rita,Greg", "--seed", "4", "--save", str(save), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    done = run_cli(
        "play",
        str(save),
        "--bot",
        "Rita=random",
        "--bot",
        "Greg=greedy",
        "--headless",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    doc = json.loads(save.read_text())
    assert {p["controller"] for p in doc["players"]} == {"bot:random", "bot:greedy"}
    state = run_cli("state", str(save), "--json", cwd=tmp_path)
    assert json.loads(state.stdout)["finished"] is True


PROBE = (
    "import sys, runpy; sys.argv = ['imperial', *{args!r}];\n"
    "try:\n    runpy.run_module('imperial_tui.cli', run_name='__main__')\n"
    "except SystemExit:\n    pass\n"
    "print('TEXTUAL' if any(m == 'textual' or m.startswith('textual.') for m in sys.modules)"
    " else 'CLEAN')"
)


@pytest.mark.parametrize("args", [["--help"], ["rules"], ["rules", "rondel"], ["state"], ["show"]])
def test_headless_commands_do_not_import_textual(tmp_path: Path, args: list[str]) -> None:
    save = tmp_path / "g.json"
    run_cli("new", "-p", "Anna,Ben", "--seed", "1", "--save", str(save), cwd=tmp_path)
    if args in (["state"], ["show"]):
        args = [*args, str(save)]
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=args)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert out.stdout.strip().endswith("CLEAN"), out.stdout[-300:] + out.stderr[-300:]


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_decide_gives_a_legal_action_with_a_reason_field(level: str) -> None:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=3)
    bot = make_bot(level, seed=1)
    for _ in range(60):
        choice = bot.decide(game)
        assert choice.action in game.legal_actions()
        assert isinstance(choice.reason, str)
        game.apply(choice.action)
