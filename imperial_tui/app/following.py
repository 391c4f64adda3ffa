"""The app's commands for following the game: since your last turn (w), standings (v), the
game's history (h) and the computer players' pause (p). A mixin of ``ImperialApp``, kept
apart from the game loop; the per-viewer state lives in ``self.follow`` (``Following``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from imperial_tui.model.pacing import next_pause
from rules.savefile import SaveError

if TYPE_CHECKING:
    from imperial_tui.model.follow import Following
    from imperial_tui.model.session import Session


class FollowActions:
    """Needs the App's ``session``, ``follow``, ``ascii_only``, ``_paused`` and screens."""

    session: Session | None
    follow: Following
    ascii_only: bool
    _paused: bool
    _recap_waiting: str | None = None  # a player whose recap waits for the board

    def pause_computers(self) -> bool:
        """Before a computer's decision: wait for a key if the pause setting asks for it
        (after each computer decision, or after a computer nation's turn). True if waiting."""
        from imperial_tui.app.screens.recap import PausedScreen

        app: Any = self
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
                app.action_undo(resume=True)
                return
            app.after_change()

        app.push_screen(PausedScreen(pause, session.pause, self.ascii_only), go_on)
        return True

    def action_pause(self) -> None:
        self.cycle_pause()

    def play_session(self, session: Session) -> None:
        """Switch to another game (a branch from the history): it is on show at once, the
        one before stays in its own file."""
        from imperial_tui.model.follow import Following

        app: Any = self
        if app.pace_override is not None:
            session.pace = app.pace_override
        app.session = session
        app._over_shown = -1
        self.follow = Following()
        app.open_game()

    def offer_recap(self, player: str) -> None:
        """Since your last turn: shown when a human's decision comes and others moved since
        that player's previous decision (once; w shows it again)."""
        from imperial_tui.app.screens.recap import RecapScreen

        app: Any = self
        if self.session is None:
            return
        if app.screen is not app.game_screen():  # help, the palette, a dialog: after it
            self._recap_waiting = player
            return
        self._recap_waiting = None
        found = self.follow.due(self.session, player)
        if found is not None:
            # after the board's own repaint: the move shows at once, the recap a frame later
            app.call_after_refresh(app.push_screen, RecapScreen(found, self.ascii_only))

    def recap_if_waiting(self) -> None:
        """Back on the board: the recap that came while another screen was up."""
        player = self._recap_waiting
        if player is not None:
            self.offer_recap(player)

    def action_recap(self) -> None:
        """w: since your last turn, for the player at the keyboard."""
        from imperial_tui.app.screens.recap import RecapScreen

        app: Any = self
        session = self.session
        if session is None:
            return
        aw = session.game.awaiting
        player = session.viewer or (aw.player if aw and session.is_human(aw.player) else None)
        if player is None and session.humans:
            player = session.humans[0]
        if player is not None:
            app.push_screen(RecapScreen(self.follow.again(session, player), self.ascii_only))

    def cycle_pause(self) -> str:
        """p: when the computer players wait for a key (saved with the game)."""
        from imperial_tui.model.pacing import PAUSE_WORDS

        app: Any = self
        session = self.session
        if session is None:
            return "off"
        session.pause = next_pause(session.pause)
        try:
            session.autosave()
        except SaveError as exc:
            app.save_failed(exc)
        app.clear_notifications()
        app.notify(PAUSE_WORDS[session.pause], timeout=3)
        return session.pause

    def action_standings(self) -> None:
        """v: victory points if the game ended now, the power track, points by round."""
        from imperial_tui.app.screens.standings import StandingsScreen

        if self.session is not None:
            app: Any = self
            app.push_screen(StandingsScreen(self.session, self.ascii_only))

    def action_history(self) -> None:
        """h: browse the game turn by turn (escape returns to the present)."""
        from imperial_tui.app.screens.history import HistoryScreen

        app: Any = self
        if self.session is not None and not isinstance(app.screen, HistoryScreen):
            screen = HistoryScreen(self.session)
            if self.ascii_only:
                screen.add_class("-ascii")
            app.push_screen(screen)

    def close_history(self) -> bool:
        """Close the history browsers on top; False while one is still being built (it
        closes itself once it is: the caller comes back then)."""
        from imperial_tui.app.screens.history import HistoryScreen

        app: Any = self
        while isinstance(app.screen, HistoryScreen):
            if not app.screen.close():
                return False
        return True
