"""The app driven by keys at 80x24: a new game with 3 humans and 1 computer, several nation
turns with an import, a bond purchase and a maneuver, save, reload, identical state."""

from __future__ import annotations

from pathlib import Path

from maneuver_helpers import new_game as maneuver_game
from maneuver_helpers import place, start_maneuver, units
from pilot import drive, hand_over, option_texts, pick, screen_lines, screen_text, settle, step
from textual.widgets import ContentSwitcher

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.session import Session
from rules import Action, Game
from rules.bots import GreedyBot


def human_choice(game: Game, done: dict[str, bool]) -> Action:
    """The plan: import once, maneuver once with the units, invest once when the card comes,
    otherwise play greedily."""
    actions = game.legal_actions()
    texts = [str(a) for a in actions]
    kind = game.awaiting.kind
    if kind == "rondel":
        has_units = game.state.units_of(game.state.turn) > 0
        wants = ["import"] if not done["import"] else []
        if done["import"] and not done["maneuver"] and has_units:
            wants += ["maneuver1", "maneuver2"]
        wants += ["investor"] if not done["buy"] else []
        for want in wants:
            for a in actions:
                if str(a).endswith(f"rondel {want}"):
                    return a
    if kind == "import" and not done["import"]:
        units = [a for a in actions if " import army " in str(a)]
        if units:
            return units[0]
    if kind == "invest":
        buys = [a for a in actions if a.kind == "buy"]
        if buys:
            return buys[0]
    if kind == "maneuver" and not done["maneuver"]:
        moves = [a for a in actions if a.kind == "move_army" and not a.status]
        if moves:
            return moves[0]
    assert texts
    return GreedyBot(1).choose(game)


async def choose_by_keys(pilot, app: ImperialApp, action: Action) -> None:
    if action.kind in ("move_army", "move_fleet"):
        # a maneuver: first the unit (by its origin), then its destination
        await pick(pilot, f"g:{action.kind}:{action.origin}")  # type: ignore[attr-defined]
        await pick(pilot, option_id(app, str(action)))
        return
    # by the option's id (the legal action's index): rondel spaces are listed clockwise
    # from the marker, not in the engine's order
    await pick(pilot, option_id(app, str(action)))


async def test_play_by_keys_save_and_reload(tmp_path: Path) -> None:
    save = tmp_path / "game.json"

    app = ImperialApp(save_path=save, seed=11, pace=0.0)
    async with drive(app, opened=True) as pilot:
        # seats: Anna human, Ben -> human, Cleo -> human, Dan stays a greedy computer
        # focus starts on seat 1's name; tab goes name -> kind -> next name ...
        await pilot.press("tab", "tab", "tab", "enter", "up", "enter")
        await pilot.press("tab", "tab", "enter", "up", "enter")
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.session.controllers == {
            "Anna": "human",
            "Ben": "human",
            "Cleo": "human",
            "Dan": "bot:greedy",
        }
        done = {"import": False, "buy": False, "maneuver": False}
        turns = set()
        for _ in range(300):
            game = app.session.game
            if game.awaiting is None:
                break
            turns.add((game.state.round, game.state.turn))
            if all(done.values()) and len(turns) >= 8:
                break
            action = human_choice(game, done)
            await choose_by_keys(pilot, app, action)
            await settle(pilot)
            applied = [str(p.action) for p in app.session.game.plies]
            if str(action) in applied:
                if action.kind == "import" and action.unit:  # type: ignore[attr-defined]
                    done["import"] = True
                if action.kind == "buy":
                    done["buy"] = True
                if action.kind == "move_army":
                    done["maneuver"] = True
                    dest = action.dest  # type: ignore[attr-defined]
                    nation = action.nation  # type: ignore[attr-defined]
                    assert units(app.session.game, nation, "army", dest) >= 1
        assert all(done.values()), done
        assert len(turns) >= 8
        # panels switch by keys
        for key, tab in (("2", "bonds"), ("3", "regions"), ("4", "log"), ("1", "rondel")):
            await pilot.press(key)
            assert app.screen.query_one("#panes", ContentSwitcher).current == tab
        # undo with confirmation goes back to a human decision
        before = len(app.session.game.plies)
        await pilot.press("ctrl+z")
        await pilot.press("y")
        await settle(pilot)
        assert len(app.session.game.plies) < before
        assert app.session.is_human(app.session.game.awaiting.player)
        await pilot.press("ctrl+s")
        await pilot.pause()
        summary = app.session.game.summary()
    reloaded = Session.load(save)
    assert reloaded.game.summary() == summary
    assert reloaded.controllers["Dan"] == "bot:greedy"

    app = ImperialApp(session=Session.load(save), pace=0.0)
    async with drive(app, opened=True) as pilot:
        assert isinstance(app.screen, GameScreen)
        assert app.session.game.summary() == summary


