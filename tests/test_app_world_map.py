"""The map panel on the world board (Pilot), before a 2030 game can be played: the panel's
own widget (``MapView`` over a ``MapModel``) in the size it has at 80x24, driven by the arrow
keys. The view scrolls over the world map and keeps the region under the cursor in sight,
and the cursor goes on across the Pacific edge. The game screen's own tests of the 2030 map
come once the engine can set up a 2030 game."""

from __future__ import annotations

import asyncio

import pytest
from test_mapview import WORLD, world_position
from textual.app import App, ComposeResult
from textual.geometry import Region

from imperial_tui.app.widgets.map import MapModel, MapView
from imperial_tui.render.mapmarks import MapMarks
from maps import load_board

pytestmark = pytest.mark.skipif(
    not WORLD.exists(),
    reason="maps/world2030.json (the Imperial 2030 board) comes with the 2030 engine",
)

NARROW_VIEW = (38, 17)  # the map tab at 80x24 (measured: the panel beside the decision)


class WorldMap(App[None]):
    """The map view alone, redrawn and scrolled on each cursor move as the game screen
    does (``GameMap.refresh_map``)."""

    CSS = f"MapView {{ width: {NARROW_VIEW[0]}; height: {NARROW_VIEW[1]}; scrollbar-size: 1 1; }}"

    def __init__(self) -> None:
        super().__init__()
        self.model = MapModel()
        self.board = load_board("world2030")
        self.regions = world_position()
        self.version = 0

    def compose(self) -> ComposeResult:
        yield MapView(self.model)

    def on_mount(self) -> None:
        self.model.painter_for(self.board, ascii_only=False)
        self.model.put_cursor("north_pacific")
        self.redraw()
        self.query_one(MapView).focus()

    def redraw(self) -> None:
        self.version += 1
        self.model.draw(self.regions, MapMarks(cursor=self.model.cursor), self.version)
        view = self.query_one(MapView)
        view.show_model()
        view.scroll_to_cursor()

    def on_map_view_moved(self, message: MapView.Moved) -> None:
        self.redraw()


def label_in_view(app: WorldMap) -> bool:
    """Whether the label of the region under the cursor is inside the visible window."""
    view = app.query_one(MapView)
    col, row = app.model.painter.anchor(app.model.cursor)
    x, y = view.scroll_offset
    window = Region(
        x, y, view.scrollable_content_region.width, view.scrollable_content_region.height
    )
    return window.contains(col, row) and window.contains(col + 2, row)


def test_the_world_map_scrolls_at_80x24_and_follows_the_cursor_across_the_world():
    async def run() -> None:
        app = WorldMap()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            view = app.query_one(MapView)
            painter = app.model.painter
            assert painter.width > view.size.width and painter.height > view.size.height
            assert app.model.cursor == "north_pacific" and label_in_view(app)
            visited = {app.model.cursor}
            offsets = {view.scroll_offset}
            for key in ["right"] * 14 + ["down"] * 8 + ["left"] * 14 + ["up"] * 8:
                await pilot.press(key)
                await pilot.pause()
                visited.add(app.model.cursor)
                offsets.add(view.scroll_offset)
                assert label_in_view(app), (key, app.model.cursor, view.scroll_offset)
            assert len(visited) > 15 and len(offsets) > 3  # it went places, the view along
            # left from the Pacific's edge: the sea across the edge, the view scrolled there
            app.model.put_cursor("north_pacific")
            app.redraw()
            await pilot.pause()
            start = app.model.cursor
            for _ in range(3):
                await pilot.press("left")
                await pilot.pause()
                if app.model.cursor != start:
                    break
            across = {into for r, into, _ in painter.layout.wrap_marks() if r == "north_pacific"}
            assert app.model.cursor in across and label_in_view(app)

    asyncio.run(run())
