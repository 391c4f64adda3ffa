"""The map picture of a known mid-game position, read back from the rendered text: every label
once, owners and flags by their letters, factories (occupied ones hollow) and the units by
nation and count, hostile and friendly marked."""

from __future__ import annotations

import re

import pytest
from maneuver_helpers import new_game, place, set_factories, set_flag
from rich.console import Console

from imperial_tui.render.mapcell import flow_tokens, unit_token
from imperial_tui.render.mapglyphs import TINT
from imperial_tui.render.mapview import MapPainter
from imperial_tui.render.style import NATION_STYLE
from maps import load_board
from maps.board import MAP_DIR
from rules import Game

WALLS = "│┃|#"
TOKEN = re.compile(r"([A-Z]{2})(\d+)(f?)([!=]?)")
FACTORY = {"■": ("armaments", False), "▲": ("shipyard", False)}
FACTORY.update({"□": ("armaments", True), "△": ("shipyard", True)})


def position() -> Game:
    """Units of several nations, flags, factories built, destroyed and occupied."""
    g = new_game()
    place(g, "AH", "army", "vienna", 2)
    place(g, "AH", "army", "romania")
    place(g, "AH", "fleet", "trieste")  # a fleet in port
    place(g, "IT", "army", "venice", 2)
    place(g, "RU", "army", "berlin")  # hostile: occupies Berlin's factory
    place(g, "FR", "army", "munich", friendly=True)
    place(g, "GB", "fleet", "north_sea", 2)
    place(g, "GE", "fleet", "north_sea")
    place(g, "FR", "fleet", "western_mediterranean")
    place(g, "IT", "fleet", "western_mediterranean", 2)
    set_flag(g, "romania", "AH")
    set_flag(g, "north_sea", "GB")
    set_flag(g, "spain", "FR")
    set_factories(g, "IT", ["rome", "venice"])
    return g


def read_map(text: str, painter: MapPainter) -> dict[str, dict]:
    """Each region's header, found by its label in the picture, and its units, read from the
    region's other text areas (a sea's units may go on to its next cell)."""
    labels = dict(painter.layout.labels)
    lines = text.splitlines()
    out: dict[str, dict] = {}
    for rid, label in labels.items():
        hits = [
            (r, m.start())
            for r, line in enumerate(lines)
            for m in re.finditer(rf"(?<=[{WALLS}▶>]){label}", line)
        ]
        assert len(hits) == 1, (label, hits)
        r, c = hits[0]
        header = re.split(f"[{WALLS}◀<]", lines[r][c:])[0]
        areas = painter.text_areas(rid)
        assert areas[0][:2] == (r, c)  # the label is where its first text area starts
        below = " ".join(lines[row][col : col + width] for row, col, width in areas[1:])
        rest = header[len(label) :].strip()
        factory = next((FACTORY[ch] for ch in rest if ch in FACTORY), None)
        code = re.sub(r"[^A-Z]", "", rest) or None
        tokens = [
            (m.group(1), int(m.group(2)), m.group(3), m.group(4)) for m in TOKEN.finditer(below)
        ]
        out[rid] = {"factory": factory, "code": code, "units": tokens, "more": "+" in below}
    return out


def expected_tokens(info: dict, at_sea: bool) -> list[tuple[str, int, str, str]]:
    out = []
    for u in info["units"]:
        m = TOKEN.fullmatch(unit_token(u, at_sea))
        assert m is not None
        out.append((m.group(1), int(m.group(2)), m.group(3), m.group(4)))
    return out


