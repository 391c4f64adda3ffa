"""The map panel: the board as a picture (``imperial_tui.render.mapview``) with a cursor that arrow
keys move from region to region. The view scrolls to keep the cursor in sight, so a small
terminal sees the whole board a piece at a time. Enter on a region chooses there (a unit to
move, its destination, an import site...) or shows its details; ``i`` always shows them.

The game screen owns one ``MapModel`` (the painter, the cursor, the last picture) and draws
it in every map view it has (the 80-column tab and the wide layout's map), so both agree.
Drawing goes through the line API: a frame is a few hundred pieces of text and only the
visible rows are sent to the terminal.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from imperial_tui.render.mapmarks import MapMarks
from imperial_tui.render.mapview import COMPACT_CELL, FULL_CELL, MapPainter
from maps.board import Board
from rules.summary import RegionSummary

Cell = tuple[int, int]


class MapModel:
    """The map state shared by a screen's map views."""

    def __init__(self) -> None:
        self.painter: MapPainter | None = None
        # the board (its id), ASCII or not, the cell size
        self._painter_key: tuple[int, bool, tuple[int, int]] | None = None
        self.cell: Cell | None = None  # the cursor's layout cell
        self.rows: list[list[tuple[str, Style]]] = []
        self.marks = MapMarks()
        self.version = 0  # grows with every new picture
        self.enter_chooses = False  # Enter at the cursor chooses there (else: details)
        # what the picture shows: the caller's key, the marks, the painter's key
        self._key: tuple[Hashable, MapMarks, tuple[int, bool, tuple[int, int]] | None] | None = None

    def painter_for(self, board: Board, ascii_only: bool, room: int | None = None) -> MapPainter:
        """The painter for a board. ``room``: the width of a view meant to show the whole
        map (the wide layout's); a map wider than that is drawn in compact cells there when
        they make it fit (a world map at 120x40), else in full cells and scrolled."""
        cell = FULL_CELL
        if (
            room
            and MapPainter.width_of(board, FULL_CELL) > room
            and MapPainter.width_of(board, COMPACT_CELL) <= room
        ):
            cell = COMPACT_CELL
        key = (id(board), ascii_only, cell)
        if self.painter is None or key != self._painter_key:
            self.painter = MapPainter(board, ascii_only=ascii_only, cell=cell)
            self._painter_key = key
        return self.painter

    @property
    def cursor(self) -> str | None:
        if self.painter is None or self.cell is None:
            return None
        return self.painter.layout.region_at(self.cell)

    def put_cursor(self, rid: str) -> None:
        """Move the cursor to a region (to its first cell, unless it is already there)."""
        if self.painter is None or rid == self.cursor:
            return
        cells = self.painter.layout.cells_of(rid)
        if cells:
            self.cell = cells[0]

    def step(self, dx: int, dy: int) -> bool:
        if self.painter is None or self.cell is None:
            return False
        nxt = self.painter.step(self.cell, dx, dy)
        if nxt is None:
            return False
        self.cell = nxt
        return True

    def draw(self, regions: dict[str, RegionSummary], marks: MapMarks, key: Hashable) -> bool:
        """A new picture if anything it shows changed; True when it did."""
        if self.painter is None:
            return False
        full = (key, marks, self._painter_key)
        if full == self._key:
            return False
        self._key = full
        self.marks = marks
        self.rows = self.painter.rows(regions, marks)
        self.version += 1
        return True


