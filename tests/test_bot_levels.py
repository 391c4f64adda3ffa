"""Every computer level in every set-up: a legal action for every kind of decision (battles,
Swiss banks, bond choices and the experienced set-up included) with a reason for the log;
seeded bots are reproducible; with hidden cash a bot never reads another player's cash; the
levels are listed for menus and built by name.

Search levels run here with a tiny budget (a handful of playouts, no time limit reached), so
these tests take seconds; their strength is measured by benchmarks/tournament.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import Game, RuleSet
from rules.actions import Action
from rules.bots import BOT_LEVELS, LEVELS, Choice, make_bot

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
CONFIGS = [
    (players, edition, variant)
    for players in range(2, 7)
    for edition in ("first", "2010")
    for variant in ("standard", "experienced", "no-investor-card")
]
KINDS = {
    "rondel",
    "swiss_bank",
    "build_factory",
    "produce",
    "import",
    "maneuver",
    "battle",
    "invest",
    "bond_choice",
}


def quick(level: str, seed: int = 1, hidden_cash: bool = False):
    """A bot of ``level``; search levels with a budget of a few playouts (reproducible)."""
    bot = make_bot(level, seed, hidden_cash=hidden_cash)
    if hasattr(bot, "settings"):
        bot.settings = replace(
            bot.settings,
            playouts=6,
            horizon=2,
            plans=2,
            candidates=3,
            end_horizon=3,
            far_horizon=3 if bot.settings.far_horizon else 0,
            processes=1,
        )
        bot.budget = 30.0
    return bot


def positions(players: int, edition: str, variant: str, seed: int) -> dict[str, list[Game]]:
    """Positions of a random game, up to three of each decision kind."""
    rng = random.Random(seed)
    game = Game.new(list(NAMES[:players]), RuleSet.preset(edition, variant), seed=seed)
    found: dict[str, list[Game]] = {}
    while game.awaiting is not None and len(game.plies) < 2500:
        kind = game.awaiting.kind
        actions = game.legal_actions()
        if len(actions) > 1 and len(found.get(kind, ())) < 3 and rng.random() < 0.3:
            found.setdefault(kind, []).append(game.copy())
        game.apply(rng.choice(actions))
    return found


def check_choice(choice: Choice, game: Game) -> None:
    assert isinstance(choice, Choice)
    assert choice.action in game.legal_actions(), f"{choice.action} is not legal"
    assert "\n" not in choice.reason and len(choice.reason) <= 120, choice.reason


@pytest.mark.parametrize(("players", "edition", "variant"), CONFIGS)
def test_every_level_decides_legally_in_every_set_up(players: int, edition: str, variant: str):
    seed = players * 10 + len(edition) + len(variant)
    found = positions(players, edition, variant, seed)
    for i, level in enumerate(BOT_LEVELS):
        bot = quick(level, seed + i)
        for kind, games in found.items():
            game = games[i % len(games)]
            before = game.summary()
            choice = bot.decide(game)
            check_choice(choice, game)
            assert game.summary() == before, f"{level} changed the game deciding {kind}"


def test_the_set_ups_reach_every_kind_of_decision() -> None:
    seen: set[str] = set()
    for config in CONFIGS:
        seen |= set(positions(*config, seed=3))
    assert seen >= KINDS, f"never reached: {KINDS - seen}"


@pytest.mark.parametrize("level", ["greedy", "normal", "strong", "warmonger"])
def test_levels_explain_their_decisions(level: str) -> None:
    game = Game.new(list(NAMES[:3]), seed=8)
    bot = quick(level, 2)
    explained = decisions = 0
    while game.awaiting is not None and len(game.plies) < 160:
        if len(game.legal_actions()) > 1:
            choice = bot.decide(game)
            check_choice(choice, game)
            decisions += 1
            explained += bool(choice.reason)
            game.apply(choice.action)
        else:
            game.apply(game.legal_actions()[0])
    assert decisions > 20
    assert explained == decisions


@pytest.mark.parametrize("level", ["greedy", "normal", "banker"])
def test_a_seeded_bot_is_reproducible(level: str) -> None:
    def run() -> list[Action]:
        game = Game.new(list(NAMES[:4]), seed=12)
        bot = quick(level, 5)
        out = []
        while game.awaiting is not None and len(game.plies) < 120:
            action = bot.choose(game)
            out.append(action)
            game.apply(action)
        return out

    assert run() == run()


# ------------------------------------------------------------------------------ hidden cash


def rich_rival_changes(level: str, game: Game) -> tuple[Game, int] | None:
    """A copy of ``game`` in which one rival's cash alone (not a public move) makes a bot that
    reads cash choose differently, with that rival's seat; None if no rival does."""
    me = game.players.index(game.awaiting.player)
    plain = quick(level, 3).choose(game)
    for q in range(len(game.players)):
        if q == me:
            continue
        for amount in (0, 400):
            other = game.copy()
            other.state.cash[q] = amount
            if quick(level, 3).choose(other) != plain:
                return other, q
    return None


