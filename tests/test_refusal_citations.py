"""Every refusal cites the rule that refuses it (issue #24, item 12).

The walk: positions chosen so that, between them, every ``raise IllegalAction`` in ``rules/``
is reached (a coverage check below names any that is not), and at each position a wide set of
actions, most of them illegal. For each refusal the raise site is read from the exception's
traceback and ``imperial explain`` is asked for the rule; the rule must be a real rules page
with a RULES.md paragraph, never "Action notation", and must be the one for the refusal's
subject (a rondel move refused for its distance is not "choosing Factory without a site").
"""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from play_helpers import random_game

from imperial_tui.render.rules_text import topics
from rules import Game, RuleSet, engine
from rules.actions import (
    NATION_CODES,
    RONDEL_SPACES,
    Action,
    BuildFactory,
    Buy,
    ChangeStatus,
    ChooseRondel,
    DestroyFactory,
    Donate,
    EndManeuver,
    Fight,
    Import,
    MoveArmy,
    MoveFleet,
    NoFight,
    Pass,
    Produce,
    SwissBankForce,
)
from rules.errors import IllegalAction
from rules.explain import NOTATION, RuleRef, explain
from rules.position_text import read_position_text

# the walk (``refusals``) takes seconds: this file's tests share one test process
# (pytest-xdist), so it runs once a run
pytestmark = pytest.mark.xdist_group("refusal_walk")

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"

# Raise sites no action can reach, by file, function and the start of the message, each with
# the reason (a new unreachable one must be argued here, not silently skipped).
UNREACHABLE = {
    ("common.py", "nation_index", "there is no nation"): "a well-formed action names a nation "
    "code; action_problem refuses any other before a rule runs",
    ("economy.py", "apply_import", "an import names a unit"): "a well-formed Import names "
    "both a unit and a province or neither; action_problem refuses the rest",
    ("economy.py", "apply_production", "{} has no factory left"): "the Production decision "
    "ends as soon as no factory can produce",
    ("engine.py", "apply", "nobody has a decision"): "the engine always runs on to a "
    "decision or the end of the game",
    ("game.py", "apply", ""): "text that is no action: explain reads the notation first and "
    "cites Action notation (or the rule, for a bond returned for another nation's)",
    ("battles.py", "remove_active", "no such army"): "callers check that the unit exists",
    ("maneuver.py", "_check_army_move", "the army in {} cannot reach {} by this convoy"): "a "
    "guard: check_convoy_path refuses a broken chain of seas and canals.check a closed or "
    "refused canal first, and army_destinations lists every landing of a chain that passes "
    "both (60 random 2030 games with every chain of 1-3 own fleets reached it nowhere)",
}
# Refusals that are no rule's: they cite the notation.
NOT_A_RULE = {
    ("engine.py", "apply", ""): "a malformed action (built by a program, never written in "
    "notation, e.g. a list where a tuple belongs) breaks no rule of the game",
}


def _argued(table: dict, site: tuple[str, str, int], message: str) -> tuple | None:
    """The entry of ``table`` for a raise site: same file and function, and a message that
    starts with the entry's words ("" stands for a message not written at the raise)."""
    for key in table:
        if key[:2] == site[:2] and (message.startswith(key[2]) if key[2] else not message):
            return key
    return None


BASE = """
players = ["Anna", "Ben", "Cleo"]
{extra}
[Anna]
cash = 30
bonds = ["GE 9", "IT 4"]
[Ben]
cash = 30
bonds = ["RU 9", "AH 9", "FR 9"]
[Cleo]
cash = 1
bonds = ["GB 9", "IT 9"]
"""


def position(extra: str, *before: str) -> Game:
    game = Game.from_position(read_position_text(BASE.format(extra=extra)))
    for action in before:
        game.apply(action)
    return game


