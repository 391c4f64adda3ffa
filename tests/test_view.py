"""The per-player view (``Game.view_for``, ``rules.view``): with hidden cash, what a player
sees holds every other player's cash as the tally of the public moves, never the figure in
the position, in the position and in every position kept for undo; so nothing derived from
another player's real cash reaches a screen or a computer player's choice.

The checks change another player's real cash by hand (no public move does that: every payment
in Imperial is public) and compare everything a viewer is shown, and what a bot chooses, before
and after.
"""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from textual._context import active_app

from imperial_tui.app import ImperialApp
from imperial_tui.app.widgets.action_labels import money_text, treasury_short
from imperial_tui.app.widgets.bonds import BondsPanel
from imperial_tui.app.widgets.nations import NationsPanel
from imperial_tui.app.widgets.regions import RegionsPanel
from imperial_tui.app.widgets.rondel import RondelPanel
from imperial_tui.model.follow import Following
from imperial_tui.model.session import Session
from imperial_tui.render.standings import rounds_table, standings_table
from rules import Game, RuleSet
from rules.bots import GreedyBot, make_bot
from rules.history import game_at

NAMES = ("Anna", "Ben", "Cleo")


def played(seed: int, actions: int) -> Game:
    game = Game.new(list(NAMES), RuleSet.preset("2010"), seed=seed)
    bot = GreedyBot(seed)
    while game.awaiting is not None and len(game.plies) < actions:
        game.apply(bot.choose(game))
    return game


def shown(session: Session, viewer: str) -> list[object]:
    """Everything the app would show ``viewer``: the panels' figures (their repaint keys are
    exactly what they draw), the decision's money lines, the recap, the standings."""
    active_app.set(ImperialApp(pace=0.0))  # the panels ask their app for its style
    out: list[object] = [
        panel.key(session) for panel in (NationsPanel(), BondsPanel(), RondelPanel())
    ]
    out.append(RegionsPanel().key(session))
    out += [money_text(session), treasury_short(session)]
    out.append(Following().since(session, viewer).lines)
    hidden = {p for p in session.view.players if not session.shows_cash_of(p)}
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(standings_table(session.view.provisional_result(), hidden))
    console.print(rounds_table(session.view, hidden))
    out.append(console.file.getvalue())  # type: ignore[attr-defined]
    return out


def test_a_view_holds_the_tally_of_the_public_moves() -> None:
    """What an attentive player can know: the tally follows every public payment, an undo,
    and not a change no move made."""
    game = Game.new(list(NAMES), RuleSet.preset("2010"), seed=4)
    bot = GreedyBot(1)
    while game.awaiting is not None and len(game.plies) < 200:
        game.apply(bot.choose(game))
        if len(game.plies) % 37 == 0:
            assert game.view_for("Anna", hidden_cash=True).state.cash == game.state.cash
    game.undo()
    game.undo()
    assert game.view_for("Anna", hidden_cash=True).state.cash == game.state.cash
    game.state.cash[1] += 50  # not a public move: the tally cannot know it
    view = game.view_for("Anna", hidden_cash=True)
    assert view.state.cash[1] == game.state.cash[1] - 50
    assert game.view_for("Ben", hidden_cash=True).state.cash[1] == game.state.cash[1]


def test_open_cash_and_a_finished_game_hide_nothing() -> None:
    game = played(3, 60)
    assert game.view_for("Anna", hidden_cash=False).secret == frozenset()
    assert game.view_for(None, hidden_cash=True).secret == set(NAMES)  # a spectator
    assert game.view_for("Anna", hidden_cash=True).secret == {"Ben", "Cleo"}
    done = played(3, 10_000)
    assert done.is_over and done.view_for("Anna", hidden_cash=True).secret == frozenset()


def test_positions_kept_for_undo_hold_no_other_real_cash() -> None:
    """Stepping back through a view (undo, the history browser) shows the tally too."""
    game = played(5, 80)
    game.plies[40].before.cash[2] += 99  # the record of a past position, edited by hand
    view = game.view_for("Anna", hidden_cash=True)
    assert view.plies[40].before.cash[2] == game.plies[40].before.cash[2] - 99
    past = game_at(view, 40)
    assert past.state.cash[2] == game.plies[40].before.cash[2] - 99
    assert past.secret == view.secret  # still the viewer's view
    view.undo()  # the position undo hands the viewer is the scrubbed one
    assert view.state.cash == view.plies[-1].before.cash if view.plies else True
    assert view.state is not game.plies[-1].before


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), actions=st.integers(0, 260))
def test_nothing_from_another_players_hidden_cash_reaches_a_screen_or_a_bot(
    seed: int, actions: int
) -> None:
    game = played(seed, actions)
    if game.is_over:
        return
    for viewer in NAMES:
        me = NAMES.index(viewer)
        controllers = dict.fromkeys(NAMES, "human")
        before = shown(Session(game, controllers, hidden_cash=True, viewer=viewer), viewer)
        real = list(game.state.cash)
        for i in range(len(NAMES)):
            if i != me:
                game.state.cash[i] += 7 * (i + 1)
        after = shown(Session(game, controllers, hidden_cash=True, viewer=viewer), viewer)
        game.state.cash[:] = real
        assert before == after, f"{viewer} saw something of another player's cash"
    aw = game.awaiting
    assert aw is not None
    decider = NAMES.index(aw.player)
    for level in ("greedy", "random"):
        choice = make_bot(level, 7, hidden_cash=True).choose(game)
        real = list(game.state.cash)
        for i in range(len(NAMES)):
            if i != decider:
                game.state.cash[i] += 11
        edited = make_bot(level, 7, hidden_cash=True).choose(game)
        game.state.cash[:] = real
        assert choice == edited, f"{level} chose from another player's real cash"