@pytest.mark.parametrize("level", ["greedy", "normal", "strong"])
def test_with_hidden_cash_a_bot_never_reads_another_players_cash(level: str) -> None:
    game = Game.new(list(NAMES[:4]), seed=21)
    driver = quick("greedy", 9)
    tested = 0
    while game.awaiting is not None and len(game.plies) < 400 and tested < 3:
        kind = game.awaiting.kind
        if kind in ("rondel", "invest") and len(game.legal_actions()) > 1:
            changed = rich_rival_changes(level, game)
            if changed is not None:
                edited, _ = changed
                # reading the position would change its choice; with hidden cash it does not
                hidden_plain = quick(level, 3, hidden_cash=True).choose(game)
                hidden_edited = quick(level, 3, hidden_cash=True).choose(edited)
                assert hidden_plain == hidden_edited
                assert hidden_plain in game.legal_actions()
                tested += 1
        game.apply(driver.choose(game))
    assert tested, "no position where another player's cash mattered"


# ------------------------------------------------------------------------------ levels


def test_levels_are_listed_with_a_one_line_description_and_built_by_name() -> None:
    assert list(LEVELS) == list(BOT_LEVELS)
    assert {"random", "greedy", "normal", "strong"} <= set(LEVELS)
    for name, level in LEVELS.items():
        assert level.name == name
        assert level.description and "\n" not in level.description
        assert len(level.description) <= 60
        assert make_bot(name, 1).decide(Game.new(["A", "B"], seed=1)).action is not None
    with pytest.raises(ValueError, match="unknown computer level 'godlike'"):
        make_bot("godlike")


def test_strong_judges_its_playouts_with_its_own_table_and_simulates_greedys() -> None:
    """docs/BOTS.md, "Its own evaluation": the strong level ends its playouts with table 5
    (tempo, Investor card, threats), its simulated greedy players keep table 4; every other
    search level, the personalities included, keeps its own weights."""
    from rules.bots.evaluation import DEFAULT
    from rules.bots.personalities import PERSONALITIES
    from rules.bots.search import SearchBot

    strong = make_bot("strong", 1, processes=1)
    assert isinstance(strong, SearchBot)
    assert strong.weights.learned == 5 and strong.settings.rollout_eval == 4
    normal = make_bot("normal", 1)
    assert isinstance(normal, SearchBot) and normal.weights == DEFAULT
    assert normal.settings.rollout_eval == 0
    for name, (weights, _style) in PERSONALITIES.items():
        bot = make_bot(name, 1)
        assert isinstance(bot, SearchBot) and bot.weights == weights


def test_a_bot_keeps_no_global_state() -> None:
    """A fresh bot decides the same whatever other bots did before it was made."""
    game = Game.new(list(NAMES[:4]), seed=2)
    before = quick("normal", 4).decide(game).action
    busy = quick("normal", 4)
    other = Game.new(list(NAMES[:3]), seed=9)
    for _ in range(30):
        other.apply(busy.choose(other))
    assert quick("normal", 4).decide(game).action == before


