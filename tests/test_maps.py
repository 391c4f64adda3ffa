"""The Europe board as data: what the loader builds and how it refuses malformed files."""

from __future__ import annotations

import copy
import json

import pytest

from maps import MapError, board_from_data, load_board
from maps.board import MAP_DIR

RAW = json.loads((MAP_DIR / "europe.json").read_text(encoding="utf-8"))


def ids(board, indices):
    return {board.id(i) for i in indices}


def test_europe_has_30_home_provinces_15_neutral_lands_and_9_seas():
    board = load_board()
    kinds = [r.kind for r in board.regions]
    assert kinds.count("province") == 30
    assert kinds.count("land") == 15
    assert kinds.count("sea") == 9
    assert [n.code for n in board.nations] == ["AH", "IT", "FR", "GB", "GE", "RU"]


def test_unit_limits_and_starting_factories_per_nation():
    board = load_board()
    limits = {n.code: (n.armies, n.fleets) for n in board.nations}
    assert limits == {
        "AH": (10, 6),
        "IT": (8, 8),
        "FR": (8, 8),
        "GB": (6, 10),
        "GE": (8, 8),
        "RU": (8, 8),
    }
    starting = {r.id for r in board.regions if r.starting_factory}
    assert starting == {
        "vienna",
        "budapest",
        "rome",
        "naples",
        "paris",
        "bordeaux",
        "london",
        "liverpool",
        "berlin",
        "hamburg",
        "moscow",
        "odessa",
    }


def test_switzerland_is_impassable_and_not_a_region():
    board = load_board()
    assert "switzerland" in board.impassable
    assert "switzerland" not in board.index


def test_harbour_seas_of_the_shipyard_cities():
    board = load_board()
    harbour = {
        r.id: board.id(board.harbour_sea[r.index])
        for r in board.regions
        if board.harbour_sea[r.index] != -1
    }
    assert harbour["london"] == "english_channel"
    assert harbour["dublin"] == "north_atlantic"
    assert harbour["hamburg"] == "north_sea"
    assert harbour["trieste"] == "ionian_sea"
    assert len(harbour) == 15
    assert all(board[r].factory_type == "shipyard" for r in harbour)


def test_rail_runs_between_own_provinces_and_never_to_dublin():
    board = load_board()
    assert ids(board, board.rail_links[board.index["hamburg"]]) == {"berlin", "cologne"}
    assert board.rail_links[board.index["dublin"]] == frozenset()
    assert "dublin" not in ids(board, board.rail_links[board.index["liverpool"]])
    # no rail across a national border
    assert "vienna" not in ids(board, board.rail_links[board.index["munich"]])


def test_straits_and_doubtful_borders():
    board = load_board()
    land = board.land_neighbours
    assert board.index["turkey"] in land[board.index["bulgaria"]]
    assert board.index["sweden"] not in land[board.index["denmark"]]
    assert board.index["morocco"] not in land[board.index["spain"]]
    assert board.index["st_petersburg"] not in land[board.index["kiev"]]
    assert board.index["genoa"] in land[board.index["vienna"]]
    sea = board.sea_neighbours
    assert board.index["eastern_mediterranean"] in sea[board.index["black_sea"]]
    cut = board.without_edge("black_sea", "eastern_mediterranean")
    assert cut.index["eastern_mediterranean"] not in cut.sea_neighbours[cut.index["black_sea"]]


def test_english_channel_fleet_neighbours():
    board = load_board()
    assert ids(board, board.sea_neighbours[board.index["english_channel"]]) == {
        "north_atlantic",
        "north_sea",
        "bay_of_biscay",
    }


def _broken(change) -> dict:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def _region(raw, rid):
    return next(r for r in raw["regions"] if r["id"] == rid)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda raw: _region(raw, "vienna").pop("factory_type"),
            "region 'vienna': missing field 'factory_type'",
        ),
        (
            lambda raw: _region(raw, "vienna").update(kind="mountain"),
            "region 'vienna': field 'kind' must be one of",
        ),
        (
            lambda raw: _region(raw, "trieste").update(harbor="north_sea"),
            "region 'trieste': field 'harbor' names 'north_sea', which it does not border",
        ),
        (
            lambda raw: _region(raw, "trieste").update(harbor="vienna"),
            "region 'trieste': field 'harbor' must name a sea",
        ),
        (
            lambda raw: _region(raw, "rome").update(nation="XX"),
            "region 'rome': field 'nation' names an unknown nation 'XX'",
        ),
        (
            lambda raw: _region(raw, "norway").update(nation="GE"),
            "region 'norway': field 'nation' is only allowed for provinces",
        ),
        (
            lambda raw: raw["adjacency"].append(["vienna", "atlantis"]),
            "adjacency vienna-atlantis: unknown region 'atlantis'",
        ),
        (
            lambda raw: raw["adjacency"].append(["vienna", "switzerland"]),
            "region 'switzerland' is impassable",
        ),
        (
            lambda raw: raw["adjacency"].append(["budapest", "vienna"]),
            "adjacency budapest-vienna: listed twice",
        ),
        (
            lambda raw: raw["regions"].append(dict(_region(raw, "rome"))),
            "region 'rome': duplicate id",
        ),
        (
            lambda raw: raw["nations"]["AH"].update(armies="ten"),
            "nation AH: field 'armies' has the wrong type",
        ),
        (
            lambda raw: raw["nations"]["AH"].update(start_factories=["rome"]),
            "nation AH: start factory 'rome' is not one of its provinces",
        ),
    ],
)
def test_malformed_map_fails_on_load_naming_region_and_field(change, message):
    with pytest.raises(MapError) as err:
        board_from_data("broken", _broken(change))
    assert message in str(err.value)


def test_map_file_that_is_not_json_fails_with_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr("maps.board.MAP_DIR", tmp_path)
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(MapError, match=r"bad\.json: not valid JSON"):
        load_board.__wrapped__("bad")
    with pytest.raises(MapError, match="no map named 'nowhere'"):
        load_board.__wrapped__("nowhere")


def test_board_is_immutable():
    board = load_board()
    with pytest.raises(AttributeError):
        board.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        board.regions[0].kind = "sea"  # type: ignore[misc]


def test_doubtful_border_and_its_rule_option_come_from_the_map_file():
    board = load_board()
    assert board.optional_borders == (
        ("black_sea_eastern_mediterranean", "black_sea", "eastern_mediterranean"),
    )
