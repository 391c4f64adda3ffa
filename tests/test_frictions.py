"""The newcomer's list of frictions (issue #9, fixes 1-18 and the rules pages), each by the
keys a player presses, at 80x24 unless the fix is about 120x40."""

from __future__ import annotations

import asyncio
import json
from io import StringIO
from pathlib import Path

import pytest
from helpers import finn_governs_nothing, give_bond, give_turn, new_game, set_cash, set_treasury
from maneuver_helpers import new_game as maneuver_game
from maneuver_helpers import place, start_maneuver
from rich.console import Console
from textual.color import Color
from typer.testing import CliRunner

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.session import Session
from imperial_tui.render.rules_text import PAGE_OPTIONS, page
from rules import Game
from rules.actions import NATION_CODES
from rules.bots import GreedyBot
from rules.ruleset import OPTIONS


def screen_text(app: ImperialApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def options(app: ImperialApp) -> list[tuple[str | None, str, bool]]:
    ol = (app.game_screen() or app.screen).query_one("#decision-options")
    out = []
    for i in range(ol.option_count):
        o = ol.get_option_at_index(i)
        out.append((o.id, o.prompt.plain, o.disabled))
    return out


async def opened(pilot, app: ImperialApp) -> None:
    """The app is up, with any "since your last turn" greeting closed."""
    await pilot.pause()
    if type(app.screen).__name__ == "RecapScreen":
        await pilot.press("escape")
        await pilot.pause()


def humans(game: Game) -> dict[str, str]:
    return dict.fromkeys(game.players, "human")


# -- 1: ctrl+q and ctrl+c on the new-game screen ----------------------------------------------


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
def test_1_quit_keys_ask_on_the_new_game_screen_whatever_has_the_focus(key: str) -> None:
    async def run() -> None:
        app = ImperialApp(seed=1, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            # a name field, a dropdown, an open dropdown, the rule options list
            for moves in ([], ["tab"], ["enter"], ["escape", *["tab"] * 16]):
                await pilot.press(*moves)
                await pilot.pause()
                await pilot.press(key)
                await pilot.pause()
                assert type(app.screen).__name__ == "ConfirmScreen", (moves, app.focused)
                await pilot.press("n")
                await pilot.pause()
            await pilot.press(key, "y")
            await pilot.pause()
        assert app.return_code == 0

    asyncio.run(run())


# -- 2 and 17: the Maneuver's unit list and a unit's moves ---------------------------------------


def fleet_and_army() -> Session:
    g = maneuver_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "AH", "army", "vienna")
    start_maneuver(g, "AH")
    return Session(g, humans(g), None)


def test_2_moving_an_army_first_warns_that_fleets_lose_their_move() -> None:
    session = fleet_and_army()

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
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

    asyncio.run(run())


def test_17_an_armys_moves_are_grouped_by_route_sorted_and_a_letter_jumps() -> None:
    session = fleet_and_army()

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
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

    asyncio.run(run())


# -- 3: log lines written while the log panel is hidden --------------------------------------


def test_3_log_lines_written_while_hidden_are_wrapped_at_the_panels_width() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "bot:greedy", "Dan": "bot:greedy"}
    session = Session(game, controllers, None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            await pilot.press("4", "1")  # the log shown once, then hidden
            await pilot.pause()
            bot = GreedyBot(5)
            for _ in range(12):  # the computer players move while the log is hidden
                for _ in range(40):
                    aw = game.awaiting
                    if aw is None or (aw.player == "Anna" and not app._bot_busy):
                        break
                    await pilot.pause()
                if game.awaiting is None:
                    break
                app.apply_human(bot.choose(game))
                await opened(pilot, app)
            await pilot.press("4")  # (over a recap: it closes and passes the key on)
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, GameScreen) and app.screen.shown_panel() == "log":
                    break
            log = app.screen.query_one("#log-panel")
            width = log.scrollable_content_region.width
            shown = [line.text.rstrip() for line in log.lines]
            assert len(shown) > 40
            log.show(session, force=True)  # written again now, at the real width
            assert shown == [line.text.rstrip() for line in log.lines]
            assert max(len(line) for line in shown) > width - 8

    asyncio.run(run())


