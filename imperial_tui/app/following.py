"""The app's commands for following the game: since your last turn (w), standings (v), the
game's history (h) and the computer players' pause (p). Part of ``GameApp``, kept apart from
the game loop; the per-viewer state lives in ``self.follow`` (``Following``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from imperial_tui.model.pacing import next_pause
from rules.savefile import SaveError

if TYPE_CHECKING:
    from textual.app import App

    from imperial_tui.app.screens.game import GameScreen
    from imperial_tui.model.follow import Following
    from imperial_tui.model.session import GameSession

    _App = App[None]
else:
    _App = object


class FollowActions(_App):
    """What it needs of the app beyond Textual's is declared here (and checked against
    ``GameApp``, which defines it)."""

    follow: Following
    ascii_only: bool
    _paused: bool
    _recap_waiting: str | None = None  # a player whose recap waits for the board
    after_change: Callable[[], None]
    game_screen: Callable[[], GameScreen | None]
    save_failed: Callable[[SaveError], None]

    session: GameSession | None
    action_undo: Callable[..., None]

    def pause_computers(self) -> bool:
        """Before a computer's decision: wait for a key if the pause setting asks for it
        (after each computer decision, or after a computer nation's turn). True if waiting."""
        from imperial_tui.app.screens.recap import PausedScreen

        session = self.session
        if session is None:
            return False
        pause = self.follow.pause_due(session)
        if pause is None:
            return False
        self._paused = True

        def go_on(then: str | None) -> None:
            self._paused = False
            if then == "undo":  # ctrl+z: the undo question; the computers wait for its answer
                self.action_undo(resume=True)
                return
            self.after_change()

        self.push_screen(PausedScreen(pause, session.pause, self.ascii_only), go_on)
        return True

    def action_pause(self) -> None:
        self.cycle_pause()

    def offer_recap(self, player: str) -> None:
        """Since your last turn: shown when a human's decision comes and others moved since
        that player's previous decision (once; w shows it again)."""
        from imperial_tui.app.screens.recap import RecapScreen

        if self.session is None:
            return
        if self.screen is not self.game_screen():  # help, the palette, a dialog: after it
            self._recap_waiting = player
            return
        self._recap_waiting = None
        found = self.follow.due(self.session, player)
        if found is not None:
            # after the board's own repaint: the move shows at once, the recap a frame later
            self.call_after_refresh(self.push_screen, RecapScreen(found, self.ascii_only))

    def recap_if_waiting(self) -> None:
        """Back on the board: the recap that came while another screen was up."""
        player = self._recap_waiting
        if player is not None:
            self.offer_recap(player)

    def action_recap(self) -> None:
        """w: since your last turn, for the player at the keyboard."""
        from imperial_tui.app.screens.recap import RecapScreen

        session = self.session
        if session is None:
            return
        aw = session.game.awaiting
        player = session.viewer or (aw.player if aw and session.is_human(aw.player) else None)
        if player is None and session.humans:
            player = session.humans[0]
        if player is not None:
            self.push_screen(RecapScreen(self.follow.again(session, player), self.ascii_only))

    def cycle_pause(self) -> str:
        """p: when the computer players wait for a key (saved with the game)."""
        from imperial_tui.model.pacing import PAUSE_WORDS

        session = self.session
        if session is None:
            return "off"
        session.pause = next_pause(session.pause)
        try:
            session.keep_settings()
        except SaveError as exc:
            self.save_failed(exc)
        self.clear_notifications()
        self.notify(PAUSE_WORDS[session.pause], timeout=3)
        return session.pause

    def action_standings(self) -> None:
        """v: victory points if the game ended now, the power track, points by round."""
        from imperial_tui.app.screens.standings import StandingsScreen

        if self.session is not None:
            self.push_screen(StandingsScreen(self.session, self.ascii_only))

    def action_history(self) -> None:
        """h: browse the game turn by turn (escape returns to the present)."""
        from imperial_tui.app.screens.history import HistoryScreen

        if self.session is not None and not isinstance(self.screen, HistoryScreen):
            screen = HistoryScreen(self.session)
            if self.ascii_only:
                screen.add_class("-ascii")
            self.push_screen(screen)

    def close_history(self) -> bool:
        """Close the history browsers on top; False while one is still being built (it
        closes itself once it is: the caller comes back then)."""
        from imperial_tui.app.screens.history import HistoryScreen

        while isinstance(self.screen, HistoryScreen):
            if not self.screen.close():
                return False
        return True
