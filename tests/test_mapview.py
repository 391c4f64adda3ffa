"""The map picture of a known mid-game position, read back from the rendered text: every label
once, owners and flags by their letters, factories (occupied ones hollow) and the units by
nation and count, hostile and friendly marked."""

from __future__ import annotations

import re

from maneuver_helpers import new_game, place, set_factories, set_flag

from imperial_tui.render.mapview import MapPainter, flow_tokens, unit_token
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
    from imperial_tui.render.mapview import MapMarks

    g = position()
    painter = MapPainter(g.state.board)
    marks = MapMarks(cursor="berlin", origin="vienna", destinations=frozenset({"romania"}))
    rows = painter.rows(g.summary()["regions"], marks)
    text = "\n".join("".join(piece for piece, _ in row) for row in rows)
    assert "▶BER" in text and "GE◀" in text  # the cursor around Berlin's label
    styles = {piece: style for row in rows for piece, style in row}
    assert styles["VIE"].reverse and styles["VIE"].underline  # the unit: reversed, underlined
    assert styles["RUM"].reverse and not styles["RUM"].underline  # a destination: reversed
