"""The map picture as data: every region placed once with a unique label, malformed layouts
refused naming the region, and the walls of the Europe picture are exactly its borders (the
picture is how players learn who borders whom)."""

from __future__ import annotations

import copy
import json

import pytest

from imperial_tui.render.mapglyphs import HEAVY, LIGHT, box_chars
from imperial_tui.render.mapview import MapPainter, legend_lines
from maps import MapError, board_from_data, load_board
from maps.board import MAP_DIR

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
