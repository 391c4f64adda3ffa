"""Colours and glyphs shared by every panel; no Textual import (the CLI may use it too).

Nations are always written with their code (AH IT FR GB GE RU) as well as their colour, so a
NO_COLOR or monochrome terminal loses nothing. ASCII mode swaps every non-ASCII glyph.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from rich.console import OverflowMethod

NATION_STYLE = {
    "AH": "bold yellow",
    "IT": "bold green",
    "FR": "bold dodger_blue1",
    "GB": "bold red",
    "GE": "bold bright_white on grey23",
    "RU": "bold magenta",
    # Imperial 2030 (RULES_2030.md §1: the box's colours; RU purple as above). India is black
    # on the board: drawn as Germany is, white on dark grey, which both dark and light
    # terminals show (black text would vanish on a dark one).
    "CN": "bold yellow",
    "IN": "bold bright_white on grey23",
    "BR": "bold green",
    "US": "bold red",
    "EU": "bold dodger_blue1",
}
# Without colour every nation is bold in the terminal's own foreground (never a grey).
NO_COLOR_STYLE = "bold"


def nation_style(code: str) -> str:
    """A nation's style: its colour, or, in an app without colour (NO_COLOR), bold text in
    the terminal's own foreground: Textual turns colours into greys there, and red, magenta
    or blue on a dark background become greys that vanish; bold never does. The app is the
    one Textual is running in this context (with the SSH server, each connection's own);
    Textual is not imported for it, so the shell commands stay free of it (Rich honours
    NO_COLOR there by itself)."""
    context = sys.modules.get("textual._context")
    app = context.active_app.get(None) if context is not None else None
    if app is not None and getattr(app, "no_color", False):
        return NO_COLOR_STYLE
    return NATION_STYLE.get(code, "")


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Characters that need Unicode, with their ASCII stand-ins."""

    armaments: str  # a factory that builds armies (as on the map: MapGlyphs)
    shipyard: str  # one that builds fleets
    marker: str
    changed: str
    times: str
    arrow: str
    dash: str
    pointer: str
    overflow: OverflowMethod  # how Rich ends a line too long for its panel: "…", or cut


UNICODE = Glyphs(
    armaments="■",
    shipyard="▲",
    marker="◀",
    changed="•",
    times="×",
    arrow="→",
    dash="–",
    pointer="▶",
    overflow="ellipsis",
)
ASCII = Glyphs(
    armaments="#",
    shipyard="^",
    marker="<",
    changed="*",
    times="x",
    arrow="->",
    dash="-",
    pointer=">",
    overflow="crop",
)


def ascii_wanted() -> bool:
    """ASCII mode when asked for, or when the locale cannot encode Unicode."""
    if os.environ.get("IMPERIAL_ASCII", "") not in ("", "0"):
        return True
    lang = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG") or ""
    return lang in ("C", "POSIX")


def glyphs(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


_ASCII_FOR = str.maketrans(
    {
        "—": "-",
        "–": "-",
        "×": "x",
        "…": "...",
        "→": "->",
        "’": "'",
        "‘": "'",
        "“": '"',
        "”": '"',
        # the map's glyphs (mapview.ASCII_MAP uses the same stand-ins)
        "■": "#",
        "▲": "^",
        "□": "x",
        "△": "x",
        "≈": "~",
        "░": "/",
        "▶": ">",
        "◀": "<",
        "·": "-",
        "≡": "H",
        "←": "<-",
    }
)


def to_ascii(text: str) -> str:
    """Engine texts (log lines, region names) in plain ASCII for ASCII mode: dashes, arrows
    and quotes by their ASCII cousins, accents dropped."""
    import unicodedata

    text = text.translate(_ASCII_FOR)
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
