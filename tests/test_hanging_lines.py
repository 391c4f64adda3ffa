"""A hanging line (``Hanging``: a move under its unit, a rondel preview) never cuts a word in
two. A playtest saw "Fleet Naples  → Western / Mediterran / ean Sea" in the 38 columns of the
decision panel: the destination hung under the arrow, 10 columns from the edge, narrower
than "Mediterranean". Such a body now hangs further left, as far as its longest word needs.
"""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from imperial_tui.app.widgets.base import Hanging

HEADS = ["Fleet Naples              → ", "Army  Trieste  → ", "", "Fleet Black Sea           →"]
BODIES = [
    "Western Mediterranean Sea",
    "Eastern Mediterranean Sea, hostile [FR fleet]",
    "Bay of Biscay via Western Mediterranean Sea",
    "Mediterranean",
    "Tyrrhenian Sea",
]


def lines_of(head: str, body: str, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(Hanging(Text(head), Text(body)))
    return [line.rstrip() for line in console.export_text().splitlines()]


@pytest.mark.parametrize("width", [30, 34, 38, 42, 60])
@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("body", BODIES)
def test_no_word_of_a_hanging_line_is_cut(width: int, head: str, body: str) -> None:
    lines = lines_of(head, body, width)
    assert lines[0].startswith(head.rstrip())
    assert all(len(line) <= width for line in lines), lines
    words = " ".join(lines)[len(head.rstrip()) :].split()
    assert words == body.split(), lines  # every word whole, in order


def test_the_body_hangs_under_the_destination_while_its_words_fit() -> None:
    assert lines_of("Fleet Naples              → ", "Tyrrhenian Sea", 38) == [
        "Fleet Naples              → Tyrrhenian",
        "                            Sea",
    ]


def test_a_longer_word_hangs_as_far_left_as_it_needs() -> None:
    assert lines_of("Fleet Naples              → ", "Western Mediterranean Sea", 38) == [
        "Fleet Naples              → Western",
        "                         Mediterranean",
        "                         Sea",
    ]
