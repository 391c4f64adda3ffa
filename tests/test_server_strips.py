"""A rendered line drawn for terminals of different colours in one process (the server):
each terminal gets codes of its own colour system (imperial_tui/server/strips.py)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from imperial_tui.server.strips import render_per_colour_system

ORANGE = Style(color="#ff8800", bgcolor="#102030")


def console(color_system: str) -> Console:
    return Console(color_system=color_system, force_terminal=True, file=io.StringIO())  # type: ignore[arg-type]


def test_one_line_drawn_for_true_colour_then_16_colours_gets_each_its_own_codes() -> None:
    render_per_colour_system()
    line = Strip([Segment("Vienna ", ORANGE), Segment("plain")])
    true_colour = line.render(console("truecolor"))
    sixteen = line.render(console("standard"))
    again = line.render(console("truecolor"))
    assert "38;2;255;136;0" in true_colour and "48;2;16;32;48" in true_colour
    assert "38;2;" not in sixteen and "48;2;" not in sixteen and "38;5;" not in sixteen
    assert "Vienna " in sixteen and sixteen.endswith("plain")
    assert again == true_colour


def test_the_text_is_textuals_for_each_colour_system() -> None:
    """The same codes as Textual's own rendering of a new line for that terminal."""
    render_per_colour_system()
    for system in ("truecolor", "256", "standard"):
        out = console(system)
        ours = Strip([Segment("Berlin", ORANGE)]).render(out)
        assert out._color_system is not None
        fresh = Style(color="#ff8800", bgcolor="#102030")  # no codes kept yet
        textuals = Strip.render_style(fresh, "Berlin", out._color_system)
        assert ours == textuals


def test_a_process_wide_blank_line_follows_each_terminal() -> None:
    """``Strip.blank`` is one object for the whole process: the case that sent true-colour
    codes to a 16-colour client."""
    render_per_colour_system()
    blank = Strip.blank(5, Style(bgcolor="#203040"))
    assert Strip.blank(5, Style(bgcolor="#203040")) is blank
    assert "48;2;32;48;64" in blank.render(console("truecolor"))
    assert "48;2;" not in blank.render(console("standard"))


def test_a_joined_line_is_drawn_for_the_terminal_at_hand() -> None:
    render_per_colour_system()
    left, right = Strip([Segment("a", ORANGE)]), Strip([Segment("b", ORANGE)])
    left.render(console("truecolor"))
    right.render(console("truecolor"))
    joined = Strip.join([left, right])
    assert "38;2;" not in joined.render(console("standard"))
