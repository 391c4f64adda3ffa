"""The app one SSH connection sees: the lobby, then the game screen from this player's seat.
A ``GameApp`` like the local app, over a ``RemoteSession`` whose changes go to the server's
table; its ``FEATURES`` leave out what would act on the server's own machine (save files,
loading, screenshots) and add the table's chat."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.console import Console
from textual import events, on
from textual.app import _NullFile
from textual.binding import Binding, BindingType
from textual.filter import Monochrome, NoColor
from textual.message import Message

from imperial_tui.app.base import Features, GameApp
from imperial_tui.app.widgets.shared import SharedRenders
from imperial_tui.server.driver import Link, SSHDriver
from imperial_tui.server.hub import Client, Hub
from imperial_tui.server.remote import RemoteSession
from imperial_tui.server.store import StoreError
from imperial_tui.server.table import Refused, Table, chat_cut
from rules import RuleSet


@dataclass
class TableChanged(Message):
    game_id: int
    # done once the screen is drawn for it (the process's redraws wait for that)
    drawn: asyncio.Future[None] | None = field(default=None, compare=False)


@dataclass
class YourTurn(Message):
    game_id: int


class LobbyChanged(Message):
    pass


def client_console(env: dict[str, str]) -> Console:
    """A console for the client's terminal: colours from the client's TERM/COLORTERM (sent
    over SSH), not from the server's environment."""
    return Console(
        color_system="auto",
        file=_NullFile(),  # type: ignore[arg-type]  # Textual's do-nothing file, as Textual's
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=env,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )


HERE = Path(__file__).parent
KEY_PROBE = 0.03  # seconds between looks whether a key that drew nothing is answered


