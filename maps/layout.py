"""Where each region is drawn: the map file's picture of the board as a grid of cells.

The ``map_layout`` of a map file is a picture in rows of short labels (``"NAT EDI NTH"``), one
label per cell, dots (``...``) for a cell outside the board. Odd rows are drawn half a cell to
the right, like courses of bricks, so every cell touches six others (left, right, two above, two
below) and a picture of a real map needs few cells. A region is the set of cells holding its
label; two regions whose cells touch share a wall in the picture, which is how the drawing
shows who borders whom. Which walls are real borders is the board's adjacency, not the
picture's: the drawing marks a wall between regions that do not border (Switzerland, a closed
strait, a border a rule option leaves out) as a barrier.

A world map adds two kinds of marks, both borders of the board's adjacency that the picture
cannot show as a plain wall. A canal joins two seas that touch only through it (a rule decides
who may pass): it is drawn ``via`` the land region it crosses, marked on that region's walls
with each sea (or on the wall the two seas share, without ``via``). A wrap is a border across
the picture's left or right edge (the world is round east-west): each end is a cell outside
the board, in the first or last column beside the region, where the drawing names the region
it continues into. A map may keep its picture in a side file until it is folded into the map
file (``with_side_layout``).

Nothing here knows about the rules or about drawing characters: the map view
(``imperial_tui.render.mapview``) turns this into text, and a test checks that the walls of
the Europe picture are exactly its borders.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maps.errors import MapError

OUTSIDE_RE = re.compile(r"^\.+$")  # "." or "..." (dots keep the picture's columns aligned)
LABEL_RE = re.compile(r"^[A-Z][A-Z0-9]{1,3}$")

Cell = tuple[int, int]  # (column, row)

MARKS_PER_CELL = 2  # a cell has two lines of text: at most two wrap marks share one


@dataclass(frozen=True, slots=True)
class Strait:
    """A crossing over water the board names. Open straits are borders (armies cross from
    Bulgaria to Turkey; the Black Sea meets the Eastern Mediterranean), closed ones are not
    (Denmark-Sweden). An open strait whose regions do not touch in the picture is drawn
    ``via`` a region both touch (the seas meet through Turkey's straits)."""

    a: str
    b: str
    open: bool
    via: str | None = None
    note: str = ""
    at: Cell | None = None  # a cell outside the board where a closed strait is marked


@dataclass(frozen=True, slots=True)
class Canal:
    """Two regions (seas) that border only through a canal. Drawn ``via`` the land region the
    canal crosses (marked on its walls with each of them) or, without ``via``, on the wall the
    two share. ``name`` is what the legend calls it."""

    a: str
    b: str
    via: str | None
    name: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Wrap:
    """A border across the picture's left or right edge: ``a`` and ``b`` border although they
    are drawn at opposite edges. ``at_a`` is a cell outside the board beside ``a`` where the
    drawing names ``b``, and ``at_b`` the one beside ``b`` naming ``a``."""

    a: str
    b: str
    at_a: Cell
    at_b: Cell

    def marks(self) -> tuple[tuple[str, str, Cell], ...]:
        """(region, the region it continues into, the cell of the mark), for both ends."""
        return ((self.a, self.b, self.at_a), (self.b, self.a, self.at_b))


@dataclass(frozen=True)
class MapLayout:
    """The picture: ``grid[row][column]`` is a region id or None (outside the board)."""

    grid: tuple[tuple[str | None, ...], ...]
    labels: Mapping[str, str]  # region id -> short label, impassable regions included
    names: Mapping[str, str]  # region id -> printed name, impassable regions included
    impassable: frozenset[str]
    straits: tuple[Strait, ...] = ()
    canals: tuple[Canal, ...] = ()
    wraps: tuple[Wrap, ...] = ()

    @property
    def width(self) -> int:
        return len(self.grid[0])

    @property
    def height(self) -> int:
        return len(self.grid)

    def region_at(self, cell: Cell) -> str | None:
        x, y = cell
        if 0 <= y < self.height and 0 <= x < self.width:
            return self.grid[y][x]
        return None

    def cells_of(self, region: str) -> tuple[Cell, ...]:
        return tuple(
            (x, y) for y, row in enumerate(self.grid) for x, rid in enumerate(row) if rid == region
        )

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The (up to six) cells touching ``cell``: odd rows sit half a cell to the right."""
        x, y = cell
        shift = y % 2  # the row above/below an odd row starts half a cell further left
        out = [(x - 1, y), (x + 1, y)]
        for dy in (-1, 1):
            out += [(x - 1 + shift, y + dy), (x + shift, y + dy)]
        return [(a, b) for a, b in out if 0 <= a < self.width and 0 <= b < self.height]

    def inside(self, cell: Cell) -> bool:
        """Whether a cell is in the picture (on the board or outside it, not beyond)."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def wrap_marks(self) -> tuple[tuple[str, str, Cell], ...]:
        """Every wrap mark: (region, the region it continues into, the cell of the mark)."""
        return tuple(mark for wrap in self.wraps for mark in wrap.marks())

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The cell's centre in cell units (odd rows shifted by half a cell)."""
        x, y = cell
        return x + 0.5 + (0.5 if y % 2 else 0.0), y + 0.5

    def touching(self) -> frozenset[frozenset[str]]:
        """Pairs of regions whose cells touch (share a wall in the picture)."""
        out: set[frozenset[str]] = set()
        for y, row in enumerate(self.grid):
            for x, rid in enumerate(row):
                if rid is None:
                    continue
                for n in self.neighbours((x, y)):
                    other = self.region_at(n)
                    if other is not None and other != rid:
                        out.add(frozenset((rid, other)))
        return frozenset(out)


def parse_layout(
    raw: Any,
    regions: list[dict[str, Any]],
    adjacency: set[frozenset[str]],
) -> MapLayout:
    """Validate a map file's ``map_layout`` against its regions (every region placed exactly
    once as one piece, every label known and unique) and build the layout. ``regions`` are
    the raw region entries (impassable ones included), ``adjacency`` the file's borders."""
    if not isinstance(raw, dict):
        raise MapError("map_layout: must be an object with 'rows'")
    rows_raw = raw.get("rows")
    if not isinstance(rows_raw, list) or not rows_raw:
        raise MapError("map_layout: field 'rows' must be a non-empty list of strings")

    labels: dict[str, str] = {}
    names: dict[str, str] = {}
    impassable: set[str] = set()
    by_label: dict[str, str] = {}
    for rd in regions:
        rid = rd["id"]
        label = rd.get("label")
        if label is None:
            raise MapError(
                f"region {rid!r}: missing field 'label' (every region needs a short label "
                "when the map has a map_layout)"
            )
        if not isinstance(label, str) or not LABEL_RE.match(label):
            raise MapError(
                f"region {rid!r}: field 'label' must be 2-4 capital letters or digits, "
                f"not {label!r}"
            )
        if label in by_label:
            raise MapError(
                f"regions {by_label[label]!r} and {rid!r}: both use the label {label!r} "
                "(labels must be unique)"
            )
        by_label[label] = rid
        labels[rid] = label
        names[rid] = rd["name"]
        if rd["kind"] == "impassable":
            impassable.add(rid)

    grid: list[tuple[str | None, ...]] = []
    for y, line in enumerate(rows_raw, start=1):
        if not isinstance(line, str):
            raise MapError(f"map_layout row {y}: must be a string of labels")
        row: list[str | None] = []
        for x, token in enumerate(line.split(), start=1):
            if OUTSIDE_RE.match(token):
                row.append(None)
            elif token in by_label:
                row.append(by_label[token])
            else:
                raise MapError(
                    f"map_layout row {y}, cell {x}: unknown label {token!r} "
                    "(one region label per cell, dots outside the board)"
                )
        if grid and len(row) != len(grid[0]):
            raise MapError(
                f"map_layout row {y}: has {len(row)} cells, row 1 has {len(grid[0])} "
                "(every row needs the same number; dots fill)"
            )
        grid.append(tuple(row))
    if not grid[0]:
        raise MapError("map_layout row 1: has no cells")

    layout = MapLayout(
        grid=tuple(grid),
        labels=labels,
        names=names,
        impassable=frozenset(impassable),
        straits=_straits(raw.get("straits", []), labels, adjacency),
        canals=_canals(raw.get("canals", []), labels, adjacency),
        wraps=_wraps(raw.get("wraps", []), labels, adjacency),
    )
    for rid, label in labels.items():
        cells = layout.cells_of(rid)
        if not cells:
            raise MapError(f"region {rid!r} ({label}): not placed on the map_layout")
        pieces = _pieces(layout, cells)
        if len(pieces) > 1:
            rows = ", ".join(str(min(y for _, y in p) + 1) for p in pieces)
            raise MapError(
                f"region {rid!r} ({label}): placed more than once on the map_layout "
                f"({len(pieces)} separate pieces, from rows {rows}); a region is one piece"
            )
    touching = layout.touching()
    for strait in layout.straits:
        where = f"map_layout straits {strait.a}-{strait.b}"
        if not strait.open:
            if strait.at is not None and (
                layout.region_at(strait.at) is not None
                or not (0 <= strait.at[0] < layout.width and 0 <= strait.at[1] < layout.height)
            ):
                raise MapError(f"{where}: 'at' must be a cell outside the board ('...')")
            continue
        if strait.via is None and frozenset((strait.a, strait.b)) not in touching:
            raise MapError(
                f"{where}: the two regions do not touch in the picture; name the region "
                "between them in 'via'"
            )
        if strait.via is not None and not all(
            frozenset((strait.via, end)) in touching for end in (strait.a, strait.b)
        ):
            raise MapError(f"{where}: 'via' {strait.via!r} must touch both regions")
    _check_canals(layout, touching)
    _check_wraps(layout, touching)
    return layout


def _check_canals(layout: MapLayout, touching: frozenset[frozenset[str]]) -> None:
    """A canal drawn via a region touches both seas through it and nowhere else (a wall
    between them would be a plain border beside the canal); one drawn without ``via`` is
    the wall the two seas share."""
    for canal in layout.canals:
        where = f"map_layout canals {canal.a}-{canal.b}"
        meet = frozenset((canal.a, canal.b)) in touching
        if canal.via is None:
            if not meet:
                raise MapError(
                    f"{where}: the two regions do not touch in the picture; name the region "
                    "the canal crosses in 'via'"
                )
            continue
        if meet:
            raise MapError(
                f"{where}: the two regions touch in the picture, so their wall would be a "
                "plain border beside the canal (drop 'via' to mark that wall instead)"
            )
        if not all(frozenset((canal.via, end)) in touching for end in (canal.a, canal.b)):
            raise MapError(f"{where}: 'via' {canal.via!r} must touch both regions")


def _check_wraps(layout: MapLayout, touching: frozenset[frozenset[str]]) -> None:
    """Each end of a wrap is a cell outside the board in the first or last column, beside its
    region and no other; the two ends are at opposite edges; a cell holds at most two."""
    last = layout.width - 1
    per_cell: dict[Cell, int] = {}
    for wrap in layout.wraps:
        where = f"map_layout wraps {wrap.a}-{wrap.b}"
        if frozenset((wrap.a, wrap.b)) in touching:
            raise MapError(f"{where}: the two regions touch in the picture (no wrap needed)")
        for region, cell in ((wrap.a, wrap.at_a), (wrap.b, wrap.at_b)):
            row, col = cell[1] + 1, cell[0] + 1
            spot = f"{where}: 'at' row {row}, cell {col}"
            if not layout.inside(cell) or layout.region_at(cell) is not None:
                raise MapError(f"{spot} must be a cell outside the board ('...')")
            if cell[0] not in (0, last):
                raise MapError(f"{spot} must be in the first or last column (an edge)")
            beside = {layout.region_at(n) for n in layout.neighbours(cell)} - {None}
            if beside != {region}:
                others = ", ".join(sorted(r for r in beside - {region} if r is not None))
                raise MapError(
                    f"{spot} must touch {region!r} and no other region "
                    f"(it touches {others or 'no region'})"
                )
            per_cell[cell] = per_cell.get(cell, 0) + 1
            if per_cell[cell] > MARKS_PER_CELL:
                raise MapError(f"{spot} holds more than {MARKS_PER_CELL} wrap marks")
        if wrap.at_a[0] == wrap.at_b[0]:
            raise MapError(f"{where}: the two ends must be at opposite edges of the picture")


def _pieces(layout: MapLayout, cells: tuple[Cell, ...]) -> list[set[Cell]]:
    """The connected pieces of a set of cells (cells touching in the picture)."""
    left = set(cells)
    pieces = []
    while left:
        start = min(left, key=lambda c: (c[1], c[0]))
        piece = {start}
        stack = [start]
        while stack:
            for n in layout.neighbours(stack.pop()):
                if n in left and n not in piece:
                    piece.add(n)
                    stack.append(n)
        left -= piece
        pieces.append(piece)
    return pieces


def _cell(at: Any, where: str) -> Cell:
    """A cell written ``{"row": N, "cell": N}`` (from 1), as (column, row) from 0."""
    if not (
        isinstance(at, dict)
        and all(
            isinstance(at.get(k), int) and not isinstance(at.get(k), bool) and at[k] >= 1
            for k in ("row", "cell")
        )
    ):
        raise MapError(f"{where}: field 'at' must be {{'row': N, 'cell': N}} (from 1)")
    return (at["cell"] - 1, at["row"] - 1)


def _bordering_pair(
    entry: Any, labels: Mapping[str, str], adjacency: set[frozenset[str]], where: str, what: str
) -> tuple[str, str]:
    """The entry's ``pair``: two regions that border in the adjacency."""
    pair = entry.get("pair") if isinstance(entry, dict) else None
    if not (isinstance(pair, list) and len(pair) == 2 and all(p in labels for p in pair)):
        raise MapError(f"{where}: field 'pair' must name two regions")
    if frozenset(pair) not in adjacency:
        raise MapError(
            f"{where}: {pair[0]} and {pair[1]} do not border in 'adjacency', so there is no "
            f"{what} to draw"
        )
    return pair[0], pair[1]


def _canals(
    raw: Any, labels: Mapping[str, str], adjacency: set[frozenset[str]]
) -> tuple[Canal, ...]:
    if not isinstance(raw, list):
        raise MapError("map_layout: field 'canals' must be a list")
    out = []
    for pos, entry in enumerate(raw, start=1):
        where = f"map_layout canals #{pos}"
        a, b = _bordering_pair(entry, labels, adjacency, where, "canal")
        via = entry.get("via")
        if via is not None and via not in labels:
            raise MapError(f"{where}: field 'via' must name a region")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise MapError(f"{where}: field 'name' must be the canal's name")
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise MapError(f"{where}: field 'note' must be a string")
        out.append(Canal(a, b, via, name, note))
    return tuple(out)


def _wraps(raw: Any, labels: Mapping[str, str], adjacency: set[frozenset[str]]) -> tuple[Wrap, ...]:
    if not isinstance(raw, list):
        raise MapError("map_layout: field 'wraps' must be a list")
    out = []
    for pos, entry in enumerate(raw, start=1):
        where = f"map_layout wraps #{pos}"
        a, b = _bordering_pair(entry, labels, adjacency, where, "wrap")
        at = entry.get("at")
        if not (isinstance(at, list) and len(at) == 2):
            raise MapError(f"{where}: field 'at' must list two cells, the mark beside each region")
        out.append(Wrap(a, b, _cell(at[0], where), _cell(at[1], where)))
    return tuple(out)


def _straits(
    raw: Any, labels: Mapping[str, str], adjacency: set[frozenset[str]]
) -> tuple[Strait, ...]:
    if not isinstance(raw, list):
        raise MapError("map_layout: field 'straits' must be a list")
    out = []
    for pos, entry in enumerate(raw, start=1):
        where = f"map_layout straits #{pos}"
        pair = entry.get("pair") if isinstance(entry, dict) else None
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in labels for p in pair)):
            raise MapError(f"{where}: field 'pair' must name two regions")
        is_open = entry.get("open")
        if not isinstance(is_open, bool):
            raise MapError(f"{where}: field 'open' must be true or false")
        bordering = frozenset(pair) in adjacency
        if is_open != bordering:
            state = "open" if is_open else "closed"
            fact = "border" if bordering else "do not border"
            raise MapError(
                f"{where}: {pair[0]} and {pair[1]} {fact} in 'adjacency', so the strait "
                f"cannot be {state}"
            )
        via = entry.get("via")
        if via is not None and (via not in labels or is_open is False):
            raise MapError(f"{where}: field 'via' must name a region, for an open strait")
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise MapError(f"{where}: field 'note' must be a string")
        at = entry.get("at")
        cell = _cell(at, where) if at is not None else None
        out.append(Strait(pair[0], pair[1], is_open, via, note, cell))
    return tuple(out)


