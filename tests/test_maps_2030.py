"""The Imperial 2030 world board as data (maps/world2030.json): the figures of RULES_2030.md
§2 and §11, checked through the same loader as Europe, and the loader's checks of what 2030
adds (canals, the east-west wrap)."""

from __future__ import annotations

import copy
import json

import pytest

from maps import MapError, board_from_data, load_board
from maps.board import MAP_DIR

RAW = json.loads((MAP_DIR / "world2030.json").read_text(encoding="utf-8"))


def world():
    return load_board("world2030")


def border_count(board) -> int:
    pairs = zip(board.land_neighbours, board.sea_neighbours, strict=True)
    total = sum(len(land) + len(sea) for land, sea in pairs)
    return total // 2


def test_world_has_24_home_provinces_27_neutral_lands_11_seas_and_162_borders():
    board = world()
    kinds = [r.kind for r in board.regions]
    assert len(board.regions) == 62
    assert kinds.count("province") == 24
    assert kinds.count("land") == 27
    assert kinds.count("sea") == 11
    assert border_count(board) == 162
    assert board.impassable == ()


def test_nations_in_turn_order_with_their_unit_limits():
    board = world()
    assert board.codes == ("RU", "CN", "IN", "BR", "US", "EU")
    limits = {n.code: (n.armies, n.fleets) for n in board.nations}
    assert limits == {
        "RU": (8, 8),
        "CN": (10, 6),
        "IN": (8, 8),
        "BR": (8, 8),
        "US": (6, 10),
        "EU": (8, 8),
    }


def test_four_home_provinces_each_with_the_factory_split_of_the_rules():
    board = world()
    split = {}
    for n, nation in enumerate(board.nations):
        homes = [board.regions[r] for r in board.home[n]]
        kinds = [r.factory_type for r in homes]
        split[nation.code] = (len(homes), kinds.count("armaments"), kinds.count("shipyard"))
    assert split == {
        "RU": (4, 2, 2),
        "CN": (4, 3, 1),
        "IN": (4, 2, 2),
        "BR": (4, 2, 2),
        "US": (4, 1, 3),
        "EU": (4, 2, 2),
    }


def test_starting_factories_one_armaments_and_one_shipyard_per_nation():
    board = world()
    starting = {r.id: r.factory_type for r in board.regions if r.starting_factory}
    assert starting == {
        "moscow": "armaments",
        "vladivostok": "shipyard",
        "beijing": "armaments",
        "shanghai": "shipyard",
        "new_delhi": "armaments",
        "mumbai": "shipyard",
        "brasilia": "armaments",
        "rio_de_janeiro": "shipyard",
        "chicago": "armaments",
        "new_orleans": "shipyard",
        "paris": "armaments",
        "london": "shipyard",
    }


def test_harbour_seas_every_port_enters_one_sea_it_borders():
    board = world()
    harbour = {
        r.id: board.id(board.harbour_sea[r.index])
        for r in board.regions
        if board.harbour_sea[r.index] != -1
    }
    assert harbour == {
        "vladivostok": "sea_of_japan",
        "murmansk": "north_atlantic",
        "shanghai": "china_sea",
        "mumbai": "indian_ocean",
        "kolkata": "indian_ocean",
        "rio_de_janeiro": "south_atlantic",
        "fortaleza": "caribbean_sea",
        "new_orleans": "caribbean_sea",
        "new_york": "north_atlantic",
        "san_francisco": "north_pacific",
        "london": "north_atlantic",
        "rome": "mediterranean_sea",
    }
    for port, sea in harbour.items():
        assert board.sea_neighbours[board.index[port]] == {board.index[sea]}


def test_canals_panama_and_suez_with_their_controlling_regions():
    board = world()
    canals = {c.id: ({board.id(s) for s in c.seas}, board.id(c.controller)) for c in board.canals}
    assert canals == {
        "panama": ({"caribbean_sea", "north_pacific"}, "colombia"),
        "suez": ({"mediterranean_sea", "indian_ocean"}, "north_africa"),
    }
    i = board.index
    panama = board.canal_between(i["north_pacific"], i["caribbean_sea"])
    assert panama is not None and panama.id == "panama"
    assert board.canal_between(i["caribbean_sea"], i["north_atlantic"]) is None
    # the canal seas border each other (through the canal) and the controller borders both
    for canal in board.canals:
        a, b = canal.seas
        assert b in board.sea_neighbours[a]
        assert set(canal.seas) <= board.sea_neighbours[canal.controller]


def test_four_wrap_borders_across_the_pacific_edge_and_none_north_south():
    board = world()
    assert board.wrap_edges == {
        ("north_pacific", "sea_of_japan"),
        ("china_sea", "north_pacific"),
        ("china_sea", "south_pacific"),
        ("south_pacific", "tasman_sea"),
    }
    assert board.wraps("sea_of_japan", "north_pacific")
    assert not board.wraps("north_pacific", "south_pacific")
    for a, b in board.wrap_edges:
        assert board.borders(a, b)  # ordinary borders for the rules


def test_islands_are_reached_by_sea_only():
    board = world()
    for island in ("japan", "philippines", "indonesia", "australia", "new_zealand"):
        assert board.land_neighbours[board.index[island]] == frozenset()
        assert board.sea_neighbours[board.index[island]]


def test_doubtful_east_africa_near_east_border_is_left_out_unless_an_option_adds_it():
    board = world()
    assert not board.borders("east_africa", "near_east")
    assert board.optional_extra_borders == (("east_africa_near_east", "east_africa", "near_east"),)
    added = board.with_edge("east_africa", "near_east")
    assert added.borders("east_africa", "near_east")
    assert border_count(added) == 163


def test_europe_has_no_canals_and_no_wrap():
    board = load_board()
    assert board.canals == ()
    assert board.wrap_edges == frozenset()
    assert board.optional_extra_borders == ()


def _broken(change) -> dict:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def _canal(raw, cid):
    return next(c for c in raw["canals"] if c["id"] == cid)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda raw: _canal(raw, "panama").update(seas=["caribbean_sea", "colombia"]),
            "canal 'panama': field 'seas' names 'colombia', which is not a sea",
        ),
        (
            lambda raw: _canal(raw, "panama").update(controller="peru"),
            "canal 'panama': its controller 'peru' must border both seas",
        ),
        (
            lambda raw: _canal(raw, "suez").update(controller="rome"),
            "canal 'suez': field 'controller' must name a neutral land region",
        ),
        (
            lambda raw: _canal(raw, "suez").update(seas=["mediterranean_sea", "china_sea"]),
            "canal 'suez': its seas must also be listed as a border",
        ),
        (
            lambda raw: _canal(raw, "suez").update(id="panama"),
            "canal 'panama': duplicate id",
        ),
        (
            lambda raw: raw["wrap_edges"].append(["north_pacific", "tasman_sea"]),
            "wrap_edges north_pacific-tasman_sea: not a border of the map",
        ),
        (
            lambda raw: raw.update(
                adjacency=[p for p in raw["adjacency"] if not {"australia", "new_zealand"} & set(p)]
                + [["australia", "new_zealand"]]
            ),
            "cannot be reached from 'moscow'",
        ),
    ],
)
def test_malformed_world_map_fails_on_load_naming_the_field(change, message):
    with pytest.raises(MapError) as err:
        board_from_data("broken2030", _broken(change))
    assert message in str(err.value)


def test_world_map_without_a_drawing_loads():
    """The picture of the world map comes separately; the rules need none."""
    raw = _broken(lambda raw: raw.pop("map_layout", None))
    board = board_from_data("no_picture", raw)
    assert board.layout is None
    assert len(board.regions) == 62
