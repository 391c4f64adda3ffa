"""Hints and previews come from the engine's own rule code (issue #9, fixes 6, 9 and 14): the
bond hint "-> X governs N" runs the government check the engine will run, the Investor preview
shows the interest the engine will really pay, and the engine's messages read as English;
in the app's decision list too (a bond too small to form a government, a lone pass)."""

from __future__ import annotations

import random

import pytest
from helpers import (
    cash,
    finn_governs_nothing,
    give_bond,
    give_turn,
    governor,
    nat,
    new_game,
    set_cash,
    set_treasury,
)
from pilot import drive, humans, option_texts, options
from play_helpers import pick, random_game

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game, IllegalAction
from rules.actions import Buy
from rules.interest import interest_payments
from rules.investing import government_after_buy
from rules.preview import rondel_preview
from rules.state import NO


def hint(g: Game, buy: str) -> str | None:
    """The governor the hint names for a purchase in notation, or None."""
    action = g.parse(buy)
    assert isinstance(action, Buy)
    s = g.state
    gov = government_after_buy(
        s, g.players.index(action.player), nat(action.nation), action.value, action.returning
    )
    return None if gov == NO else g.players[gov]


def settle_investing(g: Game) -> None:
    """Everyone still asked to invest in this Investor turn passes (the check follows)."""
    while g.awaiting is not None and g.awaiting.kind in ("invest", "bond_choice"):
        if g.awaiting.nation is not None and g.state.turn != nat(g.awaiting.nation):
            break
        g.apply(f"{g.awaiting.player} passes")


# -- fix 9 (a): an undealt nation's bond below the flag minimum grants no government ---------


def test_bond_hint_first_edition_2m_bond_of_an_undealt_nation_grants_no_government():
    g = new_game(4, deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU")  # AH undealt, nobody holds AH
    set_cash(g, "Ben", 10)
    give_turn(g, "IT", None)
    g.apply("IT rondel investor")
    assert g.awaiting.player == "Ben"
    assert hint(g, "Ben buys AH 2") is None  # the hint used to say "Ben governs AH"
    assert hint(g, "Ben buys AH 4") == "Ben"
    g.apply("Ben buys AH 2")
    settle_investing(g)
    assert governor(g, "AH") is None  # the engine agrees


# -- fix 9 (b): tied challengers: the first clockwise from the card holder, not the buyer ----


def test_bond_hint_tied_challengers_first_clockwise_from_the_card_holder_not_the_buyer():
    g = new_game()
    finn_governs_nothing(g)  # Finn invests after the card holder
    give_bond(g, "Dan", "AH", 16)
    give_bond(g, "Dan", "AH", 2)  # Dan 18 against Anna's 9
    give_bond(g, "Finn", "AH", 6)
    set_cash(g, "Finn", 12)
    give_turn(g, "AH", None)
    g.apply("AH rondel investor")  # the card holder is Ben: Ben, Cleo, Dan, Eve, Finn, Anna
    g.apply("Ben passes")
    assert g.awaiting.player == "Finn"
    assert hint(g, "Finn buys AH 12") == "Dan"  # 18 each: the hint used to say "Finn"
    g.apply("Finn buys AH 12")
    settle_investing(g)
    assert governor(g, "AH") == "Dan"


def test_bond_hint_equals_the_engines_government_check_in_random_games():
    """Every purchase offered in random games of every edition and variant: the hint names
    the player the engine makes governor when the others then pass."""
    checked = 0
    for seed in range(40):
        g = random_game(seed, random.Random(seed).randint(0, 400))
        rng = random.Random(seed)
        for _ in range(300):
            aw = g.awaiting
            if aw is None:
                break
            if aw.kind in ("invest", "bond_choice"):
                for buy in [a for a in g.legal_actions() if isinstance(a, Buy)][:6]:
                    expected = hint(g, str(buy))
                    after = g.copy()
                    after.apply(buy)
                    if g.state.ctx.auction:
                        got = governor(after, buy.nation)
                    else:
                        settle_investing(after)
                        got = governor(after, buy.nation)
                    assert got == expected, (seed, str(buy))
                    checked += 1
            g.apply(pick(rng, g.legal_actions()))
    assert checked > 100


# -- fix 6: the Investor preview shows what will really be paid ------------------------------


def investor_preview(g: Game) -> str:
    return next(p.text for p in rondel_preview(g.state) if p.space == "investor")


def test_investor_preview_treasury_short_of_the_governments_own_interest():
    """The issue's case: the treasury pays the others, the government gets less than owed."""
    g = new_game()
    set_treasury(g, "AH", 2)  # Cleo's 2M first; Anna's own 4M cannot be paid
    give_turn(g, "AH", None)
    text = investor_preview(g)
    assert text.startswith("interest Cleo 2, Anna 0 of 4"), text
    before = cash(g, "Anna"), cash(g, "Cleo")
    events = g.apply("AH rondel investor")
    assert (cash(g, "Anna"), cash(g, "Cleo")) == (before[0], before[1] + 2)
    assert any("Anna 0M (gives up 4M)" in e.text for e in events)


def test_investor_preview_government_pays_the_shortfall_after_the_move_cost():
    g = new_game()
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 3)
    give_turn(g, "AH", "taxation")  # 4 spaces to Investor: Anna pays 2M first
    text = investor_preview(g)
    assert text.startswith("interest Cleo 2, Anna 0 of 4; Anna adds 1M from cash"), text
    g.apply("AH rondel investor")
    assert cash(g, "Anna") == 0 and cash(g, "Cleo") == 2


