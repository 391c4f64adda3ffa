"""The Textual app: holds the session (a plain attribute, not a reactive), applies human
choices through the engine, lets bots think in a worker thread at an adjustable pace, and
tells the game screen to repaint what changed."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import deque
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType

from imperial_tui.app.crash import EXIT_CRASH, Crash, write_crash_log
from imperial_tui.app.files import SaveFileActions
from imperial_tui.app.following import FollowActions
from imperial_tui.app.palette import PaletteActions
from imperial_tui.app.turns import THINKING_KEPT, ComputerTurns
from imperial_tui.app.widgets.ascii import make_scrollbars_ascii_aware
from imperial_tui.app.widgets.options import make_page_moves_safe
from imperial_tui.model.follow import Following
from imperial_tui.model.pacing import clamp_pace
from imperial_tui.model.session import Session, default_save_path
from imperial_tui.render.style import ascii_wanted, to_ascii
from imperial_tui.render.words import action_sentence
from rules import Action, Game, IllegalAction, RuleSet, SetupError
from rules.savefile import SaveError

if TYPE_CHECKING:
    from textual.command import Provider

    from imperial_tui.app.screens.game import GameScreen

make_page_moves_safe()
make_scrollbars_ascii_aware()

# Screens and widgets are imported where they are first shown, not here: the first frame
# then waits only for the one screen it shows (scripts/measure_startup.py measures it).


HELP_FOR_DECISION = {
    "rondel": "rondel",
    "swiss_bank": "investor",
    "build_factory": "factory",
    "production": "overview",
    "import": "import",
    "maneuver": "maneuver",
    "battle": "maneuver",
    "destroy_factory": "maneuver",
    "invest": "investor",
    "bond_choice": "investor",
    "scoring": "scoring",
}
FILE_CHECK_SECONDS = 2.0
# Textual's key glyphs, in words for ASCII mode
KEY_WORDS = {"⏎": "enter", "↑": "up", "↓": "down", "←": "left", "→": "right", "⇥": "tab"}
HELP_FOR_PANEL = {
    "rondel": "rondel",
    "bonds": "investor",
    "regions": "maneuver",
    "log": "keys",
    "map": "map",
}


def _commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from imperial_tui.app.commands import ImperialCommands

    return ImperialCommands


class ImperialApp(PaletteActions, FollowActions, SaveFileActions, ComputerTurns, App[None]):
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "Imperial"
    COMMANDS = App.COMMANDS | {_commands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "quit", id="app.quit", priority=True),
        # ctrl+c too (asking first): in a text field Textual would only copy a selection
        Binding("ctrl+c", "request_quit", "quit", id="app.quit_c", show=False, priority=True),
        Binding("f1", "help", "help", id="app.help"),
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
        super().__init__()
        self._session: Session | None = session
        self.save_path = save_path
        self.new_game_seed = seed
        env_pace = os.environ.get("IMPERIAL_PACE")
        self.pace_override = clamp_pace(pace if pace is not None else env_pace, None)
        self.ascii_only = ascii_wanted() if ascii_only is None else ascii_only
        self._bot_busy = False
        self._bots_moved = False
        self._paused = False  # computer players wait for a key (PausedScreen)
        self.follow = Following()  # this viewer's recaps and pauses
        self.start_note = ""  # the first thing the log line says (where the game is saved)
        self._over_shown = -1
        self._reload_offered = False
        self.timings: dict[str, float] = {}
        self.thinking: deque[tuple[int, float]] = deque(maxlen=THINKING_KEPT)
        self.crash: Crash | None = None
        if session is not None and self.pace_override is not None:
            session.pace = self.pace_override

    @property
    def session(self) -> Session | None:
        """The game on show (a plain attribute in all but name: see the setter)."""
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        """Another game replaces this one (new game, load, a branch from the history): the
        computer players of the one left stop their playout processes."""
        old = self._session
        if old is not None and old is not session:
            old.close_bots()
        self._session = session

    # -- a crash ends the app with one line, never a traceback over the game -------------
    def _handle_exception(self, error: Exception) -> None:
        """Write the traceback to a log file and end with a non-zero exit code; ``run_app``
        then prints one line naming the save file. Textual's own handling (the return code,
        re-raising in tests) stays as it is."""
        if self.crash is None:
            self.crash = Crash(error, write_crash_log(error), self._save_after_crash())
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crash is not None:  # the traceback is in the log file, not over the terminal
            self._exit_renderables.clear()
            return
        super()._print_error_renderables()

    def _save_after_crash(self) -> Path | None:
        """The game is autosaved after every move; save once more in case the last change
        came from elsewhere (a pace change). Never raises: we are already failing."""
        session = self.session
        if session is None or session.path is None:
            return None
        with contextlib.suppress(Exception):  # the save that existed before stays
            session.save()
        return session.path

    async def on_event(self, event: events.Event) -> None:
        """Keys pressed while the app closes (a quick key after "y" to quit) find no screen
        left; Textual would fail on them, so they are dropped."""
        if isinstance(event, events.InputEvent) and not self.screen_stack:
            return
        await super().on_event(event)

    def get_key_display(self, binding: Binding) -> str:
        """Keys in the footer; in ASCII mode in words ("enter", not Textual's "⏎")."""
        shown = super().get_key_display(binding)
        if not self.ascii_only or shown.isascii():
            return shown
        for glyph, word in KEY_WORDS.items():
            shown = shown.replace(glyph, word)
        return to_ascii(shown)

    def on_unmount(self) -> None:
        """The app ends (quit, ctrl+c, a crash): the computer players' playout processes end
        with it, joined here rather than left to the interpreter's exit hooks."""
        if self.session is not None:
            self.session.close_bots()

    # -- start -----------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.timings["mounted"] = time.monotonic()
        self.set_class(self.ascii_only, "-ascii")  # app.tcss: every screen, dialog, toast
        if self.ascii_only:
            self.screen.add_class("-ascii")
        if self.session is None:
            from imperial_tui.app.screens.new_game import NewGameScreen

            self.push_screen(NewGameScreen(seed=self.new_game_seed))
        else:
            self.open_game()
            self.show_warnings()
        # another program (a shell `imperial apply`, a second app) may change the save: notice
        # it within seconds and offer the reload, rather than overwrite it at the next move
        self.set_interval(FILE_CHECK_SECONDS, self.check_file)

    def open_game(self) -> None:
        from imperial_tui.app.screens.game import GameScreen

        assert self.session is not None
        screen = GameScreen()
        if self.ascii_only:
            screen.add_class("-ascii")
        self.show_alone(screen, then=self.after_change)

    def show_alone(self, screen: Any, then: Any = None) -> None:
        """Show a main screen (game or new game) with nothing above it: every dialog, help
        page or score screen still open is closed first (replacing only the top screen would
        leave the old main screen under a dialog, or throw away the main screen itself).
        Textual's command palette is left to close itself first: popped from under its own
        feet it would later pop our new screen instead."""
        from textual.screen import SystemModalScreen

        if any(isinstance(s, SystemModalScreen) for s in self.screen_stack):
            self.set_timer(0.05, partial(self.show_alone, screen, then))
            return
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)
        if then is not None:
            self.call_after_refresh(then)

    def start_new_game(
        self,
        players: list[str],
        controllers: dict[str, str],
        rules: RuleSet,
        seed: int | None,
        hidden_cash: bool,
    ) -> None:
        try:
            game = Game.new(players, rules=rules, seed=seed)
        except (SetupError, ValueError) as exc:
            self.notify(str(exc), severity="error", timeout=6)
            return
        path = self.save_path or default_save_path()
        self.session = Session(game, controllers, path, hidden_cash=hidden_cash)
        if self.pace_override is not None:
            self.session.pace = self.pace_override
        try:
            self.session.save()
        except SaveError as exc:
            self.notify(str(exc), severity="error")
        # on the log line until the first move, not a toast over the first decision's options
        self.start_note = f"saved after every move to {path}"
        self.follow = Following()
        self.open_game()

    # -- the game loop ---------------------------------------------------------------------
    def game_screen(self) -> GameScreen | None:
        """The live game screen (never the history browser, which shows the past)."""
        from imperial_tui.app.screens.game import GameScreen
        from imperial_tui.app.screens.history import HistoryScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen) and not isinstance(screen, HistoryScreen):
                return screen
        return None

    def after_change(self) -> None:
        """Repaint, then hand the next decision to a human (bell, hand-over) or a bot."""
        from imperial_tui.app.screens.dialogs import HandoverScreen

        session = self.session
        screen = self.game_screen()
        if session is None or screen is None:
            return
        screen.refresh_panels()
        game = session.game
        aw = game.awaiting
        if aw is None:
            if self._over_shown != session.version:
                self._over_shown = session.version
                self.show_scores()
            return
        if not session.runs_seats:  # the SSH server's table runs bots and seats
            if session.viewer is not None and aw.player == session.viewer:
                self.offer_recap(aw.player)  # this connection's player: since their turn
            return
        if session.is_human(aw.player):
            if self._bots_moved:
                self._bots_moved = False
                self.bell()
            others = len(session.humans) > 1
            if session.hidden_cash and others and session.viewer != aw.player:
                if any(
                    isinstance(s, HandoverScreen) and s.player == aw.player
                    for s in self.screen_stack
                ):
                    return  # asked twice (a repaint, a resumed screen): one hand-over is enough
                if not self.close_history():  # the next player never sees the previous
                    self.call_after_refresh(self.after_change)  # one's view: once it is
                    return  # built, the browser closes and the hand-over comes

                def handed(undo: bool | None, player: str = aw.player) -> None:
                    if undo:
                        self.undo_now()
                        return
                    now = session.game.awaiting
                    if now is None or now.player != player:  # the game moved on meanwhile
                        self.after_change()  # (a reload): hand over to whoever is next now
                        return
                    session.viewer = player
                    screen.refresh_panels()
                    self.offer_recap(player)

                previous = session.viewer if session.undo_steps() else None
                self.push_screen(HandoverScreen(aw.player, aw.nation, aw.kind, previous), handed)
                return
            if session.viewer != aw.player:
                session.viewer = aw.player
                screen.refresh_panels()
            self.offer_recap(aw.player)
        elif not self._paused and not self.pause_computers():
            self.schedule_bot()

    def show_scores(self) -> None:
        """The score screen of a finished game (again from the board: "show the final
        scores")."""
        from imperial_tui.app.screens.game_over import GameOverScreen

        result = self.session.game.result() if self.session is not None else None
        if result is not None and self.session is not None:
            self.push_screen(GameOverScreen(result, self.ascii_only, self.session.game))

    def apply_human(self, action: Action, follow: str | None = None) -> None:
        """A human's choice; ``follow="produce_all"`` (a Production space chosen with Enter)
        then produces at every factory, the decision that nearly always follows."""
        session = self.session
        assert session is not None
        aw = session.game.awaiting
        try:
            session.apply(action)
            if follow == "produce_all":
                self._produce_everywhere(action)
        except IllegalAction as exc:
            self.notify(exc.reason, severity="error", timeout=6)
            return
        except SaveError as exc:
            self.save_failed(exc)
        if aw is not None:
            self.follow.decided(aw.player, session.game)
        self.start_note = ""
        self.after_change()

    def _produce_everywhere(self, rondel: Action) -> None:
        """After a Production space: produce at every factory (or the only one ready)."""
        assert self.session is not None
        game = self.session.game
        aw = game.awaiting
        if aw is None or aw.kind != "production" or aw.nation != rondel.actor:
            return
        producing = [a for a in game.legal_actions() if a.region != "done"]  # type: ignore[attr-defined]
        every = [a for a in producing if a.region == "all"]  # type: ignore[attr-defined]
        if every or len(producing) == 1:
            self.session.apply((every or producing)[0])

    # -- commands --------------------------------------------------------------------------
    def action_help(self, topic: str | None = None) -> None:
        """F1: the rules page for the focused panel (the decision at hand, or the panel on
        show), followed by the key reference; the palette's rules topics name theirs."""
        from imperial_tui.app.screens.help import HelpScreen

        rules = self.session.game.rules if self.session is not None else None
        self.push_screen(HelpScreen(topic or self.help_topic(), rules))

    def help_topic(self) -> str:
        """Which rules page F1 opens, from the focused widget."""
        from imperial_tui.app.screens.game_over import GameOverScreen

        if isinstance(self.screen, GameOverScreen):
            return "scoring"
        focused = self.focused
        gs = self.game_screen()
        if focused is None or gs is None or self.screen is not gs:
            return "keys"
        ids = {node.id for node in focused.ancestors_with_self}
        if "decision" in ids and self.session is not None:
            aw = self.session.game.awaiting
            kind = aw.kind if aw is not None else "scoring"
            return HELP_FOR_DECISION.get(kind, "overview")
        if "right" in ids or "map-wide" in ids:
            return HELP_FOR_PANEL.get(gs.shown_panel(), "keys")
        return "keys"

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
                seats = [(p, session.controllers.get(p, "human")) for p in session.game.players]
                self.show_alone(
                    NewGameScreen(
                        seed=self.new_game_seed,
                        seats=seats,
                        rules=session.game.rules,
                        hidden_cash=session.hidden_cash,
                    )
                )

        self.push_screen(ConfirmScreen("Start a new game? This one stays in its save file."), done)

    def action_undo(self, resume: bool = False) -> None:
        """ctrl+z: ask, then undo. ``resume``: asked from the computers' pause, so the game
        goes on (``after_change``) when nothing is undone."""
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        session = self.session
        if session is None:
            return
        steps = session.undo_steps()
        if not steps:
            self.notify(f"cannot undo: {session.undo_refusal()}", severity="warning", timeout=6)
            if resume:
                self.after_change()
            return
        ply = session.game.plies[-steps]
        arrow = "->" if self.ascii_only else "→"
        last = action_sentence(ply.before, ply.action, arrow)

        def done(yes: bool | None) -> None:
            if yes:
                self.undo_now()
            elif resume:
                self.after_change()

        after = f" and the {steps - 1} computer move(s) after it" if steps > 1 else ""
        self.push_screen(ConfirmScreen(f"Undo {last}{after}?"), done)

    def undo_now(self) -> None:
        """Take back the last human decision (and the computer moves after it)."""
        if self.session is None:
            return
        try:
            self.session.undo()
        except SaveError as exc:
            self.save_failed(exc)
        self.after_change()

    def action_toggle_ascii(self) -> None:
        from imperial_tui.app.widgets.ascii import asciify

        self.ascii_only = not self.ascii_only
        self.set_class(self.ascii_only, "-ascii")
        for screen in self.screen_stack:
            screen.set_class(self.ascii_only, "-ascii")
            asciify(screen, self.ascii_only)
        gs = self.game_screen()
        if gs is not None:
            gs.refresh_panels(force=True)

    def ask_donation(self, nation: str | None) -> None:
        from imperial_tui.app.screens.dialogs import PromptScreen

        session = self.session
        if session is None or session.game.awaiting is None:
            return
        aw = session.game.awaiting
        player = aw.player if session.is_human(aw.player) else session.viewer
        if player is None:
            return
        target = nation or aw.nation or session.game.summary()["turn"]["nation"]
        cash = session.game.can_donate(player)

        def done(value: str | None) -> None:
            if not value:
                return
            try:
                self.apply_human_text(f"{player} donates {int(value)} to {target}")
            except ValueError:
                self.notify("give a whole number of millions", severity="error")

        self.push_screen(
            PromptScreen(f"{player}: donate how many M to {target}'s treasury? (you have {cash}M)"),
            done,
        )

    def apply_human_text(self, text: str) -> None:
        """A human's action typed as text (a donation): like ``apply_human``, it is its
        player's own decision, so their "since your last turn" starts after it."""
        from rules.history import decider

        session = self.session
        assert session is not None
        try:
            session.apply(text)
        except IllegalAction as exc:
            self.notify(exc.reason, severity="error")
            return
        except SaveError as exc:
            self.save_failed(exc)
        who = decider(session.game.plies[-1]) if session.game.plies else None
        if who is not None:
            self.follow.decided(who, session.game)
        self.after_change()

    def action_request_quit(self) -> None:
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        where = f" The game is saved in {self.session.path}." if self.session else ""
        self.push_screen(ConfirmScreen(f"Quit Imperial?{where}"), done)


def run_app(app: ImperialApp) -> None:
    """Run the app; after a crash print one line and exit with EXIT_CRASH."""
    app.run()
    if app.crash is not None:
        sys.stderr.write(app.crash.line() + "\n")
        sys.exit(EXIT_CRASH)
    if app.return_code:
        sys.exit(app.return_code)


def run(path: str | None = None, new_session: Session | None = None, **kwargs: Any) -> None:
    """Start the app: on a save file, on a prepared session, or on the new-game screen."""
    session = new_session
    if path is not None and session is None:
        p = Path(path)
        session = Session.load(p) if p.exists() else None
        kwargs.setdefault("save_path", p)
    run_app(ImperialApp(session=session, **kwargs))
