"""What a play-tester found in a 4-player game against computer players at 80x24: the
recap's wording, the bond hint for a bond too small to form a government, a lone "pass", undo
from the computers' pause, and keys typed in a burst right after a dialog closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from helpers import bonds_of, give_bond, give_turn, nat, new_game, set_cash
from test_following import ben_takes_austria, until
from textual import events

from imperial_tui.app import ImperialApp
from imperial_tui.model.recap import recap
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import GreedyBot, play_out
from rules.state import NO


def option_texts(app: ImperialApp) -> list[str]:
    ol = app.game_screen().query_one("#decision-options")
    return [ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)]


async def burst(app: ImperialApp, *keys: str) -> None:
    """Keys as a terminal delivers them when typed quickly: the app takes each one before the
    screen it was sent to has handled the one before (Textual forwards keys to the focused
    widget's queue; the widget handles them later)."""
    chars = {"enter": "\r", "down": None, "escape": "\x1b"}
    for key in keys:
        await app.on_event(events.Key(key, chars.get(key, key)))


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
    anna = sum(bonds_of(g, "Anna", "AH"))
    assert bonds == [
        f"Ben traded up to the 12M bond, returning the 6M (credit: you {anna}M, Ben 12M)"
    ]


def test_a_battle_is_told_without_a_wrong_article_before_a_nations_name() -> None:
    from maneuver_helpers import place, start_maneuver

    g = new_game()
    place(g, "IT", "fleet", "ionian_sea")
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    told = [e.text for e in g.apply("RU fleet fights IT fleet in ionian_sea")]
    assert "battle in Ionian Sea: one fleet of Russia and one fleet of Italy are destroyed" in told
    assert not any(" a Italy" in t or " a Austria" in t for t in told)


def ungoverned_germany_invest(cash: int | None = None) -> Session:
    """Four players in the first edition; Germany has no government and no bond out (so only
    a 4M bond forms one); Ben holds the investor card and invests now."""
    g = new_game(4)
    s = g.state
    n = nat("GE")
    s.bond_owner[n] = [NO] * len(s.bond_owner[n])
    s.government[n] = NO
    give_turn(g, "AH", None)
    g = Game.from_position(g.summary())
    g.apply("AH rondel investor")
    if cash is not None:
        set_cash(g, "Ben", cash)
    assert g.awaiting.player == "Ben" and g.awaiting.kind == "invest"
    return Session(g, dict.fromkeys(g.players, "human"), None)


async def open_board(pilot, app: ImperialApp) -> None:
    await pilot.pause()
    if type(app.screen).__name__ == "RecapScreen":
        await pilot.press("escape")
        await pilot.pause()


def test_bond_hint_says_a_bond_below_the_flag_minimum_forms_no_government() -> None:
    session = ungoverned_germany_invest(cash=10)
    s = session.game.state
    assert s.flag_min_bond[nat("GE")] == 4  # the engine's rule: first edition, ungoverned

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_board(pilot, app)
            texts = " | ".join(" ".join(t.split()) for t in option_texts(app))
            assert "GE 2M interest 1 (too small to form a government: 4M)" in texts, texts
            assert "GE 4M interest 2 → Ben governs GE" in texts, texts
            assert "AH 2M interest 1 (too small" not in texts  # AH has a government

    asyncio.run(run())


def test_a_lone_pass_says_why_and_enter_passes() -> None:
    session = ungoverned_germany_invest(cash=0)
    game = session.game
    assert [str(a) for a in game.legal_actions()] == ["Ben passes"]

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_board(pilot, app)
            assert option_texts(app) == ["you have 0M: nothing to buy — Enter passes"]
            count = len(game.plies)
            await pilot.press("enter")
            await pilot.pause()
            assert str(game.plies[count].action) == "Ben passes"

    asyncio.run(run())


def test_keys_typed_right_after_closing_the_recap_act_on_the_list_as_shown(
    tmp_path: Path,
) -> None:
    session = ben_takes_austria(tmp_path)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.apply_human(session.game.parse("AH rondel investor"))
            await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
            assert session.game.awaiting.kind == "rondel"
            second = option_texts(app)[1].split()[0]  # as the list shows it: "Production1"
            count = len(session.game.plies)
            await burst(app, "enter", "down", "enter")  # close, second option, choose
            await until(pilot, lambda: len(session.game.plies) > count)
            chosen = session.game.plies[count].action
            assert chosen.kind == "rondel" and second.lower().startswith(chosen.space[:-1])

    asyncio.run(run())


def test_the_first_enter_on_show_the_final_scores_shows_them_after_closing_them_quickly() -> None:
    g = Game.new(["Anna", "Ben"], seed=4)
    play_out(g, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen")
            await burst(app, "escape", "enter")  # close the scores, then at once: show them
            await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen", 50)

    asyncio.run(run())


def test_undo_works_from_the_computers_pause_closing_it_first(tmp_path: Path) -> None:
    session = ben_takes_austria(tmp_path)
    session.pause = "decision"

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.apply_human(session.game.parse("AH rondel investor"))
            await until(pilot, lambda: type(app.screen).__name__ == "PausedScreen")
            assert len(session.game.plies) > 1  # a computer decided after Anna
            await pilot.press("ctrl+z")
            await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
            await pilot.press("n")  # not now: the computers go on (and pause again)
            await until(pilot, lambda: type(app.screen).__name__ == "PausedScreen")
            await pilot.press("ctrl+z")
            await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
            await pilot.press("y")
            await until(pilot, lambda: len(session.game.plies) == 0)
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"
            assert session.game.awaiting.player == "Anna"

    asyncio.run(run())


def two_humans_app() -> ImperialApp:
    """A new game of Anna and Ben, both at this keyboard, not saved."""
    game = Game.new(["Anna", "Ben"], seed=1)
    return ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None), pace=0.0)


