"""The game screen's right-hand panels, as each layout holds them: at 80 columns one at a
time under the tabs (keys 1-5), at 120x40 the four panels side by side, or the map.

Built by the screen for the layout on show, and for the other one just after the first frame
(``GameScreen._build_the_rest``): hence functions that make them on demand.
"""

from __future__ import annotations

from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget

from imperial_tui.app.widgets.bonds import BondsPanel
from imperial_tui.app.widgets.log import LogPanel
from imperial_tui.app.widgets.map import MapInfo, MapModel, MapView
from imperial_tui.app.widgets.regions import RegionsPanel
from imperial_tui.app.widgets.rondel import RondelPanel

PANELS = ("rondel", "bonds", "regions", "log", "map")
# the labels of the right-hand panels' tabs at 80 columns (keys 1-5)
TAB_LABELS = {
    "rondel": "1 Rondel",
    "bonds": "2 Bonds",
    "regions": "3 Regions",
    "log": "4 Log",
    "map": "5 Map",
}


def wide_panels(map_model: MapModel) -> tuple[Widget, ...]:
    """The wide layout's right-hand side: the four panels, or (class "-map") the map."""
    regions = VerticalScroll(
        RegionsPanel(id="regions-wide"), id="regions-wide-scroll", classes="box"
    )
    regions.can_focus = False  # the list itself takes the focus (up/down)
    return (
        Vertical(
            VerticalScroll(RondelPanel(id="rondel-wide"), id="rondel-wide-scroll", classes="box"),
            VerticalScroll(BondsPanel(id="bonds-wide"), id="bonds-wide-scroll", classes="box"),
            id="middle",
            classes="dashboard",
        ),
        Vertical(
            regions, LogPanel(id="log-wide", classes="box"), id="far-right", classes="dashboard"
        ),
        Vertical(MapView(map_model, id="map-view-wide"), id="map-wide", classes="map-only"),
    )


def narrow_pane(name: str, map_model: MapModel) -> tuple[Widget, ...]:
    """What the tab ``name`` of the narrow layout holds."""
    if name == "rondel":
        return (VerticalScroll(RondelPanel(id="rondel-panel"), id="rondel-scroll"),)
    if name == "bonds":
        return (VerticalScroll(BondsPanel(id="bonds-panel"), id="bonds-scroll"),)
    if name == "regions":
        scroll = VerticalScroll(RegionsPanel(id="regions-panel"), id="regions-scroll")
        scroll.can_focus = False  # the list itself takes the focus (up/down)
        return (scroll,)
    if name == "log":
        return (LogPanel(id="log-panel"),)
    return (Vertical(MapView(map_model, id="map-view"), MapInfo(id="map-info"), id="map-narrow"),)