def test_investor_preview_pay_what_possible_says_what_stays_unpaid():
    g = new_game(interest_shortfall="pay_what_possible")
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 0)
    give_turn(g, "AH", None)
    assert investor_preview(g).startswith("interest Cleo 1 of 2, Anna 0 of 4; 1M stays unpaid")
    g.apply("AH rondel investor")
    assert cash(g, "Cleo") == 1


def test_interest_plan_is_what_the_engine_pays_in_random_games():
    """Wherever a nation may land on Investor: the plan's payments are the cash the engine
    moves (the card holder's 2M aside)."""
    checked = 0
    for seed in range(60):
        g = random_game(seed, random.Random(seed + 7).randint(20, 500))
        aw = g.awaiting
        if aw is None or aw.kind != "rondel":
            continue
        investor = [a for a in g.legal_actions() if str(a).endswith("rondel investor")]
        if not investor:
            continue
        s = g.state
        n = s.turn
        gov = s.government[n]
        preview = next(p for p in rondel_preview(s) if p.space == "investor")
        view = s.copy()
        view.cash[gov] -= preview.cost or 0
        plan = interest_payments(view, n)
        after = g.copy()
        after.apply(investor[0])
        for p in range(len(s.players)):
            delta = after.state.cash[p] - s.cash[p]
            if p == s.investor_card and s.rules.uses_investor_card:
                continue  # plus the card's 2M, and perhaps a bond already bought
            expected = plan.paid[p] - (plan.from_cash + (preview.cost or 0) if p == gov else 0)
            assert delta == expected, (seed, p, preview.text)
        checked += 1
    assert checked >= 3


# -- fix 14: the engine's words --------------------------------------------------------------


@pytest.mark.parametrize(("units", "words"), [(0, "has no units to pay"), (1, "1 unit costs 1M")])
def test_taxation_names_its_units_in_english(units: int, words: str) -> None:
    from helpers import set_units

    g = new_game()
    s = g.state
    for n in range(6):
        for r in range(len(s.board.regions)):
            s.armies[n][r] = s.fleets[n][r] = s.friendly[n][r] = 0
    if units:
        set_units(g, "AH", "vienna", armies=1)
    give_turn(g, "AH", None)
    text = " | ".join(e.text for e in g.apply("AH rondel taxation"))
    assert words in text, text
    assert "units 0M" not in text and "1 units" not in text


def test_refusals_name_the_player_instead_of_he():
    g = new_game()
    set_cash(g, "Anna", 1)
    with pytest.raises(IllegalAction) as exc:
        g.apply("Anna donates 5 to AH")
    assert "he has" not in exc.value.reason and "only 1M" in exc.value.reason
    set_cash(g, "Anna", 0)
    give_turn(g, "AH", "factory")
    with pytest.raises(IllegalAction) as exc:
        g.apply("AH rondel import")  # 4 spaces: 2M
    assert exc.value.reason.endswith("with only 0M in cash"), exc.value.reason


# -- in the app's decision list, by keys ------------------------------------------------------


