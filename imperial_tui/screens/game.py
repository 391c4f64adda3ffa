"""The main screen: nations and decision on the left (always visible), rondel / bonds /
regions / log on the right (keys 1-4), the last event at the bottom."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static, TabbedContent, TabPane

from imperial_tui.messages import ActionChosen, DonateRequested
from imperial_tui.pacing import clamp_pace
from imperial_tui.screens.dialogs import PromptScreen
from imperial_tui.screens.guard import GuardedScreen
from imperial_tui.style import to_ascii
from imperial_tui.widgets.base import nation_text
from imperial_tui.widgets.bonds import BondsPanel
from imperial_tui.widgets.decision import DecisionPanel
from imperial_tui.widgets.log import LogPanel
from imperial_tui.widgets.nations import NationsPanel
from imperial_tui.widgets.regions import RegionsPanel
from imperial_tui.widgets.rondel import RondelPanel
from rules.actions import NATION_CODES
from rules.engine import DECISION_WORDS
from rules.savefile import SaveError

PANELS = ("rondel", "bonds", "regions", "log")


class GameScreen(GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "panel('rondel')", "panels", id="game.panel.rondel", key_display="1-4"),
        Binding("2", "panel('bonds')", "bonds", id="game.panel.bonds", show=False),
        Binding("3", "panel('regions')", "regions", id="game.panel.regions", show=False),
        Binding("4", "panel('log')", "log", id="game.panel.log", show=False),
        Binding("ctrl+z", "app.undo", "undo", id="game.undo"),
        Binding("ctrl+s", "app.save", "save", id="game.save"),
        Binding("f", "filter", "filter regions", id="game.filter", show=False),
        Binding("d", "donate", "donate", id="game.donate", show=False),
        Binding("plus,equals_sign", "pace(-0.2)", "faster", id="game.faster", show=False),
        Binding("minus", "pace(0.2)", "slower", id="game.slower", show=False),
    ]

    # At 120x40 and more every panel is shown at once (the "-wide.-tall" classes, set by
    # Textual's breakpoints on resize); below that the right side is one tab at a time.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"),
        (120, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (40, "-tall")]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield NationsPanel(id="nations")
                yield DecisionPanel(id="decision")
            # the wide layout's own copies of the panels (hidden, hence never repainted, in
            # the narrow layout)
            with Vertical(id="middle", classes="wide-only"):
                with VerticalScroll(id="rondel-wide-scroll", classes="box"):
                    yield RondelPanel(id="rondel-wide")
                with VerticalScroll(id="bonds-wide-scroll", classes="box"):
                    yield BondsPanel(id="bonds-wide")
            with Vertical(id="far-right", classes="wide-only"):
                with VerticalScroll(id="regions-wide-scroll", classes="box"):
                    yield RegionsPanel(id="regions-wide")
                yield LogPanel(id="log-wide", classes="box")
            with TabbedContent(id="right", initial="rondel", classes="narrow-only"):
                with TabPane("1 Rondel", id="rondel"), VerticalScroll():
                    yield RondelPanel(id="rondel-panel")
                with TabPane("2 Bonds", id="bonds"), VerticalScroll():
                    yield BondsPanel(id="bonds-panel")
                with TabPane("3 Regions", id="regions"), VerticalScroll(id="regions-scroll"):
                    yield RegionsPanel(id="regions-panel")
                with TabPane("4 Log", id="log"):
                    yield LogPanel(id="log-panel")
        yield Static(id="logtail")
        yield Footer()

    @property
    def session(self) -> Any:
        return self.app.session  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        self._set_titles()
        self.refresh_panels(force=True)
        self.query_one("#decision-options", OptionList).focus()

    def _set_titles(self) -> None:
        for wid, title in (
            ("#rondel-wide-scroll", "Rondel"),
            ("#bonds-wide-scroll", "Bonds"),
            ("#regions-wide-scroll", "Regions"),
            ("#log-wide", "Log"),
        ):
            self.query_one(wid).border_title = title

    def refresh_panels(self, force: bool = False) -> int:
        """Repaint the panels whose figures changed; returns how many did."""
        session = self.session
        repainted = 0
        for kind in (NationsPanel, DecisionPanel, RondelPanel, BondsPanel, RegionsPanel, LogPanel):
            for panel in self.query(kind):
                repainted += bool(panel.show(session, force))
        self.query_one("#status", Static).update(self.status_line())
        events = session.game.events()
        tail = Text(no_wrap=True, overflow="ellipsis")
        if events:
            last = events[-1]
            tail.append(f"{len(events):4} ", style="dim")
            if last.nation:
                tail.append_text(nation_text(last.nation, " "))
            tail.append(to_ascii(last.text) if self.app.ascii_only else last.text)  # type: ignore[attr-defined]
        self.query_one("#logtail", Static).update(tail)
        return repainted

    def status_line(self) -> Text:
        game = self.session.game
        s = game.state
        text = Text(" Imperial ", style="bold reverse")
        text.append(
            f" {s.rules.edition} · round {s.round} · "
            if not self.app.ascii_only  # type: ignore[attr-defined]
            else f" {s.rules.edition} - round {s.round} - "
        )
        aw = game.awaiting
        if aw is None:
            text.append("game over", style="bold")
        else:
            if aw.nation:
                text.append_text(nation_text(aw.nation, " "))
            text.append(f"({aw.player}) {DECISION_WORDS.get(aw.kind, aw.kind)}")
        return text

    # -- actions ---------------------------------------------------------------------------
    def action_panel(self, name: str) -> None:
        self.query_one(TabbedContent).active = name

    def action_filter(self) -> None:
        def done(value: str | None) -> None:
            if value is None:
                return
            code = value.strip().upper()
            for panel in self.query(RegionsPanel):
                panel.nation_filter = code if code in NATION_CODES else None
                panel.show(self.session)
            self.action_panel("regions")

        self.app.push_screen(
            PromptScreen("Show regions of which nation? (AH IT FR GB GE RU, empty for all)"),
            done,
        )

    def action_pace(self, delta: float) -> None:
        s = self.session
        s.pace = round(clamp_pace(s.pace + delta, s.pace) or 0.0, 1)
        try:
            s.autosave()  # the pace is kept with the game
        except SaveError as exc:
            self.app.save_failed(exc)  # type: ignore[attr-defined]
        # one toast, not a pile of them over the decision list when + is pressed repeatedly
        self.app.clear_notifications()
        self.notify(f"computer players: {s.pace}s per move", timeout=2)

    def action_donate(self, nation: str | None = None) -> None:
        self.app.ask_donation(nation)  # type: ignore[attr-defined]

    def on_action_chosen(self, message: ActionChosen) -> None:
        self.app.apply_human(message.action)  # type: ignore[attr-defined]

    def on_donate_requested(self, message: DonateRequested) -> None:
        self.app.ask_donation(message.nation)  # type: ignore[attr-defined]