async def test_quit_asks_first(tmp_path: Path) -> None:
    app = ImperialApp(save_path=tmp_path / "g.json", seed=3, pace=0.0)
    async with drive(app) as pilot:
        await pilot.press("ctrl+g")
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")


async def test_hidden_cash_hand_over_and_undo_limit(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben"], seed=5)
    session = Session(
        game, {"Anna": "human", "Ben": "human"}, tmp_path / "h.json", hidden_cash=True
    )

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, opened=True) as pilot:
        await pilot.pause()
        first = game.awaiting.player
        await hand_over(pilot)
        assert session.viewer == first
        # play until the other human decides: a hand-over screen hides the first view
        for _ in range(20):
            if session.game.awaiting.player != first:
                break
            await pilot.press("enter")
            await pilot.pause()
        await hand_over(pilot)
        if (
            session.game.plies[-1].before.players[session.game.plies[-1].before.awaiting_player]
            != session.game.awaiting.player
        ):
            assert session.undo_steps() == 0


def option_id(app: ImperialApp, text: str) -> str:
    """The decision option id of the legal action written ``text``."""
    return str([str(a) for a in app.session.game.legal_actions()].index(text))


async def test_maneuver_and_battle_by_keys_with_hand_over() -> None:
    """A fleet move, a battle chance declined by the mover and taken by the other nation's
    player (after a hot-seat hand-over), an army move picked by origin then destination, and
    the explicit end of the Maneuver."""
    g = maneuver_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    place(g, "RU", "army", "odessa", 2)
    start_maneuver(g, "RU")
    session = Session(g, dict.fromkeys(g.players, "human"), None, hidden_cash=True)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await hand_over(pilot)
        panel = app.screen.query_one("DecisionPanel")
        # the maneuver menu lists units, not a hundred moves
        ol = panel.options
        ids = [ol.get_option_at_index(i).id for i in range(ol.option_count)]
        assert "g:move_fleet:eastern_mediterranean" in ids
        assert "g:move_army:odessa" in ids
        assert ol.option_count <= 8
        await pick(pilot, "g:move_fleet:eastern_mediterranean")
        await pilot.press("escape")  # back to the units, then in again
        await pilot.pause()
        assert panel._open is None
        await pick(pilot, "g:move_fleet:eastern_mediterranean")
        await pick(pilot, option_id(app, "RU move fleet eastern_mediterranean -> ionian_sea"))
        aw = session.game.awaiting
        assert (aw.kind, aw.player, aw.nation) == ("battle", "Fay", "RU")
        title = str(app.screen.query_one("#decision-title").render())
        plan = str(app.screen.query_one("#decision-plan").render())
        assert "battle in Ionian Sea" in title
        assert "RU fleet entered Ionian Sea" in plan and "AH fleet" in plan
        await pick(pilot, option_id(app, "RU does not fight"))
        # Austria's government (Anna) is asked next: hand-over first
        assert session.game.awaiting.player == "Anna"
        await hand_over(pilot)
        assert session.viewer == "Anna"
        await pick(pilot, option_id(app, "AH fleet fights RU fleet in ionian_sea"))
        assert units(session.game, "AH", "fleet", "ionian_sea") == 0
        assert units(session.game, "RU", "fleet", "ionian_sea") == 0
        await hand_over(pilot)  # back to Fay
        await pick(pilot, "g:move_army:odessa")
        await pick(pilot, option_id(app, "RU move army odessa -> romania"))
        assert units(session.game, "RU", "army", "romania") == 1
        await pick(pilot, option_id(app, "RU end maneuver"))
        assert any(str(p.action) == "RU end maneuver" for p in session.game.plies)


