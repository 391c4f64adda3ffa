"""What every Imperial app does with a game, whichever way it reaches the game: the local app
(a save file on this machine) and the SSH server's app (a table on the server) are both a
``GameApp`` over a ``GameSession`` (``imperial_tui.model.session``).

Here: the game on show and its screen, applying a player's choice, undo, the computer
players' turns where this app runs them (``ComputerTurns``), following the game (recap,
standings, history, the computers' pause: ``FollowActions``), donations
(``DonationActions``), the command palette and the crash line. What differs between front
ends is declared once per app in ``FEATURES`` (``Features``) and in three methods each app
implements: how it starts, what quitting means, and where a new game begins. Nothing of a
front end is switched off by overriding.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from imperial_tui import startup
from imperial_tui.app.crash import Crash, write_crash_log
from imperial_tui.app.donations import DonationActions
from imperial_tui.app.following import FollowActions
from imperial_tui.app.palette import PaletteActions
from imperial_tui.app.screens.guard import input_allowed
from imperial_tui.app.strip_caches import lazy_strip_caches
from imperial_tui.app.turns import THINKING_KEPT, ComputerTurns
from imperial_tui.app.widgets.ascii import make_scrollbars_ascii_aware
from imperial_tui.app.widgets.options import make_page_moves_safe
from imperial_tui.model.follow import Following
from imperial_tui.model.pacing import clamp_pace
from imperial_tui.model.session import GameSession
from imperial_tui.render.style import ascii_wanted, to_ascii
from imperial_tui.render.words import action_sentence
from rules import Action, IllegalAction
from rules.common import counted
from rules.decisions import Decision
from rules.history import decider
from rules.savefile import SaveError

if TYPE_CHECKING:
    from textual.command import Provider

    from imperial_tui.app.screens.game import GameScreen

make_page_moves_safe()
make_scrollbars_ascii_aware()

# Screens and widgets are imported where they are first shown, not here: the first frame
# then waits only for the one screen it shows (scripts/measure_startup.py measures it).

HELP_FOR_DECISION: dict[Decision, str] = {
    Decision.RONDEL: "rondel",
    Decision.SWISS_BANK: "investor",
    Decision.BUILD_FACTORY: "factory",
    Decision.PRODUCE: "overview",
    Decision.IMPORT: "import",
    Decision.MANEUVER: "maneuver",
    Decision.BATTLE: "maneuver",
    Decision.CANAL: "maneuver",
    Decision.INVEST: "investor",
    Decision.BOND_CHOICE: "investor",
}
HELP_FOR_PANEL = {
    "rondel": "rondel",
    "bonds": "investor",
    "regions": "maneuver",
    "log": "keys",
    "map": "map",
}
# Textual's key glyphs, in words for ASCII mode
KEY_WORDS = {"⏎": "enter", "↑": "up", "↓": "down", "←": "left", "→": "right", "⇥": "tab"}


@dataclass(frozen=True, slots=True)
class Features:
    """What a front end offers beyond playing the game on show, declared once per app.

    ``save_files``: save, save as, load, a branch from the history and the reload offer work
    on files of this machine (the server's players have no files there). ``chat``: a line to
    everyone at the table. ``screenshots``: Textual's screenshot command, which writes a
    file on this machine. ``quit_help``: what the palette says quitting does."""

    save_files: bool
    chat: bool
    screenshots: bool
    quit_help: str


# actions a feature brings, for the footer, the palette and the keys (``check_action``)
ACTIONS_OF_FEATURE: dict[str, tuple[str, ...]] = {
    "save_files": ("save", "save_as", "load", "branch"),
    "chat": ("chat",),
}


def _commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from imperial_tui.app.commands import ImperialCommands

    return ImperialCommands


S = TypeVar("S", bound=GameSession)
R = TypeVar("R")  # a screen's result: whatever it is


def game_app(node: DOMNode) -> GameApp[GameSession]:
    """The app a screen or widget is in, typed: every screen of ours runs in a ``GameApp``
    (Textual types ``node.app`` as any app)."""
    app = node.app
    assert isinstance(app, GameApp), f"{type(node).__name__} outside an Imperial app"
    return app


class GameApp(PaletteActions, FollowActions, DonationActions, ComputerTurns, App[None], Generic[S]):
    """An app that plays one game at a time through a session of type ``S``."""

    FEATURES: ClassVar[Features]
    TITLE = "Imperial"
    COMMANDS = App.COMMANDS | {_commands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "request_quit", "quit", id="app.quit", priority=True),
        Binding("f1", "help", "help", id="app.help"),
        # (the key many terminal programs use; a text field takes it as a character first)
        Binding("question_mark", "help", "help", id="app.help.question_mark", show=False),
    ]

    def __init__(self, pace: float | None = None, ascii_only: bool | None = None) -> None:
        lazy_strip_caches()  # before the first line is drawn (strip_caches.py: why)
        super().__init__()
        self._session: S | None = None
        env_pace = os.environ.get("IMPERIAL_PACE")
        self.pace_override = clamp_pace(pace if pace is not None else env_pace, None)
        self.ascii_only = ascii_wanted() if ascii_only is None else ascii_only
        self._bot_busy = False
        self._bots_moved = False
        self._paused = False  # computer players wait for a key (PausedScreen)
        self.follow = Following()  # this viewer's recaps and pauses
        self._on_screen: int | None = None  # the actions shown when the board was last drawn
        self.start_note = ""  # the first thing the log line says (where the game is saved)
        self._over_shown: object = -1  # the session version the scores were shown for
        self.timings: dict[str, float] = {}
        self.thinking: deque[tuple[int, float]] = deque(maxlen=THINKING_KEPT)
        self.crash: Crash | None = None

    # -- what each front end implements --------------------------------------------------------
    def start(self) -> None:
        """The first screen, once the app is mounted (a game, the new-game screen, a lobby)."""
        raise NotImplementedError

    def action_request_quit(self) -> None:
        """ctrl+q: what quitting means here (leave the app, or a game for the lobby)."""
        raise NotImplementedError

    def action_new_game(self) -> None:
        """ctrl+n: where a new game begins (the new-game screen, or the lobby)."""
        raise NotImplementedError

    # -- the game on show ----------------------------------------------------------------------
    @property
    def session(self) -> S | None:
        """The game on show (a plain attribute in all but name: see the setter)."""
        return self._session

    @session.setter
    def session(self, session: S | None) -> None:
        """Another game replaces this one (new game, load, a branch, another table): the
        computer players of the one left stop their playout processes."""
        old = self._session
        if old is not None and old is not session:
            old.close_bots()
        if old is not session:
            self._on_screen = None  # nothing of the new game watched yet
        if session is not None and session.runs_seats and self.pace_override is not None:
            session.pace = self.pace_override  # the computer players this app runs
        self._session = session

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys, footer and palette offer only what this front end and the game on show
        do: a feature's actions where ``FEATURES`` has it, the computers' pause where
        this app runs computer players."""
        for feature, actions in ACTIONS_OF_FEATURE.items():
            if action in actions and not getattr(self.FEATURES, feature):
                return False
        if action == "pause":
            return self.session is not None and self.session.runs_seats
        if action == "chat":
            from imperial_tui.app.screens.game import GameScreen

            return isinstance(self.screen, GameScreen)
        return True

    # -- a crash ends the app with one line, never a traceback over the game -------------------
    def _handle_exception(self, error: Exception) -> None:
        """Write the traceback to a log file and end with a non-zero exit code; ``run_app``
        then prints one line naming the save file. Textual's own handling (the return code,
        re-raising in tests) stays as it is."""
        if self.crash is None:
            self.crash = Crash(error, write_crash_log(error), self.save_after_crash())
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crash is not None:  # the traceback is in the log file, not over the terminal
            self._exit_renderables.clear()
            return
        super()._print_error_renderables()

    def save_after_crash(self) -> Path | None:
        """Where the game is safe after a crash (None: nowhere on this machine)."""
        return None

    def save_failed(self, exc: SaveError) -> None:
        """A save did not happen: say so (the local app offers a reload on a conflict)."""
        self.notify(str(exc), severity="error", timeout=8)

    async def on_event(self, event: events.Event) -> None:
        """Keys pressed while the app closes (a quick key after "y" to quit) find no screen
        left; Textual would fail on them, so they are dropped. While the window is too small
        only quitting and the help answer (``input_allowed``)."""
        if isinstance(event, events.InputEvent) and not self.screen_stack:
            return
        if not input_allowed(self, event):  # the window is too small: see the message
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

    def get_system_commands(self, screen: Screen[R]) -> Iterable[SystemCommand]:
        """Textual's own palette commands: its Quit asks first like ctrl+q (it would end the
        game at once), and its screenshot only where this machine is the player's."""
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot" and not self.FEATURES.screenshots:
                continue
            if command.title == "Quit":
                yield SystemCommand("Quit", self.FEATURES.quit_help, self.action_request_quit)
                continue
            yield command

    # -- start and end ------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.timings["mounted"] = time.monotonic()
        self.set_class(self.ascii_only, "-ascii")  # app.tcss: every screen, dialog, toast
        if self.ascii_only:
            self.screen.add_class("-ascii")
        self.call_later(self.first_screen)

    def first_screen(self) -> None:
        """``start``, called once Textual's start-up is over: during it (``on_mount`` runs
        inside Textual's first batch update) a screen is laid out and drawn, and the drawing
        thrown away, so the first frame cost that work twice (40 ms of 340, issue 26)."""
        self.start()
        if startup.paused():  # the command line's start: collect garbage after the first frame
            self.call_after_refresh(startup.resume)

    def on_unmount(self) -> None:
        """The app ends (quit, ctrl+c, a crash, a connection closed): the computer players'
        playout processes end with it, joined here rather than left to exit hooks."""
        if self.session is not None:
            self.session.close_bots()

    # -- screens ------------------------------------------------------------------------------
    def open_game(self) -> None:
        """Show the game on show on a fresh game screen, over this app's home screen."""
        from imperial_tui.app.screens.game import GameScreen

        assert self.session is not None
        screen = GameScreen()
        if self.ascii_only:
            screen.add_class("-ascii")
        self.show_alone(screen, then=self.after_change)

    def show_alone(self, screen: Screen[R], then: Callable[[], None] | None = None) -> None:
        """Show a main screen (game or new game) with nothing above this app's home screen
        (the server's lobby; Textual's default screen): every dialog, help page or score
        screen still open is closed first (replacing only the top screen would leave the old
        main screen under a dialog, or throw away the main screen itself). Textual's command
        palette is left to close itself first: popped from under its own feet it would later
        pop our new screen instead."""
        from textual.screen import SystemModalScreen

        if any(isinstance(s, SystemModalScreen) for s in self.screen_stack):
            self.set_timer(0.05, partial(self.show_alone, screen, then))
            return
        self.pop_to_home()
        self.push_screen(screen)
        if then is not None:
            self.call_after_refresh(then)

    def pop_to_home(self) -> None:
        """Close every screen above the home screen: the first one that says it is a home
        (``HOME = True``: the server's lobby), else Textual's default screen."""
        while len(self.screen_stack) > 1 and not getattr(self.screen, "HOME", False):
            self.pop_screen()

    def game_screen(self) -> GameScreen | None:
        """The live game screen (never the history browser, which shows the past)."""
        from imperial_tui.app.screens.game import GameScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen) and screen.LIVE:
                return screen
        return None

    # -- the game loop ------------------------------------------------------------------------
    def watching(self) -> list[str]:
        """Who sees the board now: the connection's player on a server, the player handed
        the keyboard when cash is hidden between humans at one keyboard, else every human
        at this keyboard."""
        session = self.session
        if session is None:
            return []
        if not session.runs_seats or (session.hidden_cash and len(session.humans) > 1):
            return [session.viewer] if session.viewer else []
        return list(session.humans)

    def move_stays_on_screen(self) -> bool:
        """Whether the move just shown can be seen: a human's, one this app receives from
        the table (it arrives at the table's pace), or a computer's played here at a pace
        (at pace 0 the computers' moves pass faster than anyone reads: the recap tells)."""
        session = self.session
        plies = session.view.plies if session is not None else []
        if session is None or not session.runs_seats or not plies:
            return True
        who = decider(plies[-1])
        return who is None or session.is_human(who) or session.pace > 0

    def after_change(self) -> None:
        """Repaint, then hand the next decision to a human (bell, hand-over) or a bot; where
        another program runs the seats (the server's table), greet this viewer's turn."""
        session = self.session
        screen = self.game_screen()
        if session is None or screen is None:
            return
        screen.refresh_panels()
        if self.screen is screen:
            now, before = len(session.view.plies), self._on_screen
            if before is not None and before < now and self.move_stays_on_screen():
                self.follow.watch(self.watching(), before, now)
            self._on_screen = now
        aw = session.game.awaiting
        if aw is None:
            if self._over_shown != session.version:
                self._over_shown = session.version
                self.show_scores()
            return
        if not session.runs_seats:
            if session.viewer is not None and aw.player == session.viewer:
                self.offer_recap(aw.player)  # this connection's player: since their turn
            return
        if session.is_human(aw.player):
            if self._bots_moved:
                self._bots_moved = False
                self.bell()
            others = len(session.humans) > 1
            if session.hidden_cash and others and session.viewer != aw.player:
                from imperial_tui.app.screens.dialogs import HandoverScreen

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

                steps = session.undo_steps()
                previous = session.viewer if steps else None
                self.push_screen(
                    HandoverScreen(aw.player, aw.nation, aw.kind, previous, max(0, steps - 1)),
                    handed,
                )
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

        session = self.session
        result = session.game.result() if session is not None else None
        if result is not None and session is not None:
            self.push_screen(GameOverScreen(result, self.ascii_only, session.game))

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
        from rules.actions import Produce

        session = self.session
        assert session is not None
        game = session.game
        aw = game.awaiting
        if aw is None or aw.kind != Decision.PRODUCE or aw.nation != rondel.actor:
            return
        producing = [a for a in game.legal_actions() if isinstance(a, Produce)]
        producing = [a for a in producing if a.region != "done"]
        every = [a for a in producing if a.region == "all"]
        if every or len(producing) == 1:
            session.apply((every or producing)[0])

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

    # -- commands -----------------------------------------------------------------------------
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
            if aw is None:
                return "scoring"
            return HELP_FOR_DECISION.get(aw.kind, "overview")
        if "right" in ids or "map-wide" in ids:
            return HELP_FOR_PANEL.get(gs.shown_panel(), "keys")
        return "keys"

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

        after = ""
        if steps > 1:
            after = f" and the {counted(steps - 1, 'computer move', 'computer moves')} after it"
        # (whose decision it was: at one keyboard, one player may take back another's)
        who = decider(ply)
        whose = f"{who}'s decision, " if who else ""
        self.push_screen(ConfirmScreen(f"Undo {whose}{last}{after}?"), done)

    def undo_now(self) -> None:
        """Take back the last human decision (and the computer moves after it)."""
        session = self.session
        if session is None:
            return
        try:
            session.undo()
        except IllegalAction as exc:  # the server's table refused (someone acted meanwhile)
            self.notify(exc.reason, severity="error")
        except SaveError as exc:
            self.save_failed(exc)
        self.after_change()

    def action_toggle_ascii(self) -> None:
        from imperial_tui.app.widgets.ascii import asciify
        from imperial_tui.app.widgets.footer import KeysFooter
        from imperial_tui.app.widgets.panel_tabs import PanelTabs

        self.ascii_only = not self.ascii_only
        self.set_class(self.ascii_only, "-ascii")
        for screen in self.screen_stack:
            screen.set_class(self.ascii_only, "-ascii")
            asciify(screen, self.ascii_only)
            for footer in screen.query(KeysFooter):
                footer.keys_changed()  # "enter" or "⏎": widths change, which keys fit too
            for tabs in screen.query(PanelTabs):
                tabs.refresh()  # the active tab in reverse and no bar, or lit and a bar
        gs = self.game_screen()
        if gs is not None:
            gs.refresh_panels(force=True)
            gs.show_focus()  # the focused panel's title mark is a glyph too
