"""What one region's cell of the map holds, as text: its unit tokens (``GE2``, ``GE1f``,
``RU2!``), its header (label, factory glyph, owner) with the gaps that fit, the tokens flowed
into the cell's free stretches, and a line of exactly the cell's width. Pure layout of strings
and styles, no Textual import: ``mapview.MapPainter`` places them on the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style

from rules.summary import RegionSummary, UnitSummary


def unit_token(unit: UnitSummary, at_sea: bool) -> str:
    """``GE2`` (armies on land, fleets at sea), ``GE1f`` (fleets in port), ``RU2!`` hostile and
    ``RU1=`` friendly armies in a foreign home province."""
    text = f"{unit['nation']}{unit['count']}"
    if unit["kind"] == "fleet" and not at_sea:
        text += "f"
    if unit.get("hostile") is True:
        text += "!"
    elif unit.get("hostile") is False:
        text += "="
    return text


def occupied(info: RegionSummary) -> bool:
    """A home province is occupied when hostile armies stand in it: the summary marks a
    foreign army in a home province ``hostile`` exactly when the engine counts it so."""
    return any(u.get("hostile") is True for u in info.get("units", ()))


def header_layout(items: list[tuple[str, Style]], width: int) -> list[tuple[str, Style, int]]:
    """Label, factory glyph and nation code with the gaps that fit (a gap before the code
    first): ``BER ■ GE``, ``BER■ GE``, ``BER■GE``. Returns ``(text, style, gap before)``."""
    spare = width - sum(len(t) for t, _ in items)
    gaps = [0] * len(items)
    for i in range(len(items) - 1, 0, -1):
        if spare <= 0:
            break
        gaps[i] = 1
        spare -= 1
    return [(t, s, g) for (t, s), g in zip(items, gaps, strict=True)]


@dataclass(frozen=True)
class Flow:
    """Where each unit token goes: ``places[i] = (slot, column)``; ``more`` is where the
    ``+`` goes when some tokens did not fit."""

    places: list[tuple[int, int]]
    more: tuple[int, int] | None


def flow_tokens(lengths: list[int], widths: list[int]) -> Flow:
    """Lay tokens left to right into slots of the given widths, one space apart. When they do
    not all fit, as many as leave room for a ``+`` after them."""

    def place(count: int) -> tuple[list[tuple[int, int]] | None, int, int]:
        places: list[tuple[int, int]] = []
        slot, col = 0, 0
        for n in lengths[:count]:
            while slot < len(widths):
                start = col + (1 if col else 0)
                if start + n <= widths[slot]:
                    places.append((slot, start))
                    col = start + n
                    break
                slot, col = slot + 1, 0
            else:
                return None, slot, col
        return places, slot, col

    places, _, _ = place(len(lengths))
    if places is not None:
        return Flow(places, None)
    for count in range(len(lengths) - 1, -1, -1):
        places, slot, col = place(count)
        if places is None:
            continue
        start = col + (1 if col else 0)
        if slot < len(widths) and start < widths[slot]:
            return Flow(places, (slot, start))
        if slot + 1 < len(widths):
            return Flow(places, (slot + 1, 0))
    return Flow([], (0, 0) if widths else None)


def compose(
    width: int, placed: list[tuple[int, str, Style]], blank: Style
) -> list[tuple[str, Style]]:
    """A line of exactly ``width`` characters: the placed texts at their columns (cut at the
    end), blanks between."""
    out: list[tuple[str, Style]] = []
    col = 0
    for at, text, style in sorted(placed, key=lambda p: p[0]):
        if at >= width:
            break
        if at > col:
            out.append((" " * (at - col), blank))
            col = at
        text = text[: width - col]
        out.append((text, style))
        col += len(text)
    if col < width:
        out.append((" " * (width - col), blank))
    return out
