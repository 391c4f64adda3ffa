"""The main screen: nations and decision on the left (always visible), rondel / bonds /
regions / log / map on the right (keys 1-5), the last event at the bottom.

At 120x40 and more, keys 1-4 show the rondel, bonds, regions and log at once, and key 5 the
whole map beside the decision (with the line about the region under the map cursor below the
decision). At 80x24 the map is the fifth tab: its view follows the cursor, and ``z`` widens it
to the whole screen. A human's Maneuver brings the map up by itself (and puts back the panel
that was there when the Maneuver is over), so the unit being moved and its destinations are in
sight while choosing.
"""

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
from imperial_tui.screens.game_map import GameMap
from imperial_tui.screens.guard import GuardedScreen
from imperial_tui.style import to_ascii
from imperial_tui.widgets.base import nation_text
from imperial_tui.widgets.bonds import BondsPanel
from imperial_tui.widgets.decision import DecisionPanel
from imperial_tui.widgets.log import LogPanel
from imperial_tui.widgets.map import MapInfo, MapView
from imperial_tui.widgets.nations import NationsPanel
from imperial_tui.widgets.regions import RegionsPanel
from imperial_tui.widgets.rondel import RondelPanel
from rules.actions import NATION_CODES
from rules.engine import DECISION_WORDS
from rules.savefile import SaveError

PANELS = ("rondel", "bonds", "regions", "log", "map")


class GameScreen(GameMap, GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "panel('rondel')", "panels", id="game.panel.rondel", key_display="1-5"),
        Binding("2", "panel('bonds')", "bonds", id="game.panel.bonds", show=False),
        Binding("3", "panel('regions')", "regions", id="game.panel.regions", show=False),
        Binding("4", "panel('log')", "log", id="game.panel.log", show=False),
        Binding("5", "panel('map')", "map", id="game.panel.map", show=False),
        Binding("z", "zoom", "zoom map", id="game.zoom", show=False),
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

    def __init__(self) -> None:
        super().__init__()
        self.panel = "rondel"  # the panel on the right (keys 1-5)
        self.init_map()

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield NationsPanel(id="nations")
                yield DecisionPanel(id="decision")
                yield MapInfo(id="map-info-wide", classes="wide-only")
            # the wide layout's own copies of the panels (hidden, hence never repainted, in
            # the narrow layout); its class "-map" shows the map instead of the four panels
            with Horizontal(id="wide-right", classes="wide-only"):
                with Vertical(id="middle", classes="dashboard"):
                    with VerticalScroll(id="rondel-wide-scroll", classes="box"):
                        yield RondelPanel(id="rondel-wide")
                    with VerticalScroll(id="bonds-wide-scroll", classes="box"):
                        yield BondsPanel(id="bonds-wide")
                with Vertical(id="far-right", classes="dashboard"):
                    with VerticalScroll(id="regions-wide-scroll", classes="box") as scroll:
                        scroll.can_focus = False  # the list itself takes the focus (up/down)
                        yield RegionsPanel(id="regions-wide")
                    yield LogPanel(id="log-wide", classes="box")
                with Vertical(id="map-wide", classes="map-only"):
                    yield MapView(self.map_model, id="map-view-wide")
            with TabbedContent(id="right", initial="rondel", classes="narrow-only"):
                with TabPane("1 Rondel", id="rondel"), VerticalScroll():
                    yield RondelPanel(id="rondel-panel")
                with TabPane("2 Bonds", id="bonds"), VerticalScroll():
                    yield BondsPanel(id="bonds-panel")
                with TabPane("3 Regions", id="regions"), VerticalScroll(id="regions-scroll") as sc:
                    sc.can_focus = False
                    yield RegionsPanel(id="regions-panel")
                with TabPane("4 Log", id="log"):
                    yield LogPanel(id="log-panel")
                with TabPane("5 Map", id="map"), Vertical(id="map-narrow"):
                    yield MapView(self.map_model, id="map-view")
                    yield MapInfo(id="map-info")
        yield Static(id="logtail")
        yield Footer()

    @property
    def session(self) -> Any:
        return self.app.session  # type: ignore[attr-defined]

    @property
    def ascii_only(self) -> bool:
        return bool(getattr(self.app, "ascii_only", False))

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
            tail.append(to_ascii(last.text) if self.ascii_only else last.text)
        self.query_one("#logtail", Static).update(tail)
        self._maneuver_map()
        repainted += self.refresh_map(force)
        return repainted

    def status_line(self) -> Text:
        game = self.session.game
        s = game.state
        text = Text(" Imperial ", style="bold reverse")
        text.append(
            f" {s.rules.edition} · round {s.round} · "
            if not self.ascii_only
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

    def shown_panel(self) -> str:
        return self.panel

    def _show_panel(self, name: str) -> None:
        """Show a panel. Only the layout on screen switches now (restyling the hidden one
        costs as much); the other follows when the terminal is resized into it. The wide
        one switches by a class on its own container (a class on the screen would restyle
        every widget)."""
        self.panel = name
        self._layout_panel()
        if name != "map":
            self.remove_class("-zoom")

    def _wide(self) -> bool:
        return self.has_class("-wide") and self.has_class("-tall")

    def _layout_panel(self) -> None:
        name = self.panel
        if self._wide():
            for wid in ("#wide-right", "#map-info-wide"):
                self.query_one(wid).set_class(name == "map", "-map")
        else:
            tabs = self.query_one(TabbedContent)
            if tabs.active != name:
                tabs.active = name

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        active = self.query_one(TabbedContent).active
        if event.pane.id != active:
            return  # a message from before the last switch
        if active != self.panel:  # a tab clicked with the mouse
            self._show_panel(active)
        if event.pane.id == "map":
            self.refresh_map(follow=True)

    def on_resize(self) -> None:
        def settle() -> None:
            if self.too_small:  # the guard keeps the focus until the window grows again
                return
            self._layout_panel()  # the layout just shown shows the panel chosen in the other
            views = self.map_views()
            if self._keys_on_map and self.panel == "map" and self.focused not in views:
                views[0].focus()  # the keys stay on the map, the one now on screen
            elif self.focused is None:
                self.query_one("#decision-options", OptionList).focus()
            self.refresh_map()

        self.call_after_refresh(settle)

    def action_panel(self, name: str) -> None:
        self._auto_map = None  # the player chose: the Maneuver's map stays or goes as told
        was_map = self.shown_panel() == "map"
        self._show_panel(name)
        if name == "map":
            self.refresh_map(follow=True)
            self.map_views()[0].focus()  # arrows move the map cursor; escape gives them back
        elif was_map and isinstance(self.focused, MapView):
            self.query_one("#decision-options", OptionList).focus()

    def action_zoom(self) -> None:
        """z: the map over the whole width (an 80-column terminal), z or escape: back."""
        if self._wide():
            return
        if self.has_class("-zoom"):
            self.remove_class("-zoom")
            self.query_one("#decision-options", OptionList).focus()
            return
        self._show_panel("map")
        self.add_class("-zoom")
        self.refresh_map(follow=True)
        self.query_one("#map-view", MapView).focus()

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
