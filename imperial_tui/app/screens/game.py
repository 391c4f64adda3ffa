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

import re
from collections.abc import Callable
from functools import partial
from typing import ClassVar, Protocol, runtime_checkable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ContentSwitcher, OptionList, Static

from imperial_tui.app.base import game_app
from imperial_tui.app.messages import ActionChosen, DonateRequested
from imperial_tui.app.screens.game_map import GameMap
from imperial_tui.app.screens.game_panes import PANELS, TAB_LABELS, narrow_pane, wide_panels
from imperial_tui.app.screens.guard import GuardedScreen
from imperial_tui.app.widgets.base import Panel, nation_text, on_screen, set_content
from imperial_tui.app.widgets.bonds import BondsPanel
from imperial_tui.app.widgets.decision import DecisionPanel
from imperial_tui.app.widgets.footer import KeysFooter
from imperial_tui.app.widgets.log import LogPanel
from imperial_tui.app.widgets.maneuver_menu import canal_title
from imperial_tui.app.widgets.map import MapInfo, MapView
from imperial_tui.app.widgets.nations import NationsPanel
from imperial_tui.app.widgets.panel_tabs import PanelTabs
from imperial_tui.app.widgets.regions import RegionsPanel
from imperial_tui.app.widgets.rondel import RondelPanel
from imperial_tui.model.pacing import clamp_pace
from imperial_tui.model.session import SessionView
from imperial_tui.render.style import glyphs, to_ascii
from maps.board import Board, NationInfo
from rules.decisions import Decision
from rules.engine import DECISION_WORDS
from rules.games import game_info
from rules.savefile import SaveError


@runtime_checkable
class SessionPanel(Protocol):
    """A panel the screen repaints from the session on show (``GameScreen.PANELS``)."""

    def show(self, session: SessionView, force: bool = False) -> bool: ...


def nation_code(text: str, board: Board) -> str | None:
    """The nation a filter names: a code (GE), a name or the start of one (germ, Russia);
    None for all regions. Raises ValueError, saying what is accepted, for anything else."""
    words = text.strip()
    if not words:
        return None
    codes = board.codes
    if words.upper() in codes:
        return words.upper()
    folded = words.casefold()

    # "Austria-Hungary": austria-hungary, austria, hungary
    def names(nation: NationInfo) -> list[str]:
        full = nation.name.casefold()
        return [full, *re.split(r"[^a-z]+", full)]

    found = [
        code
        for code, nation in zip(codes, board.nations, strict=True)
        if any(n and (n.startswith(folded) or folded.startswith(n)) for n in names(nation))
    ]
    if len(found) == 1:
        return found[0]
    raise ValueError(
        f"no nation {words[:20]!r}: type {' '.join(codes)} or a nation's name "
        "(empty for all regions); the filter is unchanged"
    )