def test_a_battle_is_told_without_a_wrong_article_before_a_nations_name() -> None:
    from maneuver_helpers import place, start_maneuver

    g = new_game()
    place(g, "IT", "fleet", "ionian_sea")
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    told = [e.text for e in g.apply("RU fleet fights IT fleet in ionian_sea")]
    assert "battle in Ionian Sea: one fleet of Russia and one fleet of Italy are destroyed" in told
    assert not any(" a Italy" in t or " a Austria" in t for t in told)


async def test_investor_option_shows_what_a_short_treasury_really_pays() -> None:
    g = new_game()
    set_treasury(g, "AH", 2)
    give_turn(g, "AH", None)
    session = Session(g, humans(g), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True):
        investor = next(text for _, text, _ in options(app) if text.startswith("Investor"))
        assert "Cleo 2, Anna 0 of 4" in " ".join(investor.split()), investor


async def test_bond_hint_in_the_list_names_the_engines_choice_among_tied_challengers() -> None:
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

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True):
        twelve = next(text for _, text, _ in options(app) if text.startswith("AH 12M"))
        assert "→ Dan governs AH" in twelve and "Finn governs" not in twelve


def ungoverned_germany_invest(cash: int | None = None) -> Session:
    """Four players in the first edition; Germany has no government and no bond out (so only
    a 4M bond forms one); Ben holds the investor card and invests now."""
    g = new_game(4)
    s = g.state
    n = nat("GE")
    s.bond_owner[n] = [NO] * len(s.bond_owner[n])
    s.government[n] = NO
    give_turn(g, "AH", None)
    g = Game.from_position(g.summary())
    g.apply("AH rondel investor")
    if cash is not None:
        set_cash(g, "Ben", cash)
    assert g.awaiting.player == "Ben" and g.awaiting.kind == "invest"
    return Session(g, dict.fromkeys(g.players, "human"), None)


async def test_bond_hint_says_a_bond_below_the_flag_minimum_forms_no_government() -> None:
    session = ungoverned_germany_invest(cash=10)
    s = session.game.state
    assert s.flag_min_bond[nat("GE")] == 4  # the engine's rule: first edition, ungoverned

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True):
        texts = " | ".join(" ".join(t.split()) for t in option_texts(app))
        assert "GE 2M interest 1 (too small to form a government: 4M)" in texts, texts
        assert "GE 4M interest 2 → Ben governs GE" in texts, texts
        assert "AH 2M interest 1 (too small" not in texts  # AH has a government


async def test_a_lone_pass_says_why_and_enter_passes() -> None:
    session = ungoverned_germany_invest(cash=0)
    game = session.game
    assert [str(a) for a in game.legal_actions()] == ["Ben passes"]

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        assert option_texts(app) == ["you have 0M: nothing to buy — Enter passes"]
        count = len(game.plies)
        await pilot.press("enter")
        await pilot.pause()
        assert str(game.plies[count].action) == "Ben passes"


def test_taxation_preview_says_when_it_ends_the_game_and_no_investor_is_passed():
    """RULES.md §7: the game ends as soon as a nation reaches 25 power points in its
    Taxation, and nothing further happens: no investing from a passed Investor. The preview
    said "power +9 ... passes Investor" for the move that ended the game (a player's report)."""
    from helpers import set_factories

    g = new_game()
    set_factories(g, "AH", "vienna", "budapest", "prague", "lemberg", "trieste")
    give_turn(g, "AH", "production2")  # one space on: Taxation, without passing Investor
    n = nat("AH")
    g.state.power[n] = 22
    taxation = next(p for p in rondel_preview(g.state) if p.space == "taxation")
    assert taxation.text.endswith("; reaches 25: the game ends"), taxation.text
    g.state.power[n] = 10
    taxation = next(p for p in rondel_preview(g.state) if p.space == "taxation")
    assert "the game ends" not in taxation.text
    # from Maneuver1, Taxation passes Investor: said only when the game goes on after it
    give_turn(g, "AH", "maneuver1")
    set_cash(g, "Anna", 10)  # (5 spaces: 4M)
    g.state.power[n] = 10
    taxation = next(p for p in rondel_preview(g.state) if p.space == "taxation")
    assert taxation.text.endswith("; passes Investor"), taxation.text
    g.state.power[n] = 22
    taxation = next(p for p in rondel_preview(g.state) if p.space == "taxation")
    assert taxation.text.endswith("; reaches 25: the game ends"), taxation.text
    assert "passes Investor" not in taxation.text
    events = g.apply("AH rondel taxation")
    assert any("reaches 25 power points: the game ends" in e.text for e in events)