def crafted() -> list[Game]:
    """Positions for the refusals a random game rarely reaches."""
    return [
        # Factory: an occupied city, a city with a factory, no money
        position('to_move = "GE build_factory"\n[GE]\ntreasury = 3\n[RU]\narmies = { munich = 1 }'),
        # Production: an occupied factory, an empty army supply
        position(
            'to_move = "GE production"\n[GE]\nfactories = ["berlin", "hamburg", "cologne"]\n'
            "armies = { holland = 4, belgium = 4 }\n[RU]\narmies = { cologne = 1 }"
        ),
        # Production: a factory that produced already
        position(
            'to_move = "GE production"\n[GE]\nfactories = ["berlin", "hamburg", "munich"]',
            "GE produce berlin",
        ),
        # Import: no unit of either kind left in supply
        position(
            'to_move = "GE import"\n[GE]\ntreasury = 5\narmies = { holland = 4, belgium = 4 }\n'
            "fleets = { north_sea = 8 }"
        ),
        # Import: an occupied province, a port without shipyard, no fleets left, no money
        position(
            'to_move = "GE import"\noptions = { import_fleet_needs_shipyard = true }\n'
            '[GE]\nfactories = ["berlin"]\nfleets = { north_sea = 8 }\n'
            "[RU]\narmies = { munich = 1 }"
        ),
        # Maneuver: convoys, a last factory, status changes, rail, Dublin closed
        position(
            'to_move = "GE maneuver"\noptions = { armies_may_enter_dublin = false }\n'
            "[GE]\narmies = { hamburg = 2, cologne = 1, danzig = 1, "
            "warsaw = 1 }\nfleets = { north_sea = 1, baltic_sea = 1 }\n"
            "friendly_armies = { moscow = 1 }\n"
            '[RU]\nfactories = ["moscow"]\narmies = { berlin = 1 }',
            "GE move army hamburg -> norway convoy north_sea",
        ),
        # Maneuver, fleets: one moved already; foreign fleets block convoys
        position(
            'to_move = "GE maneuver"\noptions = { convoy_through_foreign_fleets = false }\n'
            "[GE]\narmies = { hamburg = 1, danzig = 1 }\n"
            "fleets = { north_sea = 1, baltic_sea = 1 }\n[GB]\nfleets = { baltic_sea = 1 }",
            "GE move fleet north_sea -> english_channel",
        ),
        # a convoy needs fewer fleets than named; two seas that do not touch
        position(
            'to_move = "GE maneuver"\n[GE]\narmies = { hamburg = 1, danzig = 1 }\n'
            "fleets = { north_sea = 1, english_channel = 1, baltic_sea = 1 }"
        ),
        # status changes forbidden
        position(
            'to_move = "GE maneuver"\noptions = { status_change_without_moving = false }\n'
            "[GE]\nfriendly_armies = { warsaw = 1 }"
        ),
        # a battle decision: another region, another pair of units
        position(
            'to_move = "GE maneuver"\n[GE]\narmies = { munich = 1 }\n'
            "[AH]\narmies = { vienna = 1 }\n[IT]\nfleets = { ionian_sea = 1 }",
            "GE move army munich -> vienna hostile",
            "GE does not fight",
        ),
        # three armies at a factory, a last factory, a foreign army defending
        position(
            'to_move = "GE maneuver"\n[GE]\narmies = { prague = 3, vienna = 3, lemberg = 1 }\n'
            '[AH]\nfactories = ["vienna", "prague"]\narmies = { budapest = 1 }'
        ),
        # Investor: upgrades only to the next bond, the strict 1M rule
        position(
            'to_move = "Anna invest"\nturn = "IT"\noptions = { bond_upgrade = "next_higher", '
            'last_government_payment = "strict" }\n[IT]\ngovernor = "Cleo"'
        ),
        # the strict 1M rule: Anna would take Cleo's last government at 0 power points
        Game.from_position(
            read_position_text(
                'players = ["Anna", "Ben", "Cleo"]\nto_move = "Anna invest"\nturn = "IT"\n'
                'options = { last_government_payment = "strict" }\n'
                '[Anna]\ncash = 8\nbonds = ["IT 4", "GE 9"]\n[Ben]\nbonds = ["AH 9"]\n'
                '[Cleo]\nbonds = ["IT 9"]'
            )
        ),
        # the game is over
        position(
            'to_move = "GE rondel"\n[GE]\npower = 24\nrondel = "production2"\ntax = 15\n'
            'factories = ["berlin", "hamburg", "cologne", "munich", "danzig"]',
            "GE rondel taxation",
        ),
        # the experienced set-up's bond rounds
        Game.new(["Anna", "Ben", "Cleo"], RuleSet.preset("first", "experienced"), seed=1),
        _after_one_bond(),
        _bond_round_with_a_bond_owned(),
        # Swiss banks (2010)
        _swiss_bank_decision(),
    ]


def _after_one_bond() -> Game:
    game = Game.new(["Anna", "Ben", "Cleo"], RuleSet.preset("first", "experienced"), seed=1)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Buy)))
    return game


