"""The map picture as data: every region placed once with a unique label, malformed layouts
refused naming the region, and the walls of the Europe picture are exactly its borders (the
picture is how players learn who borders whom)."""

from __future__ import annotations

import copy
import importlib.util
import json
import re

import pytest

from imperial_tui.app.widgets.map import MapModel
from imperial_tui.render.mapglyphs import HEAVY, LIGHT, box_chars
from imperial_tui.render.maplegend import legend_lines
from imperial_tui.render.mapview import COMPACT_CELL, FULL_CELL, MapPainter
from maps import Board, MapError, board_from_data, load_board
from maps.board import MAP_DIR
from maps.layout import with_side_layout

_FOLD = importlib.util.spec_from_file_location(
    "fold_layout", MAP_DIR.parent / "scripts" / "fold_layout.py"
)
assert _FOLD is not None and _FOLD.loader is not None
fold_layout = importlib.util.module_from_spec(_FOLD)
_FOLD.loader.exec_module(fold_layout)

RAW = json.loads((MAP_DIR / "europe.json").read_text(encoding="utf-8"))


def borders(board) -> set[frozenset[str]]:
    return {
        frozenset((board.id(i), board.id(j)))
        for i in range(len(board.regions))
        for j in board.land_neighbours[i] | board.sea_neighbours[i]
    }


def test_every_region_is_placed_exactly_once_with_a_unique_short_label():
    board = load_board()
    layout = board.layout
    everyone = {r["id"] for r in RAW["regions"]}
    assert set(layout.labels) == everyone  # Switzerland too
    assert len(set(layout.labels.values())) == len(everyone)
    assert all(2 <= len(label) <= 4 for label in layout.labels.values())
    assert layout.labels["berlin"] == "BER"
    assert layout.labels["north_sea"] == "NTH"
    for rid in everyone:
        cells = layout.cells_of(rid)
        assert cells, rid
        # one piece: every cell reaches every other through cells of the same region
        seen, stack = {cells[0]}, [cells[0]]
        while stack:
            for n in layout.neighbours(stack.pop()):
                if n in cells and n not in seen:
                    seen.add(n)
                    stack.append(n)
        assert seen == set(cells), rid


def test_every_wall_between_two_regions_is_a_border_and_every_border_is_drawn():
    """Touching cells are a border except around impassable Switzerland; the one border the
    picture cannot show as a wall (the seas meeting through Turkey's straits) is drawn via
    Turkey, as the map file says."""
    board = load_board()
    layout = board.layout
    touching = layout.touching()
    passable = {pair for pair in touching if not pair & layout.impassable}
    via = {frozenset((s.a, s.b)) for s in layout.straits if s.open and s.via}
    assert passable - borders(board) == set()  # nothing drawn that is not a border
    assert borders(board) - passable == via  # everything else drawn as a wall
    assert via == {frozenset(("black_sea", "eastern_mediterranean"))}
    # Switzerland touches exactly the five regions around it on the board
    swiss = {next(iter(p - {"switzerland"})) for p in touching if "switzerland" in p}
    assert swiss == set(RAW["switzerland_borders_display_only"])


def test_the_drawing_uses_thin_walls_for_borders_and_heavy_ones_for_no_border():
    """Read back from the painted characters: each wall between two regions is drawn light
    exactly when the board says they border (Switzerland's walls are heavy), and the straits
    are marked on the walls around Turkey."""
    board = load_board()
    painter = MapPainter(board)
    rows = painter._static.rows
    weight_of = {ch: arms for arms, ch in box_chars().items()}
    for pair, spots in painter._static.pair_walls.items():
        for r, c in spots:
            arms = weight_of[rows[r][c]]
            expected = LIGHT if board.borders(*pair) else HEAVY
            assert expected in arms, (pair, rows[r][c])
    picture = painter.render(board_summary_regions()).plain
    assert picture.count("≈") == 3  # BUL-TUR, and BLA-EMD via TUR (two walls)
    assert "×" in picture  # the closed strait of Gibraltar