def test_the_picture_of_a_mid_game_position_reads_back_as_the_state_summary():
    g = position()
    board = g.state.board
    summary = g.summary()["regions"]
    painter = MapPainter(board)
    text = painter.render(summary).plain
    seen = read_map(text, painter)
    for r in board.regions:
        info = summary[r.id]
        got = seen[r.id]
        if r.kind == "province":
            assert got["code"] == r.nation, r.id  # the owner, by its letters
        else:
            assert got["code"] == info["flag"], r.id  # the flag, by its letters
        occupied = any(u["hostile"] is True for u in info["units"])
        assert got["factory"] == ((info["factory"], occupied) if info["factory"] else None), r.id
        want = expected_tokens(info, r.kind == "sea")
        if got["more"]:  # not all fitted: the first ones, then "+"
            assert got["units"] == want[: len(got["units"])] and len(got["units"]) < len(want)
        else:
            assert got["units"] == want, r.id
    # the position's particulars, spelled out
    assert seen["berlin"]["factory"] == ("armaments", True)  # RU hostile: occupied
    assert seen["berlin"]["units"] == [("RU", 1, "", "!")]
    assert seen["munich"]["units"] == [("FR", 1, "", "=")]
    assert seen["trieste"]["units"] == [("AH", 1, "f", "")]
    assert seen["vienna"]["units"] == [("AH", 2, "", "")]
    assert seen["north_sea"]["units"] == [("GB", 2, "", ""), ("GE", 1, "", "")]
    assert seen["western_mediterranean"]["units"] == [("IT", 2, "", ""), ("FR", 1, "", "")]
    assert seen["romania"]["code"] == "AH" and seen["spain"]["code"] == "FR"
    assert seen["venice"]["factory"] == ("shipyard", False)
    assert seen["naples"]["factory"] is None  # IT's factories are Rome and Venice here
    assert seen["switzerland"]["code"] is None


def test_the_ascii_picture_has_only_ascii_and_the_same_content():
    g = position()
    board = g.state.board
    summary = g.summary()["regions"]
    text = MapPainter(board, ascii_only=True).render(summary).plain
    assert all(ord(ch) < 128 for ch in text)
    assert "|BERxGE|" in text  # occupied armaments factory
    assert "|RU1!  |" in text
    for label in board.layout.labels.values():
        assert re.search(rf"[|#>]{label}", text), label


def test_units_that_do_not_fit_end_with_a_plus():
    assert flow_tokens([3, 4], [6]).more == (0, 4)  # "AH1 +"
    plan = flow_tokens([3, 4], [6, 6])
    assert plan.places == [(0, 0), (1, 0)] and plan.more is None
    plan = flow_tokens([3, 3, 3], [7])
    assert plan.places == [(0, 0)] and plan.more == (0, 4)


def test_marks_show_the_unit_its_destinations_and_the_cursor():
    from imperial_tui.render.mapmarks import MapMarks

    g = position()
    painter = MapPainter(g.state.board)
    marks = MapMarks(cursor="berlin", origin="vienna", destinations=frozenset({"romania"}))
    rows = painter.rows(g.summary()["regions"], marks)
    text = "\n".join("".join(piece for piece, _ in row) for row in rows)
    assert "▶BER" in text and "GE◀" in text  # the cursor around Berlin's label
    styles = {piece: style for row in rows for piece, style in row}
    assert styles["VIE"].reverse and styles["VIE"].underline  # the unit: reversed, underlined
    assert styles["RUM◆"].reverse and not styles["RUM◆"].underline  # a destination: reversed


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
def test_destinations_carry_a_glyph_that_shows_without_colour(ascii_only: bool) -> None:
    """Issue #24 item 4: with NO_COLOR a destination was a barely lighter grey and in plain
    text nothing marked it; the glyph after its label marks it in every mode."""
    from imperial_tui.render.maplegend import legend_lines
    from imperial_tui.render.mapmarks import MapMarks

    g = position()
    glyph = "*" if ascii_only else "◆"
    painter = MapPainter(g.state.board, ascii_only=ascii_only)
    marks = MapMarks(origin="vienna", destinations=frozenset({"romania", "budapest"}))
    text = painter.render(g.summary()["regions"], marks).plain
    assert f"RUM{glyph}" in text and f"BUD{glyph}" in text
    assert f"VIE{glyph}" not in text and f"BER{glyph}" not in text
    unmarked = painter.render(g.summary()["regions"], MapMarks()).plain
    assert f"RUM{glyph}" not in unmarked
    legend = "\n".join(line.plain for line in legend_lines(g.state.board, ascii_only))
    assert f"{glyph} " in legend and "where the chosen unit may move" in legend


# --------------------------------------------------------------------------- the world map

WORLD = MAP_DIR / "world2030.json"
needs_world = pytest.mark.skipif(
    not WORLD.exists(),
    reason="maps/world2030.json (the Imperial 2030 board) comes with the 2030 engine",
)


def unit(nation: str, kind: str, count: int, hostile: bool | None = None) -> dict:
    return {"nation": nation, "kind": kind, "count": count, "hostile": hostile}