def panel_texts(app: ImperialApp) -> dict[str, str]:
    """The plain text of the app's own panels (not Textual's tabs, scrollbars or footer): what
    each painted, or, for a panel never on screen yet (a tab not opened, the other layout's
    copy: they are painted when first shown), what it shows when it is."""
    from io import StringIO

    from rich.console import Console

    from imperial_tui.app.widgets.base import Panel
    from imperial_tui.app.widgets.log import LogPanel

    board = app.game_screen() or app.screen  # the board, also under a dialog

    out: dict[str, str] = {}
    for panel in board.query(Panel):
        console = Console(file=StringIO(), width=80, color_system=None)
        never_painted = type(panel._last_key) is object  # (its first key, a sentinel)
        key = panel.key(app.session) if never_painted else panel._last_key
        console.print(panel.render_key(key))
        out[panel.id or type(panel).__name__] = console.file.getvalue()  # type: ignore[attr-defined]
    ol = board.query_one("#decision-options")
    out["options"] = "\n".join(
        ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)
    )
    for wid in ("#decision-title", "#decision-plan", "#status", "#logtail"):
        out[wid] = str(board.query_one(wid).render())
    log = board.query_one("#log-panel", LogPanel)
    out["log"] = "\n".join(
        LogPanel.line(i, e, log.ascii_only).plain
        for i, e in enumerate(app.session.game.events(), 1)
    )
    return out