def test_sessions_build_bots_from_saves_and_tell_them_about_hidden_cash() -> None:
    from imperial_tui.model.session import Session
    from rules.savefile import SaveError

    game = Game.new(list(NAMES[:3]), seed=1)
    controllers = {"Anna": "human", "Ben": "bot:strong", "Cleo": "bot:greedy"}
    hidden = Session(game, controllers, hidden_cash=True)
    assert hidden.bots["Ben"].hidden_cash and hidden.bots["Cleo"].hidden_cash
    assert not Session(game, controllers).bots["Ben"].hidden_cash
    with pytest.raises(SaveError, match="Ben: unknown computer level 'godlike'"):
        Session(game, {"Anna": "human", "Ben": "bot:godlike", "Cleo": "human"})


def test_search_does_not_spend_a_turn_that_changes_nothing() -> None:
    """At the start no nation has a unit: a Maneuver changes nothing but the marker, and the
    search does not consider it while another space does something (the play-tester's
    complaint: "a free rondel turn that changes nothing")."""
    game = Game.new(["A", "B", "C", "D"], seed=1)
    bot = make_bot("strong", seed=1)
    spaces = {a.space for a in game.legal_actions()}
    assert {"maneuver1", "maneuver2"} <= spaces
    considered = {
        c.action.space for c in bot.candidates(game.state, "rondel", game.legal_actions())
    }
    assert considered and not considered & {"maneuver1", "maneuver2"}
    assert considered <= spaces
    try:
        chosen = bot.choose(game)
    finally:
        bot.close()
    assert chosen.space not in {"maneuver1", "maneuver2"}


def test_playouts_in_several_processes_are_auto_or_on_request() -> None:
    from rules.bots.search import auto_processes

    assert 1 <= auto_processes() <= 2  # what processes=0 uses: one per core, at most two
    assert make_bot("strong", seed=1).settings.processes == 0  # the strong level: auto
    assert make_bot("normal", seed=1).settings.processes == 1
    assert make_bot("strong", seed=1, processes=2).settings.processes == 2
    assert make_bot("greedy", seed=1, processes=1).name == "greedy"  # no playouts to share


def test_leaving_a_game_stops_its_computer_players_processes() -> None:
    """The app closes the game it leaves (a new game, a load, a branch): the strong level's
    playout processes stop, so an evening of many games gathers no idle processes; a closed
    bot still decides, alone."""
    from imperial_tui.app import ImperialApp
    from imperial_tui.model.session import Session

    game = Game.new(list(NAMES[:3]), seed=1)
    session = Session(game, {"Anna": "bot:strong", "Ben": "human", "Cleo": "human"})
    bot = session.bots["Anna"]
    bot.settings = replace(bot.settings, processes=2, playouts=8, horizon=1)
    while game.awaiting.player != "Anna" or len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    bot.decide(game)
    assert bot.wait_for_workers()  # started in the background on the first decision
    workers = list(bot._pool.processes)
    assert workers and all(w.is_alive() for w in workers)
    app = ImperialApp(session=session)
    app.session = Session(Game.new(list(NAMES[:3]), seed=2), dict.fromkeys(NAMES[:3], "human"))
    for w in workers:
        w.join(timeout=20)
    assert not any(w.is_alive() for w in workers)
    assert bot.decide(game).action in game.legal_actions()
    assert bot._pool is None


def test_a_search_player_without_processes_to_be_had_decides_alone(monkeypatch) -> None:
    """Starting the playout processes fails (a sandbox without semaphores, a broken
    interpreter): the bot decides alone, as with processes=1, instead of failing."""
    import rules.bots.parallel as parallel

    def no_pool(processes: int) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(parallel, "PlayoutPool", no_pool)
    bot = make_bot("strong", seed=1, processes=2)
    bot.settings = replace(bot.settings, playouts=8, horizon=1)
    game = Game.new(list(NAMES[:3]), seed=1)
    assert bot.decide(game).action in game.legal_actions()
    assert not bot.wait_for_workers()
    assert bot._alone and bot._pool is None
    assert bot.decide(game).action in game.legal_actions()
