"""Setting up a game: flag cards and starting bonds, or the experienced players' bond rounds.

The standard distribution deals flag cards (shuffled with a seed, or dealt as given, as at a
real table); the back of each card names the bonds its receiver buys. The deal is stored in the
save file as well as the seed, so a save never depends on a random number generator's version.
The tables (partner bonds, the cards dealt with 2 or 3 players, the experienced players'
money) are the game's (``rules.games``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from maps import Board, load_board
from rules.errors import SetupError
from rules.games import IMPERIAL, IMPERIAL_2030, GameInfo, game_info
from rules.options import OPTIONS
from rules.ruleset import RuleSet
from rules.state import NO, GameState

# Imperial's tables (the back of each flag card, the cards of a 2- or 3-player game, the
# experienced players' money); a game's own are in ``rules.games``.
CARD_PARTNER = IMPERIAL.card_partner
EXTRA_CARDS = IMPERIAL.extra_cards
DEALT_CARDS = IMPERIAL.dealt_cards
EXPERIENCED_MONEY = IMPERIAL.experienced_money
OWN_BOND = 9
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.'-]{0,19}$")


@dataclass(frozen=True, slots=True)
class Deal:
    """Who received which flag card (standard) or who chooses first (experienced)."""

    cards: dict[str, tuple[str, ...]]  # player -> cards, standard set-up only
    starter: str | None = None  # experienced variant: the first chooser


def check_players(players: list[str], game: str = "imperial") -> tuple[str, ...]:
    """The players' names, checked: 2-6 of them, each a name the notation can read, none a
    nation code of the game (``imperial`` or ``2030``), no two alike."""
    info = game_info(game)
    if not 2 <= len(players) <= 6:
        raise SetupError(f"{info.title} is played by 2 to 6 players, not {len(players)}")
    seen: set[str] = set()
    for p in players:
        if not isinstance(p, str) or not NAME_RE.fullmatch(p):
            raise SetupError(
                f"player name {p!r:.40} must start with a letter and use letters, digits, _ . ' -"
                " (at most 20 characters, no spaces)"
            )
        if p.upper() in info.nations:
            raise SetupError(f"player name {p!r} is a nation code; choose another name")
        if p.lower() in seen:
            raise SetupError(f"two players are called {p!r}")
        seen.add(p.lower())
    return tuple(players)


def random_deal(players: tuple[str, ...], rules: RuleSet, seed: int) -> Deal:
    """Shuffle and deal the flag cards (or draw the first chooser) with a seed. ``random``
    is loaded here: a loaded save names its deal, and a quick command never shuffles."""
    import random

    rng = random.Random(seed)
    if rules.variant == "experienced":
        return Deal({}, starter=players[rng.randrange(len(players))])
    info = game_info(rules.game)
    cards = list(info.dealt_cards.get(len(players), info.nations))
    rng.shuffle(cards)
    return _complete(info, {p: cards[i] for i, p in enumerate(players)}, players)


def parse_deal(text: str, players: tuple[str, ...], rules: RuleSet) -> Deal:
    """Read ``Anna=AH,Ben=IT,...`` (or ``Anna`` = the first chooser in the experienced variant)."""
    if rules.variant == "experienced":
        name = text.strip()
        if name not in players:
            raise SetupError(
                f"--deal for the experienced variant names the first chooser; "
                f"{name!r} is not a player"
            )
        return Deal({}, starter=name)
    info = game_info(rules.game)
    given: dict[str, str] = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        if "=" not in part:
            raise SetupError(f"--deal entry {part!r} must look like Name={info.nations[0]}")
        name, card = (x.strip() for x in part.split("=", 1))
        card = card.upper()
        if name not in players:
            raise SetupError(f"--deal names {name!r}, who is not a player")
        if name in given:
            raise SetupError(f"--deal gives {name} two cards; give each player one")
        given[name] = card
    allowed = info.dealt_cards.get(len(players), info.nations)
    for name, card in given.items():
        if card not in allowed:
            raise SetupError(
                f"with {len(players)} players the dealt flag cards are {', '.join(allowed)}; "
                f"{card!r} cannot be dealt to {name}"
            )
    if len(set(given.values())) != len(given):
        raise SetupError("--deal gives the same flag card to two players")
    if set(given) != set(players):
        missing = [p for p in players if p not in given]
        raise SetupError(f"--deal must give every player a card; missing: {', '.join(missing)}")
    return _complete(info, given, players)


def _complete(info: GameInfo, primary: dict[str, str], players: tuple[str, ...]) -> Deal:
    extra = info.extra_cards.get(len(players), {})
    return Deal({p: (primary[p], *extra.get(primary[p], ())) for p in players})


def new_state(
    players: tuple[str, ...],
    rules: RuleSet,
    deal: Deal,
    board: Board | None = None,
) -> GameState:
    """The position before the first decision (standard: all bonds bought; experienced: the
    bond rounds are still to come, as decisions)."""
    board = board or board_for(rules)
    codes = game_info(rules.game).nations
    if board.codes != codes:
        raise SetupError(f"map {board.name!r} must define the nations {' '.join(codes)}")
    nn = len(board.nations)
    nr = len(board.regions)
    s = GameState(
        rules=rules,
        board=board,
        players=players,
        cash=[0] * len(players),
        bank=rules.bank_notes_total,
        treasury=[0] * nn,
        power=[0] * nn,
        tax_level=[5] * nn,
        rondel=[NO] * nn,
        government=[NO] * nn,
        bond_owner=[[NO] * len(rules.bond_costs) for _ in range(nn)],
        armies=[bytearray(nr) for _ in range(nn)],
        fleets=[bytearray(nr) for _ in range(nn)],
        friendly=[bytearray(nr) for _ in range(nn)],
        factory=[r.starting_factory for r in board.regions],
        flag=[NO] * nr,
        investor_card=NO,
        flag_min_bond=[2] * nn,
        flag_claim=[NO] * nn,
    )
    if rules.variant == "experienced":
        _setup_experienced(s, deal)
    else:
        _setup_standard(s, deal)
    return s


def board_for(rules: RuleSet) -> Board:
    """The game's board, with the doubtful borders its rule options leave out or add."""
    board = load_board(game_info(rules.game).board)
    for option, a, b in board.optional_borders:  # doubtful borders a rule option may drop
        _check_border_option(board, rules, option, a, b)
        if not getattr(rules, option):
            board = board.without_edge(a, b)
    for option, a, b in board.optional_extra_borders:  # ... or add
        _check_border_option(board, rules, option, a, b)
        if getattr(rules, option):
            board = board.with_edge(a, b)
    return board