# ----------------------------------------------------------------------------- side file


def with_side_layout(raw: Any, side: Path) -> Any:
    """The map data with its picture from a side file, when there is one (``maps/<map>_layout
    .json``: ``labels``, region id -> label, and ``map_layout``): a map's picture may be drawn
    apart from its data and folded in later (``scripts/fold_layout.py``). Without a side file
    the data comes back unchanged; a map file that has a picture already and a side file too
    is refused (two pictures of one board)."""
    if not side.exists():
        return raw
    name = side.name
    try:
        extra = json.loads(side.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MapError(f"{name}: not valid JSON: {exc}") from exc
    except OSError as exc:
        raise MapError(f"{name}: cannot be read: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("regions"), list):
        return raw  # the loader reports what is wrong with the map data itself
    if "map_layout" in raw:
        raise MapError(f"{name}: the map file has a map_layout already; delete the side file")
    if not isinstance(extra, dict) or "map_layout" not in extra:
        raise MapError(f"{name}: must be an object with 'labels' and 'map_layout'")
    labels = extra.get("labels")
    if not isinstance(labels, dict):
        raise MapError(f"{name}: field 'labels' must map region ids to labels")
    ids = {rd.get("id") for rd in raw["regions"] if isinstance(rd, dict)}
    unknown = sorted(set(labels) - ids)
    if unknown:
        raise MapError(f"{name}: 'labels' names regions the map does not have: {unknown}")
    regions = []
    for rd in raw["regions"]:
        if isinstance(rd, dict) and rd.get("id") in labels:
            own = rd.get("label")
            if own is not None and own != labels[rd["id"]]:
                raise MapError(
                    f"{name}: region {rd['id']!r} has the label {own!r} in the map file and "
                    f"{labels[rd['id']]!r} here"
                )
            rd = {**rd, "label": labels[rd["id"]]}
        regions.append(rd)
    return {**raw, "regions": regions, "map_layout": extra["map_layout"]}
