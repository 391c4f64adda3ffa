"""The app driven by keys at 80x24: a new game with 3 humans and 1 computer, several nation
turns with an import and a bond purchase, save, reload, identical state."""

from __future__ import annotations

import asyncio
from pathlib import Path

from imperial_tui.app import ImperialApp
from imperial_tui.screens.game import GameScreen
from imperial_tui.session import Session
from rules import Action, Game
from rules.bots import GreedyBot


async def settle(pilot, app: ImperialApp, limit: int = 400) -> None:
    """Wait until a human must decide (the computer player moves with pace 0)."""
    for _ in range(limit):
        await pilot.pause()
        s = app.session
        if s is None or s.game.awaiting is None:
            return
        if s.is_human(s.game.awaiting.player) and not app._bot_busy:
            return
    raise AssertionError("the computer player did not finish")


def human_choice(game: Game, done: dict[str, bool]) -> Action:
    """The plan: import once, invest once when the card comes, otherwise play greedily."""
    actions = game.legal_actions()
    texts = [str(a) for a in actions]
    kind = game.awaiting.kind
    if kind == "rondel":
        for want in (["import"] if not done["import"] else []) + (
            ["investor"] if not done["buy"] else []
        ):
            for a in actions:
                if str(a).endswith(f"rondel {want}"):
                    return a
    if kind == "import" and not done["import"]:
        units = [a for a in actions if " import army " in str(a)]
        if units:
            return units[0]
    if kind == "invest":
        buys = [a for a in actions if a.kind == "buy"]
        if buys:
            return buys[0]
    assert texts
    return GreedyBot(1).choose(game)


async def choose_by_keys(pilot, app: ImperialApp, action: Action) -> None:
    actions = app.session.game.legal_actions()
    index = [str(a) for a in actions].index(str(action))
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")


def test_play_by_keys_save_and_reload(tmp_path: Path) -> None:
    save = tmp_path / "game.json"

    async def run() -> dict:
        app = ImperialApp(save_path=save, seed=11, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            # seats: Anna human, Ben -> human, Cleo -> human, Dan stays a greedy computer
            # focus starts on seat 1's name; tab goes name -> kind -> next name ...
            await pilot.press("tab", "tab", "tab", "enter", "up", "enter")
            await pilot.press("tab", "tab", "enter", "up", "enter")
            await pilot.press("ctrl+g")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            assert app.session.controllers == {
                "Anna": "human",
                "Ben": "human",
                "Cleo": "human",
                "Dan": "bot:greedy",
            }
            done = {"import": False, "buy": False}
            turns = set()
            for _ in range(300):
                game = app.session.game
                if game.awaiting is None:
                    break
                turns.add((game.state.round, game.state.turn))
                if done["import"] and done["buy"] and len(turns) >= 8:
                    break
                action = human_choice(game, done)
                await choose_by_keys(pilot, app, action)
                await settle(pilot, app)
                applied = [str(p.action) for p in app.session.game.plies]
                if str(action) in applied:
                    if action.kind == "import" and action.unit:  # type: ignore[attr-defined]
                        done["import"] = True
                    if action.kind == "buy":
                        done["buy"] = True
            assert done["import"] and done["buy"], done
            assert len(turns) >= 8
            # panels switch by keys
            for key, tab in (("2", "bonds"), ("3", "regions"), ("4", "log"), ("1", "rondel")):
                await pilot.press(key)
                assert app.screen.query_one("TabbedContent").active == tab
            # undo with confirmation goes back to a human decision
            before = len(app.session.game.plies)
            await pilot.press("ctrl+z")
            await pilot.press("y")
            await settle(pilot, app)
            assert len(app.session.game.plies) < before
            assert app.session.is_human(app.session.game.awaiting.player)
            await pilot.press("ctrl+s")
            await pilot.pause()
            return app.session.game.summary()

    summary = asyncio.run(run())
    reloaded = Session.load(save)
    assert reloaded.game.summary() == summary
    assert reloaded.controllers["Dan"] == "bot:greedy"

    async def resume() -> dict:
        app = ImperialApp(session=Session.load(save), pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            return app.session.game.summary()

    assert asyncio.run(resume()) == summary


def test_quit_asks_first(tmp_path: Path) -> None:
    async def run() -> None:
        app = ImperialApp(save_path=tmp_path / "g.json", seed=3, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+g")
            await settle(pilot, app)
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert type(app.screen).__name__ == "ConfirmScreen"
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            await pilot.press("f1")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"
            await pilot.press("escape")

    asyncio.run(run())


def test_hidden_cash_hand_over_and_undo_limit(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben"], seed=5)
    session = Session(
        game, {"Anna": "human", "Ben": "human"}, tmp_path / "h.json", hidden_cash=True
    )

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            first = game.awaiting.player
            assert type(app.screen).__name__ == "HandoverScreen"
            await pilot.press("enter")
            await pilot.pause()
            assert session.viewer == first
            # play until the other human decides: a hand-over screen hides the first view
            for _ in range(20):
                if session.game.awaiting.player != first:
                    break
                await pilot.press("enter")
                await pilot.pause()
            assert type(app.screen).__name__ == "HandoverScreen"
            await pilot.press("enter")
            await pilot.pause()
            if (
                session.game.plies[-1].before.players[session.game.plies[-1].before.awaiting_player]
                != session.game.awaiting.player
            ):
                assert session.undo_steps() == 0

    asyncio.run(run())