def test_a_border_left_out_by_a_rule_option_is_drawn_as_no_border():
    board = load_board().without_edge("black_sea", "eastern_mediterranean")
    painter = MapPainter(board)
    assert painter.render(board_summary_regions()).plain.count("≈") == 1  # only BUL-TUR
    legend = "\n".join(t.plain for t in legend_lines(board, ascii_only=False))
    assert "BLA–EMD: no border in this game (rule option black_sea_eastern_mediterranean)" in (
        legend
    )


def board_summary_regions() -> dict:
    from rules import Game

    return Game.new(["Anna", "Ben", "Cleo"], seed=1).summary()["regions"]


def _broken(change) -> dict:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def _region(raw, rid):
    return next(r for r in raw["regions"] if r["id"] == rid)


def _rows(raw):
    return raw["map_layout"]["rows"]


def _swap_cell(raw, old, new, occurrence=0):
    """Replace one occurrence of a label in the picture."""
    rows = _rows(raw)
    seen = 0
    for i, line in enumerate(rows):
        tokens = line.split()
        for j, token in enumerate(tokens):
            if token == old:
                if seen == occurrence:
                    tokens[j] = new
                    rows[i] = " ".join(tokens)
                    return
                seen += 1
    raise AssertionError(old)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda raw: _region(raw, "berlin").pop("label"),
            "region 'berlin': missing field 'label'",
        ),
        (
            lambda raw: _region(raw, "berlin").update(label="be"),
            "region 'berlin': field 'label' must be 2-4 capital letters",
        ),
        (
            lambda raw: _region(raw, "berlin").update(label="HAM"),
            "regions 'berlin' and 'hamburg': both use the label 'HAM'",
        ),
        (
            lambda raw: _swap_cell(raw, "BER", "XYZ"),
            "map_layout row 4, cell 6: unknown label 'XYZ'",
        ),
        (  # two regions in one cell: the picture holds one label per cell
            lambda raw: _swap_cell(raw, "BER", "BER/HAM"),
            "unknown label 'BER/HAM'",
        ),
        (
            lambda raw: [_swap_cell(raw, "ODE", "RUM")],
            "region 'odessa' (ODE): not placed on the map_layout",
        ),
        (
            lambda raw: _swap_cell(raw, "NOR", "BER"),
            "region 'berlin' (BER): placed more than once on the map_layout (2 separate "
            "pieces, from rows 1, 4)",
        ),
        (
            lambda raw: _rows(raw).__setitem__(2, _rows(raw)[2] + " ..."),
            "map_layout row 3: has 11 cells, row 1 has 10",
        ),
        (
            lambda raw: raw["map_layout"]["straits"].append(
                {"pair": ["denmark", "norway"], "open": True}
            ),
            "denmark and norway do not border in 'adjacency', so the strait cannot be open",
        ),
        (
            lambda raw: raw["map_layout"]["straits"][1].update(via="greece"),
            "'via' 'greece' must touch both regions",
        ),
        (
            lambda raw: raw["map_layout"]["straits"][1].pop("via"),
            "the two regions do not touch in the picture; name the region between them",
        ),
        (
            lambda raw: raw["map_layout"]["straits"][3].update(at={"row": 1, "cell": 1}),
            "'at' must be a cell outside the board",
        ),
    ],
)
def test_malformed_layout_fails_on_load_naming_region_and_field(change, message):
    with pytest.raises(MapError) as err:
        board_from_data("broken", _broken(change))
    assert message in str(err.value)


def test_a_map_file_without_a_layout_loads_but_has_no_picture():
    raw = copy.deepcopy(RAW)
    del raw["map_layout"]
    board = board_from_data("plain", raw)
    assert board.layout is None
    with pytest.raises(ValueError, match="has no map_layout"):
        MapPainter(board)


def test_another_map_file_is_drawn_by_the_same_code():
    """A made-up three-region map: a sea between two lands, drawn from its own picture."""
    raw = {
        "nations": {
            "AH": {
                "name": "Austria",
                "color": "yellow",
                "turn_order": 1,
                "armies": 2,
                "fleets": 1,
                "start_factories": ["home"],
            }
        },
        "regions": [
            {
                "id": "home",
                "name": "Home",
                "label": "HOM",
                "kind": "province",
                "nation": "AH",
                "factory_type": "shipyard",
                "harbor": "lake",
                "starting_factory": True,
            },
            {"id": "lake", "name": "Lake", "label": "LAK", "kind": "sea"},
            {"id": "far", "name": "Far", "label": "FAR", "kind": "land"},
        ],
        "adjacency": [["home", "lake"], ["lake", "far"]],
        "map_layout": {"rows": ["HOM LAK LAK FAR"]},
    }
    board = board_from_data("tiny", raw)
    picture = MapPainter(board).render({"home": {"factory": "shipyard", "units": []}}).plain
    assert picture.splitlines()[1].split("│")[1:4] == ["HOM▲AH", "LAK" + " " * 10, "FAR   "]