def _check_border_option(board: Board, rules: RuleSet, option: str, a: str, b: str) -> None:
    if option not in OPTIONS or not rules.applies(option):
        raise SetupError(f"map {board.name!r}: border {a}-{b} names an unknown option")


def _bond_index(rules: RuleSet, value: int) -> int:
    return rules.bond_costs.index(value)


def _setup_standard(s: GameState, deal: Deal) -> None:
    rules = s.rules
    if set(deal.cards) != set(s.players):
        raise SetupError("the deal must give every player a flag card")
    codes = s.board.codes
    partner_of = game_info(rules.game).card_partner
    dealt: set[str] = set()
    for p, player in enumerate(s.players):
        cards = deal.cards[player]
        cost = sum(OWN_BOND + rules.partner_bond for _ in cards)
        start_money = cost + rules.start_cash
        s.bank -= start_money
        s.cash[p] = start_money
        for card in cards:
            dealt.add(card)
            n = codes.index(card)
            partner = codes.index(partner_of[card])
            for nation, value in ((n, OWN_BOND), (partner, rules.partner_bond)):
                k = _bond_index(rules, value)
                if s.bond_owner[nation][k] != NO:
                    raise SetupError(f"bond {card} {value} dealt twice")
                s.bond_owner[nation][k] = p
                s.cash[p] -= value
                s.treasury[nation] += value
            s.government[n] = p
    for n, c in enumerate(codes):
        if c in dealt:
            continue
        # An undealt flag card (4 or 5 players) stays in the bank until claimed.
        s.flag_min_bond[n] = rules.unassigned_flag_min_bond
        if rules.setup_bonds_claim_flags:
            holders = [
                (rules.bond_costs[k], o)
                for k, o in enumerate(s.bond_owner[n])
                if o != NO and rules.bond_costs[k] >= s.flag_min_bond[n]
            ]
            if holders:
                s.government[n] = max(holders)[1]
    place_investor_card(s)
    s.todo = ()


def _setup_experienced(s: GameState, deal: Deal) -> None:
    if deal.starter not in s.players:
        raise SetupError("the experienced variant needs a first chooser")
    table = IMPERIAL_2030 if s.rules.experienced_cash == "2030" else IMPERIAL
    money = table.experienced_money[len(s.players)]
    for p in range(len(s.players)):
        s.bank -= money
        s.cash[p] = money
    first = s.players.index(deal.starter)
    s.todo = tuple(("auction", n, (first + n) % len(s.players)) for n in range(len(s.treasury)))
    s.todo += (("setup_done",),)


def place_investor_card(s: GameState) -> None:
    """The card goes to the left of the first nation's government (AH, in 2030 RU), else of
    the next nation with one."""
    if not s.rules.uses_investor_card:
        s.investor_card = NO
        return
    for g in s.government:
        if g != NO:
            s.investor_card = (g + 1) % len(s.players)
            return
    s.investor_card = 0
