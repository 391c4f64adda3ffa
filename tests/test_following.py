"""Following the game (issue #9), by keys: "since your last turn" after computer players moved
and at hot-seat hand-overs, the computer players' reasons in the log (kept in the save), their
pause, the standings (the engine's provisional result), the history turn by turn (the position
the engine recorded after N actions) and "play from here" (a new save that loads to that
position)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from helpers import bonds_of, give_bond, give_turn, nation_of, new_game, set_cash
from pilot import drive, screen_text, until
from rich.console import Console

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.recap import recap
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import Choice, GreedyBot
from rules.history import game_at

REASON = "buys AH 12: takes the government"


class ScriptedBot:
    """A computer player for tests: takes a wanted action when it is legal, with its reason;
    otherwise plays as the greedy bot, without one."""

    name = "scripted"

    def __init__(self, wants: dict[str, str] | None = None, seed: int = 1) -> None:
        self.wants = wants or {}
        self.greedy = GreedyBot(seed)

    def decide(self, game: Game) -> Choice:
        for action in game.legal_actions():
            if str(action) in self.wants:
                return Choice(action, self.wants[str(action)])
        return Choice(self.greedy.choose(game), "")

    def close(self) -> None:
        self.greedy.close()

    def choose(self, game: Game) -> object:
        return self.decide(game).action


def text_of(renderable: object, width: int = 100) -> str:
    console = Console(file=StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def ben_takes_austria(tmp_path: Path) -> Session:
    """Anna (human) governs AH and must choose its rondel space; Ben, a computer player with
    20M and the investor card, buys AH 12 at the next Investor and takes AH from her."""
    built = new_game(3)
    set_cash(built, "Ben", 20)
    give_turn(built, "AH", None)
    g = Game.from_position(built.summary())  # a real start, so the save replays it
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "bot:greedy"}
    session = Session(g, controllers, tmp_path / "g.json")
    session.bots["Ben"] = ScriptedBot({"Ben buys AH 12": REASON})  # type: ignore[assignment]
    session.bots["Cleo"] = ScriptedBot(seed=2)  # type: ignore[assignment]
    return session


async def test_since_your_last_turn_names_the_government_a_computer_took_and_its_reason(
    tmp_path: Path,
) -> None:
    session = ben_takes_austria(tmp_path)

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)  # nothing happened before her decision
        app.apply_human(session.game.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        aw = session.game.awaiting
        assert aw.player == "Anna" and session.game.state.government[0] == 1  # Ben: AH
        found = app.screen.found
        lines = [(line.nation, line.text) for line in found.lines]
        assert lines[0] == ("AH", "Ben took the government from you"), lines
        assert "Ben" in found.actors and found.start == 1  # after her own decision
        # (the screen is pushed before it is drawn: wait for its first frame)
        await until(pilot, lambda: "since your last turn" in screen_text(app), what="recap")
        assert "took the government from you" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("w")  # again, by its key
        await pilot.pause()
        assert type(app.screen).__name__ == "RecapScreen"
        assert app.screen.found.lines[0].text == "Ben took the government from you"
        await pilot.press("escape")
        # the reason in the log, under Ben's purchase
        await pilot.press("4")
        await pilot.pause()
        log = app.screen.query_one("#log-panel")
        written = " ".join(" ".join(line.text for line in log.lines).split())
        assert REASON in written and "Ben (computer)" in written
    # the reason is kept with the save and shown again after loading it
    loaded = Session.load(tmp_path / "g.json")
    plies = loaded.game.plies
    number = next(i for i, p in enumerate(plies, 1) if str(p.action) == "Ben buys AH 12")
    assert loaded.reasons[number].text == REASON

    app = ImperialApp(session=loaded, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        if type(app.screen).__name__ == "RecapScreen":
            await pilot.press("escape")
        await pilot.press("4")
        await pilot.pause()
        log = app.screen.query_one("#log-panel")
        assert REASON in " ".join(" ".join(line.text for line in log.lines).split())


async def test_a_player_who_watched_every_move_is_not_greeted_by_the_recap(
    tmp_path: Path,
) -> None:
    """Issue #24 item 2: the recap opens only when something happened that the player has
    not seen on screen. At a pace the computers' moves stay on screen (watched); at pace 0
    they pass unseen and the recap tells them (the test above); w always shows it."""
    session = ben_takes_austria(tmp_path)

    app = ImperialApp(session=session, pace=0.05)
    async with drive(app) as pilot:
        await pilot.pause()
        app.apply_human(session.game.parse("AH rondel investor"))
        await until(pilot, lambda: session.game.awaiting.player == "Anna", limit=2000)
        for _ in range(20):  # the recap would open a frame after the board: it does not
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
        assert session.game.state.government[0] == 1  # Ben took AH, on screen
        await pilot.press("w")
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        assert app.screen.found.lines[0].text == "Ben took the government from you"


async def test_hot_seat_recap_is_each_players_own_after_the_hand_over(tmp_path: Path) -> None:
    """Two humans with hidden cash: the hand-over names the nation and the decision; the
    recap comes after it (never over the previous player's view), and covers what the other
    player did since this player's own previous decision."""
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    session = Session(g, {"Anna": "human", "Ben": "human"}, tmp_path / "h.json", hidden_cash=True)

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "HandoverScreen"
        await pilot.press("enter")
        await pilot.pause()
        assert session.viewer == "Anna" and isinstance(app.screen, GameScreen)
        app.apply_human(g.parse("AH rondel investor"))  # the card pays Ben 2M
        await pilot.pause()
        handover = app.screen
        assert type(handover).__name__ == "HandoverScreen"
        await until(pilot, lambda: "Next: Ben, to decide whether to invest." in screen_text(app))
        await pilot.press("enter")
        await pilot.pause()
        assert session.viewer == "Ben"
        assert type(app.screen).__name__ == "RecapScreen"  # after the hand-over only
        lines = [line.text for line in app.screen.found.lines]
        assert "your cash 0M -> 2M (+2M: the investor card)" in lines, lines
        assert not any("Anna" in t and "cash" in t for t in lines)  # hidden cash
        await pilot.press("escape")
        app.apply_human(g.parse("Ben passes"))
        await until(pilot, lambda: g.awaiting.player == "Ben" and g.awaiting.kind == "rondel")
        app.apply_human(g.parse("IT rondel taxation"))
        await until(pilot, lambda: g.awaiting.player == "Anna")
        await until(pilot, lambda: "Pass the keyboard to Anna" in screen_text(app))
        assert "Next: Anna for" in screen_text(app)


async def test_a_donation_is_the_donors_own_decision_and_brings_no_recap_back(
    tmp_path: Path,
) -> None:
    """The recap runs from the player's previous decision; a donation is one (the donor's),
    so after it the recap already read does not open again."""
    session = ben_takes_austria(tmp_path)
    g = session.game

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        app.apply_human(g.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        plies = len(g.plies)
        await pilot.press("d")
        await pilot.pause()
        assert type(app.screen).__name__ == "PromptScreen"
        await pilot.press("1", "enter")
        for _ in range(5):
            await pilot.pause()
        assert len(g.plies) == plies + 1 and g.plies[-1].action.kind == "donate"
        assert isinstance(app.screen, GameScreen), type(app.screen).__name__


async def test_computer_players_pause_after_each_decision_until_a_key(tmp_path: Path) -> None:
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    session = Session(g, {"Anna": "human", "Ben": "bot:greedy"}, tmp_path / "p.json")
    session.bots["Ben"] = ScriptedBot({"IT rondel import": "import: armies for Rome"})  # type: ignore[assignment]
    session.pause = "decision"

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        for text in ("AH rondel import", "AH import done"):
            app.apply_human(g.parse(text))
            await pilot.pause()
        await until(pilot, lambda: type(app.screen).__name__ == "PausedScreen")
        plies = len(g.plies)
        for _ in range(10):
            await pilot.pause()
        assert len(g.plies) == plies  # waiting for the key
        await until(pilot, lambda: "Ben (computer) decided" in screen_text(app))
        said = screen_text(app)
        assert "Ben (computer) decided" in said and "IT moves to Import" in said
        assert "import: armies for Rome" in said  # the reason
        await pilot.press("p")  # the pause setting cycles: off
        await pilot.pause()
        assert session.pause == "off"
        await pilot.press("enter")
        await until(pilot, lambda: g.awaiting.player == "Anna")
        assert Session.load(tmp_path / "p.json").pause == "off"


def mid_game(hidden: bool = False, tmp: Path | None = None) -> Session:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    bot = GreedyBot(2)
    for _ in range(60):
        game.apply(bot.choose(game))
    path = tmp / "m.json" if tmp is not None else None
    return Session(game, dict.fromkeys(game.players, "human"), path, hidden_cash=hidden)


async def test_standings_are_the_engines_provisional_result() -> None:
    session = mid_game()
    result = session.game.provisional_result()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("escape", "v")
        await pilot.pause()
        assert type(app.screen).__name__ == "StandingsScreen"
        now = text_of(app.screen.query_one("#standings-now").content)
        rows = {line.split()[0]: line.split() for line in now.splitlines() if line.split()}
        for p in result.players:
            assert rows[p.name][-1] == str(p.total), (p.name, now)
            assert rows[p.name][-2] == str(p.cash), (p.name, now)
        assert f"{result.winners[0]} wins" in now or "shared victory" in now
        power = text_of(app.screen.query_one("#standings-power").content)
        for n, code in enumerate(("AH", "IT", "FR", "GB", "GE", "RU")):
            pp = session.game.state.power[n]
            assert any(line.split()[:2] == [code, str(pp)] for line in power.splitlines())
        rounds = text_of(app.screen.query_one("#standings-rounds").content)
        assert "now" in rounds and "1 " in rounds
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


def test_standings_with_hidden_cash_show_only_bond_points_of_the_others() -> None:
    session = mid_game(hidden=True)
    session.viewer = "Anna"
    from imperial_tui.render.standings import bond_points, standings_table

    result = session.game.provisional_result()
    others = {"Ben", "Cleo", "Dan"}
    text = text_of(standings_table(result, others))
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.split()}
    for name in others:
        assert rows[name][-2:] == ["?", f"{bond_points(result, name)}+?"], rows[name]
    assert rows["Anna"][-1] == str(result.scores["Anna"])


async def test_history_shows_the_position_after_n_actions_and_branches_from_it(
    tmp_path: Path,
) -> None:
    session = mid_game(tmp=tmp_path)
    session.save()
    game = session.game
    saved = (tmp_path / "m.json").read_text()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("escape", "h")
        await pilot.pause()
        history = app.screen
        assert type(history).__name__ == "HistoryScreen"
        await pilot.press("left", "left", "comma")
        await pilot.pause()
        at = history.view.at
        assert 0 < at < len(game.plies)
        replayed = Game(game.setup)
        for action in game.history[:at]:
            replayed.apply(action)
        assert history.session.game.summary() == replayed.summary()
        # every panel shows that position: the nations as they were
        nations = history.query_one("#nations")
        expected = nations.render_key(nations.key(Session(replayed, session.controllers)))
        assert text_of(nations.render_key(nations._last_key)) == text_of(expected)
        # the turn's log with the action shown marked
        ol = history.query_one("#decision-options")
        shown = [ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)]
        assert any(line.startswith(f"▶{at:4}") for line in shown), shown
        # play from here: Ben becomes a computer player, the new save loads to there
        await pilot.press("b")
        await pilot.pause()
        assert type(app.screen).__name__ == "BranchScreen"
        await pilot.press("tab", "enter", "down", "enter")  # seat 2: computer (greedy)
        await pilot.pause()
        target = Path(str(app.screen.query_one("#branch-path").value))
        await pilot.press("ctrl+g")
        await pilot.pause()
        await pilot.pause()
        assert app.session.path == target and app.session is not session
        assert isinstance(app.game_screen(), GameScreen)
    branch = Session.load(target)
    assert branch.game.summary() == game_at(game, at).summary()
    assert branch.game.rules == game.rules
    assert branch.controllers["Ben"].startswith("bot:") and branch.controllers["Anna"] == "human"
    assert (tmp_path / "m.json").read_text() == saved  # the game it came from is untouched


