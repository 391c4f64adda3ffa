"""h: the game's history, turn by turn. Every panel shows the position as it was (the same
panels as the game, read from a ``PastView``), the panel under the nations lists that turn's
log with the computer players' reasons; left/right step by turn, ',' and '.' by action, Enter
on an action goes to the position after it, Escape returns to the present. "Play from here"
branches a new game from the position on show (``BranchScreen``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, OptionList, Select, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from imperial_tui.app.base import game_app
from imperial_tui.app.messages import ActionChosen, DonateRequested
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.app.screens.guard import DismissFromTop, GuardedDialog
from imperial_tui.app.widgets.base import Hanging, nation_text
from imperial_tui.app.widgets.bonds import BondsPanel
from imperial_tui.app.widgets.log import LogPanel
from imperial_tui.app.widgets.nations import NationsPanel
from imperial_tui.app.widgets.regions import RegionsPanel
from imperial_tui.app.widgets.rondel import RondelPanel
from imperial_tui.model.past import PastView, Turn, game_turns, turn_of
from imperial_tui.model.reasons import reason_for
from imperial_tui.render.style import to_ascii
from imperial_tui.render.words import action_sentence
from rules.bots import BOT_LEVELS
from rules.controllers import HUMAN, Controller
from rules.history import decider

if TYPE_CHECKING:
    from imperial_tui.model.session import GameSession, Session, SessionView


class HistoryPanel(Vertical):
    """The shown turn: where we are, the commands, then the turn's log (actions in words,
    their events and reasons; what came after the shown position is dimmed)."""

    def compose(self) -> ComposeResult:
        yield Static(id="decision-title")
        yield Static(id="decision-plan")
        yield OptionList(id="decision-options")

    def show(self, view: SessionView, force: bool = False) -> bool:
        screen = self.screen
        assert isinstance(screen, HistoryScreen) and isinstance(view, PastView), (
            "the history panel shows its screen's past position"
        )
        turns = screen.turns_now()
        index = turn_of(turns, view.at)
        turn = turns[index]
        total = len(view.live.game.plies)
        ascii_only = bool(getattr(self.app, "ascii_only", False))
        title = Text(f"History: turn {index + 1} of {len(turns)} ", style="bold")
        if turn.nation:
            title.append_text(nation_text(turn.nation))
        self.query_one("#decision-title", Static).update(title)
        # two lines of whole phrases in the 38 columns of the decision panel (esc is in the
        # footer and the status line); a wrap left "turn  ,/.:" on one line, "action" on the next
        plan = Text(f"action {view.at} of {total}", style="bold")
        plan.append("  b: play from here\nleft/right: turn  ,/.: action", style="dim")
        self.query_one("#decision-plan", Static).update(plan)
        ol = self.query_one("#decision-options", OptionList)
        ol.clear_options()
        ol.add_options(self.turn_lines(turn, view, ascii_only))
        # the action on show is highlighted, so the list scrolls to it
        try:
            ol.highlighted = ol.get_option_index(f"at:{view.at}")
        except OptionDoesNotExist:
            ol.highlighted = next(
                (i for i in range(ol.option_count) if not ol.get_option_at_index(i).disabled),
                None,
            )
        return True

    @staticmethod
    def turn_lines(turn: Turn, view: PastView, ascii_only: bool) -> list[Option]:
        """The turn's log: events before anyone decided, then each action (Enter: go to the
        position after it) with its events and, for a computer, its reason."""
        live = view.live.game
        arrow = "->" if ascii_only else "→"
        pointer = ">" if ascii_only else "▶"

        def words(text: str) -> str:
            return to_ascii(text) if ascii_only else text

        out = [
            Option(Text(turn.heading[:1].upper() + turn.heading[1:], style="bold"), disabled=True)
        ]
        indent = Text("      ")
        for e in turn.log.events:
            out.append(Option(Hanging(indent, Text(words(e.text), style="dim")), disabled=True))
        for a in turn.log.actions:
            ply = live.plies[a.number - 1]
            later = a.number > view.at
            head = Text(f"{pointer if a.number == view.at else ' '}{a.number:4} ")
            body = Text(
                words(action_sentence(ply.before, ply.action, arrow)),
                style="dim" if later else "bold",
            )
            out.append(Option(Hanging(head, body), id=f"at:{a.number}"))
            for e in a.events:
                event = Text()
                if e.nation:
                    event.append_text(nation_text(e.nation, " "))
                event.append(words(e.text), style="dim" if later else "")
                out.append(Option(Hanging(indent, event), disabled=True))
            why = reason_for(view.reasons, a.number, ply.action)
            if why:
                who = decider(ply) or ""
                reason = Text(f"{who} (computer): {words(why)}", style="italic")
                out.append(Option(Hanging(indent, reason), disabled=True))
        return out

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        screen = self.screen
        oid = event.option.id or ""
        if oid.startswith("at:") and isinstance(screen, HistoryScreen):
            screen.go_to(int(oid[3:]))


class HistoryScreen(GameScreen, inherit_bindings=False):
    """The game screen over a past position (a second screen over the live one, which keeps
    playing underneath: computer players do not wait for a player reading the history)."""

    LIVE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h", "present", "back to now", id="history.present"),
        Binding("left", "turn(-1)", "turn back", id="history.back", key_display="left/right"),
        Binding("right", "turn(1)", "turn on", id="history.on", show=False),
        Binding("comma", "action(-1)", "action back", id="history.action_back", show=False),
        Binding("full_stop", "action(1)", "action on", id="history.action_on", show=False),
        Binding("b", "branch", "play from here", id="history.branch"),
        Binding("1", "panel('rondel')", "panels", id="history.panel.rondel", key_display="1-5"),
        Binding("2", "panel('bonds')", "bonds", id="history.panel.bonds", show=False),
        Binding("3", "panel('regions')", "regions", id="history.panel.regions", show=False),
        Binding("4", "panel('log')", "log", id="history.panel.log", show=False),
        Binding("5", "panel('map')", "map", id="history.panel.map", show=False),
        Binding("f", "filter", "filter regions", id="history.filter", show=False),
    ]
    PANELS: ClassVar[tuple[type, ...]] = (
        NationsPanel,
        HistoryPanel,
        RondelPanel,
        BondsPanel,
        RegionsPanel,
        LogPanel,
    )

    def __init__(self, live: GameSession, at: int | None = None) -> None:
        super().__init__()
        self.live = live
        self._turns_key: tuple[int, int] = (-1, 0)
        self.turns: list[Turn] = []
        self.turns_now()
        total = len(live.game.plies)
        at = total if at is None else at  # it opens on the latest turn's log
        self.view = PastView(live, max(0, min(at, total)))
        self._mark()

    def decision_widget(self) -> Widget:
        return HistoryPanel(id="decision")

    # a past position: nothing to choose there, on the map or anywhere
    def _human_deciding(self) -> bool:
        return False

    def _maneuver_map(self) -> None:
        return

    def on_action_chosen(self, message: ActionChosen) -> None:
        message.prevent_default()  # not the game screen's handler either
        message.stop()

    def on_donate_requested(self, message: DonateRequested) -> None:
        message.prevent_default()
        message.stop()

    def session_or_none(self) -> PastView:
        return self.view

    @property
    def session(self) -> PastView:
        return self.view

    def status_line(self) -> Text:
        s = self.view.game.state
        text = Text(f" {s.rules.title} ", style="bold reverse")
        text.append(" HISTORY ", style="bold reverse")
        where = f" round {s.round}" if s.round else " set-up"
        text.append(f"{where}, after action {self.view.at} - esc: back to the present")
        return text

    # -- moving through the game ----------------------------------------------------------------
    def turns_now(self) -> list[Turn]:
        """The game's turns, worked out again when the live game moved on or was taken back
        meanwhile (the computer players do not wait for a reader of the history)."""
        plies = self.live.game.plies
        key = (len(plies), id(plies[-1]) if plies else 0)
        if key != self._turns_key:
            self._turns_key = key
            self.turns = game_turns(self.live.game)
        return self.turns

    def _mark(self) -> None:
        """Mark the regions the shown turn changed so far."""
        turns = self.turns_now()
        turn = turns[turn_of(turns, self.view.at)]
        self.view.mark_changes(max(0, min(turn.first - 1, self.view.at)))

    def go_to(self, at: int) -> None:
        total = len(self.live.game.plies)
        self.turns_now()
        at = max(0, min(at, total))
        if at == self.view.at and self.view.at <= total:
            return
        self.view = PastView(self.live, at)
        self._mark()
        self.refresh_panels()

    def refresh_panels(self, force: bool = False) -> int:
        if self.view.at > len(self.live.game.plies):  # taken back meanwhile
            self.view = PastView(self.live, len(self.live.game.plies))
            self._mark()
        return super().refresh_panels(force)

    def action_turn(self, step: int) -> None:
        turns = self.turns_now()
        index = turn_of(turns, min(self.view.at, len(self.live.game.plies)))
        turn = turns[index]
        if step < 0:  # the end of the turn before (from the middle of a turn too)
            self.go_to(turns[index - 1].last if index > 0 else 0)
        else:
            target = index if self.view.at < turn.last else index + 1
            if target < len(turns):
                self.go_to(turns[target].last)

    def action_action(self, step: int) -> None:
        self.go_to(self.view.at + step)

    def action_present(self) -> None:
        self.close()

    _close_asked = False  # asked to close before it could: it closes as soon as it can

    def close(self) -> bool:
        """Back to the present; True once closed. A browser still being built closes as soon
        as it is (closed while Textual mounts its tab strip, the strip looked for tabs that
        closing had taken away: h and escape in one burst ended the app); one under a dialog
        closes when the dialog does."""
        app = self.app
        if self not in app.screen_stack:
            return True
        if self.is_mounted and app.screen is self:
            self.dismiss(None)
            return True
        if not self._close_asked:
            self._close_asked = True
            self.call_later(self._close_later)  # runs once the screen is mounted
        return False

    def _close_later(self) -> None:
        if self.app.screen is self:
            self.close()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._close_asked:
            self.call_later(self._close_later)

    def action_branch(self) -> None:
        if not game_app(self).FEATURES.save_files:  # the SSH server: the files are the host's
            self.app.notify(
                "play from here in the local app: ask the host for this game's file",
                severity="warning",
            )
            return
        from imperial_tui.model.session import Session

        if self.view.game.is_over:  # (its final position: a new game there would be over too)
            self.app.notify(
                "the game is over at this action: go back to an earlier one (left, comma)",
                severity="warning",
            )
            return
        live = self.live
        assert isinstance(live, Session), "save files: the local app, whose game is a Session"
        self.refresh_panels()

        def done(path: Path | None) -> None:
            if path is not None:
                self.app.notify(f"a new game from action {self.view.at}: saved to {path}")

        self.app.push_screen(BranchScreen(live, self.view.at), done)


def branch_path(live_path: Path | None, at: int) -> Path:
    """A file name for a game branched after action ``at``, next to the original save."""
    from imperial_tui.model.session import default_save_path

    base = live_path or default_save_path()
    stem = base.stem
    candidate = base.with_name(f"{stem}-from-{at}.json")
    n = 2
    while candidate.exists():
        candidate = base.with_name(f"{stem}-from-{at}-{n}.json")
        n += 1
    return candidate


SEAT_CHOICES = [(HUMAN, HUMAN)] + [(f"computer ({lvl})", Controller.bot(lvl)) for lvl in BOT_LEVELS]


class BranchScreen(DismissFromTop, GuardedDialog, ModalScreen[Path | None]):
    """Play from here: a new game from the position after ``at`` actions, with the same rules
    and history up to there, in a new save file; each seat human or computer as chosen. The
    game it came from stays as it is, in its own file."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="branch.cancel"),
        Binding("ctrl+g", "start", "start", id="branch.start"),
    ]

    def __init__(self, live: Session, at: int) -> None:
        super().__init__()
        self.live = live
        self.at = at

    def compose(self) -> ComposeResult:
        kinds = {value for _, value in SEAT_CHOICES}
        with Vertical(classes="dialog wide-dialog", id="branch"):
            yield Static(
                f"Play from action {self.at}: a new game from this position, same rules, in a "
                "new save file (this game stays as it is).",
                classes="question",
            )
            for i, name in enumerate(self.live.game.players):
                controller = self.live.controllers.get(name, HUMAN)
                with Horizontal(classes="seat"):
                    yield Static(name[:20], classes="seatname")
                    yield Select(
                        SEAT_CHOICES,
                        value=controller if controller in kinds else HUMAN,
                        allow_blank=False,
                        id=f"branch-seat-{i}",
                        classes="seatkind",
                    )
            yield Static("save to", classes="label")
            yield Input(str(branch_path(self.live.path, self.at)), id="branch-path")
            yield Button("Start (ctrl+g)", id="branch-start", variant="primary")
            yield Static("ctrl+g start   escape cancel", classes="hint")

    def on_mount(self) -> None:
        from imperial_tui.app.widgets.ascii import asciify

        self.query_one("#branch-seat-0", Select).focus()
        asciify(self, bool(getattr(self.app, "ascii_only", False)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "branch-start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        from imperial_tui.model.session import Session
        from rules.history import game_at
        from rules.savefile import SaveError

        controllers = {
            name: Controller(str(self.query_one(f"#branch-seat-{i}", Select).value))
            for i, name in enumerate(self.live.game.players)
        }
        text = self.query_one("#branch-path", Input).value.strip()
        if not text:
            self.app.notify("give the new game a file name", severity="error")
            return
        path = Path(text).expanduser()
        if path.exists():
            self.app.notify(f"{path} already exists: choose another name", severity="error")
            return
        game = game_at(self.live.game, self.at)
        session = Session(
            game,
            controllers,
            path,
            hidden_cash=self.live.hidden_cash,
            pace=self.live.pace,
            pause=self.live.pause,
            reasons={n: r for n, r in self.live.reasons.items() if n <= self.at},
        )
        try:
            session.save()
        except (SaveError, OSError) as exc:
            self.app.notify(str(exc), severity="error", timeout=8)
            return
        self.dismiss(path)
        from imperial_tui.app.files import SaveFileActions

        app = self.app
        assert isinstance(app, SaveFileActions)  # a branch is offered only with save files
        app.play_session(session)

    def action_cancel(self) -> None:
        self.dismiss(None)