# -- 4: NO_COLOR --------------------------------------------------------------------------------


def nation_cells(app: ImperialApp) -> dict[str, list]:
    """The styles the nation codes are drawn with on the screen."""
    out: dict[str, list] = {}
    for strip in app.screen._compositor.render_strips():
        for seg in strip:
            if seg.text.strip() in NATION_CODES and seg.style is not None:
                out.setdefault(seg.text.strip(), []).append(seg.style)
    return out


def test_4_without_colour_every_nation_is_bold_and_bright(monkeypatch) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    for _ in range(30):
        game.apply(GreedyBot(2).choose(game))

    async def cells(no_color: bool) -> dict[str, list]:
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        else:
            monkeypatch.delenv("NO_COLOR", raising=False)
        app = ImperialApp(session=Session(game.copy(), humans(game), None), pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            assert app.no_color is no_color
            return nation_cells(app)

    def grey(style) -> float:
        return Color.from_rich_color(style.color).monochrome.brightness

    coloured = asyncio.run(cells(False))
    assert min(grey(s) for s in coloured["GB"]) < 0.4  # red turns into a dark grey
    plain = asyncio.run(cells(True))
    for code in NATION_CODES:
        assert plain[code], code
        for style in plain[code]:
            assert style.bold and grey(style) >= 0.6, (code, style)


# -- 5: ASCII mode ------------------------------------------------------------------------------


def non_ascii(app: ImperialApp) -> str:
    return "".join(sorted({c for c in screen_text(app) if ord(c) > 127}))


def test_5_ascii_mode_draws_only_ascii_on_every_screen(monkeypatch, tmp_path: Path) -> None:
    """Textual's own widgets too: tabs, scrollbars, the footer, frames, dropdowns, the
    switch, the palette, toasts, and the screens of this issue."""
    monkeypatch.setenv("IMPERIAL_ASCII", "1")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    found: dict[str, str] = {}

    async def new_game_screens() -> None:
        app = ImperialApp(seed=1, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            found["new game"] = non_ascii(app)
            await pilot.press("tab", "enter")
            await pilot.pause()
            found["dropdown"] = non_ascii(app)
            await pilot.press("escape", "ctrl+p")
            await pilot.pause(0.2)
            found["palette"] = non_ascii(app)
            await pilot.press("escape", "f1")
            await pilot.pause()
            found["help"] = non_ascii(app)
            await pilot.press("escape", "ctrl+q")
            await pilot.pause()
            found["question"] = non_ascii(app)

    async def game_screens(size: tuple[int, int]) -> None:
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
        for _ in range(45):
            game.apply(GreedyBot(2).choose(game))
        session = Session(game, humans(game), tmp_path / f"a{size[0]}.json", hidden_cash=True)
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            found[f"hand-over {size}"] = non_ascii(app)
            await pilot.press("enter")
            await pilot.pause()
            found[f"recap {size}"] = non_ascii(app)
            await pilot.press("escape")
            app.notify("a toast")
            for key in "12345":  # 5: the map, its info line too
                await pilot.press(key)
                await pilot.pause()
                found[f"game {size} {key}"] = non_ascii(app)
            for keys, name in ((["v"], "standings"), (["h"], "history"), (["b"], "branch")):
                await pilot.press(*keys)
                await pilot.pause()
                found[f"{name} {size}"] = non_ascii(app)
            await pilot.press("escape", "escape", "ctrl+o")
            await pilot.pause()
            found[f"load {size}"] = non_ascii(app)

    async def score_screen() -> None:
        game = Game.new(["Anna", "Ben"], seed=4)
        from rules.bots import play_out

        play_out(game, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
        app = ImperialApp(session=Session(game, humans(game), None), pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            found["score"] = non_ascii(app)

    asyncio.run(new_game_screens())
    asyncio.run(game_screens((80, 24)))
    asyncio.run(game_screens((120, 40)))
    asyncio.run(score_screen())
    assert not {k: v for k, v in found.items() if v}, found


# -- 6 and 9: the previews and hints in the decision list ---------------------------------------


def test_6_investor_option_shows_what_a_short_treasury_really_pays() -> None:
    g = new_game()
    set_treasury(g, "AH", 2)
    give_turn(g, "AH", None)
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            investor = next(text for _, text, _ in options(app) if text.startswith("Investor"))
            assert "Cleo 2, Anna 0 of 4" in " ".join(investor.split()), investor

    asyncio.run(run())


def test_9_bond_hint_in_the_list_names_the_engines_choice_among_tied_challengers() -> None:
    g = new_game()
    finn_governs_nothing(g)
    give_bond(g, "Dan", "AH", 16)
    give_bond(g, "Dan", "AH", 2)
    give_bond(g, "Finn", "AH", 6)
    set_cash(g, "Finn", 12)
    give_turn(g, "AH", None)
    g.apply("AH rondel investor")
    g.apply("Ben passes")
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            twelve = next(text for _, text, _ in options(app) if text.startswith("AH 12M"))
            assert "→ Dan governs AH" in twelve and "Finn governs" not in twelve

    asyncio.run(run())


# -- 7: focus and scrolling ------------------------------------------------------------------


async def focus_settles(pilot, app, wanted: str) -> None:  # type: ignore[no-untyped-def]
    """The focus moves after the panel's repaint (a frame later, more on a busy machine)."""
    for _ in range(20):
        await pilot.pause()
        if app.focused is not None and app.focused.id == wanted:
            break
    assert app.focused is not None and app.focused.id == wanted, app.focused


def test_7_focus_is_visible_and_panels_scroll_directly() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    for _ in range(45):
        game.apply(GreedyBot(2).choose(game))

    async def run(size: tuple[int, int]) -> None:
        session = Session(game.copy(), humans(game), None)
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=size) as pilot:
            await opened(pilot, app)
            status = app.screen.query_one("#status")
            assert app.focused.id == "decision-options"
            if size == (80, 24):
                await pilot.press("tab")  # past the tab strip, into the panel on show
                await focus_settles(pilot, app, "rondel-scroll")
                assert "scrolling Rondel" in str(status.render())
                await pilot.press("escape")
                await focus_settles(pilot, app, "decision-options")
                await pilot.press("3")  # shows the regions; the decision keeps the keys
                await focus_settles(pilot, app, "decision-options")
                await pilot.press("3")  # again: now the keys go to the region list
                await focus_settles(pilot, app, "regions-panel")
                assert "scrolling Regions" in str(status.render())
                scroll = app.screen.query_one("#regions-scroll")
                await pilot.press(*["down"] * 30)
                await pilot.pause()
                assert scroll.scroll_y > 0
                await pilot.press("4")  # while scrolling, another panel takes the keys
                await focus_settles(pilot, app, "log-panel")
            else:
                await pilot.press("2")  # all panels on show: the key gives it the keys
                for _ in range(20):  # the focus moves after the panel's repaint
                    await pilot.pause()
                    if str(app.focused.border_title) == "▶ Bonds":
                        break
                assert app.focused.id == "bonds-wide-scroll"
                assert str(app.focused.border_title) == "▶ Bonds"
                assert "scrolling Bonds" in str(status.render())
                await pilot.press("escape")
                await pilot.pause()
                assert app.focused.id == "decision-options"
                assert str(app.screen.query_one("#bonds-wide-scroll").border_title) == "Bonds"

    asyncio.run(run((80, 24)))
    asyncio.run(run((120, 40)))


# -- 8: plain words, never the notation -------------------------------------------------------


def test_8_unit_list_and_undo_question_use_words_not_notation() -> None:
    g = maneuver_game()
    place(g, "AH", "army", "west_balkan")
    place(g, "RU", "army", "west_balkan")
    place(g, "AH", "army", "venice")  # hostile in Italy: may turn friendly
    start_maneuver(g, "AH")
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
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

    asyncio.run(run())


# -- 10: no toast over the first decision --------------------------------------------------------


def test_10_the_save_path_is_on_the_log_line_not_a_toast(tmp_path: Path) -> None:
    async def run() -> None:
        app = ImperialApp(save_path=tmp_path / "s.json", seed=3, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+g")
            await pilot.pause()
            assert not [n for n in app._notifications if "saved" in n.message]
            tail = str(app.game_screen().query_one("#logtail").render())
            assert "saved after every move to" in tail and "s.json" in tail

    asyncio.run(run())


# -- 11: the help browser ----------------------------------------------------------------------


def test_11_help_topics_open_at_their_top_without_the_keys_and_f1_on_scores() -> None:
    g = maneuver_game()
    place(g, "RU", "army", "odessa")
    start_maneuver(g, "RU")
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            await pilot.press("f1")
            await pilot.pause()
            body = str(app.screen.query_one("#help-text").render())
            assert "ctrl+z" not in body  # the keys are a topic of their own
            assert "flag_transfer_on_departure" in body and "[true]" in body
            await pilot.press("pagedown", "pagedown")
            await pilot.pause()
            scroll = app.screen.query_one("#help-body")
            assert scroll.scroll_y > 0
            await pilot.press("down")  # another topic: from its first line
            await pilot.pause()
            assert scroll.scroll_y == 0

    asyncio.run(run())
    from rules.bots import play_out

    over = Game.new(["Anna", "Ben"], seed=4)
    play_out(over, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})

    async def scores() -> None:
        app = ImperialApp(session=Session(over, humans(over), None), pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "GameOverScreen"
            await pilot.press("f1")
            await pilot.pause()
            assert app.screen.topic == "scoring"

    asyncio.run(scores())
    from imperial_tui.cli import app as cli

    result = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "100"}).invoke(cli, ["rules", "--help"])
    assert all(topic in result.output for topic in ("maneuver", "investor", "scoring", "keys"))


# -- 12: the tax column ------------------------------------------------------------------------


def test_12_the_tax_column_is_explained_in_show_and_in_the_help(tmp_path: Path) -> None:
    from imperial_tui.cli import app as cli

    runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80"})
    save = tmp_path / "t.json"
    runner.invoke(cli, ["new", "-p", "Anna,Ben,Cleo", "--seed", "1", "--save", str(save)])
    shown = runner.invoke(cli, ["show", str(save)]).output
    assert "tax chart" in shown and "5M or less" in " ".join(shown.split())
    keys = page("keys")[1]
    assert "tax the nation's space" in keys


# -- 13: undo after a hot-seat hand-over --------------------------------------------------------


def test_13_the_previous_player_undoes_on_the_hand_over_and_gets_the_true_reason(
    tmp_path: Path,
) -> None:
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    session = Session(g, humans(g), tmp_path / "u.json", hidden_cash=True)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # Anna takes the keyboard
            await opened(pilot, app)
            app.apply_human(g.parse("AH rondel investor"))
            await pilot.pause()
            assert type(app.screen).__name__ == "HandoverScreen"
            assert "ctrl+z takes back your last decision" in screen_text(app)
            await pilot.press("ctrl+z")  # Anna, before passing the keyboard
            await pilot.pause()
            assert not g.plies and g.awaiting.player == "Anna"
            assert isinstance(app.screen, GameScreen)
            app.apply_human(g.parse("AH rondel investor"))
            await pilot.pause()
            await pilot.press("enter")  # Ben now
            await opened(pilot, app)
            await pilot.press("ctrl+z")
            await pilot.pause()
            said = " ".join(n.message for n in app._notifications)
            assert "another player decided since" not in said
            assert "keyboard is Ben's" in said and len(g.plies) == 1

    asyncio.run(run())


# -- 15: new game and load ----------------------------------------------------------------------


def test_15_new_game_keeps_the_seats_and_load_lists_saved_games(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "imperial"
    folder.mkdir()
    older = Game.new(["Xena", "Yuri"], seed=8)
    Session(older, {"Xena": "human", "Yuri": "bot:random"}, folder / "old.json").save()
    game = Game.new(["Zed", "Yan", "Wu"], seed=9)
    controllers = {"Zed": "human", "Yan": "bot:greedy", "Wu": "bot:random"}
    session = Session(game, controllers, folder / "now.json")
    session.save()

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert type(app.screen).__name__ == "LoadScreen"
            first = app.screen.query_one("#load-list").get_option_at_index(0).prompt.plain
            assert first.startswith("Continue last game") and "Xena, Yuri" in first
            await pilot.press("enter")
            await opened(pilot, app)
            assert app.session.path == folder / "old.json"
            await pilot.press("ctrl+n", "y")
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            names = [app.screen.query_one(f"#seat-name-{i}").value for i in range(3)]
            kinds = [app.screen.query_one(f"#seat-kind-{i}").value for i in range(3)]
            assert names[:2] == ["Xena", "Yuri"]  # the game on show's seats
            assert kinds[:3] == ["human", "bot:random", "off"]

    asyncio.run(run())


# -- 16: Production in one choice ---------------------------------------------------------------


def test_16_production_produces_everywhere_with_one_enter_and_spaces_are_numbered() -> None:
    g = new_game()
    give_turn(g, "AH", None)  # the first placement: every space free; Vienna and Budapest
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            listed = options(app)
            labels = [text.split()[0] for _, text, _ in listed]
            assert "Production1" in labels and "Production2" in labels, labels
            ids = [oid for oid, _, disabled in listed if not disabled]
            index = next(i for i, (_, t, _) in enumerate(listed) if t.startswith("Production1"))
            await pilot.press("home", *["down"] * ids.index(listed[index][0]), "enter")
            await pilot.pause()
            done = [str(p.action) for p in g.plies]
            assert done[-2:] == ["AH rondel production1", "AH produce all"], done

    asyncio.run(run())
    g2 = new_game()
    give_turn(g2, "AH", None)
    session2 = Session(g2, humans(g2), None)

    async def pick_factories() -> None:
        app = ImperialApp(session=session2, pace=0.0, ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            listed = options(app)
            ids = [oid for oid, _, disabled in listed if not disabled]
            index = next(i for i, (_, t, _) in enumerate(listed) if t.startswith("Production1"))
            await pilot.press("home", *["down"] * ids.index(listed[index][0]), "right")
            await pilot.pause()
            assert g2.awaiting.kind == "production"  # the factories, one by one
            assert [str(p.action) for p in g2.plies] == ["AH rondel production1"]

    asyncio.run(pick_factories())


# -- 18: the region filter ---------------------------------------------------------------------


def test_18_a_nonsense_region_filter_is_refused_and_names_are_understood() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)

    async def run() -> None:
        app = ImperialApp(session=Session(game, humans(game), None), pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot, app)
            panel = app.screen.query_one("#regions-panel")
            for typed, expected in (("germany", "GE"), ("xx", "GE"), ("ru", "RU"), ("", None)):
                await pilot.press("f")
                await pilot.pause()
                await pilot.press(*typed, "enter")
                await pilot.pause()
                assert panel.nation_filter == expected, typed
            assert any("no nation 'xx'" in n.message for n in app._notifications)
            await pilot.press("f", "enter")
            await pilot.pause()
            assert panel.nation_filter is None

    asyncio.run(run())


# -- the rules pages say what the options do -----------------------------------------------------


def test_rules_pages_list_every_option_with_its_defaults() -> None:
    listed = {name for names in PAGE_OPTIONS.values() for name in names}
    assert listed == set(OPTIONS)
    maneuver = page("maneuver")[1]
    assert "flag_transfer_on_departure: first true / 2010 true" in maneuver
    assert "flag passes" in maneuver or "replaces the old one" in maneuver
    with_game = page("maneuver", Game.new(["Anna", "Ben"], seed=1).rules)[1]
    assert "flag_transfer_on_departure: first true / 2010 true [true]" in with_game


def test_rules_text_json_is_unchanged_by_the_pages() -> None:
    """The pages are text for people; the option list for tools stays the JSON of
    `imperial options --json`."""
    from imperial_tui.cli import app as cli

    out = CliRunner().invoke(cli, ["options", "--json"]).output
    assert {row["name"] for row in json.loads(out)} == set(OPTIONS)
    assert Console(file=StringIO())  # (Rich is what prints the pages)