def _bond_round_with_a_bond_owned() -> Game:
    """A bond round whose chooser already holds a bond of its nation (a written position:
    the set-up never asks anyone twice in one nation's round)."""
    game = Game.new(["Anna", "Ben", "Cleo"], RuleSet.preset("first", "experienced"), seed=1)
    doc = game.summary()
    aw = doc["awaiting"]
    chooser = next(p for p in doc["players"] if p["name"] == aw["player"])
    chooser["bonds"].append({"nation": aw["nation"], "value": 2})
    chooser.pop("governs", None)
    return Game.from_position(doc)


def _swiss_bank_decision() -> Game:
    rng = random.Random(5)
    for seed in range(200):
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"], RuleSet.preset("2010"), seed=seed)
        for _ in range(400):
            aw = game.awaiting
            if aw is None:
                break
            if aw.kind == "swiss_bank":
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no Swiss bank decision found")


def world_refusals() -> list[tuple[Game, str]]:
    """Refusals only the 2030 board has (its canals), each with the action refused: the
    walk's candidate actions name Europe's regions."""
    from helpers import give_turn, nation_of, new_game, set_flags, set_units

    def table(
        mover: str, units: dict[str, dict[str, int]], flag: str, *before: str, closed=False
    ) -> Game:
        rules = RuleSet.preset(game="2030")
        if closed:  # the controller has no government, and then the canal is closed
            rules = rules.with_options(canal_ungoverned="closed")
        game = new_game(6, rules=rules)
        for region, counts in units.items():
            set_units(game, mover, region, **counts)
        set_flags(game, flag, "colombia")
        if closed:
            game.state.government[nation_of(game, flag)] = -1
        give_turn(game, mover, "investor")
        for action in (f"{mover} rondel maneuver2", *before):
            game.apply(action)
        return game

    fleet = {"caribbean_sea": {"fleets": 1}}
    cross = "US move fleet caribbean_sea -> north_pacific"
    convoy = "BR move army fortaleza -> alaska convoy caribbean_sea,north_pacific"
    carriers = {
        "fortaleza": {"armies": 1},
        "caribbean_sea": {"fleets": 1},
        "north_pacific": {"fleets": 1},
    }
    return [
        # a fleet refused passage asks again
        (table("US", fleet, "BR", cross, "BR refuses US through panama"), cross),
        # an answer about another canal
        (table("US", fleet, "BR", cross), "BR allows US through suez"),
        # an army refused passage: its convoy through the canal no longer reaches
        (table("BR", carriers, "US", convoy, "US refuses BR through panama"), convoy),
        # an army convoyed through a closed canal (canals.check, before the convoy's own)
        (table("BR", carriers, "US", closed=True), convoy),
    ]


def random_positions() -> list[Game]:
    return [random_game(seed, random.Random(seed).randint(0, 300)) for seed in range(8)]


def candidates(game: Game) -> list[Action]:
    """Actions of every kind for the decision at hand, most of them illegal here."""
    s = game.state
    board = s.board
    aw = game.awaiting
    if aw is None:
        return [ChooseRondel("AH", "factory")]
    n = aw.nation or NATION_CODES[max(s.turn, 0)]
    m = NATION_CODES.index(n)
    other = next(c for c in NATION_CODES if c != n)
    ids = [r.id for r in board.regions]
    units = [ids[r] for r in range(len(ids)) if s.armies[m][r] or s.fleets[m][r]]
    home = [ids[r] for r in board.home[m]]
    near = {
        ids[x]
        for o in units
        for y in (*board.land_neighbours[board.index[o]], *board.sea_neighbours[board.index[o]])
        for x in (y, *board.land_neighbours[y])
    }
    fixed = ["vienna", "venice", "moscow", "norway", "dublin", "north_sea", "ionian_sea"]
    fixed += ["switzerland", "atlantis"]
    out: list[Action] = [ChooseRondel(n, space) for space in (*RONDEL_SPACES, "nowhere")]
    out += [BuildFactory(n, r) for r in (*home, "vienna", "holland", "atlantis")]
    out += [Produce(n, r) for r in (*home, "all", "vienna")]
    out += [Import(n, u, r) for u in ("army", "fleet") for r in (*home, "holland")]
    for o in (*units, "holland", "north_sea"):
        for d in (*sorted(near), *fixed):
            out += [MoveFleet(n, o, d), MoveArmy(n, o, d)]
            out += [MoveArmy(n, o, d, (), st) for st in ("hostile", "friendly")]
        out += [MoveArmy(n, o, d, seas) for seas, d in _convoys(game, m)]
        out += [ChangeStatus(n, o, st) for st in ("hostile", "friendly")]
        out.append(DestroyFactory(n, o))
        out += [
            Fight(n, o, u, t, tu)
            for t in NATION_CODES
            for u in ("army", "fleet")
            for tu in ("army", "fleet")
        ]
    out += [ChangeStatus(n, r, "hostile") for r in ("moscow", "warsaw", "vienna")]
    out += [DestroyFactory(n, r) for r in ("prague", "vienna", "berlin", "moscow")]
    out += [Fight(n, "venice", "army", "IT", "army"), NoFight(n), EndManeuver(n)]
    out += [NoFight(other), EndManeuver(other), ChooseRondel(other, "factory")]
    out.append(MoveArmy(n, "vienna", "venice", ["x"]))  # type: ignore[arg-type]  (malformed)
    for player in (*s.players, "Zed"):
        for nation in NATION_CODES:
            out += [Buy(player, nation, v) for v in (2, 3, 4, 9, 12, 30)]
            out += [Buy(player, nation, v, r) for v in (6, 9, 12, 16) for r in (2, 4, 9)]
            out += [SwissBankForce(player, nation, force) for force in (True, False)]
            out += [Donate(player, nation, amount) for amount in (0, 10**6)]
        out.append(Pass(player))
    return out


