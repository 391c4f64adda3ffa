"""The decision list by keys at 80x24: the Maneuver lists units (fleets first, with the
warning that moving an army ends fleet movement), a unit's moves are grouped by route and a
letter jumps, options and questions are in words (never the notation), and Production
produces everywhere with one Enter."""

from __future__ import annotations

from helpers import (
    give_turn,
    new_game,
)
from maneuver_helpers import new_game as maneuver_game
from maneuver_helpers import place, start_maneuver
from pilot import drive, humans, opened_board, options, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session


def fleet_and_army() -> Session:
    g = maneuver_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "AH", "army", "vienna")
    start_maneuver(g, "AH")
    return Session(g, humans(g), None)


async def test_moving_an_army_first_warns_that_fleets_lose_their_move() -> None:
    session = fleet_and_army()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        listed = options(app)
        headings = [text for _, text, disabled in listed if disabled]
        assert headings[0] == "Fleets (move these first)"
        assert headings[1] == "Armies (moving an army ends fleet movement: 1 fleet not moved)"
        assert listed[0][2] and not listed[1][2]  # the heading is never highlighted
        await pilot.press("down", "enter")  # the army's moves
        await pilot.pause()
        inside = options(app)
        warning = "moving an army ends fleet movement: 1 fleet not moved"
        assert inside[1] == (None, warning, True)


async def test_an_armys_moves_are_grouped_by_route_sorted_and_a_letter_jumps() -> None:
    session = fleet_and_army()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("down", "right")  # right arrow opens the army's moves too
        await pilot.pause()
        listed = options(app)
        headings = [text for _, text, disabled in listed if disabled][1:]
        assert headings == ["one step", "by rail", "by convoy"], headings
        # inside each group, by name
        groups: list[list[str]] = []
        for _, text, disabled in listed[2:]:
            if disabled:
                groups.append([])
            else:
                groups[-1].append(text.split("→ ")[1])
        assert all(g == sorted(g) for g in groups), groups
        ol = app.screen.query_one("#decision-options")
        names = [n for group in groups for n in group]
        letters = [names[-1][0].lower(), names[0][0].lower(), names[-1][0].lower()]
        moved = set()
        for letter in letters:
            await pilot.press(letter)
            await pilot.pause()
            text = ol.get_option_at_index(ol.highlighted).prompt.plain
            assert text.split("→ ")[1].lower().startswith(letter), (letter, text)
            moved.add(ol.highlighted)
        assert len(moved) >= 2
        assert session.game.plies[-1].action.kind == "rondel"  # letters chose nothing