def world_position() -> dict[str, dict]:
    """A state summary's regions on the 2030 board, written by hand (docs/STATE.md): the
    starting factories, Chinese armies occupying New Delhi, a Russian army welcome in
    Beijing, fleets of four nations on the Pacific and the Indian Ocean, a Brazilian fleet
    in port, flags in Colombia, North Africa and the Caribbean (the canals' controllers)."""
    board = load_board("world2030")
    regions = {
        r.id: {
            "factory": r.factory_type if r.starting_factory else None,
            "flag": None,
            "units": [],
        }
        for r in board.regions
    }
    regions["new_delhi"]["units"] = [unit("CN", "army", 2, True)]  # occupies the factory
    regions["beijing"]["units"] = [unit("CN", "army", 3), unit("RU", "army", 1, False)]
    regions["north_pacific"]["units"] = [unit("US", "fleet", 2), unit("RU", "fleet", 1)]
    regions["indian_ocean"]["units"] = [unit("IN", "fleet", 1), unit("EU", "fleet", 2)]
    regions["rio_de_janeiro"]["units"] = [unit("BR", "fleet", 1)]  # in port
    regions["colombia"].update(flag="US", units=[unit("US", "army", 1)])
    regions["north_africa"].update(flag="EU", units=[unit("EU", "army", 1)])
    regions["caribbean_sea"]["flag"] = "BR"
    return regions


@needs_world
def test_the_world_picture_reads_back_as_the_state_summary():
    board = load_board("world2030")
    summary = world_position()
    painter = MapPainter(board)
    seen = read_map(painter.render(summary).plain, painter)
    for r in board.regions:
        info = summary[r.id]
        got = seen[r.id]
        assert got["code"] == (r.nation if r.kind == "province" else info["flag"]), r.id
        occupied = any(u["hostile"] is True for u in info["units"])
        assert got["factory"] == ((info["factory"], occupied) if info["factory"] else None), r.id
        want = expected_tokens(info, r.kind == "sea")
        if got["more"]:
            assert got["units"] == want[: len(got["units"])] and len(got["units"]) < len(want)
        else:
            assert got["units"] == want, r.id
    assert seen["new_delhi"]["factory"] == ("armaments", True)  # hollow: occupied by CN
    assert seen["new_delhi"]["units"] == [("CN", 2, "", "!")]
    assert ("RU", 1, "", "=") in seen["beijing"]["units"] or seen["beijing"]["more"]
    assert seen["rio_de_janeiro"]["units"] == [("BR", 1, "f", "")]
    assert seen["colombia"]["code"] == "US" and seen["north_africa"]["code"] == "EU"
    assert {n.code for n in board.nations} == {"RU", "CN", "IN", "BR", "US", "EU"}


@needs_world
def test_the_world_picture_in_ascii_has_only_ascii_and_every_label():
    board = load_board("world2030")
    text = MapPainter(board, ascii_only=True).render(world_position()).plain
    assert all(ord(ch) < 128 for ch in text)
    assert "|DELxIN|" in text  # New Delhi's factory, occupied (x), India's
    for label in board.layout.labels.values():
        assert re.search(rf"[|#>]{label}", text), label
    assert "<-SOJ" in text and "NPA->" in text  # the Pacific goes on across the edges


@needs_world
def test_the_world_picture_without_colour_keeps_nations_canals_and_edges():
    """NO_COLOR: not one colour code; nations read by their codes, the canal marks and the
    flags by reverse video, the edge marks by their arrows."""
    board = load_board("world2030")
    painter = MapPainter(board)
    console = Console(no_color=True, force_terminal=True, width=120, color_system="standard")
    with console.capture() as capture:
        console.print(painter.render(world_position()))
    out = capture.get()
    assert not re.search(r"\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])m", out), out[:200]
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert "←SOJ" in plain and "NPA→" in plain
    for code in ("RU", "CN", "IN", "BR", "US", "EU"):
        assert code in plain
    assert re.search(r"\x1b\[[0-9;]*7[0-9;]*m≡", out)  # the canal, reversed
    assert re.search(r"\x1b\[[0-9;]*7[0-9;]*mUS", out)  # the flag in Colombia, reversed


@needs_world
def test_every_2030_nation_has_a_colour_and_a_tint():
    for code in ("RU", "CN", "IN", "BR", "US", "EU"):
        assert NATION_STYLE[code] and TINT[code]
    assert "black" not in NATION_STYLE["IN"]  # India's black would vanish on a dark terminal