def _convoys(game: Game, m: int) -> list[tuple[tuple[str, ...], str]]:
    """Chains of one or two seas (the nation's fleets, a sea twice, two seas apart, a land
    region) with every region on the last sea's coast: (seas, destination)."""
    board = game.state.board
    ids = [r.id for r in board.regions]
    seas = [r for r in board.sea_indices if game.state.fleets[m][r]]
    chains = [(x,) for x in seas] + [(x, y) for x in seas for y in seas]
    chains += [(x, board.index["ionian_sea"]) for x in seas]
    chains += [(board.index["holland"],)]
    out = []
    for chain in chains:
        coast = [d for d in board.land_neighbours[chain[-1]]] if chain else []
        for d in (*coast, board.index["vienna"], chain[-1]):
            out.append((tuple(ids[x] for x in chain), ids[d]))
    return out


def raise_sites() -> dict[tuple[str, str, int], str]:
    """Every ``raise IllegalAction(...)`` in rules/: (file, function, line) -> the start of
    its message (``{}`` for what is filled in; "" when the message is not written there)."""
    sites = {}
    for path in sorted(RULES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                if (
                    isinstance(node, ast.Raise)
                    and isinstance(node.exc, ast.Call)
                    and getattr(node.exc.func, "id", "") == "IllegalAction"
                ):
                    sites[(path.name, func.name, node.lineno)] = _message(node.exc.args[0])
    return sites


def _message(arg: ast.expr) -> str:
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in arg.values)
    return ""


def site_of(exc: IllegalAction) -> tuple[str, str, int]:
    """The raise site: the innermost frame of the traceback in rules/."""
    tb, site = exc.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if Path(code.co_filename).resolve().parent == RULES_DIR:
            site = (Path(code.co_filename).name, code.co_name, tb.tb_lineno)
        tb = tb.tb_next
    assert site is not None
    return site


def walk() -> dict[tuple[str, str, int], tuple[str, str, RuleRef]]:
    """Raise site -> (an action refused there, the engine's reason, explain's rule)."""
    found: dict[tuple[str, str, int], tuple[str, str, RuleRef]] = {}
    for game in [*crafted(), *random_positions()]:
        for action in candidates(game):
            try:
                engine.apply(game.state, action)
            except IllegalAction as exc:
                site = site_of(exc)
                if site not in found:
                    found[site] = (str(action), exc.reason, explain(game, action).rule)
    for game, text in world_refusals():
        try:
            game.apply(text)
        except IllegalAction as exc:
            site = site_of(exc)
            found.setdefault(site, (text, exc.reason, explain(game, text).rule))
        else:
            raise AssertionError(f"{text!r} was not refused")
    return found


@pytest.fixture(scope="module")
def refusals() -> dict[tuple[str, str, int], tuple[str, str, RuleRef]]:
    return walk()


def test_the_walk_reaches_every_refusal_the_engine_can_give(refusals) -> None:
    unreachable = []
    missing = []
    for site, message in raise_sites().items():
        argued = _argued(UNREACHABLE, site, message)
        if argued:
            unreachable.append(argued)
            assert site not in refusals, f"{site} is reached after all: {refusals[site]}"
        elif site not in refusals:
            missing.append((site, message))
    assert not missing, f"refusals no position of the walk reaches: {missing}"
    assert sorted(unreachable) == sorted(UNREACHABLE)  # each argued case still exists