async def test_unit_list_and_undo_question_use_words_not_notation() -> None:
    g = maneuver_game()
    place(g, "AH", "army", "west_balkan")
    place(g, "RU", "army", "west_balkan")
    place(g, "AH", "army", "venice")  # hostile in Italy: may turn friendly
    start_maneuver(g, "AH")
    session = Session(g, humans(g), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        texts = [text for _, text, _ in options(app)]
        joined = "\n".join(texts)
        assert "fight: our army against RU army in West Balkan" in joined, joined
        assert "Makes the army in Venice friendly" in joined, joined
        assert "west_balkan" not in joined and "venice" not in joined
        assert "make army" not in joined and "fights" not in joined
        move = next(a for a in g.legal_actions() if str(a).startswith("AH move army venice"))
        app.apply_human(move)
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        question = str(app.screen.query_one(".question").render())
        assert "AH army Venice → " in question and "venice" not in question, question


async def test_production_produces_everywhere_with_one_enter_and_spaces_are_numbered() -> None:
    g = new_game()
    give_turn(g, "AH", None)  # the first placement: every space free; Vienna and Budapest
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with drive(app) as pilot:
            await opened_board(pilot)
            listed = options(app)
            labels = [text.split()[0] for _, text, _ in listed]
            assert "Production1" in labels and "Production2" in labels, labels
            ids = [oid for oid, _, disabled in listed if not disabled]
            index = next(i for i, (_, t, _) in enumerate(listed) if t.startswith("Production1"))
            await pilot.press("home", *["down"] * ids.index(listed[index][0]), "enter")
            await pilot.pause()
            done = [str(p.action) for p in g.plies]
            assert done[-2:] == ["AH rondel production1", "AH produce all"], done

    await run()
    g2 = new_game()
    give_turn(g2, "AH", None)
    session2 = Session(g2, humans(g2), None)

    async def pick_factories() -> None:
        app = ImperialApp(session=session2, pace=0.0, ascii_only=False)
        async with drive(app) as pilot:
            await opened_board(pilot)
            listed = options(app)
            ids = [oid for oid, _, disabled in listed if not disabled]
            index = next(i for i, (_, t, _) in enumerate(listed) if t.startswith("Production1"))
            await pilot.press("home", *["down"] * ids.index(listed[index][0]), "right")
            await pilot.pause()
            assert g2.awaiting.kind == "produce"  # the factories, one by one
            assert [str(p.action) for p in g2.plies] == ["AH rondel production1"]

    await pick_factories()


def vienna_army() -> Session:
    g = maneuver_game()
    place(g, "AH", "army", "vienna")
    start_maneuver(g, "AH")
    return Session(g, humans(g), None)


async def test_hostile_and_friendly_into_one_region_are_one_line_that_asks() -> None:
    """Issue #24 item 5: a long destination list had a hostile and a friendly line for each
    foreign home province; now one line, and Enter asks which (as on the map)."""
    from imperial_tui.app.screens.dialogs import ChoiceScreen

    session = vienna_army()
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("home", "right")
        await pilot.pause()
        texts = [text for _, text, disabled in options(app) if not disabled]
        munich = [t for t in texts if "→ Munich" in t]
        assert munich == ["→ Munich (hostile or friendly)"], texts
        assert not any(t.endswith((" hostile", " friendly")) for t in texts)
        await pilot.press("m", "u")
        await pilot.pause()
        ol = app.screen.query_one("#decision-options")
        assert "Munich" in ol.get_option_at_index(ol.highlighted).prompt.plain
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        # what the choice means, said over it (RULES.md §4.2; a playtest met two lines that
        # differed by one word)
        assert app.screen.question == (
            "Into Munich, a home province of GE. Hostile: GE can no longer produce, import, "
            "build or collect factory tax there, nor rail through it. Friendly: no effect."
        )
        labels = [str(label) for label in app.screen.labels]
        assert sorted(("hostile" in t, "friendly" in t) for t in labels) == [
            (False, True),
            (True, False),
        ]
        friendly = next(i for i, t in enumerate(labels) if "friendly" in t)
        await pilot.press(*["down"] * friendly, "enter")
        await until(pilot, lambda: session.game.plies[-1].action.kind == "move_army")
        assert str(session.game.plies[-1].action) == "AH move army vienna -> munich friendly"


async def test_typed_letters_spell_a_regions_name_in_a_long_list() -> None:
    session = vienna_army()
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("home", "right")
        await pilot.pause()
        ol = app.screen.query_one("#decision-options")

        def highlighted() -> str:
            return ol.get_option_at_index(ol.highlighted).prompt.plain

        names = [t.split("→ ")[1] for _, t, d in options(app) if not d and "→ " in t]
        b_names = sorted(n for n in names if n.startswith("B"))
        assert len(b_names) >= 2, names  # Berlin, Bohemia... (one step or by rail)
        last = b_names[-1]
        await pilot.press(*last[:3].lower())  # three letters: straight to that region
        await pilot.pause()
        assert highlighted().split("→ ")[1].startswith(last[:3]), highlighted()


async def test_a_long_move_wraps_under_its_destination_not_at_the_margin() -> None:
    """At 80x24 "Fleet Bordeaux → Bay of Biscay" takes two lines: the second went back to
    the list's left edge, under "Fleet" (a newcomer's report); it goes under "Bay"."""
    from pilot import screen_lines

    g = maneuver_game()
    place(g, "FR", "fleet", "bordeaux")
    place(g, "FR", "fleet", "brest")
    start_maneuver(g, "FR")
    app = ImperialApp(session=Session(g, humans(g), None), pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await until(pilot, lambda: any("Fleet Bordeaux" in t for _, t, _ in options(app)))
        await pilot.pause()
        lines = [line.split("│")[1] for line in screen_lines(app) if line.count("│") >= 2]
        first = next(i for i, line in enumerate(lines) if line.startswith("Fleet Bordeaux"))
        column = lines[first].index("→ Bay")
        assert lines[first + 1][: column + 2].strip() == ""  # nothing at the margin
        assert lines[first + 1][column + 2 :].startswith("Biscay")