# --------------------------------------------------------------------------- canals and wraps


def ring_world() -> dict:
    """A made-up round world in two rows: two seas that meet only through a canal across
    the isthmus IST, and a sea at the left edge that borders the one at the right edge
    across the edge. The picture::

        ←RIM WSE IST ESE RIM ...
            WSE FAR IST HOM RIM WSE→
    """
    nation = {
        "name": "Austria",
        "color": "yellow",
        "turn_order": 1,
        "armies": 2,
        "fleets": 2,
        "start_factories": ["home"],
    }
    return {
        "nations": {"AH": nation},
        "regions": [
            {
                "id": "home",
                "name": "Home",
                "label": "HOM",
                "kind": "province",
                "nation": "AH",
                "factory_type": "shipyard",
                "harbor": "east_sea",
                "starting_factory": True,
            },
            {"id": "west_sea", "name": "West Sea", "label": "WSE", "kind": "sea"},
            {"id": "east_sea", "name": "East Sea", "label": "ESE", "kind": "sea"},
            {"id": "rim_sea", "name": "Rim Sea", "label": "RIM", "kind": "sea"},
            {"id": "isthmus", "name": "Isthmus", "label": "IST", "kind": "land"},
            {"id": "far", "name": "Far", "label": "FAR", "kind": "land"},
        ],
        "adjacency": [
            ["west_sea", "isthmus"],
            ["isthmus", "east_sea"],
            ["east_sea", "rim_sea"],
            ["west_sea", "far"],
            ["far", "isthmus"],
            ["isthmus", "home"],
            ["home", "rim_sea"],
            ["east_sea", "home"],
            ["west_sea", "east_sea"],  # the canal
            ["west_sea", "rim_sea"],  # across the edge
        ],
        "map_layout": {
            "rows": ["... WSE IST ESE RIM ...", "WSE FAR IST HOM RIM ..."],
            "canals": [
                {
                    "pair": ["west_sea", "east_sea"],
                    "via": "isthmus",
                    "name": "Isthmus Canal",
                    "note": "asked of the flag in IST",
                }
            ],
            "wraps": [
                {
                    "pair": ["west_sea", "rim_sea"],
                    "at": [{"row": 1, "cell": 1}, {"row": 2, "cell": 6}],
                }
            ],
        },
    }


def test_a_canal_and_a_wrap_are_read_from_the_layout():
    layout = board_from_data("ring", ring_world()).layout
    (canal,) = layout.canals
    assert (canal.a, canal.b, canal.via, canal.name) == (
        "west_sea",
        "east_sea",
        "isthmus",
        "Isthmus Canal",
    )
    (wrap,) = layout.wraps
    assert wrap.marks() == (("west_sea", "rim_sea", (0, 0)), ("rim_sea", "west_sea", (5, 1)))
    # the two borders the picture cannot show as walls are exactly the canal and the wrap
    board = board_from_data("ring", ring_world())
    assert borders(board) - layout.touching() == {
        frozenset(("west_sea", "east_sea")),
        frozenset(("west_sea", "rim_sea")),
    }


