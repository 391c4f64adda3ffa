"""Issue 24, item 9: a server chat line in the log wraps between words, under its indent,
at the log's width (``LogPanel._write_chat`` writes it as a ``Hanging`` line)."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from imperial_tui.app.widgets.base import Hanging

SAID = (
    "anna: tomorrow Austria-Hungary should really attack Vienna's neighbours with every "
    "army it has, and then Ben's Italy will have to choose between Venice and Rome"
)


@pytest.mark.parametrize("width", [24, 38, 40, 53, 78])
def test_a_long_chat_line_wraps_between_words_under_its_indent(width: int) -> None:
    console = Console(width=width, color_system=None, legacy_windows=False)
    with console.capture() as captured:
        console.print(Hanging(Text("     "), Text(SAID, style="italic")))
    lines = captured.get().rstrip("\n").split("\n")
    assert len(lines) > 1
    assert all(line.startswith("     ") and len(line) <= width for line in lines)
    assert [word for line in lines for word in line.split()] == SAID.split()