def hidden_cash_pair() -> Session:
    """Anna (Austria) and Ben (Italy) at one keyboard with hidden cash: a hand-over at
    every change of player."""
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    return Session(g, {"Anna": "human", "Ben": "human"}, None, hidden_cash=True)


def test_a_panel_key_pressed_as_the_board_appears_is_kept() -> None:
    """A player who sees the board may press 2 at once; the key must not be lost while the
    screen settles (over SSH the board reaches the terminal before the screen is ready: a
    spectator's first key was dropped)."""

    async def run() -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.open_game()  # the board again, as a new screen: the key comes at once
            await pilot.press("2")
            await pilot.pause(0.2)
            assert app.screen.panel == "bonds"  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_history_browser_closed_before_it_was_built_does_not_end_the_app() -> None:
    """h, then at once a hand-over closes the history (the next player never sees the
    previous one's view): the browser is gone before it was built, and the app goes on
    (a monkey run ended the app here with NoMatches)."""

    async def run() -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.action_history()
            app.close_history()
            await pilot.pause(0.1)
            assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
            await pilot.press("h")  # and the history still opens
            await pilot.pause(0.1)
            assert type(app.screen).__name__ == "HistoryScreen"
        assert app.return_code in (None, 0)

    asyncio.run(run())


def test_one_hand_over_however_often_the_app_looks_for_the_next_decision() -> None:
    """Hidden cash, two humans: the hand-over to Ben is shown once even when the app asks
    again who is next (a repaint, a resumed screen); one Enter passes the keyboard (a monkey
    run found two stacked hand-overs)."""
    session = hidden_cash_pair()
    g = session.game

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # Anna takes the keyboard
            await pilot.pause()
            app.apply_human(g.parse("AH rondel investor"))
            await pilot.pause()
            app.after_change()
            app.after_change()
            await pilot.pause()
            kinds = [type(s).__name__ for s in app.screen_stack]
            assert kinds.count("HandoverScreen") == 1, kinds
            await pilot.press("enter")
            await pilot.pause()
            assert session.viewer == "Ben"
            assert "HandoverScreen" not in [type(s).__name__ for s in app.screen_stack]

    asyncio.run(run())


