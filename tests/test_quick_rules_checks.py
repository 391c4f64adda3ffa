"""Quick rules checks from the shell (issue #24, items 11, 13 and 14), each driven as a user
would: a position written by hand, `imperial new --position`, then `moves`, `explain` and
`apply` in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imperial(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imperial_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "300"},
        check=False,
    )


def game_from(tmp_path: Path, text: str) -> Path:
    (tmp_path / "q.toml").write_text(text)
    made = imperial("new", "--position", "q.toml", "--save", "q.json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return tmp_path / "q.json"


def lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


# --------------------------------------------------------------------------- 11 donations

AH_SHORT = """
players = ["Anna", "Ben"]
to_move = "AH {decision}"
[Anna]
cash = {cash}
bonds = ["AH 9"]
[Ben]
bonds = ["IT 9"]
[AH]
treasury = {treasury}
"""


def test_a_factory_the_treasury_cannot_pay_shows_the_donation_route(tmp_path: Path) -> None:
    """The issue's case: AH's treasury holds 3M and its governor 2M. The government may first
    donate personal cash so the treasury can pay (RULES.md §5.1)."""
    save = game_from(tmp_path, AH_SHORT.format(decision="build_factory", cash=2, treasury=3))
    moves = lines(imperial("moves", "q.json", cwd=tmp_path))
    assert moves[:2] == ["Anna decides (build_factory, AH):", "  AH build no factory"]
    assert moves[2].startswith("Legal after a donation (AH's treasury holds 3M")
    route = "Anna may donate 2M first (`Anna donates 2 to AH`)"
    assert f"  AH build factory prague: {route}" in moves
    explained = imperial("explain", "q.json", "AH build factory prague", cwd=tmp_path)
    assert explained.returncode == 1
    assert lines(explained)[0] == (
        "illegal: Austria-Hungary cannot afford 5M for a factory; its treasury holds 3M; "
        f"{route} (Factory, building)"
    )
    # the route is real: the donation, then the build
    done = imperial(
        "apply", "q.json", "Anna donates 2 to AH", "AH build factory prague", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Austria-Hungary pays 5M to build" in done.stdout
    assert json.loads(imperial("state", str(save), "--json", cwd=tmp_path).stdout)["regions"][
        "prague"
    ]["factory"]


def test_an_import_the_treasury_cannot_pay_shows_the_donation_route(tmp_path: Path) -> None:
    """Imports are limited by the money in the treasury "after any donation by the
    government" (RULES.md §5.3)."""
    game_from(tmp_path, AH_SHORT.format(decision="import", cash=2, treasury=0))
    moves = lines(imperial("moves", "q.json", cwd=tmp_path))
    assert moves[:2] == ["Anna decides (import, AH):", "  AH import done"]
    assert "  AH import army vienna: Anna may donate 1M first (`Anna donates 1 to AH`)" in moves
    assert "  AH import fleet trieste: Anna may donate 1M first (`Anna donates 1 to AH`)" in moves
    explained = lines(imperial("explain", "q.json", "AH import army budapest", cwd=tmp_path))
    assert explained[0].endswith(
        "its treasury holds 0M; Anna may donate 1M first (`Anna donates 1 to AH`) "
        "(Import, importing)"
    )


def test_no_donation_route_when_the_governor_cannot_make_up_the_difference(
    tmp_path: Path,
) -> None:
    game_from(tmp_path, AH_SHORT.format(decision="build_factory", cash=1, treasury=3))
    moves = lines(imperial("moves", "q.json", cwd=tmp_path))
    assert moves == ["Anna decides (build_factory, AH):", "  AH build no factory"]
    explained = lines(imperial("explain", "q.json", "AH build factory prague", cwd=tmp_path))
    assert explained[0] == (
        "illegal: Austria-Hungary cannot afford 5M for a factory; its treasury holds 3M "
        "(Factory, building)"
    )


# --------------------------------------------------------------------------- 13 friendly


def test_explain_of_a_factory_beside_a_friendly_foreign_army_says_why_it_is_allowed(
    tmp_path: Path,
) -> None:
    """A friendly army does not occupy a province (RULES.md §4.2): Germany may build in Munich
    with two friendly French armies there, and explain says that is why."""
    game_from(
        tmp_path,
        """
players = ["Anna", "Ben"]
to_move = "GE build_factory"
[Anna]
bonds = ["GE 9"]
[Ben]
bonds = ["FR 9"]
[GE]
treasury = 8
[FR]
friendly_armies = { munich = 2 }
""",
    )
    explained = imperial("explain", "q.json", "GE build factory munich", cwd=tmp_path)
    assert explained.returncode == 0
    assert lines(explained)[0] == (
        "legal: an unoccupied city of its own without a factory, for 5M from the treasury; "
        "Munich is not occupied: the 2 FR armies there are friendly, and only a hostile army "
        "occupies a province (RULES.md §4.2) (Factory, building)"
    )
    plain = lines(imperial("explain", "q.json", "GE build factory danzig", cwd=tmp_path))
    assert "friendly" not in plain[0]


# --------------------------------------------------------------------------- 14 port fleets

VENICE = """
players = ["Anna", "Ben"]
edition = "{edition}"
to_move = "AH maneuver"
{options}
[Anna]
bonds = ["AH 9"]
[Ben]
bonds = ["IT 9"]
[AH]
friendly_armies = {{ venice = 1 }}
[IT]
fleets = {{ venice = 1 }}
"""


@pytest.mark.parametrize(
    ("edition", "options", "offered"),
    [
        ("first", "", False),
        ("2010", "", True),
        ("first", "options = { port_fleet_fights_present_army = true }", True),
        ("2010", "options = { port_fleet_fights_present_army = false }", False),
    ],
)
def test_a_port_fleet_fights_an_army_that_turns_hostile_only_under_the_option(
    tmp_path: Path, edition: str, options: str, offered: bool
) -> None:
    """[HU1] FAQ: an army and a fleet fight only while the fleet is in port and a foreign army
    steps into its province. An army that turns hostile where it stands enters nothing, so in
    the first edition (port_fleet_fights_present_army=false) Italy's fleet in Venice is not
    offered a fight; 2010 lets a port fleet fight an army already there."""
    game_from(tmp_path, VENICE.format(edition=edition, options=options))
    done = imperial("apply", "q.json", "AH make army venice hostile", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    moves = lines(imperial("moves", "q.json", cwd=tmp_path))
    fight = "  IT fleet fights AH army in venice"
    assert (fight in moves) is offered, moves
    if offered:
        assert moves[0] == "Ben decides (battle, IT):"
        # the battle decision round-trips as a position, with what makes it a switch
        state = imperial("state", "q.json", "--json", cwd=tmp_path).stdout
        assert json.loads(state)["position"]["decision"]["switched"] is True
        (tmp_path / "pos.json").write_text(state)
        again = imperial("new", "--position", "pos.json", "-s", "again.json", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert fight in lines(imperial("moves", "again.json", cwd=tmp_path))
    else:
        assert moves[0] == "Anna decides (maneuver, AH):"
        assert "  AH army fights IT fleet in venice" not in moves