class MapView(ScrollView, can_focus=True):
    """One view of the screen's map model."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(0, -1)", "move", show=False, id="map.up"),
        Binding("down", "move(0, 1)", "move", show=False, id="map.down"),
        Binding("left", "move(-1, 0)", "move", show=False, id="map.left"),
        Binding("right", "move(1, 0)", "move", show=False, id="map.right"),
        # Enter chooses where there is something to choose, else shows the region: the
        # footer names the one it does (``check_action``, ``MapModel.enter_chooses``)
        Binding("enter", "choose", "choose here", id="map.choose"),
        Binding("enter", "info", "details", id="map.details"),
        Binding("i", "info", "region details", id="map.info"),
        Binding("g", "goto", "go to region", id="map.goto"),
        Binding("escape", "back", "back", id="map.back", show=False),
    ]

    @dataclass
    class Chosen(Message):
        """Enter on a region."""

        region: str

    @dataclass
    class Info(Message):
        """``i`` on a region: its details."""

        region: str

    class Moved(Message):
        """The cursor moved (the screen redraws the map and its info line)."""

    class Back(Message):
        """Escape: out of a unit's moves, or back to the decision list."""

    class Goto(Message):
        """``g``: ask for a region's label and put the cursor there."""

    def __init__(self, model: MapModel, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.model = model
        self._rows: list[list[tuple[str, Style]]] = []
        self._strips: list[Strip] = []
        self._drawn = -1
        self._base: Style | None = None

    def show_model(self, force: bool = False) -> None:
        """Take the model's latest picture. Only the rows that changed are rebuilt and sent
        to the terminal (a cursor move changes two or three of the 37 rows)."""
        model = self.model
        if model.version == self._drawn and not force:
            return
        self._drawn = model.version
        base = self.rich_style
        rebuild = force or base != self._base or len(model.rows) != len(self._rows)
        self._base = base
        styled: dict[Style, Style] = {}
        changed: list[int] = []
        strips = self._strips if not rebuild else [Strip([])] * len(model.rows)
        for i, row in enumerate(model.rows):
            if not rebuild and row == self._rows[i]:
                continue
            segments = []
            for text, style in row:
                full = styled.get(style)
                if full is None:
                    full = styled[style] = base + style
                segments.append(Segment(text, full))
            strips[i] = Strip(segments)
            changed.append(i)
        self._strips = strips
        self._rows = model.rows
        width = model.painter.width if model.painter is not None else 0
        size = Size(width, len(strips))
        if rebuild or size != self.virtual_size:
            self.virtual_size = size
            self.refresh()
            return
        top = self.scroll_offset.y
        for i in changed:
            self.refresh(Region(0, i - top, self.size.width, 1))

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        if row >= len(self._strips):
            return Strip.blank(width, self._base)
        return self._strips[row].crop_extend(scroll_x, scroll_x + width, self._base)

    def scroll_to_cursor(self, animate: bool = False) -> None:
        """Keep the cursor's region (or at least its label) in view."""
        model = self.model
        rid = model.cursor
        if model.painter is None or rid is None or not self.size.width:
            return
        left, top, right, bottom = model.painter.box(rid)
        region = Region(left, top, right - left + 1, bottom - top + 1)
        view = self.scrollable_content_region
        if region.width > view.width or region.height > view.height:
            col, row = model.painter.anchor(rid)
            region = Region(max(0, col - 2), max(0, row - 1), 10, 3)
        self.scroll_to_region(region, animate=animate, immediate=True)

    # -- keys ------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter has two bindings: "choose here" where Enter chooses, "details" where it
        only shows the region (the screen says which, ``MapModel.enter_chooses``); the
        other is left out of the footer and passes the key on."""
        if action == "choose":
            return self.model.enter_chooses
        if action == "info" and not self.model.enter_chooses:
            return True
        return super().check_action(action, parameters)

    def action_move(self, dx: int, dy: int) -> None:
        if self.model.step(dx, dy):
            self.post_message(self.Moved())

    def action_choose(self) -> None:
        if self.model.cursor is not None:
            self.post_message(self.Chosen(self.model.cursor))

    def action_info(self) -> None:
        if self.model.cursor is not None:
            self.post_message(self.Info(self.model.cursor))

    def action_goto(self) -> None:
        self.post_message(self.Goto())

    def action_back(self) -> None:
        self.post_message(self.Back())


class MapInfo(Static):
    """The line(s) under the map: the region under the cursor, and what Enter does there.
    ``wrap``: the wide layout's copy sits in the narrow column under the decision, so its
    lines wrap there (cut, they would lose what Enter does); the narrow layout's keeps one
    line each under the full-width map."""

    _shown: tuple[str, tuple[Span, ...]] | None = None

    def __init__(
        self, *, wrap: bool = False, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.wrap = wrap

    def show_text(self, text: Text) -> None:
        key = (text.plain, tuple(text.spans))
        if key != self._shown:
            self._shown = key
            if self.wrap:
                text = text.copy()
                text.no_wrap = False
            self.update(text, layout=False)  # a fixed height: no layout pass on each key
