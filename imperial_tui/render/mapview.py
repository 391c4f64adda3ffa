"""The board as a picture in text: regions as cells of a staggered grid (the map file's
``map_layout``), walls between them, and in each region its label, its owner or flag, its
factory and the units there. No Textual import: the app's map panel and ``imperial show
--map`` print the same picture.

How to read it: two regions that share a thin wall border each other; a heavy wall between two
regions means they touch on the picture but do not border (Switzerland, a closed strait, a
border a rule option leaves out). Seas are filled with waves. ``BER■ GE`` is the label, the
factory (■ armaments, ▲ shipyard, hollow when hostile armies occupy it) and the owner of a home
province, or the nation whose flag is on neutral land or a sea. ``GE2 RU1!`` are units: the
nation and how many (armies on land, fleets at sea), ``f`` fleets in port, ``!`` hostile and
``=`` friendly armies in a foreign home province. A world map marks its canals ``≡`` on the
walls of the land they cross, and names at its left and right edges the region a sea goes on
into across the edge (``←SOJ``, ``NPA→``): the world is round east-west.

The picture is drawn from data only (the layout and the state summary), so another map file
with a ``map_layout`` is drawn by the same code. The static part (walls, where each region's
text goes) is computed once per board; a frame only lays the content and the highlights over
it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text

from imperial_tui.render.mapglyphs import (
    BARRIER,
    BLOCKED,
    CANAL,
    CURSOR,
    HEAVY,
    LABEL,
    LIGHT,
    MARK_BG,
    MARK_LABEL,
    NONE,
    SEA_BG,
    STRAIT,
    STRAIT_CLOSED,
    TINT,
    WALL,
    WAVE,
    WRAP_MARK,
    Arms,
    map_glyphs,
    style_of,
)
from imperial_tui.render.style import nation_style
from maps import Board, MapLayout

Cell = tuple[int, int]

FULL_CELL = (7, 3)  # characters per cell (with one wall column and one wall row)
COMPACT_CELL = (6, 3)  # one column less: a wide map whole in a smaller window


# ----------------------------------------------------------------------------- content


@dataclass(frozen=True)
class MapMarks:
    """What to highlight. Region ids throughout; empty means nothing highlighted.

    ``origin`` is the unit being moved, ``destinations`` where it may go (from the legal
    actions), ``chosen`` the destination of the option under the decision list's highlight,
    ``convoy_destinations`` those it reaches only by convoy, ``convoy`` the seas its convoys
    (or the highlighted move) need, ``rail`` the provinces the army can ride
    its rail through, ``movable`` the regions holding units that can still move, ``battle``
    the region of a battle being decided, ``canal`` the region whose flag controls the canal
    a unit asks to cross (Imperial 2030's canal decision)."""

    cursor: str | None = None
    origin: str | None = None
    destinations: frozenset[str] = frozenset()
    convoy_destinations: frozenset[str] = frozenset()
    chosen: str | None = None
    convoy: frozenset[str] = frozenset()
    rail: frozenset[str] = frozenset()
    movable: frozenset[str] = frozenset()
    battle: str | None = None
    canal: str | None = None

    def mark_of(self, rid: str) -> str | None:
        """The strongest highlight of a region (one per region)."""
        if rid == self.battle:
            return "battle"
        if rid == self.origin:
            return "origin"
        if rid == self.chosen:
            return "chosen"
        if rid == self.canal:
            return "canal"
        if rid in self.convoy_destinations:
            return "convoy_destination"
        if rid in self.destinations:
            return "destination"
        if rid in self.convoy:
            return "convoy"
        if rid in self.rail:
            return "rail"
        if rid in self.movable:
            return "movable"
        return None


DESTINATION_MARKS = frozenset({"destination", "convoy_destination", "chosen"})


def unit_token(unit: Mapping[str, Any], at_sea: bool) -> str:
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


def occupied(info: Mapping[str, Any]) -> bool:
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


# ----------------------------------------------------------------------------- painter


@dataclass(frozen=True, slots=True)
class _Run:
    """A stretch of one text row: a wall (``owner`` None, drawn in ``style``) or the inside of
    a region (``owner``); ``slot`` says whether text may go there (an inside row, not a wall
    row)."""

    start: int
    end: int
    owner: str | None
    style: str | None
    slot: bool


@dataclass
class _Static:
    """The part of the picture that never changes for one board and one drawing mode."""

    rows: list[str]  # the characters: walls, waves, blanks
    runs: list[list[_Run]]  # per text row
    slots: dict[str, list[tuple[int, int, int]]]  # region -> (row, column, width), in order
    boxes: dict[str, tuple[int, int, int, int]]  # region -> (left, top, right, bottom)
    pair_walls: dict[frozenset[str], list[tuple[int, int]]]  # straight walls between two regions


class MapPainter:
    """Draws one board's layout. Build once (per board, mode and cell size), then call
    ``render`` for each frame: a frame only lays the content and the highlights over the
    precomputed rows, a few hundred pieces of text."""

    def __init__(
        self, board: Board, ascii_only: bool = False, cell: tuple[int, int] = FULL_CELL
    ) -> None:
        if board.layout is None:
            raise ValueError(f"the map {board.name!r} has no map_layout to draw")
        self.board = board
        self.layout: MapLayout = board.layout
        self.glyphs = map_glyphs(ascii_only)
        self.cw, self.ch = cell
        self.offset = self.cw // 2
        self.full_width = self.cw * self.layout.width + self.offset + 1
        self.width = self.width_of(board, cell)
        self.height = self.ch * self.layout.height + 1
        self.kinds = {r.id: r.kind for r in board.regions}
        self.kinds.update(dict.fromkeys(self.layout.impassable, "impassable"))
        self._static = self._trimmed(self._build())

    # -- geometry --------------------------------------------------------------------
    def region_at(self, row: int, col: int) -> str | None:
        """The region of cell row ``row`` whose span covers characters [col, col+1]."""
        layout = self.layout
        if not 0 <= row < layout.height:
            return None
        x = (col - self.offset * (row % 2)) // self.cw
        return layout.grid[row][x] if 0 <= x < layout.width else None

    def _weight(self, a: str | None, b: str | None) -> int:
        if a == b:
            return NONE
        if a is None or b is None:
            return LIGHT  # the edge of the board
        return LIGHT if self.board.borders(a, b) else HEAVY

    def cell_point(self, cell: Cell) -> tuple[float, float]:
        """The centre of a layout cell in characters (column, row)."""
        x, y = cell
        return (x * self.cw + self.offset * (y % 2) + self.cw / 2, y * self.ch + self.ch / 2)

    def box(self, rid: str) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) characters of a region, walls included."""
        return self._static.boxes[rid]

    def text_areas(self, rid: str) -> list[tuple[int, int, int]]:
        """Where a region's text goes, in reading order: (row, column, width); the first
        holds its label, the others its units."""
        return list(self._static.slots.get(rid, []))

    def anchor(self, rid: str) -> tuple[int, int]:
        """(column, row) where the region's label is written."""
        r, c, _ = self._static.slots[rid][0]
        return c, r

    def step(self, cell: Cell, dx: int, dy: int) -> Cell | None:
        """The cell of the nearest other region in a direction (arrow keys): the distance
        along the direction plus the distance sideways, within 60 degrees of it; up and down
        lean left and right the way the rows are staggered, so up undoes down. None at the
        edge of the board."""
        here = self.layout.region_at(cell)
        ox, oy = self.cell_point(cell)

        def ahead(c: Cell) -> float:  # leave a big region from its edge in that direction
            cx, cy = self.cell_point(c)
            return (cx - ox) * dx + (cy - oy) * 2 * dy - 0.1 * abs((cx - ox) * dy - (cy - oy) * dx)

        start = max(self.layout.cells_of(here), key=ahead) if here else cell
        px, py = self.cell_point(start)
        best: tuple[float, Cell] | None = None
        for y, row in enumerate(self.layout.grid):
            for x, rid in enumerate(row):
                if rid is None or rid == here:
                    continue
                cx, cy = self.cell_point((x, y))
                vx, vy = (cx - px), (cy - py) * 2.0  # a text row is about two columns tall
                along = vx * dx + vy * dy
                across = abs(vx * dy - vy * dx)
                if along <= 0 or across > along * 1.8:
                    continue
                score = along + across - 0.01 * vx * dy
                if best is None or score < best[0]:
                    best = (score, (x, y))
        if best is None and dx and not dy and here is not None:
            return self._across_edge(here, dx)
        return best[1] if best else None

    def _across_edge(self, here: str, dx: int) -> Cell | None:
        """Left from a region with a wrap mark at the left edge (right: the right edge): the
        region the mark names, at its cell beside the mark at the other edge (the map goes
        on). With two marks there, the first in the map file."""
        edge = 0 if dx < 0 else self.layout.width - 1
        for wrap in self.layout.wraps:
            for (region, into, at), (_, _, there) in (
                (wrap.marks()[0], wrap.marks()[1]),
                (wrap.marks()[1], wrap.marks()[0]),
            ):
                if region == here and at[0] == edge:
                    return min(
                        self.layout.cells_of(into),
                        key=lambda c, t=there: (abs(c[1] - t[1]), abs(c[0] - t[0])),
                    )
        return None

    # -- the static picture -----------------------------------------------------------
    def _build(self) -> _Static:
        g = self.glyphs
        w, h, cw, ch = self.full_width, self.height, self.cw, self.ch
        chars = [[" "] * w for _ in range(h)]
        wall: list[list[str | None]] = [[None] * w for _ in range(h)]
        owner: list[list[str | None]] = [[None] * w for _ in range(h)]
        pair_walls: dict[frozenset[str], list[tuple[int, int]]] = {}

        def put_wall(r: int, c: int, arms: Arms, a: str | None, b: str | None) -> None:
            chars[r][c] = g.wall(arms)
            wall[r][c] = BARRIER if HEAVY in arms else WALL
            if a is not None and b is not None and a != b:
                pair_walls.setdefault(frozenset((a, b)), []).append((r, c))

        at = self.region_at
        weight = self._weight
        for r in range(h):
            if r % ch == 0:  # a wall row between cell rows up and down
                up, down = r // ch - 1, r // ch
                for c in range(w):
                    arms = (
                        weight(at(up, c - 1), at(up, c)),
                        weight(at(down, c - 1), at(down, c)),
                        weight(at(up, c - 1), at(down, c - 1)),
                        weight(at(up, c), at(down, c)),
                    )
                    if any(arms):
                        straight = arms[0] == arms[1] == NONE
                        a, b = (at(up, c), at(down, c)) if straight else (None, None)
                        put_wall(r, c, arms, a, b)
                    else:
                        owner[r][c] = at(down, c)
            else:
                row = r // ch
                for c in range(w):
                    left, right = at(row, c - 1), at(row, c)
                    boundary = (c - self.offset * (row % 2)) % cw == 0
                    if boundary and left != right:
                        wt = weight(left, right)
                        put_wall(r, c, (wt, wt, NONE, NONE), left, right)
                    else:
                        owner[r][c] = right
        # closed straits drawn on a cell outside the board (the strait of Gibraltar)
        for strait in self.layout.straits:
            if not strait.open and strait.at is not None:
                x, y = strait.at
                r = y * ch + 1
                c = x * cw + self.offset * (y % 2) + cw // 2
                chars[r][c] = g.closed_strait
                wall[r][c] = STRAIT_CLOSED
        self._canals(chars, wall, pair_walls)
        self._wrap_marks(chars, wall)
        # fills: waves on the seas (every other character), hatching on impassable land
        for r in range(h):
            for c in range(w):
                kind = self.kinds.get(owner[r][c] or "")
                if kind == "sea" and (r + c) % 2 == 0:
                    chars[r][c] = g.wave
                elif kind == "impassable":
                    chars[r][c] = g.blocked
        runs: list[list[_Run]] = []
        slots: dict[str, list[tuple[int, int, int]]] = {}
        boxes: dict[str, tuple[int, int, int, int]] = {}
        for r in range(h):
            row_runs = []
            key = lambda c, r=r: (owner[r][c], wall[r][c])  # noqa: E731
            col = 0
            for (rid, style), group in itertools.groupby(range(w), key=key):
                n = len(list(group))
                is_slot = rid is not None and r % ch != 0
                row_runs.append(_Run(col, col + n, rid, style, is_slot))
                if rid is not None:
                    x0, y0, x1, y1 = boxes.get(rid, (col, r, col + n, r))
                    boxes[rid] = (
                        min(x0, col - 1),
                        min(y0, r - 1),
                        max(x1, col + n),
                        max(y1, r + 1),
                    )
                    if is_slot:
                        slots.setdefault(rid, []).append((r, col, n))
                col += n
            runs.append(row_runs)
        return _Static(["".join(row) for row in chars], runs, slots, boxes, pair_walls)

    @staticmethod
    def width_of(board: Board, cell: tuple[int, int] = FULL_CELL) -> int:
        """The picture's width in characters, without building it: up to the right wall of
        the last cell on the board (or holding a wrap mark) in any row, so a map whose last
        half-cell is outside the board on every row is drawn that much narrower."""
        layout = board.layout
        if layout is None:
            return 0
        cw = cell[0]
        marked = {at for _, _, at in layout.wrap_marks()}
        right = 0
        for y, row in enumerate(layout.grid):
            used = [x for x, rid in enumerate(row) if rid is not None or (x, y) in marked]
            if used:
                right = max(right, max(used) * cw + (cw // 2) * (y % 2) + cw)
        return right + 1

    def _trimmed(self, static: _Static) -> _Static:
        """The picture cut to its width (``width_of``): the columns beyond are blank."""
        used = self.width
        if used >= self.full_width:
            return static
        runs = [
            [
                _Run(run.start, min(run.end, used), run.owner, run.style, run.slot)
                for run in row_runs
                if run.start < used
            ]
            for row_runs in static.runs
        ]
        rows = [row[:used] for row in static.rows]
        return _Static(rows, runs, static.slots, static.boxes, static.pair_walls)

    def _canals(
        self,
        chars: list[list[str]],
        wall: list[list[str | None]],
        pair_walls: dict[frozenset[str], list[tuple[int, int]]],
    ) -> None:
        """Mark each canal: on the middle of the walls the land it crosses shares with each
        sea, or, drawn without ``via``, on the whole wall the two seas share (never a plain
        wall: the seas border only through the canal)."""
        for canal in self.layout.canals:
            if canal.via is None:
                spots = pair_walls.get(frozenset((canal.a, canal.b)), [])
            else:
                spots = []
                for end in (canal.a, canal.b):
                    found = pair_walls.get(frozenset((canal.via, end)), [])
                    # not on a label's row, where the mark would read as part of the label
                    found = [(r, c) for r, c in found if r % self.ch != 1] or found
                    spots += found[len(found) // 2 : len(found) // 2 + 1]
            for r, c in spots:
                chars[r][c] = self.glyphs.canal
                wall[r][c] = CANAL

    def _wrap_marks(self, chars: list[list[str]], wall: list[list[str | None]]) -> None:
        """Write each wrap mark in its cell outside the board: the label of the region the
        sea goes on into across the edge, with an arrow pointing off the map, against the
        wall of its own region (a cell holds two, one per line)."""
        g = self.glyphs
        line: dict[Cell, int] = {}
        for _region, into, cell in self.layout.wrap_marks():
            x, y = cell
            west = x == 0
            label = self.layout.labels[into]
            text = g.wrap_west + label if west else label + g.wrap_east
            n = line.get(cell, 0)
            line[cell] = n + 1
            r = y * self.ch + 1 + n
            left = x * self.cw + self.offset * (y % 2) + 1
            start = left + self.cw - 1 - len(text) if west else left + 1  # not against a wall
            for i, ch in enumerate(text):
                chars[r][start + i] = ch
                wall[r][start + i] = WRAP_MARK

    # -- a frame -----------------------------------------------------------------------
    def rows(
        self,
        regions: Mapping[str, Mapping[str, Any]],
        marks: MapMarks | None = None,
    ) -> list[list[tuple[str, Style]]]:
        """The picture of a position as styled pieces per text row (each row exactly
        ``width`` characters): ``regions`` is the state summary's ``regions`` (docs/STATE.md),
        ``marks`` the highlights."""
        marks = marks or MapMarks()
        st = self._static
        g = self.glyphs
        codes = [n.code for n in self.board.nations]
        base: dict[str, Style] = {}
        convoy_fill: set[str] = set()
        lines: dict[tuple[int, int], list[tuple[str, Style]]] = {}
        for rid in st.slots:
            kind = self.kinds.get(rid)
            mark = marks.mark_of(rid)
            bg = MARK_BG.get(mark or "")
            fg = None
            if kind == "sea":
                bg = bg or SEA_BG
                fg = WAVE
                if mark == "convoy":
                    convoy_fill.add(rid)
            elif kind == "impassable":
                fg = BLOCKED
            elif kind == "province" and bg is None:
                bg = TINT.get(codes[self.board.owner[self.board.index[rid]]])
            base[rid] = style_of(fg, bg)
            self._content(rid, regions.get(rid, {}), mark, bg, lines)
        walls: dict[tuple[int, int], tuple[str, Style]] = {}
        self._straits(walls)
        if marks.cursor is not None and marks.cursor in st.slots:
            r, c, width = st.slots[marks.cursor][0]
            walls[(r, c - 1)] = (g.cursor_left, style_of(CURSOR, None))
            walls[(r, c + width)] = (g.cursor_right, style_of(CURSOR, None))
        wall_rows = {r for r, _ in walls}
        wave, convoy_wave = g.wave, g.convoy_wave
        out: list[list[tuple[str, Style]]] = []
        for r, row_runs in enumerate(st.runs):
            text = st.rows[r]
            row: list[tuple[str, Style]] = []
            for run in row_runs:
                if run.owner is None:
                    style = style_of(run.style, None)
                    if r not in wall_rows:
                        row.append((text[run.start : run.end], style))
                        continue
                    for c in range(run.start, run.end):
                        row.append(walls.get((r, c), (text[c], style)))
                    continue
                pieces = lines.get((r, run.start)) if run.slot else None
                if pieces is not None:
                    row.extend(pieces)
                    continue
                chunk = text[run.start : run.end]
                if run.owner in convoy_fill:
                    chunk = chunk.replace(wave, convoy_wave)
                row.append((chunk, base[run.owner] if run.owner in base else style_of(None, None)))
            out.append(row)
        return out

    def render(
        self,
        regions: Mapping[str, Mapping[str, Any]],
        marks: MapMarks | None = None,
    ) -> Text:
        """The picture as one Rich text (for printing: ``imperial show --map``)."""
        out = Text(no_wrap=True, overflow="crop")
        rows = self.rows(regions, marks)
        for i, row in enumerate(rows):
            for piece, style in row:
                out.append(piece, style)
            if i < len(rows) - 1:
                out.append("\n")
        return out

    def _content(
        self,
        rid: str,
        info: Mapping[str, Any],
        mark: str | None,
        bg: str | None,
        lines: dict[tuple[int, int], list[tuple[str, Style]]],
    ) -> None:
        """Header (label, factory, owner or flag) in the first slot, then the units, each line
        filling its whole slot (a sea's waves stop where text is)."""
        slots = self._static.slots.get(rid, [])
        if not slots:
            return
        g = self.glyphs
        kind = self.kinds.get(rid)
        blank = style_of(None, bg)
        items: list[tuple[str, Style]] = [
            (self.layout.labels[rid], style_of(MARK_LABEL.get(mark or "", LABEL), bg))
        ]
        if mark in DESTINATION_MARKS:  # a glyph as well: no colour, no ASCII, no mark else
            items[0] = (items[0][0] + g.destination, items[0][1])
        factory = info.get("factory")
        if factory:
            taken = occupied(info)
            glyph = {
                ("armaments", False): g.armaments,
                ("shipyard", False): g.shipyard,
                ("armaments", True): g.armaments_occupied,
                ("shipyard", True): g.shipyard_occupied,
            }[(factory, taken)]
            items.append((glyph, style_of("bold red" if taken else "bold", bg)))
        if kind == "province":
            code = self.board[rid].nation or ""
            items.append((code, style_of(nation_style(code), bg)))
        elif info.get("flag"):
            code = info["flag"]
            items.append((code, style_of(nation_style(code) + " reverse", None)))
        r, c, width = slots[0]
        # a compact cell: the owner of a home province goes (its tint stays) when it does not
        # fit, or would run into the label (NYCUS); a factory glyph between them parts them
        if kind == "province" and sum(len(t) for t, _ in items) + (not factory) > width:
            items.pop()
        placed: list[tuple[int, str, Style]] = []
        col = 0
        for text, style, gap in header_layout(items, width):
            placed.append((col + gap, text, style))
            col += gap + len(text)
        lines[(r, c)] = compose(width, placed, blank)
        tokens = [
            (unit_token(u, kind == "sea"), style_of(nation_style(u["nation"]), bg))
            for u in info.get("units", ())
        ]
        if not tokens:
            return
        rest = slots[1:]
        plan = flow_tokens([len(t) for t, _ in tokens], [w for _, _, w in rest])
        per_slot: dict[int, list[tuple[int, str, Style]]] = {}
        for (slot, at), (text, style) in zip(plan.places, tokens, strict=False):
            per_slot.setdefault(slot, []).append((at, text, style))
        if plan.more is not None:
            slot, at = plan.more
            per_slot.setdefault(slot, []).append((at, g.more, style_of("bold", bg)))
        for slot, placed_units in per_slot.items():
            r, c, width = rest[slot]
            lines[(r, c)] = compose(width, placed_units, blank)

    def _straits(self, walls: dict[tuple[int, int], tuple[str, Style]]) -> None:
        """Mark the open straits that are borders on this board: on the wall the two regions
        share, or, drawn ``via`` a region, on its walls with each of them."""
        pair_walls = self._static.pair_walls
        for strait in self.layout.straits:
            if not strait.open or not self.board.borders(strait.a, strait.b):
                continue
            pairs = (
                [(strait.via, strait.a), (strait.via, strait.b)]
                if strait.via
                else [(strait.a, strait.b)]
            )
            for a, b in pairs:
                spots = pair_walls.get(frozenset((a, b)))
                if spots:
                    walls[spots[len(spots) // 2]] = (
                        self.glyphs.open_strait,
                        style_of(STRAIT, None),
                    )


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


# ----------------------------------------------------------------------------- legend


def legend_lines(board: Board, ascii_only: bool) -> list[Text]:
    """What the symbols mean (the examples are this board's own regions and nations), then
    this map file's straits, canals, edges that wrap, rail-less provinces and borders a rule
    option leaves out (all from data)."""
    g = map_glyphs(ascii_only)
    layout = board.layout
    dash = "-" if ascii_only else "–"
    thin = g.wall((0, 0, LIGHT, LIGHT)) * 2
    heavy = g.wall((0, 0, HEAVY, HEAVY)) * 2
    occupied_glyphs = g.armaments_occupied + ("" if ascii_only else g.shipyard_occupied)
    home, owner, neutral, other = _examples(board)
    pad = " " * (len(home) + len(owner) + 3)
    lines = [
        Text(
            f"{thin} border   {heavy} touching, no border   {g.wave} sea   {g.blocked} impassable",
            style="dim",
        ),
        Text(
            f"{home}{g.armaments} {owner}  label, factory ({g.armaments} armaments, {g.shipyard}"
            f" shipyard, {occupied_glyphs} occupied), owner",
            style="dim",
        ),
        Text(
            f"{neutral} {other}{pad[len(neutral) + len(other) + 1 :]}(reversed) the flag on "
            "neutral land or a sea",
            style="dim",
        ),
        Text(
            f"{owner}2{pad[3:]}two armies of {owner} (fleets at sea); {owner}1f a fleet in port;",
            style="dim",
        ),
        Text(
            f"{pad}{other}2! hostile, {other}1= friendly armies in a foreign home province",
            style="dim",
        ),
        Text(
            f"{neutral}{g.destination}{pad[len(neutral) + 1 :]}where the chosen unit may move",
            style="dim",
        ),
    ]
    if layout is None:
        return lines
    label = layout.labels
    for strait in layout.straits:
        pair = f"{label[strait.a]}{dash}{label[strait.b]}"
        if strait.open and not board.borders(strait.a, strait.b):
            option = next(
                (o for o, a, b in board.optional_borders if {a, b} == {strait.a, strait.b}),
                "",
            )
            lines.append(Text(f"{pair}: no border in this game (rule option {option})"))
            continue
        if strait.open:
            mark = g.open_strait
            where = f" (via {label[strait.via]})" if strait.via else ""
        else:
            mark = g.closed_strait if strait.at is not None else " "
            where = ""
        lines.append(Text(f"{mark} {pair}{where}: {strait.note}", style="dim"))
    for canal in layout.canals:
        pair = f"{label[canal.a]}{dash}{label[canal.b]}"
        where = f" through {label[canal.via]}" if canal.via else ""
        note = f": {canal.note}" if canal.note else ""
        lines.append(Text(f"{g.canal} {pair}{where}, the {canal.name}{note}", style="dim"))
    if layout.wraps:
        pairs = ", ".join(f"{label[w.a]}{dash}{label[w.b]}" for w in layout.wraps)
        west = next((g.wrap_west + label[i] for _, i, at in layout.wrap_marks() if not at[0]), "")
        east = next((label[i] + g.wrap_east for _, i, at in layout.wrap_marks() if at[0]), "")
        lines.append(
            Text(
                f"{' '.join(filter(None, (west, east)))} at an edge: the region beside it borders"
                f" the one named, across the edge (the world is round east-west): {pairs}",
                style="dim",
            )
        )
    for r in board.regions:
        if r.kind == "province" and not r.rail:
            lines.append(Text(f"  {label[r.id]}: no rail (an island)", style="dim"))
    return lines


def _examples(board: Board) -> tuple[str, str, str, str]:
    """For the legend: the label of a home province with armaments and its owner, the label
    of a neutral region and another nation, all of this board (no map's names in code)."""

    def label(rid: str) -> str:
        return board.layout.labels[rid] if board.layout else rid[:3].upper()

    owner = board.nations[0].code
    home = next(
        (r for r in board.regions if r.nation == owner and r.factory_type == "armaments"),
        next(r for r in board.regions if r.nation == owner),
    )
    neutral = next((r for r in board.regions if r.kind == "land"), home)
    other = board.nations[1].code if len(board.nations) > 1 else owner
    return label(home.id), owner, label(neutral.id), other