class GameScreen(GameMap, GuardedScreen):
    # the live game, not the history browser (a GameScreen too): ``GameApp.game_screen`` asks
    # this rather than import the browser for every move
    LIVE: ClassVar[bool] = True
    SAME_SIZE_RESIZE_SKIPPED: ClassVar[bool] = True  # (GuardedScreen.on_resize)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "panel('rondel')", "panels", id="game.panel.rondel", key_display="1-5"),
        Binding("2", "panel('bonds')", "bonds", id="game.panel.bonds", show=False),
        Binding("3", "panel('regions')", "regions", id="game.panel.regions", show=False),
        Binding("4", "panel('log')", "log", id="game.panel.log", show=False),
        Binding("5", "panel('map')", "map", id="game.panel.map", show=False),
        Binding("z", "zoom", "zoom map", id="game.zoom", show=False),
        Binding("ctrl+z", "app.undo", "undo", id="game.undo"),
        Binding("ctrl+s", "app.save", "save", id="game.save", show=False),
        Binding("f", "filter", "filter regions", id="game.filter", show=False),
        Binding("d", "donate", "donate", id="game.donate", show=False),
        Binding("plus,equals_sign", "pace(-0.2)", "faster", id="game.faster", show=False),
        Binding("minus", "pace(0.2)", "slower", id="game.slower", show=False),
        Binding("w", "app.recap", "since your turn", id="game.recap", show=False),
        Binding("v", "app.standings", "standings", id="game.standings"),
        Binding("h", "app.history", "history", id="game.history"),
        Binding("p", "app.pause", "pause", id="game.pause", show=False),
        Binding("escape", "focus_decision", "back to the decision", id="game.back", show=False),
    ]
    # the panels repainted from the session, in this order (the map has its own refresh)
    PANELS: ClassVar[tuple[type[Widget], ...]] = (  # each a SessionPanel
        NationsPanel,
        DecisionPanel,
        RondelPanel,
        BondsPanel,
        RegionsPanel,
        LogPanel,
    )
    # the widget that takes the keys in each right-hand panel, narrow and wide layout
    SCROLLS: ClassVar[dict[str, tuple[str, str]]] = {
        "rondel": ("#rondel-scroll", "#rondel-wide-scroll"),
        "bonds": ("#bonds-scroll", "#bonds-wide-scroll"),
        "regions": ("#regions-panel", "#regions-wide"),
        "log": ("#log-panel", "#log-wide"),
    }
    TITLES: ClassVar[dict[str, str]] = {
        "rondel": "Rondel",
        "bonds": "Bonds",
        "regions": "Regions",
        "log": "Log",
    }
    # the boxes whose titles mark the panel with the keys at 120x40
    BOXES: ClassVar[dict[str, str]] = {
        "rondel": "#rondel-wide-scroll",
        "bonds": "#bonds-wide-scroll",
        "regions": "#regions-wide-scroll",
        "log": "#log-wide",
    }

    # At 120x40 and more every panel is shown at once (the "-wide.-tall" classes, set by
    # Textual's breakpoints on resize); below that the right side is one tab at a time.
    # (Not ClassVar: Textual's annotation, "ClassVar[...] | None", reads as an instance one.)
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [  # noqa: RUF012
        (0, "-narrow"),
        (120, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: list[tuple[int, str]] | None = [(0, "-short"), (40, "-tall")]  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.panel = "rondel"  # the panel on the right (keys 1-5)
        self._panel_list: list[SessionPanel] | None = None
        self._note = ""  # a brief note on the last-event line (say_briefly)
        self._note_timer: Timer | None = None
        self.init_map()

    def compose(self) -> ComposeResult:
        wide = self._set_breakpoint_classes()
        self.map_first()
        on_map = " -map" if self.panel == "map" else ""  # (_layout_panel's, for the wide one)
        # What the first frame does not show is built just after it (``_build_the_rest``):
        # the other layout's copies of the panels and the tabs not chosen, half the screen's
        # widgets, whose composing and styling held the first frame back (issue 26).
        self._later: list[tuple[Widget, Callable[[], tuple[Widget, ...]]]] = []
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield NationsPanel(id="nations")
                yield self.decision_widget()
                yield MapInfo(id="map-info-wide", classes="wide-only" + on_map, wrap=True)
            # the wide layout's own copies of the panels (hidden, hence never repainted, in
            # the narrow layout); its class "-map" shows the map instead of the four panels
            wide_right = Horizontal(id="wide-right", classes="wide-only" + on_map)
            yield self._now_or_later(wide_right, partial(wide_panels, self.map_model), wide)
            with Vertical(id="right", classes="narrow-only"):
                yield PanelTabs(TAB_LABELS, self.panel, id="tabs")
                with ContentSwitcher(id="panes", initial=self.panel):
                    for name in PANELS:
                        shown = not wide and name == self.panel
                        parts = partial(narrow_pane, name, self.map_model)
                        yield self._now_or_later(Vertical(id=name), parts, shown)
        yield Static(id="logtail")
        yield KeysFooter()

    def _now_or_later(
        self, container: Widget, parts: Callable[[], tuple[Widget, ...]], now: bool
    ) -> Widget:
        """``container`` with its ``parts`` now, or empty now and filled after the first
        frame."""
        if now:
            for part in parts():
                container.compose_add_child(part)
        else:
            self._later.append((container, parts))
        return container

    def _set_breakpoint_classes(self) -> bool:
        """Whether the wide layout shows first; and the classes of the terminal's size
        (``-narrow``/``-wide``, ``-short``/``-tall``) before the widgets are mounted, the
        classes Textual's breakpoints would set on the first Resize (``Screen._on_resize``):
        the widgets are then styled once, for the layout they are shown in, instead of once
        before that Resize and again, every one, after it. Only where they leave the
        80-column layout as it is (no style and no code reads ``-narrow`` or ``-short``): the
        wide layout (``_wide``) still comes with the first Resize, its map being fitted to
        its room as it settles (``on_resize``)."""
        classes = self.breakpoint_classes(self.app.size)
        wide = bool(classes.get("-wide") and classes.get("-tall"))
        if not wide:
            self.update_classes(classes, animate=False)
        return wide

    def decision_widget(self) -> Widget:
        """The panel under the nations: the decision (the history browser shows its turn)."""
        return DecisionPanel(id="decision")

    def session_or_none(self) -> SessionView | None:
        """The game on show: the app's (None once the app has left it: the server's lobby)."""
        return game_app(self).session

    @property
    def session(self) -> SessionView:
        """The game on show, while the screen is (see ``session_or_none``)."""
        session = self.session_or_none()
        assert session is not None, "a game screen on show shows a game"
        return session

    @property
    def ascii_only(self) -> bool:
        return bool(getattr(self.app, "ascii_only", False))

    def on_mount(self) -> None:
        options = self.query("#decision-options")
        if not options:  # closed before it was mounted (a hand-over closes the history)
            return
        self._set_titles()
        # only the panels on screen are painted for the first frame (the tabs not chosen
        # and the other layout's copies, 8 of 10, cost 4 ms): each of the others is painted
        # when it is first shown (``catch_up``)
        self.refresh_panels()
        options.first().focus()
        self.call_after_refresh(self._build_the_rest)

    _ready = False  # every panel is built: 1-5 may switch them

    async def _build_the_rest(self) -> None:
        """After the first frame: the panels it did not show, each painted when it is first
        shown (``catch_up``); then the keys 1-5 may show them."""
        later, self._later = self._later, []
        for container, parts in later:
            if container.is_attached:
                await container.mount_all(parts())
        if later:
            self._panel_list = None  # (found anew)
            self._set_titles(self.focused_panel())
            self.catch_up()
        self._ready = True

    def _set_titles(self, focused: str | None = None) -> None:
        """Box titles at 120x40; the panel that has the keys is marked in its title."""
        for name, wid in self.BOXES.items():
            title = self.TITLES[name]
            if name == focused:  # the status line says how to scroll it
                title = f"{glyphs(self.ascii_only).pointer} {title}"
            for box in self.query(wid):
                box.border_title = title

    def focused_panel(self) -> str | None:
        """The right-hand panel that has the keys (scrolling it), if any (not the map)."""
        focused = self.focused
        if focused is None:
            return None
        ids = {f"#{node.id}" for node in focused.ancestors_with_self if node.id}
        for name, scrolls in self.SCROLLS.items():
            if ids & set(scrolls):
                return name
        return None

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back on the board (a dialog or help closed): a recap that waited comes now."""
        waiting = getattr(self.app, "recap_if_waiting", None)
        if waiting is not None and type(self).decision_widget is GameScreen.decision_widget:
            self.call_after_refresh(waiting)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.show_focus()  # (GameMap's handler runs too: Textual calls each class's)

    def on_descendant_blur(self) -> None:
        self.call_after_refresh(self.show_focus)

    def show_focus(self) -> None:
        """The titles mark the panel that has the keys, in the glyphs of the moment, and the
        status line says how to scroll it."""
        status = self.query("#status")
        if not self.is_attached or not status:  # closing: nothing left to mark
            return
        self._set_titles(self.focused_panel())
        status.first(Static).update(self.status_line())

    def refresh_panels(self, force: bool = False) -> int:
        """Repaint the panels whose figures changed; returns how many did."""
        session = self.session
        repainted = 0
        for panel in self._panels():
            repainted += bool(panel.show(session, force))
        # one line each (app.tcss): a change needs no new layout
        set_content(self.query_one("#status", Static), self.status_line(), layout=False)
        set_content(self.query_one("#logtail", Static), self.tail_line(), layout=False)
        self._maneuver_map()
        self.new_decision()
        repainted += self.refresh_map(force)
        return repainted

    def catch_up(self) -> None:
        """Repaint the panels that just came into view and fell behind while hidden (the rest
        are current: every change repaints what is on screen)."""
        session = self.session_or_none()
        if session is None:
            return
        for panel in self._panels():
            if isinstance(panel, Panel) and not panel.up_to_date(session) and on_screen(panel):
                panel.show(session)

    def _panels(self) -> list[SessionPanel]:
        """The panels, in the order they are repainted: found once (the screen's widgets never
        change; a query walks every widget, and every screen of a game repaints per move)."""
        if self._panel_list is None:
            found: list[SessionPanel] = []
            for kind in self.PANELS:
                for panel in self.query(kind):
                    assert isinstance(panel, SessionPanel), f"{kind.__name__} shows no session"
                    found.append(panel)
            self._panel_list = found
        return self._panel_list

    def say_briefly(self, words: str, seconds: float = 5.0) -> None:
        """A short confirmation ("saved to g.json") on the last-event line for a few seconds:
        a toast over the board would hide the bottom of the decision list at 80x24."""
        self._note = words
        if self._note_timer is not None:
            self._note_timer.stop()
        self._note_timer = self.set_timer(seconds, self._end_note)
        set_content(self.query_one("#logtail", Static), self.tail_line(), layout=False)

    def _end_note(self) -> None:
        self._note = ""
        if self.query("#logtail"):
            set_content(self.query_one("#logtail", Static), self.tail_line(), layout=False)

    def tail_line(self) -> Text:
        """The last event (or, before the first move, where the game is saved); a brief note
        (``say_briefly``) meanwhile."""
        session = self.session
        tail = Text(no_wrap=True, overflow="crop" if self.ascii_only else "ellipsis")
        if self._note:
            tail.append(self._note, style="bold")
            return tail
        note = getattr(self.app, "start_note", "")
        if note and not session.view.plies:
            tail.append(note, style="italic")
            return tail
        events = session.view.events()
        if events:
            last = events[-1]
            tail.append(f"{len(session.view.plies):4} ", style="dim")  # the action's number
            if last.nation:
                tail.append_text(nation_text(last.nation, " "))
            tail.append(to_ascii(last.text) if self.ascii_only else last.text)
        return tail

    def status_line(self) -> Text:
        game = self.session.view
        s = game.state
        text = Text(f" {s.rules.title} ", style="bold reverse")  # Imperial or Imperial 2030
        panel = self.focused_panel()
        if panel is not None:
            text.append(  # (whole at 80 columns after "Imperial 2030", a playtest)
                f" scrolling {self.TITLES[panel]}: up/down, pgup/pgdn; esc: back to the decision",
                style="bold",
            )
            return text
        dot = "-" if self.ascii_only else "·"
        # Imperial 2030 has one edition (2010): its title says all
        edition = f" {s.rules.edition} {dot}" if len(game_info(s.rules.game).editions) > 1 else ""
        text.append(f"{edition} round {s.round} {dot} ")
        aw = game.awaiting
        if aw is None:
            text.append("game over", style="bold")
        else:
            if aw.nation:
                text.append_text(nation_text(aw.nation, " "))
            words = DECISION_WORDS.get(aw.kind, aw.kind)
            if aw.kind == Decision.CANAL:  # the engine's words are too long for the line
                words = canal_title(s)
            text.append(f"({aw.player}) {words}")
            if aw.kind == Decision.INVEST and aw.nation is None and s.turn >= 0:
                # the investor card pays out in the turn of the nation whose rondel move
                # reached it: the nation the treasuries panel marks
                text.append(f" {dot} ")
                text.append_text(nation_text(s.board.codes[s.turn], "'s turn"))
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
        self.catch_up()
        if name != "map":
            self.remove_class("-zoom")

    def _wide(self) -> bool:
        return self.has_class("-wide") and self.has_class("-tall")

    def _layout_panel(self) -> None:
        name = self.panel
        if self._wide():
            for wid in ("#wide-right", "#map-info-wide"):
                self.query_one(wid).set_class(name == "map", "-map")
            self.fit_map()
        else:
            self.query_one("#panes", ContentSwitcher).current = name
            self.query_one("#tabs", PanelTabs).active = name

    def on_panel_tabs_chosen(self, event: PanelTabs.Chosen) -> None:
        """A tab clicked with the mouse: as its key (1-5)."""
        self.action_panel(event.name)

    def on_resize(self, event: events.Resize) -> None:
        had_keys = self.focused_panel()  # (the layout of before still on screen)

        def settle() -> None:
            # closed meanwhile, or not built yet (a history browser resized as it opens or
            # closes): nothing to settle
            if self not in self.app.screen_stack or not self.query("#decision-options"):
                return
            if self.too_small:  # the guard keeps the focus until the window grows again
                return
            self._layout_panel()  # the layout just shown shows the panel chosen in the other
            self.catch_up()
            views = self.map_views()
            if self._keys_on_map and self.panel == "map" and views and self.focused not in views:
                views[0].focus()  # the keys stay on the map, the one now on screen
            elif had_keys is not None:
                # the panel that had the keys keeps them in the layout now on screen if it
                # shows there (Textual gave them to a panel beside the one hidden: the status
                # line said "scrolling Rondel" over the bonds), else the decision takes them
                if had_keys == self.panel:
                    self._focus_panel(had_keys)
                else:
                    self.query_one("#decision-options", OptionList).focus()
            elif self.focused is None:
                self.query_one("#decision-options", OptionList).focus()
            self.refresh_map()

        self.call_after_refresh(settle)

    def action_panel(self, name: str) -> None:
        """1-5: show a panel. 1-4 at 120x40 (all on show), or when the panel is on show
        already, or while another panel has the keys: the panel gets the keys to scroll."""
        if not self._tabs_ready(name):  # a key pressed while the screen is still being
            # built: kept for when it is (a player who sees the board may press at once;
            # over SSH the board reaches the terminal before the screen has settled)
            self._panel_later(name)
            return
        self._auto_map = None  # the player chose: the Maneuver's map stays or goes as told
        was_map = self.shown_panel() == "map"
        again = self.shown_panel() == name
        scrolling = self.focused_panel() is not None
        self._show_panel(name)
        if name == "map":
            self.refresh_map(follow=True)
            for view in self.map_views()[:1]:
                view.focus()  # arrows move the map cursor; escape gives them back
        elif self._wide() or again or scrolling:
            self.call_after_refresh(self._focus_panel, name)
        elif (was_map and isinstance(self.focused, MapView)) or self.focused is None:
            self.query_one("#decision-options", OptionList).focus()

    def _tabs_ready(self, name: str) -> bool:
        """Whether the panel's tab is there to switch to: not while the screen is still
        being built, no more once it is closing."""
        if not self._ready:
            return False
        if self._wide():
            return True
        return bool(self.query("#panes"))

    def _panel_later(self, name: str, tries: int = 50) -> None:
        """The panel key again after the next frame, until the tabs are there (or the
        screen has gone: then the key is dropped)."""
        if not self.is_attached or self not in self.app.screen_stack:
            return
        if self._tabs_ready(name):
            self.action_panel(name)
        elif tries > 0:
            self.call_after_refresh(self._panel_later, name, tries - 1)

    def _focus_panel(self, name: str) -> None:
        """Give a panel the keys, after the refresh that shows it. Not once another panel was
        chosen meanwhile: focusing a hidden tab's widget makes Textual show that tab again
        (2 2 4 typed fast ended on the bonds)."""
        if self.panel != name:
            return
        narrow, wide = self.SCROLLS[name]
        found = self.query(wide if self._wide() else narrow)  # none once the screen closed
        if found and found.first().focusable:
            found.first().focus()

    def action_focus_decision(self) -> None:
        """Escape outside the decision list: the keys go back to the decision."""
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
        board = self.session.view.state.board

        def refusal(value: str) -> str | None:  # (the box stays open while there is one)
            try:
                nation_code(value, board)
            except ValueError as exc:
                return str(exc)
            return None

        def done(value: str | None) -> None:
            if value is None:
                return  # the filter stays as it was
            code = nation_code(value, board)
            for panel in self.query(RegionsPanel):
                panel.nation_filter = code
                panel.show(self.session)
            self.action_panel("regions")

        from imperial_tui.app.screens.dialogs import PromptScreen

        self.app.push_screen(
            PromptScreen(
                f"Show regions of which nation? ({' '.join(board.codes)} or a name, empty for all)",
                check=refusal,
            ),
            done,
        )

    def action_pace(self, delta: float) -> None:
        app = game_app(self)
        s = app.session
        if s is None:
            return
        s.pace = round(clamp_pace(s.pace + delta, s.pace) or 0.0, 1)
        try:
            s.keep_settings()  # the pace is kept with the game
        except SaveError as exc:
            app.save_failed(exc)
        # one toast, not a pile of them over the decision list when + is pressed repeatedly
        self.app.clear_notifications()
        self.notify(f"computer players: {s.pace}s per move", timeout=2)

    def action_donate(self, nation: str | None = None) -> None:
        game_app(self).ask_donation(nation)

    def on_action_chosen(self, message: ActionChosen) -> None:
        game_app(self).apply_human(message.action, message.follow)

    def on_donate_requested(self, message: DonateRequested) -> None:
        game_app(self).ask_donation(message.nation)