PARAGRAPH = re.compile(r"§\d+(\.\d+)*(, §\d+(\.\d+)*)*")


def test_every_refusal_cites_a_rules_page_and_a_rules_paragraph(refusals) -> None:
    pages = set(topics())
    messages = raise_sites()
    for site, (action, reason, rule) in sorted(refusals.items()):
        where = f"{site}: {action!r} ({reason})"
        if _argued(NOT_A_RULE, site, messages[site]):
            assert rule == NOTATION, where
            continue
        assert rule != NOTATION, where
        assert rule.page in pages, where
        assert PARAGRAPH.fullmatch(rule.paragraph), where


# What a refusal is about, by the words of its reason, and the rule it must cite: a rondel
# move refused for its distance is not "choosing Factory without a site", a convoy's broken
# chain of seas is the convoy rule, the strict 1M payment is the government check.
SUBJECTS = [
    (r"can move at most 6 spaces|must move on the rondel", "Rondel, moving the marker"),
    (r"cannot pay \d+M to move", "Rondel, cost of the move"),
    (r"may not choose Factory", "Factory, choosing Factory without a site"),
    (r"cannot choose Investor", "Investor, interest the treasury cannot pay"),
    (r" convoy |not on its coast|cannot land from|are not adjacent", "Maneuver, convoy"),
    (r"would take over", "Investor, the government check"),
    (r"returned|does not own the|an upgrade must|in an upgrade", "Investor, upgrading a bond"),
]


def test_each_refusal_cites_the_rule_of_its_subject(refusals) -> None:
    examples = [(str(a), r, explain(g, a).rule) for g, a, r in rondel_refusals()]
    for site, (action, reason, rule) in [*sorted(refusals.items()), *enumerate(examples)]:
        if rule == NOTATION or rule.short().startswith(("Sequence of play", "Variants")):
            continue  # no rule, not the decision at hand, or a variant's own investing
        for pattern, cited in SUBJECTS:
            if re.search(pattern, f"{action} {reason}") and "fleet" not in action:
                assert rule.short() == cited, f"{site}: {action!r} ({reason}) cites {rule}"
                break


def rondel_refusals() -> list[tuple[Game, Action, str]]:
    """One position for each refusal of a rondel move (rules.rondel.rondel_refusal)."""
    out = []
    for extra, action in [
        ('to_move = "GE rondel"\n[GE]\nrondel = "factory"', "GE rondel factory"),
        ('to_move = "GE rondel"\n[GE]\nrondel = "factory"', "GE rondel taxation"),
        ('to_move = "IT rondel"\n[IT]\nrondel = "factory"\ngovernor = "Cleo"', "IT rondel import"),
        (
            'to_move = "IT rondel"\n[IT]\nrondel = "factory"\ngovernor = "Cleo"',
            "IT rondel investor",
        ),
        (
            'to_move = "IT rondel"\noptions = { factory_without_site = "forbidden" }\n'
            '[IT]\nrondel = "taxation"\ngovernor = "Cleo"',
            "IT rondel factory",
        ),
    ]:
        game = position(extra)
        try:
            game.copy().apply(action)
        except IllegalAction as exc:
            out.append((game, game.parse(action), exc.reason))
        else:
            raise AssertionError(f"{action} is legal in {extra!r}")
    return out


def test_explain_cites_upgrading_a_bond_for_returning_another_nations_bond(tmp_path) -> None:
    """The issue's case, driven as a user would: returning an AH bond for an IT bond is
    refused by the rule on upgrading (Investor, RULES.md §5.5.2), not by the notation."""
    text = BASE.format(extra='to_move = "Anna invest"\nturn = "IT"').replace(
        'bonds = ["GE 9", "IT 4"]', 'bonds = ["GE 9", "IT 4", "AH 4"]'
    )
    (tmp_path / "q.toml").write_text(text)
    run = [sys.executable, "-m", "imperial_tui.cli"]
    made = subprocess.run(
        [*run, "new", "--position", "q.toml", "-s", "q.json"], cwd=tmp_path, capture_output=True
    )
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [*run, "explain", "q.json", "Anna buys IT 12 returning AH 4"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "illegal: a bond can only be returned for a bond of the same nation (IT, not AH) "
        "(Investor, upgrading a bond)"
    )
    assert "  rule: Investor, upgrading a bond (`imperial rules investor`, RULES.md §5.5.2)" in (
        lines
    )
