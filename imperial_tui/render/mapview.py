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
from functools import partial

from rich.style import Style
from rich.text import Text

from imperial_tui.render.mapcell import compose, flow_tokens, header_layout, occupied, unit_token
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
from imperial_tui.render.mapmarks import DESTINATION_MARKS, MapMarks
from imperial_tui.render.style import nation_style
from maps import Board, MapLayout
from rules.summary import RegionSummary

Cell = tuple[int, int]


def _nearest_first(target: Cell, cell: Cell) -> tuple[int, int]:
    """A cell's distance to ``target``: rows first, then columns (a sort key)."""
    return abs(cell[1] - target[1]), abs(cell[0] - target[0])


FULL_CELL = (7, 3)  # characters per cell (with one wall column and one wall row)
COMPACT_CELL = (6, 3)  # one column less: a wide map whole in a smaller window


# an impassable region (the summary lists only the regions units may enter)
NOTHING_THERE: RegionSummary = {"factory": None, "flag": None, "units": []}


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

        cells = self.layout.cells_of(here) if here else (cell,)
        if dx and not dy:  # left and right leave from the cursor's own row where the region
            # has cells in it: from Munich's label row, left is Belgium beside it, not Dijon
            # below its staggered lower cell (a playtest)
            cells = tuple(c for c in cells if c[1] == cell[1]) or cells
        start = max(cells, key=ahead)
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
                    return min(self.layout.cells_of(into), key=partial(_nearest_first, there))
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

        # the region at (cell row, character column), read from rows worked out once: the
        # loops below ask about 12,000 times (the app's first frame waits for this picture)
        lines = {
            row: [self.region_at(row, c) for c in range(-1, w)] for row in range(-1, h // ch + 1)
        }

        def at(row: int, col: int) -> str | None:
            return lines[row][col + 1]

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
        regions: Mapping[str, RegionSummary],
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
            self._content(rid, regions.get(rid, NOTHING_THERE), mark, bg, lines)
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
        regions: Mapping[str, RegionSummary],
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
        info: RegionSummary,
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
        elif flag := info.get("flag"):
            items.append((flag, style_of(nation_style(flag) + " reverse", None)))
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
