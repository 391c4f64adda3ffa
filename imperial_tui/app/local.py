"""The local app: a game on this machine, saved to a file after every move, with any mix of
humans at this keyboard and computer players. ``GameApp`` (``imperial_tui.app.base``) plays
the game; this adds the new-game screen, the save file (``SaveFileActions``) and quitting."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType

from imperial_tui.app.base import Features, GameApp
from imperial_tui.app.crash import EXIT_CRASH
from imperial_tui.app.css_cache import CachingStylesheet, ParsedCss, default_path
from imperial_tui.app.files import SaveFileActions
from imperial_tui.model.follow import Following
from imperial_tui.model.recent import load_recent, remember_game, remember_seats
from imperial_tui.model.session import Session, default_save_path, short_path
from rules import Game, RuleSet, SetupError
from rules.controllers import HUMAN, Controller
from rules.machine import tune_collector
from rules.savefile import SaveError

FILE_CHECK_SECONDS = 2.0


class ImperialApp(SaveFileActions, GameApp[Session]):
    CSS_PATH = Path(__file__).with_name("app.tcss")
    FEATURES: ClassVar[Features] = Features(
        save_files=True,
        chat=False,
        screenshots=True,
        quit_help="Quit Imperial (asks first; the game is saved)",
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        # ctrl+c too (asking first): in a text field Textual would only copy a selection
        Binding("ctrl+c", "request_quit", "quit", id="app.quit_c", show=False, priority=True),
        Binding("ctrl+n", "new_game", "new game", id="app.new", show=False),
        Binding("ctrl+o", "load", "load", id="app.load", show=False),
    ]

    def __init__(
        self,
        session: Session | None = None,
        save_path: Path | None = None,
        seed: int | None = None,
        pace: float | None = None,
        ascii_only: bool | None = None,
    ) -> None:
        super().__init__(pace=pace, ascii_only=ascii_only)
        # the style sheets parsed at an earlier start (kept by run_app when the app ends)
        self.parsed_css = ParsedCss(default_path())
        self.stylesheet = CachingStylesheet(
            variables=self.get_css_variables(), store=self.parsed_css
        )
        self.save_path = save_path
        self.new_game_seed = seed
        self._reload_offered = False
        self.session = session

    def start(self) -> None:
        if self.session is None:
            from imperial_tui.app.screens.new_game import NewGameScreen

            seats = list(load_recent().seats) or None  # the table of the last new game
            self.push_screen(NewGameScreen(seed=self.new_game_seed, seats=seats))
        else:
            self.remember_shown_game()
            self.open_game()
            self.show_warnings()
        # another program (a shell `imperial apply`, a second app) may change the save: notice
        # it within seconds and offer the reload, rather than overwrite it at the next move
        self.set_interval(FILE_CHECK_SECONDS, self.check_file)

    def remember_shown_game(self) -> None:
        """The game on show is the one "continue" offers next time (model.recent)."""
        if self.session is not None and self.session.path is not None:
            remember_game(self.session.path)

    def save_after_crash(self) -> Path | None:
        """The game is autosaved after every move; save once more in case the last change
        came from elsewhere (a pace change). Never raises: we are already failing."""
        session = self.session
        if session is None or session.path is None:
            return None
        with contextlib.suppress(Exception):  # the save that existed before stays
            session.save()
        return session.path

    def start_new_game(
        self,
        players: list[str],
        controllers: Mapping[str, str],
        rules: RuleSet,
        seed: int | None,
        hidden_cash: bool,
    ) -> None:
        """The new-game screen's Start: set up, save, show."""
        try:
            game = Game.new(players, rules=rules, seed=seed)
        except (SetupError, ValueError) as exc:
            self.notify(str(exc), severity="error", timeout=6)
            return
        path = self.save_path or default_save_path()
        seats = {p: Controller(c) for p, c in controllers.items()}  # (the screen's choices)
        self.session = session = Session(game, seats, path, hidden_cash=hidden_cash)
        remember_seats([(p, controllers.get(p, HUMAN)) for p in players])
        try:
            session.save()
        except SaveError as exc:
            self.notify(str(exc), severity="error")
        # on the log line until the first move, not a toast over the first decision's options
        self.start_note = f"saved after every move to {path}"
        self.follow = Following()
        self.remember_shown_game()
        self.open_game()

    def action_new_game(self) -> None:
        """ctrl+n: a new game, its seats and rules filled in from the game on show."""
        from imperial_tui.app.screens.dialogs import ConfirmScreen
        from imperial_tui.app.screens.new_game import NewGameScreen

        session = self.session
        if session is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.save_path = None
                seats = [(p, session.controllers.get(p, HUMAN)) for p in session.game.players]
                self.show_alone(
                    NewGameScreen(
                        seed=self.new_game_seed,
                        seats=seats,
                        rules=session.game.rules,
                        hidden_cash=session.hidden_cash,
                    )
                )

        self.push_screen(ConfirmScreen("Start a new game? This one stays in its save file."), done)

    def action_request_quit(self) -> None:
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        path = self.session.path if self.session else None
        where = f" The game is saved in {short_path(path)}." if path is not None else ""
        self.push_screen(ConfirmScreen(f"Quit Imperial?{where}", while_too_small=True), done)


def run_app(app: ImperialApp) -> None:
    """Run the app; after a crash print one line and exit with EXIT_CRASH. The process's
    garbage collector runs as for playing (``rules.machine.tune_collector``: a long game's
    history of positions is walked less often; the SSH server keeps its own schedule). The
    style sheets the app parsed are kept for the next start (``css_cache``)."""
    tune_collector()
    app.run()
    app.parsed_css.save()
    if app.crash is not None:
        sys.stderr.write(app.crash.line() + "\n")
        sys.exit(EXIT_CRASH)
    if app.return_code:
        sys.exit(app.return_code)


def run(
    path: str | None = None,
    new_session: Session | None = None,
    *,
    save_path: Path | None = None,
    seed: int | None = None,
    pace: float | None = None,
    ascii_only: bool | None = None,
) -> None:
    """Start the app: on a save file, on a prepared session, or on the new-game screen."""
    session = new_session
    if path is not None and session is None:
        p = Path(path)
        session = Session.load(p) if p.exists() else None
        save_path = save_path or p
    run_app(ImperialApp(session, save_path, seed, pace, ascii_only))
