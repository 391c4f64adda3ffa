"""The app's donation: d (or the decision list's "donate" entry, or the palette) asks the
player at this terminal how much cash to give to a treasury (RULES.md §1.5: at any time).
Part of ``GameApp``.

The box stays open until the amount is one the engine accepts (``Game.donation_refusal``,
the reason it would give), so that a typing slip is answered in the box: closed, the next
Enter would go to the decision list behind it and play a move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imperial_tui.model.numbers import whole_number

if TYPE_CHECKING:
    from textual.app import App

    from imperial_tui.model.session import GameSession

    _App = App[None]
else:
    _App = object


class DonationActions(_App):
    """What it needs of the app beyond Textual's is declared here (and checked against
    ``GameApp``, which defines it)."""

    if TYPE_CHECKING:

        @property
        def session(self) -> GameSession | None: ...

        def apply_human_text(self, text: str) -> None: ...

    def action_donate(self) -> None:
        """The palette's Donate: to the treasury of the nation whose decision it is."""
        self.ask_donation(None)

    def ask_donation(self, nation: str | None) -> None:
        """A donation to ``nation``'s treasury (None: the deciding nation's, else the one
        whose turn it is), asked of the player at this terminal."""
        from imperial_tui.app.screens.dialogs import PromptScreen

        session = self.session
        if session is None or session.game.awaiting is None:
            return
        game = session.game
        player = session.donor()
        if player is None:
            self.notify("you are watching this game", severity="warning")
            return
        aw = game.awaiting
        assert aw is not None
        target = nation or aw.nation or game.summary()["turn"]["nation"]

        def refusal(value: str) -> str | None:
            if not whole_number(value):
                return "give a whole number of millions, such as 3"
            return game.donation_refusal(player, int(value))

        def done(value: str | None) -> None:
            if value:
                self.apply_human_text(f"{player} donates {int(value)} to {target}")

        question = (
            f"{player}: donate how many M to {target}'s treasury? "
            f"(you have {game.can_donate(player)}M)"
        )
        self.push_screen(PromptScreen(question, check=refusal), done)