async def test_ascii_mode_and_no_color(monkeypatch, tmp_path: Path) -> None:
    """IMPERIAL_ASCII=1 (what --ascii sets): no character outside ASCII in the app's own
    panels, mid-game and in a maneuver; NO_COLOR: Textual drops colours, the nation codes
    carry the meaning."""
    monkeypatch.setenv("IMPERIAL_ASCII", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    bot = GreedyBot(2)
    for _ in range(45):
        game.apply(bot.choose(game))
    session = Session(game, dict.fromkeys(game.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, opened=True):
        assert app.ascii_only and app.no_color
        texts = panel_texts(app)
        for name, text in texts.items():
            bad = sorted({c for c in text if ord(c) > 127})
            assert not bad, (name, bad, text[:400])
        for code in ("AH", "IT", "FR", "GB", "GE", "RU"):
            assert code in texts["nations"]
        assert "HOME" in texts["regions-panel"]


async def test_f1_opens_the_page_of_the_focused_decision() -> None:
    g = maneuver_game()
    place(g, "RU", "army", "odessa")
    start_maneuver(g, "RU")
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        assert app.screen.topic == "maneuver"
        body = str(app.screen.query_one("#help-text").render())
        assert "Maneuver" in body and "ctrl+z" not in body  # the keys: a topic of their own
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"


def rondel_choice_in_round_3() -> tuple[Game, Session]:
    """A three-player game played greedily until a rondel choice with six or more spaces."""
    g = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    bot = GreedyBot(1)
    while g.state.round < 3 or g.awaiting.kind != "rondel" or len(g.legal_actions()) < 6:
        g.apply(bot.choose(g))
    session = Session(g, dict.fromkeys(g.players, "human"), None)
    return g, session


async def test_rondel_options_clockwise_with_the_cash_they_cost() -> None:
    """The nearest space comes first; the player's cash is shown (moves beyond three spaces
    cost it); a long preview wraps under itself and every line of it is drawn."""
    from rules.preview import rondel_preview

    g, session = rondel_choice_in_round_3()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True):
        ol = app.screen.query_one("#decision-options")
        actions = g.legal_actions()
        distance = {p.space: p.distance for p in rondel_preview(g.state)}
        shown = [
            distance[actions[int(ol.get_option_at_index(i).id)].space]
            for i in range(ol.option_count)
        ]
        assert shown == sorted(shown)
        aw = g.awaiting
        plan = str(app.screen.query_one("#decision-plan").render())
        assert f"{aw.player}: {g.state.cash[g.players.index(aw.player)]}M cash" in plan
        style = ol.get_visual_style("option-list--option")
        for i in range(ol.option_count):
            option = ol.get_option_at_index(i)
            drawn = len(ol._get_option_render(option, style))
            assert drawn == ol._line_cache.heights[i], option.prompt.plain


async def test_labels_in_words_and_the_plan_is_the_deciding_players() -> None:
    """Production and import name the region and the unit; in the experienced variant's
    bond round the plan line shows the player's cash, not the previous player's bond."""
    from rules import RuleSet

    g = Game.new(["Anna", "Ben", "Cleo"], rules=RuleSet.preset("2010", "experienced"), seed=3)
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        bot = GreedyBot(1)
        while g.awaiting.kind == "bond_choice" and not any(
            p.before.awaiting_kind == "bond_choice" for p in g.plies
        ):
            await step(pilot, bot.choose(g))
        if g.awaiting.kind == "bond_choice":
            plan = str(app.screen.query_one("#decision-plan").render())
            assert "so far" not in plan and f"{g.awaiting.player}:" in plan
            assert "buy no bond (pass)" in option_texts(app)
        while g.awaiting.kind != "produce":
            await step(pilot, bot.choose(g))
        texts = option_texts(app)
        assert texts[0].startswith("all: ") and "army" in texts[0]
        assert any(t.startswith(("army in ", "fleet in ")) for t in texts)
        assert texts[-1].startswith("stop here")


async def test_the_scores_can_be_shown_again_from_the_board() -> None:
    g = Game.new(["Anna", "Ben"], seed=4)
    from rules.bots import play_out

    play_out(g, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        assert type(app.screen).__name__ == "GameOverScreen"
        # it says which nation ended the game, and when (RULES.md §7)
        ender = next(n for n, power in enumerate(g.state.power) if power >= 25)
        name = g.state.board.nations[ender].name
        said = f"{name} reached 25 power points in round {g.state.round}: the game ended."
        assert said in " ".join(screen_text(app).split())
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert option_texts(app) == ["show the final scores"]
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameOverScreen"
        # the standings after the end are the final ones, not "if the game ended now"
        await pilot.press("escape", "v")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "Standings (final): victory points" in text
        assert f"Final: {g.result().winners[0]} won" in text
        assert "if the game ended now" not in text.lower()


# -- the 80x24 review: what is on the screen, by keys ------------------------------------------


def widget_lines(app: ImperialApp, widget) -> list[str]:
    """The screen lines inside a widget's visible region (without its scrollbar)."""
    r = widget.scrollable_content_region
    return [line[r.x : r.right] for line in screen_lines(app)[r.y : r.bottom]]


async def test_new_game_explains_edition_and_variant_and_hidden_cash_without_colour(
    monkeypatch,
) -> None:
    """Each edition and variant has its one-line explanation (changing with the choice); the
    rule summaries wrap under their own text; with NO_COLOR the hidden-cash switch says on or
    off in words."""
    from imperial_tui.app.screens.new_game import EDITION_TEXT, VARIANT_TEXT

    monkeypatch.setenv("NO_COLOR", "1")

    app = ImperialApp(seed=1, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        text = "\n".join(screen_lines(app))
        assert EDITION_TEXT["first"] in text and VARIANT_TEXT["standard"] in text
        assert "hidden cash: off" in text
        assert all(len(t) <= 66 for t in (*EDITION_TEXT.values(), *VARIANT_TEXT.values()))
        # seat names and kinds (12 fields), all computers, game, edition, variant, seed, hidden
        # cash
        await pilot.press(*["tab"] * 14, "enter", "down", "enter")
        await pilot.press("tab", "enter", "down", "down", "enter")
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert EDITION_TEXT["2010"] in text and VARIANT_TEXT["no-investor-card"] in text
        assert app.screen.rules.variant == "no-investor-card"
        await pilot.press("tab", "tab", "space")
        await pilot.pause()
        hidden = app.screen.query_one("#hidden")
        assert hidden.value
        assert "hidden cash: on" in "\n".join(screen_lines(app))
        ol = app.screen.query_one("#options")
        style = ol.get_visual_style("option-list--option")
        wrapped = 0
        for i in range(ol.option_count):
            drawn = [s.text for s in ol._get_option_render(ol.get_option_at_index(i), style)]
            assert all(line.startswith("  ") for line in drawn[1:]), drawn
            wrapped += len(drawn) > 2
        assert wrapped  # some summary is longer than one line at 80 columns


def play_until(game: Game, kinds: tuple[str, ...], limit: int = 400) -> None:
    bot = GreedyBot(3)
    for _ in range(limit):
        if game.awaiting is None or game.awaiting.kind in kinds:
            return
        game.apply(bot.choose(game))
    raise AssertionError(f"no {kinds} decision")


async def test_rondel_panel_previews_only_while_the_nation_chooses() -> None:
    """While the acting nation imports, produces or maneuvers, the rondel panel says where it
    is and what it does, keeps the markers, and shows no space preview."""
    g = Game.new(["Anna", "Ben", "Cleo"], seed=7)
    play_until(g, ("rondel",))
    session = Session(g, dict.fromkeys(g.players, "human"), None)
    from rules.actions import NATION_CODES, RONDEL_SPACES
    from rules.rondel import SPACE_NAMES

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        panel = app.screen.query_one("#rondel-panel")
        text = panel_texts(app)["rondel-panel"]
        nation = g.awaiting.nation
        assert f"{nation} to move" in text and "cost" in text
        seen = set()
        bot = GreedyBot(4)
        for _ in range(200):
            aw = g.awaiting
            if aw.kind in {"import", "produce", "maneuver"} - seen:
                app.after_change()
                await pilot.pause()
                seen.add(aw.kind)
                acting = NATION_CODES[g.state.turn]
                text = panel_texts(app)["rondel-panel"]
                space = SPACE_NAMES[RONDEL_SPACES[g.state.rondel[g.state.turn]]]
                assert text.startswith(f"{acting} is on {space}: "), text
                assert "cost" not in text and "free" not in text and "to move" not in text
                assert "produces" not in text and "pays" not in text
                assert any(line.startswith(space) for line in text.splitlines())
                assert panel is app.game_screen().query_one("#rondel-panel")
            if len(seen) == 3:
                break
            session.apply(bot.choose(g))  # the panels repaint at the next check
        assert seen == {"import", "produce", "maneuver"}, seen


async def test_bonds_panel_fits_80_columns_with_six_long_names() -> None:
    """Six players with ten-letter names and many bonds: each line of the bonds panel fits,
    nothing is cut, and a player's credit is never split over two lines."""
    names = ["Alexandria", "Bartholome", "Cornelius", "Dorotheaaa", "Evangeline", "Fitzgerald"]
    g = Game.new(names, seed=9)
    bot = GreedyBot(5)
    for _ in range(260):
        if g.awaiting is None:
            break
        g.apply(bot.choose(g))
    session = Session(g, dict.fromkeys(g.players, "human"), None)
    from rules.actions import NATION_CODES

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("2")
        await pilot.pause()
        panel = app.screen.query_one("#bonds-panel")
        width = panel.content_region.width
        scroll = panel.parent
        seen: list[str] = []
        for _ in range(5):  # page through the panel if it is taller than the screen
            seen += widget_lines(app, scroll)
            scroll.scroll_page_down(animate=False)
            await pilot.pause()
        assert seen
        text = "\n".join(seen)
        assert "…" not in text
        assert all(len(line.rstrip()) <= width for line in seen), (width, text)
        s = g.state
        for n, code in enumerate(NATION_CODES):
            lines = [line for line in seen if line.startswith(code + " ")]
            assert lines, (code, text)
            for p, name in enumerate(names):
                c = s.credit(p, n)
                if c:
                    star = "*" if s.government[n] == p else ""
                    assert f"{name} {c}{star}" in text, (code, name, text)
        for name in names:
            assert any(line.startswith(name) for line in seen), name


async def test_wrapped_decision_options_never_lose_a_word_under_a_scrollbar() -> None:
    """Rondel options wrap their previews at the decision panel's width and the list needs a
    scrollbar at 80x24: moving through the list by keys shows every word of every option."""
    _, session = rondel_choice_in_round_3()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        ol = app.screen.query_one("#decision-options")
        style = ol.get_visual_style("option-list--option")
        heights = [
            len(ol._get_option_render(ol.get_option_at_index(i), style))
            for i in range(ol.option_count)
        ]
        assert max(heights) >= 2  # a preview wraps
        assert sum(heights) > ol.scrollable_content_region.height  # the list scrolls
        assert ol.show_vertical_scrollbar
        seen: list[str] = []
        for _ in range(ol.option_count):
            seen += widget_lines(app, ol)
            await pilot.press("down")
            await pilot.pause()  # the list scrolled: its lines are drawn a frame later
        seen += widget_lines(app, ol)
        text = "\n".join(seen)
        assert "…" not in text
        words = set(text.split())
        for i in range(ol.option_count):
            prompt = ol.get_option_at_index(i).prompt
            missing = [w for w in prompt.plain.split() if w not in words]
            assert not missing, (prompt.plain, missing, text)


async def test_donation_to_a_short_treasury_by_keys() -> None:
    """A treasury too short to pay its bondholders' interest: the decision list offers a
    donation; choosing it asks the amount, and the money moves from the player to the
    treasury, the same decision still waiting."""
    from rules.actions import NATION_CODES
    from rules.rondel import interest_shortfall

    g = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    bot = GreedyBot(1)
    for _ in range(400):
        aw = g.awaiting
        if aw.kind == "rondel" and g.state.round >= 2:
            n = NATION_CODES.index(aw.nation)
            g.state.treasury[n] = 0
            if interest_shortfall(g.state, n) > 0:
                break
        g.apply(bot.choose(g))
    s = g.state
    aw = g.awaiting
    n = NATION_CODES.index(aw.nation)
    p = g.players.index(aw.player)
    s.cash[p] = max(s.cash[p], 5)
    cash = s.cash[p]
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        assert f"donate cash to {aw.nation}'s treasury..." in option_texts(app)
        await pick(pilot, "donate")
        assert type(app.screen).__name__ == "PromptScreen"
        await pilot.press("3", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        st = session.game.state
        assert (st.treasury[n], st.cash[p]) == (3, cash - 3)
        assert str(session.game.plies[-1].action) == f"{aw.player} donates 3 to {aw.nation}"
        assert session.game.awaiting == aw
        # the d key asks too; escape cancels without a change
        await pilot.press("d")
        await pilot.pause()
        assert type(app.screen).__name__ == "PromptScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert session.game.state.cash[p] == cash - 3


async def test_no_investor_card_variant_by_keys(tmp_path: Path) -> None:
    """The no-investor-card variant chosen on the new-game screen: after a nation's turn its
    investors are asked, and a bond bought by keys is applied."""
    from rules.actions import NATION_CODES

    app = ImperialApp(save_path=tmp_path / "n.json", seed=4, pace=0.0)
    async with drive(app, opened=True) as pilot:
        await pilot.press(*["tab"] * 15, "enter", "down", "down", "enter")
        await pilot.press("tab", "tab", "tab", "tab", "ctrl+g")
        await settle(pilot)
        game = app.session.game
        assert game.rules.variant == "no-investor-card"
        assert game.state.investor_card == -1
        bought = False
        for _ in range(60):
            aw = game.awaiting
            if aw.kind == "invest":
                # the nation that just moved (or, in the free round, any nation)
                assert aw.nation in (NATION_CODES[game.state.turn], None)
                title = str(app.screen.query_one("#decision-title").render())
                assert aw.player in title and "invest" in title
                buys = [a for a in game.legal_actions() if a.kind == "buy"]
                if buys:
                    await pick(pilot, option_id(app, str(buys[0])))
                    await settle(pilot)
                    assert str(game.plies[-1].action) == str(buys[0]) or any(
                        str(p.action) == str(buys[0]) for p in game.plies
                    )
                    bought = True
                    break
            if aw.kind == "maneuver":  # by keys a maneuver needs a unit, then a target
                app.apply_human(game.legal_actions()[-1])  # end the maneuver
            else:
                await pilot.press("home", "enter")
            await settle(pilot)
        assert bought
