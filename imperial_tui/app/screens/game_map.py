"""The map's side of the game screen: what the map highlights for the decision at hand, the
line under it, what Enter on a region does (open a unit's moves, play a move, choose an import
site, or show the region), region details, and the map coming up for a human's Maneuver.

A mixin of ``GameScreen`` (``imperial_tui.app.screens.game``), which owns the layout and the
panel keys; kept apart so the screen stays about layout and the map about the map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import OverflowMethod, RenderableType
from rich.text import Text
from textual import events
from textual.widgets import OptionList

from imperial_tui.app.messages import ActionChosen
from imperial_tui.app.widgets.base import nation_text
from imperial_tui.app.widgets.decision import DecisionPanel, move_label, region_name
from imperial_tui.app.widgets.maneuver_menu import status_question
from imperial_tui.app.widgets.map import MapInfo, MapModel, MapView
from imperial_tui.app.widgets.regions import RegionsPanel
from imperial_tui.render.mapmarks import (
    MOVES,
    MapMarks,
    UnitMove,
    decision_region,
    marks_for,
    unit_key,
)
from imperial_tui.render.mapview import COMPACT_CELL, FULL_CELL, MapPainter
from imperial_tui.render.regioninfo import plural
from rules import Action
from rules.actions import MoveArmy, MoveFleet
from rules.decisions import Decision
from rules.state import Awaiting
from rules.summary import RegionSummary

if TYPE_CHECKING:
    from textual.screen import Screen

    from imperial_tui.model.session import SessionView

    _Screen = Screen[None]
else:
    _Screen = object

# what Enter on a region may choose: a unit's moves (its group key) or one action
RegionChoice = str | Action
# the decisions of a Maneuver: the map comes up for them and stays until it is over
MANEUVER_KINDS = (Decision.MANEUVER, Decision.BATTLE, Decision.CANAL)
# app.tcss: the nations and the decision beside the map at 120x40, and the least the decision
# can be read in when a wide map needs the room
LEFT_WIDTH = 42
LEFT_MIN = 30


class GameMap(_Screen):
    """The map part of the game screen (a mixin: what it uses of ``GameScreen`` beyond
    Textual's screen is declared here, and checked against ``GameScreen``)."""

    panel: str

    if TYPE_CHECKING:

        @property
        def session(self) -> SessionView: ...

        @property
        def ascii_only(self) -> bool: ...

        @property
        def too_small(self) -> bool: ...  # (GuardedScreen's)

        def _wide(self) -> bool: ...

        def shown_panel(self) -> str: ...

        def _show_panel(self, name: str) -> None: ...

    def init_map(self) -> None:
        self.map_model = MapModel()
        # the legal actions of a position: (version, decision, actions)
        self._legal: tuple[object, Awaiting | None, list[Action]] = (-1, None, [])
        self._summary: tuple[object, dict[str, RegionSummary]] = (-1, {})
        self._auto_map: str | None = None  # the panel the Maneuver's map replaced
        self._map_turn: tuple[int, int] | None = None  # the Maneuver the map came up for
        self._keys_on_map = False  # the player put the keys on the map (5)
        self._decision: tuple[object, ...] | None = None  # the decision last seen
        self._map_keys_for: tuple[object, ...] | None = None  # a Maneuver moved on the map
        self._cursor_due: str | None = None  # the region a new decision is about

    def legal_actions(self) -> list[Action]:
        """The legal actions now, asked once per position (the map asks on every key)."""
        session = self.session
        key = (session.version, session.view.awaiting)
        if self._legal[:2] != key:
            self._legal = (*key, session.view.legal_actions() if key[1] else [])
        return self._legal[2]

    def map_shown(self) -> bool:
        """Whether a map view is on screen (the wide layout's, or the fifth tab)."""
        return self.panel == "map"

    def map_fit_width(self) -> int | None:
        """At 120x40 and more: the width the map takes when its picture, even in compact
        cells, is wider than the room beside the nations and the decision (Imperial 2030's
        world map: 88 columns, 78 beside them). None when it fits there (Europe), or when
        what would be left of the decision is too narrow to read."""
        board = self.session.view.state.board
        if board.layout is None:
            return None
        width = self.size.width
        room = width - LEFT_WIDTH
        compact = MapPainter.width_of(board, COMPACT_CELL)
        if MapPainter.width_of(board, FULL_CELL) <= room or compact <= room:
            return None
        return compact if width - compact >= LEFT_MIN else None

    def fit_map(self) -> None:
        """The wide layout's map on show and too wide for its room: it takes the width it
        needs and the decision the rest, the treasuries panel stepping aside (class
        ``-map-fit`` of ``#left``, app.tcss); back to the usual layout otherwise."""
        fit = self.map_fit_width() if self.panel == "map" and self._wide() else None
        self.query_one("#left").set_class(fit is not None, "-map-fit")
        self.query_one("#wide-right").styles.width = fit  # None: app.tcss's width again

    def map_views(self) -> list[MapView]:
        """The map on show in this layout (none while the screen is being taken down)."""
        wanted = "#map-view-wide" if self._wide() else "#map-view"
        return list(self.query(wanted).results(MapView))

    def _human_deciding(self) -> bool:
        aw = self.session.view.awaiting
        return aw is not None and self.session.is_human(aw.player)

    def refresh_map(self, force: bool = False, follow: bool = False) -> int:
        """Redraw the map if it is on screen and anything it shows changed. ``follow`` moves
        the cursor to what the decision list highlights (a unit, a destination)."""
        if not self.map_shown():
            return 0
        session = self.session
        game = session.view
        model = self.map_model
        views = self.map_views() if self._wide() else []  # the wide map shows it whole
        room = views[0].scrollable_content_region.width if views else None
        if views:
            self.fit_map()  # (another game loaded: another map)
            room = self.map_fit_width() or room  # before the layout has caught up
        model.painter_for(game.state.board, self.ascii_only, room=room)
        actions = self.legal_actions() if self._human_deciding() else []
        # (the history browser has no decision panel: a past position, nothing to choose)
        panel = self.query(DecisionPanel).first() if actions else None
        group = panel.open_key if panel is not None else None
        focus = panel.highlighted_actions() if panel is not None else []
        if model.cell is None:
            model.put_cursor(self._home_region())
        if self._cursor_due is not None and model.painter is not None:
            model.put_cursor(self._cursor_due)  # the battle, wherever the map was
            self._cursor_due = None
        if follow and focus:
            target = self._focus_region(focus, group) or decision_region(game)
            if target:
                model.put_cursor(target)
        marks = marks_for(game, actions, group, focus, model.cursor)
        if not any((marks.origin, marks.destinations, marks.movable, marks.battle)) and actions:
            places = frozenset(
                r
                for a in actions
                if isinstance(r := getattr(a, "region", None), str) and r in game.state.board.index
            )
            marks = MapMarks(cursor=marks.cursor, destinations=places)
        regions = self._regions()
        changed = model.draw(regions, marks, (session.version, self.ascii_only, force))
        for view in self.map_views():
            view.show_model()
            view.scroll_to_cursor()
        units = {key for a in focus if (key := unit_key(a)) is not None}
        shown = group or (next(iter(units)) if len(units) == 1 else None)
        self._map_info(marks, actions, shown, regions, opened=group is not None)
        return int(changed)

    def _regions(self) -> dict[str, RegionSummary]:
        """The state summary's regions, computed once per position."""
        session = self.session
        if self._summary[0] != session.version:
            self._summary = (session.version, session.view.summary()["regions"])
        return self._summary[1]

    def _home_region(self) -> str:
        """Where the cursor starts: the first unit of the nation to act, else its capital."""
        s = self.session.view.state
        board = s.board
        n = s.turn if s.turn >= 0 else 0
        for r in range(len(board.regions)):
            if s.armies[n][r] or s.fleets[n][r]:
                return board.id(r)
        return board.id(board.home[n][0])

    @staticmethod
    def _focus_region(focus: list[Action], group: str | None) -> str | None:
        moves = [a for a in focus if isinstance(a, UnitMove)]
        dests = {a.dest for a in moves}
        if len(dests) == 1 and len(moves) == len(focus):  # one move (hostile or friendly)
            return next(iter(dests))
        origins = {a.origin for a in moves}
        if len(origins) == 1:
            return next(iter(origins))
        regions = [getattr(a, "region", None) for a in focus]
        region = regions[0] if len(regions) == 1 else None
        return region if isinstance(region, str) and region else None

    def _map_info(
        self,
        marks: MapMarks,
        actions: list[Action],
        group: str | None,
        regions: dict[str, RegionSummary],
        opened: bool = False,
    ) -> None:
        """The region under the cursor in one line, then what Enter does now."""
        game = self.session.view
        board = game.state.board
        rid = self.map_model.cursor
        cut: OverflowMethod = "crop" if self.ascii_only else "ellipsis"  # "…" is not ASCII
        text = Text(no_wrap=True, overflow=cut)
        g = "-" if self.ascii_only else "·"
        if rid is not None:
            layout = board.layout
            name = layout.names.get(rid, rid) if layout else rid
            text.append(f"{layout.labels.get(rid, '') if layout else ''} {name}", style="bold")
            if rid in board.index:
                info = regions[rid]
                r = board.index[rid]
                owner = board.regions[r].nation
                if owner:
                    text.append(f" {g} ")
                    text.append_text(nation_text(owner, " home"))
                for u in info["units"]:
                    text.append(f" {g} ")
                    text.append_text(nation_text(u["nation"]))
                    text.append(f" {u['count']} {plural(u['kind'], u['count'])}")
                    if u["hostile"] is not None:
                        text.append(" hostile" if u["hostile"] else " friendly")
                near = sorted(
                    board.regions[i].name
                    for i in board.land_neighbours[r] | board.sea_neighbours[r]
                )
                text.append(f" {g} borders " + ", ".join(near), style="dim")
            else:
                text.append(f" {g} impassable", style="dim")
        text.append("\n")
        hint = Text(no_wrap=True, overflow=cut, style="italic")
        on_map = isinstance(self.focused, MapView)
        if group and group.startswith(MOVES):
            kind, _, origin = group.partition(":")
            word = "Army" if kind == "move_army" else "Fleet"
            n = len(marks.destinations)
            hint.append(
                f"{word} {region_name(game.state, origin)}: {n} destination{'s' if n != 1 else ''}"
            )
            if marks.convoy_destinations:
                hint.append(f" ({len(marks.convoy_destinations)} by convoy)")
            if not on_map:
                hint.append(
                    ". Enter on one moves it; escape: back"
                    if opened
                    else ". Enter opens its moves; 5: choose on the map"
                )
        elif marks.battle:
            hint.append(f"Battle in {region_name(game.state, marks.battle)}")
        elif marks.canal:
            arrow = "->" if self.ascii_only else "→"
            hint.append(
                f"Canal: {region_name(game.state, marks.origin)} {arrow} "
                f"{region_name(game.state, marks.chosen)}, controlled from "
                f"{region_name(game.state, marks.canal)}"
            )
        elif actions and game.awaiting and game.awaiting.kind == Decision.MANEUVER and not on_map:
            hint.append("the units still to move are underlined; 5: choose on the map")
        elif not on_map:
            hint.append("5: the keys to the map (arrows, enter, i details, g, z)")
        if on_map and rid is not None:  # what Enter does here first: the line may be short
            first = Text(self._enter_hint(rid, actions, group, group if opened else None))
            if hint.plain:
                first.append(" · " if not self.ascii_only else " - ")
            hint = Text.assemble(first, hint, no_wrap=True, overflow=cut, style="italic")
        text.append_text(hint)
        for line in self.query(MapInfo):
            line.show_text(text)
        chooses = rid is not None and self._enter_chooses(rid, actions, group, opened)
        if chooses != self.map_model.enter_chooses:  # the footer's word for Enter
            self.map_model.enter_chooses = chooses
            for view in self.map_views():
                view.refresh_bindings()

    def _enter_hint(
        self, rid: str, actions: list[Action], mover: str | None, group: str | None
    ) -> str:
        """What Enter on the map does at the cursor, in words. ``mover``: the unit whose
        destinations the map marks (opened, or highlighted in the list), ``group`` the
        opened one."""
        s = self.session.view.state
        name = region_name(s, rid) if rid in s.board.index else rid
        moves = [a for a in self._unit_moves(actions, mover) if a.dest == rid] if mover else []
        here = self._region_options(actions, rid, exclude=group)
        if moves and (group or not here):
            return f"Enter: move to {name}" + (" (which way?)" if len(moves) > 1 else "")
        if moves:
            return f"Enter: choose in {name}"  # the move, or a unit or option there
        if len(here) == 1 and isinstance(here[0][1], str):
            unit = "fleet" if here[0][1].startswith("move_fleet") else "army"
            return f"Enter: move the {unit} in {name}"
        if here:
            return f"Enter: choose in {name}"
        return f"Enter or i: about {name}"

    def _enter_chooses(
        self, rid: str, actions: list[Action], mover: str | None, opened: bool
    ) -> bool:
        """Whether Enter on the map at ``rid`` chooses something (``on_map_view_chosen``):
        a move of the unit whose destinations are marked, an option there, or, with a unit
        opened, its way back; else Enter shows the region's details."""
        if not actions:
            return False
        if mover and any(a.dest == rid for a in self._unit_moves(actions, mover)):
            return True
        group = mover if opened else None
        return bool(group) or bool(self._region_options(actions, rid, exclude=group))

    def _marked_mover(self, panel: DecisionPanel) -> str | None:
        """The unit whose destinations the map marks: the one opened in the list, else the
        one unit the list's highlight stands for (as ``marks_for`` picks it)."""
        group = panel.open_key
        if group is not None:
            return group if group.startswith(MOVES) else None
        units = {key for a in panel.highlighted_actions() if (key := unit_key(a)) is not None}
        return next(iter(units)) if len(units) == 1 else None

    def _maneuvering(self) -> bool:
        """Whether a human at this terminal is to move units now."""
        aw = self.session.view.awaiting
        return aw is not None and aw.kind in MANEUVER_KINDS and self._human_deciding()

    def map_first(self) -> None:
        """Before the screen is composed: a Maneuver to decide brings the map up from the
        first frame (the tab chosen then, not switched to after: restyling the tabs and
        panels cost 4 ms of the first frame), as ``_maneuver_map`` would."""
        if self._maneuvering():
            s = self.session.view.state
            self._map_turn = (s.round, s.turn)
            if self.panel != "map":
                self._auto_map, self.panel = self.panel, "map"

    def _maneuver_map(self) -> None:
        """A human's Maneuver brings the map up; the panel it replaced comes back after."""
        game = self.session.view
        aw = game.awaiting
        s = game.state
        maneuvering = self._maneuvering()
        turn = (s.round, s.turn)
        if maneuvering and self._map_turn != turn:
            self._map_turn = turn
            current = self.shown_panel()
            if current != "map":
                self._auto_map = current
                self._show_panel("map")
        elif not maneuvering and aw is not None and aw.kind not in MANEUVER_KINDS:
            if self._auto_map is not None and self.shown_panel() == "map":
                self._show_panel(self._auto_map)
            self._auto_map = None
            self._map_turn = None

    def new_decision(self) -> None:
        """When a decision arrives that is not the one before, the keys go where it is
        answered (the decision list), whatever had them (the map after a Maneuver chosen
        there, a panel scrolled meanwhile), and the map goes to the region it is about (a
        battle a computer player started far from where the map was). Back in a Maneuver
        the player was moving on the map (a battle answered in between), the keys go back to
        the map."""
        game = self.session.view
        aw = game.awaiting
        s = game.state
        now = None if aw is None else (aw.kind, aw.player, aw.nation, s.round, s.turn)
        before, self._decision = self._decision, now
        if now == before or now is None or not self._human_deciding():
            return
        regions = {getattr(a, "region", None) for a in self.legal_actions()} - {None}
        if len(regions) == 1:
            self._cursor_due = str(next(iter(regions)))
        if before is None:
            return  # the screen's first decision: the keys start on the list anyway
        if self._keys_on_map and before[0] == Decision.MANEUVER:
            self._map_keys_for = before
        if self.too_small:
            return  # the guard keeps the keys until the window grows again
        views = self.map_views()
        if now == self._map_keys_for and views:
            views[0].focus()
            return
        lists = self.query("#decision-options")  # (none in the history browser)
        if not lists or self.focused is lists.first():
            return
        if self.has_class("-zoom"):
            self.remove_class("-zoom")
        lists.first().focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "decision-options":
            # the map cursor follows the list only while the list has the keys
            self.refresh_map(follow=self.focused is event.option_list)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._keys_on_map = isinstance(event.widget, MapView)
        if self.map_shown():  # the line under the map says what Enter does where the keys are
            self.refresh_map()

    def on_map_view_moved(self, message: MapView.Moved) -> None:
        self.refresh_map()

    def on_map_view_back(self, message: MapView.Back) -> None:
        found = self.query(DecisionPanel)
        panel = found.first() if found else None
        if panel is not None and panel.open_key is not None:
            panel.open_group(None)
            self.refresh_map()
            return
        if self.has_class("-zoom"):
            self.remove_class("-zoom")
        self.query_one("#decision-options", OptionList).focus()

    def on_regions_panel_picked(self, message: RegionsPanel.Picked) -> None:
        self.map_model.put_cursor(message.region)
        self.show_region(message.region)

    def on_map_view_info(self, message: MapView.Info) -> None:
        self.show_region(message.region)

    def on_map_view_goto(self, message: MapView.Goto) -> None:
        board = self.session.view.state.board
        layout = board.layout

        def found(value: str) -> str | None:
            """The region a label or a name (or the start of one name) means."""
            if layout is None:
                return None
            wanted = value.strip().upper()
            by_label = {label: rid for rid, label in layout.labels.items()}
            by_name = {name.upper(): rid for rid, name in layout.names.items()}
            rid = by_label.get(wanted) or by_name.get(wanted)
            if rid is None:
                matches = [r for n, r in by_name.items() if n.startswith(wanted)]
                rid = matches[0] if len(matches) == 1 else None
            return rid

        def refusal(value: str) -> str | None:  # (the box stays open while there is one)
            if found(value) is None:
                return f"no region {value!r} on the map (labels: BER, NTH ...)"
            return None

        def done(value: str | None) -> None:
            rid = found(value) if value else None
            if rid is not None:
                self.map_model.put_cursor(rid)
                self.refresh_map()

        from imperial_tui.app.screens.dialogs import PromptScreen

        self.app.push_screen(
            PromptScreen("Go to which region? (a label such as BER, or a name)", check=refusal),
            done,
        )

    def on_map_view_chosen(self, message: MapView.Chosen) -> None:
        """Enter on the map: choose there (a unit, its destination, an import site...), or
        the region's details when the decision has nothing to do with it."""
        rid = message.region
        if not self._human_deciding():
            self.show_region(rid)
            return
        panel = self.query_one(DecisionPanel)
        actions = self.legal_actions()
        group = panel.open_key
        # a destination marked on the map: the move there, unless the unit is only
        # highlighted in the list and the region has its own choices (a unit of the player
        # there): then a short list asks which, so no unit moves that was not meant to
        mover = self._marked_mover(panel)
        moves = [a for a in self._unit_moves(actions, mover) if a.dest == rid] if mover else []
        here = self._region_options(actions, rid, exclude=group)
        if moves and (group or not here):
            self._choose(moves, f"Move to {region_name(self.session.view.state, rid)}")
            return
        if not here:
            if group and group.partition(":")[2] == rid:
                panel.open_group(None)
                self.refresh_map()
                return
            if group:
                self.notify(
                    f"{region_name(self.session.view.state, rid)} is not a destination of "
                    "this unit (escape: back to the units)",
                    timeout=3,
                )
                return
            self.show_region(rid)
            return
        if len(here) == 1 and isinstance(here[0][1], str) and not moves:
            self._open_unit(here[0][1])
            return
        s = self.session.view.state
        arrow = "->" if self.ascii_only else "→"
        picks: list[tuple[RenderableType, RegionChoice]] = []
        for move in moves:  # the highlighted unit's move here, named by the unit
            word = "Fleet" if isinstance(move, MoveFleet) else "Army"
            head = Text(f"{word} {region_name(s, move.origin)} ")
            picks.append((head + move_label(s, move, arrow), move))
        picks += here
        picks.append((Text("details of this region", style="dim"), "info"))

        def picked(value: RegionChoice | None) -> None:
            if value == "info":
                self.show_region(rid)
            elif isinstance(value, str):
                self._open_unit(value)
            elif value is not None:
                self.post_message(ActionChosen(value))

        from imperial_tui.app.screens.dialogs import ChoiceScreen

        self.app.push_screen(
            ChoiceScreen(f"In {region_name(self.session.view.state, rid)}:", picks), picked
        )

    def _region_options(
        self, actions: list[Action], rid: str, exclude: str | None
    ) -> list[tuple[Text, RegionChoice]]:
        """What can be done at a region: each unit there that can move (opens its moves),
        then every other legal action naming the region (a battle, an import, a factory)."""
        s = self.session.view.state
        out: list[tuple[Text, RegionChoice]] = []
        groups: dict[str, int] = {}
        for a in actions:
            key = unit_key(a)
            if key and isinstance(a, UnitMove) and a.origin == rid and key != exclude:
                groups[key] = groups.get(key, 0) + 1
        for key in sorted(groups, key=lambda k: MOVES.index(k.partition(":")[0])):
            word = "Fleet" if key.startswith("move_fleet") else "Army"
            count = groups[key]
            label = Text(f"{word} in {region_name(s, rid)}: {count} move{'s' * (count != 1)}")
            out.append((label, key))
        for a in actions:
            if unit_key(a) is None and getattr(a, "region", None) == rid:
                out.append((Text(self._words(a)), a))
        return out

    @staticmethod
    def _unit_moves(actions: list[Action], group: str) -> list[UnitMove]:
        """The moves of the unit whose group key is ``group`` (``move_army:vienna``)."""
        return [a for a in actions if isinstance(a, UnitMove) and unit_key(a) == group]

    def _words(self, action: Action) -> str:
        from imperial_tui.app.widgets.action_labels import action_label

        label = action_label(self.session, self.legal_actions(), action, {}, "->")
        return label.plain

    def _open_unit(self, key: str) -> None:
        self.query_one(DecisionPanel).open_group(key)
        self.refresh_map()

    def _choose(self, moves: list[UnitMove], title: str) -> None:
        """One move: play it. Several (hostile or friendly, convoy routes): ask which."""
        if len(moves) == 1:
            self.post_message(ActionChosen(moves[0]))
            return
        s = self.session.view.state
        arrow = "->" if self.ascii_only else "→"
        picks = [(move_label(s, a, arrow), a) for a in moves]

        def picked(value: UnitMove | None) -> None:
            if value is not None:
                self.post_message(ActionChosen(value))

        from imperial_tui.app.screens.dialogs import ChoiceScreen

        if any(isinstance(a, MoveArmy) and a.status for a in moves):  # hostile or friendly
            title = status_question(s, moves[0].dest, "Move to")
        self.app.push_screen(ChoiceScreen(title, picks), picked)

    def show_region(self, rid: str) -> None:
        from imperial_tui.app.screens.dialogs import InfoScreen
        from imperial_tui.render.regioninfo import region_text

        text = region_text(self.session.view, rid, ascii_only=self.ascii_only)
        self.app.push_screen(InfoScreen(text))

    # -- actions ---------------------------------------------------------------------------