def walled(painter: MapPainter, r: int, c: int) -> set[str | None]:
    """The regions a wall character of the picture stands between: above and below on a
    wall row, left and right on a row of text."""
    if r % painter.ch == 0:
        return {painter.region_at(r // painter.ch - 1, c), painter.region_at(r // painter.ch, c)}
    return {painter.region_at(r // painter.ch, c - 1), painter.region_at(r // painter.ch, c + 1)}


def test_the_canal_is_marked_on_the_isthmus_walls_and_the_wrap_names_the_far_side():
    board = board_from_data("ring", ring_world())
    for ascii_only, canal, west, east in (
        (False, "≡", "←RIM", "WSE→"),
        (True, "H", "<-RIM", "WSE->"),
    ):
        painter = MapPainter(board, ascii_only=ascii_only)
        lines = painter.render({}).plain.splitlines()
        spots = [  # the glyph on a wall (not a letter of a label: ASCII's H)
            (r, c)
            for r, line in enumerate(lines)
            for c, ch in enumerate(line)
            if ch == canal and not (line[c - 1] + line[c + 1]).strip("~ ─│┴┬└┘┌┐+|-")
        ]
        assert len(spots) == 2  # one on IST's wall with each sea
        for r, c in spots:
            sides = walled(painter, r, c)
            assert "isthmus" in sides and sides & {"west_sea", "east_sea"}, sides
        # the wrap marks: each against the wall of the sea it belongs to
        r, c = next((r, line.index(west)) for r, line in enumerate(lines) if west in line)
        assert painter.region_at(r // painter.ch, c + len(west) + 1) == "west_sea"
        r, c = next((r, line.index(east)) for r, line in enumerate(lines) if east in line)
        assert painter.region_at(r // painter.ch, c - 3) == "rim_sea"
        legend = "\n".join(t.plain for t in legend_lines(board, ascii_only))
        assert (
            f"{canal} WSE{'-' if ascii_only else '–'}ESE through IST, the Isthmus Canal" in legend
        )
        assert "across the edge" in legend


def test_the_cursor_goes_on_across_the_edge_of_a_round_world():
    painter = MapPainter(board_from_data("ring", ring_world()))
    west = painter.layout.cells_of("west_sea")[0]
    rim = painter.step(west, -1, 0)  # left from the West Sea: the Rim Sea, across the edge
    assert rim is not None and painter.layout.region_at(rim) == "rim_sea"
    back = painter.step(painter.layout.cells_of("rim_sea")[-1], 1, 0)
    assert back is not None and painter.layout.region_at(back) == "west_sea"


def _ring(change) -> dict:
    raw = ring_world()
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda raw: raw["adjacency"].remove(["west_sea", "east_sea"]),
            "west_sea and east_sea do not border in 'adjacency', so there is no canal to draw",
        ),
        (
            lambda raw: raw["map_layout"]["canals"][0].update(via="far"),
            "'via' 'far' must touch both regions",
        ),
        (
            lambda raw: raw["map_layout"]["canals"][0].pop("via"),
            "the two regions do not touch in the picture; name the region the canal crosses",
        ),
        (
            lambda raw: raw["map_layout"]["canals"][0].pop("name"),
            "map_layout canals #1: field 'name' must be the canal's name",
        ),
        (
            lambda raw: raw["adjacency"].remove(["west_sea", "rim_sea"]),
            "west_sea and rim_sea do not border in 'adjacency', so there is no wrap to draw",
        ),
        (
            lambda raw: raw["map_layout"]["wraps"][0].update(at=[{"row": 1, "cell": 1}]),
            "field 'at' must list two cells",
        ),
        (
            lambda raw: raw["map_layout"]["wraps"][0]["at"].__setitem__(0, {"row": 1, "cell": 2}),
            "'at' row 1, cell 2 must be a cell outside the board",
        ),
        (
            lambda raw: raw["map_layout"]["wraps"][0]["at"].__setitem__(1, {"row": 1, "cell": 1}),
            "'at' row 1, cell 1 must touch 'rim_sea' and no other region (it touches west_sea)",
        ),
        (  # the mark would sit between two regions
            lambda raw: raw["map_layout"].update(
                rows=["... WSE IST ESE RIM ...", "FAR WSE IST HOM RIM ..."]
            ),
            "'at' row 1, cell 1 must touch 'west_sea' and no other region (it touches far)",
        ),
    ],
)
def test_malformed_canal_or_wrap_fails_on_load_naming_it(change, message):
    with pytest.raises(MapError) as err:
        board_from_data("broken", _ring(change))
    assert message in str(err.value)


def test_a_wrap_between_regions_that_touch_is_refused():
    raw = ring_world()
    raw["adjacency"].append(["far", "home"])
    raw["map_layout"]["wraps"] = [
        {"pair": ["isthmus", "home"], "at": [{"row": 1, "cell": 1}, {"row": 2, "cell": 6}]}
    ]
    with pytest.raises(MapError, match="the two regions touch in the picture"):
        board_from_data("broken", raw)


# --------------------------------------------------------------------------- the side file


def test_a_picture_in_a_side_file_is_taken_until_it_is_folded_in(tmp_path):
    raw = ring_world()
    picture = {
        "labels": {rd["id"]: rd.pop("label") for rd in raw["regions"]},
        "map_layout": raw.pop("map_layout"),
    }
    side = tmp_path / "ring_layout.json"
    assert with_side_layout(raw, side) is raw  # no side file: the data as it is
    side.write_text(json.dumps(picture), encoding="utf-8")
    board = board_from_data("ring", with_side_layout(raw, side))
    assert board.layout is not None and board.layout.labels["isthmus"] == "IST"
    assert "label" not in raw["regions"][0]  # the map data itself is left alone
    folded = fold_layout.folded(raw, picture)
    assert board_from_data("ring", folded).layout == board.layout
    assert list(folded["regions"][0])[:3] == ["id", "name", "label"]
    with pytest.raises(MapError, match="has a map_layout already; delete the side file"):
        with_side_layout(folded, side)
    picture["labels"]["atlantis"] = "ATL"
    side.write_text(json.dumps(picture), encoding="utf-8")
    with pytest.raises(MapError, match=r"names regions the map does not have: \['atlantis'\]"):
        with_side_layout(raw, side)
    side.write_text("{", encoding="utf-8")
    with pytest.raises(MapError, match=r"ring_layout\.json: not valid JSON"):
        with_side_layout(raw, side)


# --------------------------------------------------------------------------- the world map

WORLD = MAP_DIR / "world2030.json"
needs_world = pytest.mark.skipif(
    not WORLD.exists(),
    reason="maps/world2030.json (the Imperial 2030 board) comes with the 2030 engine",
)
WIDE_MAP = (78, 37)  # the map view at 120x40 (beside the 42-column decision column)


def world() -> tuple[Board, dict]:
    return load_board("world2030"), json.loads(WORLD.read_text(encoding="utf-8"))


@needs_world
def test_the_world_picture_walls_are_exactly_its_borders_canals_and_wraps_apart():
    """Every wall between two regions is a border of the map file, and every border is a
    wall, except the two canals (the seas meet only through the land that controls the
    canal) and the four borders across the east-west edge (marked at both edges)."""
    board, raw = world()
    layout = board.layout
    assert layout is not None
    adjacency = {frozenset(p) for p in raw["adjacency"]}
    touching = layout.touching()
    assert touching - adjacency == set()  # nothing drawn that is not a border
    canals = {frozenset((c.a, c.b)): c.via for c in layout.canals}
    wraps = {frozenset((w.a, w.b)) for w in layout.wraps}
    via = {frozenset((s.a, s.b)) for s in layout.straits if s.open and s.via}
    assert adjacency - touching == set(canals) | wraps | via
    # two borders the staggered rows cannot show as walls, marked ≈ through a region that
    # touches both (as Europe's Black Sea - Eastern Mediterranean through Turkey)
    assert via == {frozenset(("rome", "ukraine")), frozenset(("canada", "north_atlantic"))}
    # the canals and the wrap edges are the map file's, each canal drawn through the region
    # whose flag controls it
    assert canals == {frozenset(c["seas"]): c["controller"] for c in raw["canals"]}
    assert wraps == {frozenset(p) for p in raw["wrap_edges"]}
    assert set(layout.labels) == {r["id"] for r in raw["regions"]}


@needs_world
def test_what_of_the_world_fits_where():
    """Measured: the world picture is 102x37 in full cells, 88x37 in compact ones. The map
    view at 120x40 (78x37) shows it in full cells, scrolling sideways; from 130 columns the
    wide map view (88 wide) shows it whole in compact cells, from 144 in full ones."""
    board, _ = world()
    full, compact = MapPainter(board), MapPainter(board, cell=COMPACT_CELL)
    assert (full.width, full.height) == (102, WIDE_MAP[1])
    assert (compact.width, compact.height) == (88, WIDE_MAP[1])
    assert MapModel().painter_for(board, False, room=WIDE_MAP[0]).cw == FULL_CELL[0]
    assert MapModel().painter_for(board, False, room=88).cw == COMPACT_CELL[0]
    assert MapModel().painter_for(board, False, room=102).cw == FULL_CELL[0]
    assert MapModel().painter_for(load_board(), False, room=WIDE_MAP[0]).width == 74  # Europe


@needs_world
def test_the_world_canal_and_wrap_marks_sit_beside_the_right_regions():
    """Read back from the painted picture: each ≡ is on a wall between the canal's
    controlling region and one of its two seas, one for each sea; each edge mark stands
    against the wall of a sea and names the sea it borders across the edge, both ends of
    all four wrap edges."""
    board, raw = world()
    for ascii_only in (False, True):
        painter = MapPainter(board, ascii_only=ascii_only)
        g = painter.glyphs
        lines = painter.render({}).plain.splitlines()
        labels = {label: rid for rid, label in painter.layout.labels.items()}
        canal_walls: list[frozenset[str]] = []
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch == g.canal and not (line[c - 1] + line[c + 1]).strip("~ ─│┴┬└┘┌┐+|-"):
                    canal_walls.append(frozenset(walled(painter, r, c)))
        expected = [frozenset((c["controller"], sea)) for c in raw["canals"] for sea in c["seas"]]
        assert sorted(map(sorted, canal_walls)) == sorted(map(sorted, expected))
        marks = set()
        west, east = re.escape(g.wrap_west), re.escape(g.wrap_east)
        for r, line in enumerate(lines):
            for m in re.finditer(rf"{west}([A-Z]{{3}})", line):  # against the wall on its right
                marks.add((painter.region_at(r // painter.ch, m.end() + 1), labels[m.group(1)]))
            for m in re.finditer(rf"([A-Z]{{3}}){east}", line):  # against the wall on its left
                marks.add((painter.region_at(r // painter.ch, m.start() - 3), labels[m.group(1)]))
        expected_marks = {(a, b) for a, b in raw["wrap_edges"]} | {
            (b, a) for a, b in raw["wrap_edges"]
        }
        assert marks == expected_marks
        legend = "\n".join(t.plain for t in legend_lines(board, ascii_only))
        assert "the Panama Canal" in legend and "the Suez Canal" in legend


@needs_world
def test_the_cursor_crosses_the_pacific_edge_of_the_world():
    board, _ = world()
    painter = MapPainter(board)
    layout = painter.layout
    for a, b in ((w.a, w.b) for w in layout.wraps):
        for here, there in ((a, b), (b, a)):
            edges = {x for _, _, (x, _) in [m for m in layout.wrap_marks() if m[0] == here]}
            dx = -1 if 0 in edges else 1
            cells = layout.cells_of(here)
            # from the region's cell nearest its edge, the arrow off the edge
            start = min(cells, key=lambda c: c[0]) if dx < 0 else max(cells, key=lambda c: c[0])
            nxt = painter.step(start, dx, 0)
            assert nxt is not None and layout.region_at(nxt) in {
                into for r, into, _ in layout.wrap_marks() if r == here
            }, (here, there)


@pytest.mark.parametrize("cell", [COMPACT_CELL, FULL_CELL])
def test_left_and_right_keep_to_the_cursors_row(cell) -> None:
    """A playtest: on Munich's label (the row "BRE FR | PAR FR | BEL | MUN GE"), left went to
    Dijon in the row below, beside Munich's staggered lower cell; Belgium took left then up.
    Left and right leave a region from the cursor's own row where it has cells there."""
    painter = MapPainter(load_board("europe"), cell=cell)
    layout = painter.layout
    label_row, lower = layout.cells_of("munich")
    assert label_row[1] < lower[1]
    left = painter.step(label_row, -1, 0)
    assert left is not None and layout.region_at(left) == "belgium"
    back = painter.step(left, 1, 0)
    assert back is not None and layout.region_at(back) == "munich"
    below = painter.step(lower, -1, 0)
    assert below is not None and layout.region_at(below) == "dijon"  # from its lower row
