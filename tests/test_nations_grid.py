"""The treasuries panel's grid draws its table as Rich's Table(box=None, padding=(0, 1, 0, 0),
expand=True, show_edge=False) does, cell for cell and style for style, at every width: it
replaced that table for the first frame's sake (issue 26)."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from imperial_tui.app.widgets.nations import Grid


def grid() -> Grid:
    header = [Text(h) for h in ("", "gov", "tr", "pp×f", "tax", "A/F", "flg", "fac")]
    rows = [
        [Text("▶") + Text("IT", style="bold red"), Text("Anna", style="bold")]
        + [Text(v) for v in ("10", "10×2", "10", "6/8", "0", "5")],
        [Text(" ") + Text("GB", style="blue"), Text("Cleopatra")]
        + [Text(v) for v in ("109", "22×4", "10", "1/9", "12", "4")],
    ]
    return Grid(header, rows, [False, False, True, True, True, True, True, True])


def cells(renderable: object, width: int) -> list[list[tuple[str, object]]]:
    """Each line's characters with their styles (how segments are cut does not matter, nor
    whether a plain one has a null style or none)."""
    console = Console(width=width, color_system="truecolor", legacy_windows=False)
    lines = console.render_lines(renderable, console.options.update_width(width), pad=False)
    return [[(ch, seg.style or Style()) for seg in line for ch in seg.text] for line in lines]


@pytest.mark.parametrize("width", [40, 41, 57, 80, 33, 20])
def test_the_grid_draws_as_richs_table_draws(width: int) -> None:
    drawn = grid()
    assert cells(drawn, width) == cells(drawn._table(), width)


def test_a_line_of_the_grid_is_as_wide_as_the_panel() -> None:
    console = Console(width=40)
    for line in console.render_lines(grid(), console.options, pad=False):
        assert Segment.get_line_length(line) == 40