async def test_history_escape_returns_to_the_present() -> None:
    session = mid_game()

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("escape", "h", "left", "left", "escape")
        await pilot.pause()
        assert type(app.screen) is GameScreen
        assert app.screen.query_one("#nations")._last_key == app.screen.query_one("#nations").key(
            session
        )


async def test_a_scroll_key_reaching_the_recap_after_it_closed_is_ignored(tmp_path: Path) -> None:
    """Found by the monkey test: a key queued while the recap closes (its widgets already
    gone) ended the app with NoMatches; it must do nothing."""
    session = ben_takes_austria(tmp_path)
    g = session.game

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        app.apply_human(g.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        recap = app.screen
        recap.dismiss(None)
        await pilot.pause()
        recap.action_scroll(1)  # what its "down" binding runs
        await pilot.pause()
        assert app.return_code is None and isinstance(app.screen, GameScreen)


async def test_log_numbers_actions_and_puts_a_reason_before_the_next_turns_heading(
    tmp_path: Path,
) -> None:
    """The log's numbers are action numbers (those of the recap, the history and `imperial
    log`), and a computer's reason stands under its own action, never under the heading of
    the turn its action opened."""
    session = ben_takes_austria(tmp_path)
    g = session.game

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (100, 30)) as pilot:
        await pilot.pause()
        app.apply_human(g.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        await pilot.press("escape", "4")
        for _ in range(20):
            await pilot.pause()
            if app.screen.query_one("#log-panel").lines:
                break
        lines = [line.text for line in app.screen.query_one("#log-panel").lines]
        number = next(i for i, p in enumerate(g.plies, 1) if str(p.action) == "Ben buys AH 12")
        at = next(i for i, t in enumerate(lines) if t.startswith(f"{number:4} "))
        assert "Ben" in lines[at], lines[at]
        reason = next(i for i, t in enumerate(lines) if REASON in t)
        assert reason > at
        between = lines[at:reason]
        assert not any(t.lstrip().startswith("—") for t in between), between
        numbered = [int(t[:4]) for t in lines if t[:4].strip().isdigit()]
        assert numbered == sorted(numbered) and numbered[-1] <= len(g.plies)


def summary_with_hostile_armies(game: Game, region_id: str, nation: str) -> dict:
    after = game.summary()
    after["regions"][region_id]["units"] = [
        {"nation": nation, "kind": "army", "count": 1, "hostile": True}
    ]
    return after


def test_recap_names_the_occupier_once_as_the_lines_coloured_prefix() -> None:
    g = new_game(4)  # Anna governs AH
    before = g.summary()
    after = summary_with_hostile_armies(g, "vienna", "FR")
    lines = recap(before, after, "Anna", home_of={"vienna": "AH"}, names={"vienna": "Vienna"})
    occupied = [line for line in lines if "occupy" in line.text]
    assert [(line.nation, line.text) for line in occupied] == [("FR", "armies occupy Vienna (AH)")]


def test_recap_says_a_bond_upgrade_is_a_trade_up_returning_the_lower_bond() -> None:
    g = new_game(4)
    give_bond(g, "Ben", "AH", 6)
    set_cash(g, "Ben", 20)
    give_turn(g, "AH", None)
    g = Game.from_position(g.summary())
    g.apply("AH rondel investor")  # Ben holds the investor card: he invests first
    before = g.summary()
    upgrade = g.parse("Ben buys AH 12 returning AH 6")
    g.apply(upgrade)
    lines = recap(before, g.summary(), "Anna", [upgrade])
    bonds = [line.text for line in lines if line.nation == "AH" and "bond" in line.text]
    assert sum(bonds_of(g, "Anna", "AH")) == 9
    # every holder, the largest first, the governor marked (Ben took AH with his 12M)
    assert bonds == [
        "Ben traded up to the 12M bond, returning the 6M (credit: Ben 12M governs, you 9M, Cleo 4M)"
    ]


def test_recap_bond_line_names_the_governor_when_the_reader_does_not_lead() -> None:
    """Issue #24 item 2: "Ben bought the 2M bond (credit: you 9M, Ben 2M)" while Dan governed
    with 12M read as if the reader led."""
    g = new_game(4)
    give_bond(g, "Dan", "AH", 12)
    g.state.government[nation_of(g, "AH")] = g.state.players.index("Dan")
    set_cash(g, "Ben", 20)
    give_turn(g, "AH", None)
    g = Game.from_position(g.summary())
    g.apply("AH rondel investor")
    before = g.summary()
    governor = before["nations"]["AH"]["governor"]
    buy = g.parse("Ben buys AH 2")
    g.apply(buy)
    lines = recap(before, g.summary(), "Anna", [buy])
    [line] = [line.text for line in lines if line.nation == "AH" and "bond" in line.text]
    assert governor == "Dan"
    assert line == "Ben bought the 2M bond (credit: Dan 12M governs, you 9M, Cleo 4M, Ben 2M)"


def test_recap_says_why_the_readers_cash_changed() -> None:
    g = new_game(4)  # Anna holds AH 9: AH's Investor pays her interest
    give_turn(g, "AH", None)
    g = Game.from_position(g.summary())
    before = g.summary()
    start = len(g.plies)
    g.apply("AH rondel investor")
    events = [event for ply in g.plies[start:] for event in ply.events]
    lines = recap(before, g.summary(), "Anna", [p.action for p in g.plies[start:]], events=events)
    [cash] = [line.text for line in lines if line.text.startswith("your cash")]
    assert cash.endswith(": AH interest)"), cash


async def test_play_from_here_at_the_end_of_a_finished_game_says_to_go_back(
    tmp_path: Path,
) -> None:
    """b on the final action of a finished game made a new game that was over already (a
    player's report): it says to choose an earlier action, and from one it branches."""
    from pilot import told

    from rules import Game as Played
    from rules.bots import GreedyBot, play_out

    g = Played.new(["Anna", "Ben"], seed=4)
    play_out(g, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
    session = Session(g, dict.fromkeys(g.players, "human"), tmp_path / "over.json")
    session.save()
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("escape", "h")  # the score screen, then the history
        await until(pilot, lambda: type(app.screen).__name__ == "HistoryScreen")
        await pilot.press("b")
        await pilot.pause()
        assert type(app.screen).__name__ == "HistoryScreen"
        assert any("the game is over at this action" in n for n in told(app))
        await pilot.press("comma", "b")
        await until(pilot, lambda: type(app.screen).__name__ == "BranchScreen")