class ServerApp(GameApp[RemoteSession]):
    """One connection's app. ``link`` is read by the SSH driver."""

    CSS_PATH = [HERE.parent / "app" / "app.tcss", HERE / "lobby.tcss"]  # noqa: RUF012 - Textual's name
    FEATURES: ClassVar[Features] = Features(
        save_files=False,  # the server keeps every move; its files are the host's
        chat=True,
        screenshots=False,  # a screenshot would be written on the server's disk
        quit_help="Leave the server (your games go on there)",
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        # ctrl+q: from a game back to the lobby; from the lobby, leave the server
        Binding("ctrl+q", "request_quit", "leave", id="app.quit", priority=True),
        Binding("c", "chat", "chat", id="server.chat"),
    ]

    stopping = False  # the server is stopping (the player is told so when the screen ends)
    idle = False  # ended after a long time without a key press

    def __init__(
        self, hub: Hub, user: str, link: Link, env: dict[str, str], ascii_only: bool = False
    ) -> None:
        super().__init__(ascii_only=ascii_only)
        self.driver_class = SSHDriver
        self.hub = hub
        self.user = user
        self.link = link
        self.animation_level = "none"  # every animation frame would cross the network
        self.console = client_console(env)
        self._filters = [f for f in self._filters if not isinstance(f, (NoColor, Monochrome))]
        if env.get("NO_COLOR"):
            self._filters.append(Monochrome())
        self.client = Client(user, self._on_turn, self._on_lobby)
        self._table: Table | None = None
        self._lobby_pending = False
        self._key_probe: asyncio.TimerHandle | None = None

    @property
    def shared_renders(self) -> SharedRenders:
        """Panels rendered once for all connections (widgets/shared.py)."""
        return self.hub.renders

    # -- start and end ------------------------------------------------------------------------
    def start(self) -> None:
        from imperial_tui.server.lobby import LobbyScreen

        self.hub.connect(self.client)
        self.push_screen(LobbyScreen())
        user = self.hub.store.get_user(self.user)
        last = user.last_game if user else None
        table = self.hub.tables.get(last) if last is not None else None
        if table is not None and table.game is not None:
            self.open_table(table)  # a player (or spectator) who reconnects lands where they were

    @on(events.Unmount)
    def leave_server(self) -> None:
        """The connection ends: off the table and out of the hub (``GameApp`` closes the
        rest)."""
        self.leave_table()
        self.hub.disconnect(self.client)
        self.hub.redraws.forget(self)
        self.hub.redraws.key_done(self)
        if self._key_probe is not None:
            self._key_probe.cancel()

    # -- tables -------------------------------------------------------------------------------
    def enter_game(self, game_id: int) -> None:
        """The lobby's enter: play your game, take a free seat, or watch."""
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        table = self.hub.tables.get(game_id)
        if table is None:
            return
        if table.damaged:
            self.notify(f"game {game_id} {table.damaged}", severity="error")
            return
        kept = table.seat_kept_for(self.user) is not None
        if table.seat_of(self.user) is None and (kept or table.free_seats):

            def done(yes: bool | None) -> None:
                if yes:
                    self.join(table)

            which = "the seat kept for you" if kept else "a seat"
            self.push_screen(ConfirmScreen(f"Take {which} in #{table.id} {table.title}?"), done)
            return
        if table.game is None:
            n = table.waiting_seats
            self.notify(f"#{table.id} starts when {n} more player{'s' if n != 1 else ''} join")
            return
        self.open_table(table)

    def join(self, table: Table) -> None:
        try:
            self.hub.join(self.user, table)
        except (Refused, StoreError) as exc:
            self.notify(_reason(exc), severity="error")
            return
        if table.game is not None:
            self.open_table(table)
        else:
            self.notify(f"you have a seat in #{table.id}; it starts when the seats are full")

    def create_game(
        self, seats: list[tuple[str, str]], rules: RuleSet, seed: int | None, hidden_cash: bool
    ) -> None:
        try:
            table = self.hub.create_game(self.user, seats, rules, seed, hidden_cash)
        except (Refused, StoreError, ValueError) as exc:
            self.notify(_reason(exc), severity="error", timeout=6)
            return
        self.pop_screen()  # the new-game screen
        if table.game is not None and table.seat_of(self.user):
            self.open_table(table)
        elif table.game is not None:
            self.notify(f"#{table.id} has started; you have no seat in it", timeout=6)
        else:
            kept = [s.name for s in table.seats if s.is_kept]
            told = f"#{table.id} is open: it starts when every seat is taken"
            if kept:
                told += f" (kept for {', '.join(kept)}: they take them from their lobby)"
            self.notify(told, timeout=8)

    def open_table(self, table: Table) -> None:
        self.leave_table()
        self._table = table
        table.listeners.add(self._table_listener)
        self.session = RemoteSession.open(table, self.user)
        self.hub.store.set_last_game(self.user, table.id)
        self._over_shown = -1 if table.status != "finished" else self._over_shown
        self.open_game()
        if self.session.spectator:
            self.notify("watching: read-only", timeout=3)

    def leave_table(self) -> None:
        if self._table is not None:
            self._table.listeners.discard(self._table_listener)
            self._table = None

    def back_to_lobby(self) -> None:
        self.leave_table()
        self.pop_to_home()
        self.session = None
        self.hub.store.set_last_game(self.user, None)

    # -- messages from the table and the hub (other apps' tasks post them) --------------------
    def _table_listener(self, table: Table) -> None:
        # not at once: in line behind the process's keys and the other screens (redraws.py)
        self.hub.redraws.want(self)

    def redraw_table(self) -> asyncio.Future[None] | None:
        """The process's redraws (redraws.py): show the table's latest state now. The
        future is done when the frame is drawn; None when there is nothing to draw (the
        connection is ending, or this screen is up to date: its own player's move)."""
        table, session = self._table, self.session
        if table is None or session is None or not self.is_running:
            return None
        if session.version == table.version:
            return None
        drawn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.post_message(TableChanged(table.id, drawn))
        return drawn

    # -- keys hold the redraws for other players' moves until they are answered ---------------
    def input_arrived(self) -> None:
        """The driver has a key (a paste, a click) for this app: no other screen of the
        process starts a redraw for moves until it is answered (``frame_sent``, or nothing
        left to do for it: ``_probe_key``)."""
        self.hub.redraws.key_started(self)
        if self._key_probe is None:
            self._key_probe = asyncio.get_running_loop().call_later(KEY_PROBE, self._probe_key)

    def frame_sent(self) -> None:
        """The driver sent a frame: the key before it is answered."""
        self.hub.redraws.key_done(self)

    def _probe_key(self) -> None:
        """A key that draws nothing (Enter with no decision) is answered once the app and
        its screen have nothing left to do."""
        self._key_probe = None
        redraws = self.hub.redraws
        if not redraws.holding(self):
            return
        if self._answering():
            self._key_probe = asyncio.get_running_loop().call_later(KEY_PROBE, self._probe_key)
        else:
            redraws.key_done(self)

    def _answering(self) -> bool:
        """Whether the app still has work queued (Textual's private queues and flags: Textual
        is pinned exactly)."""
        if not self.screen_stack:
            return False
        screen = self.screen
        focused = screen.focused
        # a key goes to the focused widget and bubbles up through its containers
        pumps = [self, screen, *(focused.ancestors_with_self if focused is not None else ())]
        return (
            any(not p._message_queue.empty() for p in pumps)
            or bool(screen._dirty_widgets)
            or screen._layout_required
            or screen._repaint_required
        )

    def _on_turn(self, table: Table) -> None:
        self.post_message(YourTurn(table.id))

    def _on_lobby(self) -> None:
        if not self._lobby_pending:
            self._lobby_pending = True
            self.post_message(LobbyChanged())

    def on_table_changed(self, message: TableChanged) -> None:
        try:
            session = self.session
            if session is not None and session.table.id == message.game_id and session.refresh():
                self.after_change()
        finally:
            if message.drawn is not None:
                self.call_after_refresh(_done, message.drawn)

    def on_your_turn(self, message: YourTurn) -> None:
        self.bell()
        session = self.session
        here = session is not None and session.table.id == message.game_id
        if not here:
            table = self.hub.tables.get(message.game_id)
            title = f"#{message.game_id} {table.title}" if table else f"#{message.game_id}"
            self.notify(f"your turn in {title}", timeout=5)

    def on_lobby_changed(self, message: LobbyChanged) -> None:
        # at most a few lobby rebuilds a second, however busy the server is
        self.set_timer(0.25, self._refresh_lobby)

    def _refresh_lobby(self) -> None:
        from imperial_tui.server.lobby import LobbyScreen

        self._lobby_pending = False
        # (the timer may fire while the connection's app is ending: no screen left to show)
        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(top, LobbyScreen):
            top.show_games()

    # -- what quitting and a new game mean here -----------------------------------------------
    def action_request_quit(self) -> None:
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        if self.session is not None:
            self.back_to_lobby()
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        question = "Leave the server? Your games go on here."
        self.push_screen(ConfirmScreen(question, while_too_small=True), done)

    def action_new_game(self) -> None:
        self.back_to_lobby()
        self.notify("n in the lobby starts a new game")

    def action_chat(self) -> None:
        from imperial_tui.app.screens.dialogs import PromptScreen

        if self.session is None:
            return

        def done(value: str | None) -> None:
            if value and self.session is not None:
                try:
                    self.session.say(value)
                except (StoreError, Refused) as exc:
                    self.notify(_reason(exc), severity="error")
                    return
                cut = chat_cut(value)
                if cut:
                    self.notify(cut, severity="warning")
                self.after_change()

        self.push_screen(PromptScreen("Say to everyone at this table (one line):"), done)


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _reason(exc: Exception) -> str:
    return getattr(exc, "reason", None) or str(exc)
