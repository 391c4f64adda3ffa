"""The seam between the screens and a game (issue #23): one ``GameApp`` that the local app and
the SSH server's app both are, over a ``GameSession``; what each front end offers is declared
in its ``FEATURES``, never switched off by overriding the other's methods."""

from __future__ import annotations

import inspect
from pathlib import Path

from pilot import drive, told

from imperial_tui.app import ImperialApp
from imperial_tui.app.base import GameApp
from imperial_tui.model.past import PastView
from imperial_tui.model.session import GameSession, Session, SessionView
from imperial_tui.server.app import ServerApp
from imperial_tui.server.hub import Hub
from imperial_tui.server.remote import RemoteSession
from imperial_tui.server.store import SQLiteStore
from rules import Game, RuleSet

# what each front end implements for itself (the base declares them)
HOOKS = {"__init__", "start", "action_request_quit", "action_new_game"}


def own_methods(cls: type) -> set[str]:
    return {name for name, value in vars(cls).items() if inspect.isfunction(value)}


def test_the_server_app_overrides_no_game_behaviour() -> None:
    """Both apps are a GameApp; the server's is not the local one with features switched
    off: the only methods both define are the hooks every front end implements."""
    assert issubclass(ImperialApp, GameApp) and issubclass(ServerApp, GameApp)
    assert not issubclass(ServerApp, ImperialApp)
    assert own_methods(ServerApp) & own_methods(ImperialApp) <= HOOKS
    assert own_methods(ServerApp) & own_methods(GameApp) <= HOOKS
    assert ImperialApp.FEATURES.save_files and not ServerApp.FEATURES.save_files
    assert ServerApp.FEATURES.chat and not ImperialApp.FEATURES.chat


def test_every_session_answers_what_the_panels_read(tmp_path: Path) -> None:
    """The local game, a remote seat and a past position all answer ``SessionView``; the two
    that the app plays answer ``GameSession`` (member by member here; the type checker checks
    their types)."""
    game = Game.new(["Anna", "Ben"], seed=3)
    local = Session(game, {"Anna": "human", "Ben": "human"})
    _, hub = remote_app(tmp_path)
    remote = RemoteSession.open(next(iter(hub.tables.values())), "anna")
    for session in (local, remote, PastView(local, 0)):
        missing = [m for m in protocol_members(SessionView) if not hasattr(session, m)]
        assert not missing, (type(session).__name__, missing)
    for session in (local, remote):
        missing = [m for m in protocol_members(GameSession) if not hasattr(session, m)]
        assert not missing, (type(session).__name__, missing)


def protocol_members(proto: type) -> set[str]:
    names: set[str] = set()
    for klass in proto.__mro__:
        if klass.__module__ != "imperial_tui.model.session":
            continue
        names |= {n for n in vars(klass) if not n.startswith("_")}
        names |= set(getattr(klass, "__annotations__", {}))
    return names


def remote_app(tmp_path: Path) -> tuple[ServerApp, Hub]:
    hub = Hub(SQLiteStore(tmp_path / "imperial.db"))
    table = hub.create_game(
        "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 7, False
    )
    hub.join("ben", table)  # (the seat kept for him)
    assert table.game is not None
    return ServerApp(hub, "anna", link=None, env={}), hub


async def test_a_remote_player_has_no_pause_and_undoes_through_the_same_question(
    tmp_path: Path,
) -> None:
    """The computers' pause (p) is this app's only where it runs computer players: a remote
    player's p does nothing. ctrl+z on the recap asks the undo question of the one GameApp
    (the server's own undo took no ``resume`` and the pause's ctrl+z failed on it)."""
    app, hub = remote_app(tmp_path)

    async with drive(app) as pilot:
        await pilot.pause()
        table = next(iter(hub.tables.values()))
        app.open_table(table)
        await pilot.pause()
        assert app.session is not None and app.session.viewer == "anna"
        assert app.check_action("pause", ()) is False
        assert app.check_action("save", ()) is False and app.check_action("load", ()) is False
        await pilot.press("p")
        await pilot.pause()
        assert type(app.screen).__name__ != "PausedScreen"
        if type(app.screen).__name__ == "RecapScreen":
            await pilot.press("escape")
        if app.session.game.awaiting.player == "anna":
            await pilot.press("enter")  # anna decides, so there is something to undo
            await pilot.pause()
        app.action_undo(resume=True)  # as the pause screen's ctrl+z calls it
        await pilot.pause()
        screens = [type(s).__name__ for s in app.screen_stack]
        notes = told(app)
        assert "ConfirmScreen" in screens or any("cannot undo" in n for n in notes)


async def test_the_local_app_keeps_its_file_commands_and_the_pause() -> None:
    game = Game.new(["Anna", "Ben"], seed=3)
    app = ImperialApp(session=Session(game, {"Anna": "human", "Ben": "bot:greedy"}), pace=0.0)

    async with drive(app) as pilot:
        await pilot.pause()
        assert app.check_action("save", ()) and app.check_action("load", ())
        assert app.check_action("pause", ()) is True
        assert app.check_action("chat", ()) is False


def test_every_decision_has_one_word_its_words_and_its_help_page() -> None:
    """The decision kinds are one enum: the engine's table, the sentence the status line
    uses, the F1 page and the rondel panel's word cover exactly its members, and an action
    that answers a decision carries the decision's own word."""
    from imperial_tui.app.base import HELP_FOR_DECISION
    from imperial_tui.app.widgets.rondel import DOING
    from rules import engine
    from rules.actions import (
        BuildFactory,
        CanalPassage,
        ChooseRondel,
        Fight,
        Import,
        Produce,
        SwissBankForce,
    )
    from rules.decisions import Decision
    from rules.engine import DECISION_WORDS

    assert set(engine.DECISIONS) == set(Decision)
    assert set(DECISION_WORDS) == set(Decision)
    assert set(HELP_FOR_DECISION) == set(Decision)
    assert set(DOING) == set(Decision) - {Decision.RONDEL}
    answers = {
        ChooseRondel: Decision.RONDEL,
        BuildFactory: Decision.BUILD_FACTORY,
        Produce: Decision.PRODUCE,
        Import: Decision.IMPORT,
        Fight: Decision.BATTLE,
        SwissBankForce: Decision.SWISS_BANK,
        CanalPassage: Decision.CANAL,
    }
    for action, decision in answers.items():
        assert action.kind == decision and decision in engine.DECISIONS


async def test_a_lobby_refresh_due_as_the_connection_ends_does_nothing(tmp_path: Path) -> None:
    """The lobby's refresh runs from a timer; one that fires while the connection's app is
    ending (no screen left) must not fail the app (seen once in CI: ScreenStackError)."""
    app, _ = remote_app(tmp_path)
    async with drive(app) as pilot:
        await pilot.pause()
    assert app.screen_stack == []
    app._refresh_lobby()  # (after the app ended: nothing to show, nothing raised)
