"""The rules page "2030": what Imperial 2030 changes, for ``imperial rules 2030`` and F1.

Written from the data the engine plays by (the world board, the set-up tables of
``rules.games``, the 2030 tax table of ``rules.taxation``), so the page cannot say one thing
while the game does another. No Textual import.
"""

from __future__ import annotations

from maps import load_board
from rules.games import IMPERIAL_2030
from rules.taxation import MAX_REVENUE_2030, TABLE_2030

TITLE = "Imperial 2030: what differs"


def _names(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _nations() -> str:
    board = load_board(IMPERIAL_2030.board)
    order = ", ".join(f"{n.name} ({n.code})" for n in board.nations)
    limits = "; ".join(f"{n.code} {n.armies} armies/{n.fleets} fleets" for n in board.nations)
    sites = []
    for n, nation in enumerate(board.nations):
        kinds = [board.regions[r].factory_type for r in board.home[n]]
        yards = kinds.count("shipyard")
        sites.append(
            f"{nation.code} {kinds.count('armaments')} armaments + {yards} "
            f"shipyard{'s' if yards != 1 else ''}"
        )
    return (
        f"Six other nations act in this order: {order}. Units: {limits}. Each nation has "
        f"{len(board.home[0])} home provinces, so it builds at most {len(board.home[0])} "
        f"factories (5M each): {'; '.join(sites)}. Each nation has 15 flags and 9 bonds "
        "(2M to 30M, interest 1 to 9)."
    )


def _world() -> str:
    board = load_board(IMPERIAL_2030.board)
    wraps = _names([f"{board[a].name} - {board[b].name}" for a, b in sorted(board.wrap_edges)])
    islands = _names(
        [r.name for r in board.regions if r.kind != "sea" and not board.land_neighbours[r.index]]
    )
    canals = []
    for canal in board.canals:
        a, b = (board.regions[x].name for x in canal.seas)
        canals.append(
            f"{canal.name} joins the {a} and the {b} and is controlled from "
            f"{board.regions[canal.controller].name}"
        )
    return (
        "The world is a cylinder: the seas at the left edge of the map touch those at the "
        f"right edge ({wraps}); there is no link across the top or the bottom. {islands} are "
        "islands: armies reach them by convoy only.\n\n"
        f"Canals: {'; '.join(canals)}. These seas border each other only through the canal. "
        "A fleet of another nation moving from one of the two seas to the other, or an army "
        "convoyed across, needs the permission of the nation whose flag stands in the "
        "controlling region: its government is asked at the crossing, before anything moves "
        "(it answers e.g. 'BR allows US through panama' or 'BR refuses US through panama'). "
        "No flag there, or the mover's own flag: free passage. A yes is for that crossing "
        "only; after a no the unit may still do anything else. A convoy through both canals "
        "asks each controller in turn."
    )


def _rondel() -> str:
    return (
        "Rondel: up to 3 spaces are free; each further space costs 1M plus the nation's power "
        "factor (its power points divided by 5): China at 11 power points pays 3M to move from "
        "Investor to Taxation."
    )


def _taxation() -> str:
    rows = []
    for i, (low, points, bonus) in enumerate(TABLE_2030):
        high = TABLE_2030[i + 1][0] - 1 if i + 1 < len(TABLE_2030) else MAX_REVENUE_2030
        span = f"{low}" if low == high else f"{low}-{high}"
        rows.append(f"{span}M: {points} pp, {bonus}M")
    return (
        "Taxation: the revenue (2M per own factory without hostile armies + 1M per own flag, "
        f"at most {MAX_REVENUE_2030}M) goes into the treasury; then the treasury pays 1M for "
        "each of the nation's armies and fleets, as far as it can (it stops at 0, the rest "
        "stays unpaid); then the government receives the success bonus for that revenue out "
        "of the treasury, cut to what is left; last the nation gains the power points for "
        f"that revenue. Revenue: power points, bonus: {'; '.join(rows)}."
    )


def _setup() -> str:
    info = IMPERIAL_2030
    partners = ", ".join(f"{card}+{info.card_partner[card]} 2M" for card in info.nations)
    three = "; ".join(
        f"{card} with {' and '.join(extra)}" for card, extra in info.extra_cards[3].items()
    )
    two = " against ".join("+".join((card, *extra)) for card, extra in info.extra_cards[2].items())
    cash = ", ".join(f"{p} players {m}M" for p, m in sorted(info.experienced_money.items()))
    return (
        "Set-up: each flag card buys its nation's 9M bond and a partner's 2M bond "
        f"({partners}); each player keeps 2M. With 3 players: {three}; with 2 players: "
        f"{two}. The investor card goes to the player left of Russia's government (of "
        "China's when Russia has none). "
        f"Experienced players' bond rounds run {' '.join(info.nations)}, starting cash: "
        f"{cash}.\n\n"
        "The game ends when a nation reaches 25 power points; the scoring is Imperial's."
    )


def page_text() -> str:
    """The page: start a game with ``imperial new --game 2030``."""
    return "\n\n".join(
        (
            "Imperial 2030 is Imperial on a map of the world: the 2010 rules with the "
            "differences below. Start one with imperial new --game 2030.",
            _nations(),
            _world(),
            _rondel(),
            _taxation(),
            _setup(),
        )
    )


# What Imperial 2030 changes on each of Imperial's rules pages (F1 in a game of 2030 opens
# those pages with this first: a playtest read Imperial's rondel costs and Dublin at F1), and
# the 2030 options each page then lists.
DIFFERENCES = {
    "overview": _nations,
    "rondel": _rondel,
    "factory": _nations,
    "import": _nations,
    "maneuver": _world,
    "map": _world,
    "taxation": _taxation,
    "setup": _setup,
}
PAGE_OPTIONS = {
    "rondel": ("rondel_extra_cost",),
    "taxation": ("taxation", "success_bonus"),
    "maneuver": ("canal_refusal", "canal_same_government", "canal_ungoverned"),
    "map": ("east_africa_near_east",),
    "setup": ("experienced_cash",),
}


def differences(topic: str) -> str:
    """What Imperial 2030 changes on Imperial's page ``topic`` ('' where nothing)."""
    text = DIFFERENCES.get(topic)
    return text() if text is not None else ""