def test_two_quick_enters_in_the_theme_picker_choose_once_and_keep_the_game() -> None:
    """ctrl+p, Theme: Textual's theme list; two quick Enters chose the theme and then closed
    the game screen beneath (a monkey run left a blank screen). It is our palette now."""
    from monkey import press

    async def run() -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+p", *"theme")
            await pilot.pause(0.3)
            await pilot.press("enter")  # the "Theme" command: the theme list
            await pilot.pause(0.3)
            await pilot.press(*"nord")
            await pilot.pause(0.3)
            await press(pilot, "enter", "enter")
            await pilot.pause(0.3)
            assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
            assert app.theme == "nord"

    asyncio.run(run())


def test_a_panel_key_kept_for_a_screen_that_closes_meanwhile_is_dropped() -> None:
    """h 4 escape typed in one burst: the 4 waits for the history browser to be ready, the
    browser closes first; the key is dropped with it (it ended the app, looking for the
    closed browser's widgets)."""
    from monkey import press

    async def run() -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(3):
                await press(pilot, "h", "4", "escape")
                await press(pilot, "h", "3", "escape", "2")
            # every browser closes (the last may still be being built on a busy machine)
            await until(pilot, lambda: type(app.screen).__name__ == "GameScreen")
            await pilot.press("4")  # and the board's own keys work
            await until(pilot, lambda: app.screen.panel == "log")  # type: ignore[attr-defined]
        assert app.return_code in (None, 0)

    asyncio.run(run())


def test_a_history_browser_closed_while_it_is_being_built_closes_once_built() -> None:
    """h and at once escape (or a hand-over): closed while Textual mounted its tab strip,
    the strip looked for tabs already taken away and the app ended (a busy machine made
    the window wide enough to hit). Closed at every point of its building, the browser
    goes as soon as it is built and the app goes on."""
    from imperial_tui.app.screens.history import HistoryScreen

    async def run(ticks: int, by_key: bool) -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.action_history()
            for _ in range(ticks):
                await asyncio.sleep(0)
            browser = app.screen
            assert isinstance(browser, HistoryScreen)
            if by_key:
                browser.action_present()
            else:
                app.close_history()
            await until(pilot, lambda: type(app.screen).__name__ == "GameScreen")
            assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
        assert app.return_code in (None, 0)

    for ticks in range(1, 7):  # 2-5 ended the app (Textual 8.2)
        for by_key in (True, False):
            asyncio.run(run(ticks, by_key))


def test_a_hand_over_waits_for_a_history_browser_being_built_to_close() -> None:
    """Hidden cash: Anna opened the history as her turn ended; the hand-over to Ben closes
    the browser first (the next player never sees the previous one's view), also when it
    comes while the browser is still being built."""

    async def run(ticks: int) -> None:
        session = hidden_cash_pair()
        g = session.game
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # Anna takes the keyboard
            await pilot.pause()
            g.apply(g.parse("AH rondel investor"))
            app.action_history()
            for _ in range(ticks):
                await asyncio.sleep(0)
            app.after_change()
            await until(pilot, lambda: type(app.screen).__name__ == "HandoverScreen")
            kinds = [type(s).__name__ for s in app.screen_stack]
            assert kinds[1:] == ["GameScreen", "HandoverScreen"], kinds
        assert app.return_code in (None, 0)

    for ticks in range(1, 7):
        asyncio.run(run(ticks))


def test_a_panel_chosen_while_another_is_given_the_keys_stays() -> None:
    """2 then 2 4 typed fast: the second 2 gives the bonds panel the keys after the next
    refresh; by then 4 chose the log, and focusing the hidden bonds tab brought it back
    (the board ended on the bonds)."""
    from monkey import press

    async def run() -> None:
        app = two_humans_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("2")
            await pilot.pause()
            await press(pilot, "2", "4")
            await pilot.pause(0.2)
            assert app.screen.panel == "log"  # type: ignore[attr-defined]
            assert app.screen.shown_panel() == "log"  # type: ignore[attr-defined]

    asyncio.run(run())
