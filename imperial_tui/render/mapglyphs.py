"""How the map is drawn, character by character: the box-drawing junctions by their arms
(light or heavy), the Unicode and ASCII glyph sets, and the colours and attributes of walls,
seas, home provinces and highlights. No Textual import (the shell prints the map too)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from rich.style import Style

NONE, LIGHT, HEAVY = 0, 1, 2
Arms = tuple[int, int, int, int]  # wall weights up, down, left, right


# ----------------------------------------------------------------------------- glyphs


@cache
def box_chars() -> dict[Arms, str]:
    """Every light/heavy junction of the Unicode box-drawing block, by its arms, read from
    the characters' names ("BOX DRAWINGS UP LIGHT AND RIGHT DOWN HEAVY")."""
    dirs = {
        "UP": "u",
        "DOWN": "d",
        "LEFT": "l",
        "RIGHT": "r",
        "VERTICAL": "ud",
        "HORIZONTAL": "lr",
    }
    weights = {"LIGHT": LIGHT, "HEAVY": HEAVY}
    skip = {"DOUBLE", "DASH", "ARC", "DIAGONAL", "SINGLE", "TRIPLE", "QUADRUPLE"}
    table: dict[Arms, str] = {}
    for cp in range(0x2500, 0x2580):
        words = unicodedata.name(chr(cp)).removeprefix("BOX DRAWINGS ")
        if skip & set(words.split()):
            continue
        arms = dict.fromkeys("udlr", NONE)
        weight: int | None = None
        pending: list[str] = []
        for part in words.split(" AND "):
            ws = part.split()
            found = [weights[w] for w in ws if w in weights]
            named = [d for w in ws if w in dirs for d in dirs[w]]
            if found:
                weight = found[0]
            if weight is None:  # "LIGHT DOWN AND RIGHT": the weight comes later or before
                pending += named
                continue
            for d in pending + named:
                arms[d] = weight
            pending = []
        for d in pending:
            arms[d] = weight or LIGHT
        table[(arms["u"], arms["d"], arms["l"], arms["r"])] = chr(cp)
    return table


def ascii_wall(arms: Arms) -> str:
    up, down, left, right = arms
    heavy = HEAVY in arms
    if (up or down) and not (left or right):
        return "#" if heavy else "|"
    if (left or right) and not (up or down):
        return "=" if heavy else "-"
    return "#" if heavy else "+"


@dataclass(frozen=True, slots=True)
class MapGlyphs:
    """The characters of one drawing mode (Unicode or plain ASCII)."""

    ascii_only: bool
    armaments: str
    shipyard: str
    armaments_occupied: str
    shipyard_occupied: str
    wave: str
    convoy_wave: str
    blocked: str
    cursor_left: str
    cursor_right: str
    more: str
    destination: str  # after the label of a region the unit may move to (without colour too)
    open_strait: str
    closed_strait: str
    canal: str  # on the walls where a canal crosses land
    wrap_west: str  # before the label a wrap mark at the left edge names (the map goes on)
    wrap_east: str  # after the label a wrap mark at the right edge names

    def wall(self, arms: Arms) -> str:
        if not any(arms):
            return " "
        return ascii_wall(arms) if self.ascii_only else box_chars()[arms]


UNICODE_MAP = MapGlyphs(
    ascii_only=False,
    armaments="■",
    shipyard="▲",
    armaments_occupied="□",
    shipyard_occupied="△",
    wave="~",
    convoy_wave="≈",
    blocked="░",
    cursor_left="▶",
    cursor_right="◀",
    more="+",
    destination="◆",
    open_strait="≈",
    closed_strait="×",
    canal="≡",
    wrap_west="←",
    wrap_east="→",
)
ASCII_MAP = MapGlyphs(
    ascii_only=True,
    armaments="#",
    shipyard="^",
    armaments_occupied="x",
    shipyard_occupied="x",
    wave="~",
    convoy_wave="=",
    blocked="/",
    cursor_left=">",
    cursor_right="<",
    more="+",
    destination="*",
    open_strait="~",
    closed_strait="x",
    canal="H",
    wrap_west="<-",
    wrap_east="->",
)


def map_glyphs(ascii_only: bool) -> MapGlyphs:
    return ASCII_MAP if ascii_only else UNICODE_MAP


# ----------------------------------------------------------------------------- styles

WALL = "grey50"
BARRIER = "bold grey78"
LABEL = "bold"
SEA_BG = "#0c2340"
WAVE = "#3d6f9f"
BLOCKED = "grey42"
TINT = {  # faint background of each nation's home provinces (the board's colours)
    "AH": "#2e2a00",
    "IT": "#0f2a12",
    "FR": "#0e1f38",
    "GB": "#331010",
    "GE": "#333333",
    "RU": "#2a1030",
    # Imperial 2030: the same six colours (RULES_2030.md §1); India black as Germany is
    "CN": "#2e2a00",
    "IN": "#333333",
    "BR": "#0f2a12",
    "US": "#331010",
    "EU": "#0e1f38",
}
MARK_LABEL = {  # attributes first, so a NO_COLOR terminal still tells them apart
    "origin": "bold underline reverse yellow",
    "destination": "bold reverse green3",
    "convoy_destination": "bold italic reverse deep_sky_blue1",
    "chosen": "bold reverse bright_white",
    "convoy": "bold italic deep_sky_blue1",
    "rail": "bold underline cyan",
    "movable": "bold underline",
    "battle": "bold underline reverse red",
    "canal": "bold underline reverse bright_cyan",  # the canal's controller, as its mark
}
MARK_BG = {
    "origin": "#4a4200",
    "destination": "#174d17",
    "convoy_destination": "#174d17",
    "chosen": "#2e6b2e",
    "convoy": "#134a7a",
    "rail": "#0f3d3d",
    "battle": "#5a1414",
    "canal": "#0f3d4d",
}
CURSOR = "bold yellow"
STRAIT = "bold bright_cyan"
STRAIT_CLOSED = "bold red"
CANAL = "bold reverse bright_cyan"  # reversed: a NO_COLOR terminal shows it too
WRAP_MARK = "bold bright_cyan"


@cache
def style_of(fg: str | None, bg: str | None) -> Style:
    """A parsed style (cached: a frame asks for the same few dozen again and again)."""
    style = Style.parse(fg) if fg else Style()
    return style + Style(bgcolor=bg) if bg else style
