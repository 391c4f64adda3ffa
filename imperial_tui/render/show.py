"""Rich renderings of a position for ``imperial show`` (and other headless output).

Each function takes a ``Game`` and returns a Rich renderable, so the command line can print them
and tests can render them to plain text. Everything is read from the state summary
(docs/STATE.md) and the board, never from engine internals that may change.

Nations are always written by their codes (AH IT FR GB GE RU); colour is only an extra, so the
output reads the same with ``NO_COLOR=1``, in a log file or to a colour-blind player. Tables use
light borders and short headers so that they fit 80 columns.
"""

from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from imperial_tui.render.style import NATION_STYLE
from maps.board import Board, Region
from rules import Event, Game, RuleSet
from rules.actions import RONDEL_SPACES
from rules.rondel import SPACE_NAMES
from rules.scoring import power_factor
from rules.summary import UnitSummary

TAX_LABELS = {5: "2-5", 15: "15+"}
# What the Tax column means (the chart's space is not the last tax: a tax of 4M stays on "2-5")
TAX_LEGEND = (
    "Tax: the nation's space on the tax chart, where its last Taxation put it (2-5 for a tax "
    "of 5M or less; each space gained pays the government 1M, power grows by space - 5)."
)
MAX_MOVES_SHOWN = 40


def nation_text(code: str | None) -> Text:
    """A nation's code in its colour (plain text when colour is off)."""
    if code is None:
        return Text("—", style="dim")
    return Text(code, style=NATION_STYLE.get(code, ""))


def nations_line(codes: list[str] | tuple[str, ...], empty: str = "—") -> Text:
    """Several nation codes separated by spaces, each in its colour."""
    if not codes:
        return Text(empty, style="dim")
    return Text(" ").join(nation_text(c) for c in codes)


def _money(amount: int) -> str:
    return f"{amount}M"


TAX_LEGEND_2030 = (
    "Tax: the revenue a Taxation would bring now (2M per factory without hostile armies + "
    "1M per flag, at most 23M; Imperial 2030 has no tax chart)."
)


def revenue_column(rules: RuleSet) -> bool:
    """Imperial 2030 with its fixed bonus keeps no tax chart: the column shows the revenue
    (here, in the app's nations panel and in its standings)."""
    return rules.taxation == "2030" and rules.success_bonus == "table"


def _tax_cell(game: Game, code: str, level: int) -> str:
    if revenue_column(game.rules):
        from rules.taxation import tax_plan

        s = game.state
        return _money(tax_plan(s, s.board.codes.index(code)).revenue)
    return TAX_LABELS.get(level, str(level))


def _board(game: Game) -> Board:
    return game.state.board


# --------------------------------------------------------------------------- nations


def nations_table(game: Game) -> Table:
    """Per nation: governor, treasury, power/factor, tax level, rondel space, supply and
    factories; the numbers a government needs before choosing a rondel space."""
    summary = game.summary()
    board = _board(game)
    table = Table(
        title="Nations",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("", no_wrap=True)
    table.add_column("Governor", no_wrap=True)
    table.add_column("Treas.", justify="right", no_wrap=True)
    table.add_column("Power", justify="right", no_wrap=True)
    table.add_column("Tax", justify="right", no_wrap=True)
    table.add_column("Rondel", no_wrap=True)
    table.add_column("A/F/flags", justify="right", no_wrap=True)
    table.add_column("Factories")
    turn = summary["turn"]["nation"]
    for code, nation in summary["nations"].items():
        supply = nation["supply"]
        factories = [
            board.regions[i].name
            for i in board.home[board.codes.index(code)]
            if summary["regions"][board.regions[i].id]["factory"]
        ]
        label = nation_text(code)
        if code == turn:
            label = Text.assemble(label, Text("*", style="bold"))
        space = nation["rondel"]
        table.add_row(
            label,
            nation["governor"] or Text("none", style="dim"),
            _money(nation["treasury"]),
            f"{nation['power']}/×{power_factor(nation['power'])}",
            _tax_cell(game, code, nation["tax_level"]),
            SPACE_NAMES.get(space, space) if space else Text("—", style="dim"),
            f"{supply['armies']}/{supply['fleets']}/{supply['flags']}",
            ", ".join(factories) or Text("none", style="dim"),
        )
    legend = TAX_LEGEND_2030 if revenue_column(game.rules) else TAX_LEGEND
    table.caption = (
        "* whose turn it is · Power: points/factor · A/F/flags: still in supply\n" + legend
    )
    table.caption_justify = "left"
    return table


# --------------------------------------------------------------------------- players


def players_table(game: Game) -> Table:
    """Per player in seating order: cash, bonds, governments, investor card or Swiss bank."""
    summary = game.summary()
    table = Table(title="Players", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column("Player", no_wrap=True)
    table.add_column("Cash", justify="right", no_wrap=True)
    table.add_column("Bonds (nation value)")
    table.add_column("Governs", no_wrap=True)
    table.add_column("Card", no_wrap=True)
    awaiting = summary["awaiting"]["player"] if summary["awaiting"] else None
    for player in summary["players"]:
        bonds = Text(", ").join(
            Text.assemble(nation_text(b["nation"]), f" {b['value']}") for b in player["bonds"]
        )
        marks = []
        if player["investor_card"]:
            marks.append("investor")
        if player["swiss_bank"]:
            marks.append("Swiss bank")
        name = Text(player["name"], style="bold" if player["name"] == awaiting else "")
        if player["name"] == awaiting:
            name.append(" ◀")
        table.add_row(
            name,
            _money(player["cash"]),
            bonds if player["bonds"] else Text("none", style="dim"),
            nations_line(player["governs"]),
            ", ".join(marks),
        )
    return table


# --------------------------------------------------------------------------- rondel


def rondel_table(game: Game) -> Table:
    """The eight rondel spaces clockwise, in two columns of four, with the nations on each."""
    summary = game.summary()
    on: dict[str, list[str]] = {space: [] for space in RONDEL_SPACES}
    waiting: list[str] = []
    for code, nation in summary["nations"].items():
        if nation["rondel"] is None:
            waiting.append(code)
        else:
            on[nation["rondel"]].append(code)
    table = Table(
        title="Rondel (clockwise)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
        show_header=False,
    )
    for _ in range(2):
        table.add_column(no_wrap=True)
        table.add_column(min_width=8)
    half = len(RONDEL_SPACES) // 2
    for i in range(half):
        left, right = RONDEL_SPACES[i], RONDEL_SPACES[i + half]
        table.add_row(
            f"{i + 1} {SPACE_NAMES[left]}",
            nations_line(on[left], empty=""),
            f"{i + half + 1} {SPACE_NAMES[right]}",
            nations_line(on[right], empty=""),
        )
    if waiting:
        table.caption = Text.assemble("not on the rondel yet: ", nations_line(waiting))
        table.caption_justify = "left"
    return table


# --------------------------------------------------------------------------- regions


def _units_text(units: list[UnitSummary]) -> Text:
    parts = []
    for u in units:
        part = Text.assemble(nation_text(u["nation"]), f" {u['count']}{u['kind'][0].upper()}")
        if u["hostile"] is True:
            part.append(" hostile")
        elif u["hostile"] is False:
            part.append(" friendly")
        parts.append(part)
    return Text(", ").join(parts)


def regions_table(game: Game) -> Table:
    """Every region with a unit, a flag or a factory: home provinces grouped by nation, then
    neutral land, then the seas. Empty regions are left out so the table stays short."""
    summary = game.summary()
    board = _board(game)
    table = Table(title="Regions", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column("Region", no_wrap=True)
    table.add_column("Factory", no_wrap=True)
    table.add_column("Flag", no_wrap=True)
    table.add_column("Units")
    groups: list[tuple[str, list[Region]]] = []
    for n, code in enumerate(board.codes):
        name = board.nations[n].name
        groups.append((f"{code} {name}", [board.regions[i] for i in board.home[n]]))
    groups.append(("Neutral land", [r for r in board.regions if r.kind == "land"]))
    groups.append(("Seas", [r for r in board.regions if r.kind == "sea"]))
    shown = 0
    for title, regions in groups:
        rows = []
        for region in regions:
            info = summary["regions"].get(region.id)
            if not info or not (info["units"] or info["flag"] or info["factory"]):
                continue
            rows.append((region, info))
        if not rows:
            continue
        if shown:
            table.add_section()
        table.add_row(Text(title, style="bold underline"), "", "", "")
        for region, info in rows:
            table.add_row(
                f" {region.name}",
                info["factory"] or "",
                nation_text(info["flag"]) if info["flag"] else "",
                _units_text(info["units"]),
            )
        shown += 1
    return table


REGIONS_LEGEND = "A army, F fleet; hostile/friendly: armies in a foreign home province"


# --------------------------------------------------------------------------- decision


def decision_text(game: Game) -> Text:
    """One line: the round, whose turn, who decides what (or the result once it is over)."""
    summary = game.summary()
    if summary["finished"]:
        result = game.result()
        return Text(f"Game over: {result.describe()}" if result else "Game over", style="bold")
    turn = summary["turn"]
    awaiting = summary["awaiting"]
    text = Text()
    if turn["nation"]:
        text.append(f"Round {turn['round']}, ")
        text.append_text(nation_text(turn["nation"]))
        text.append("'s turn. ")
    else:
        text.append("Set-up. ")
    if awaiting:
        text.append(awaiting["player"], style="bold")
        text.append(f" decides: {awaiting['kind'].replace('_', ' ')}")
        if awaiting["nation"]:
            text.append(" for ")
            text.append_text(nation_text(awaiting["nation"]))
    return text


def decision_panel(game: Game, limit: int = MAX_MOVES_SHOWN) -> RenderableType:
    """Whose decision it is and the legal options in notation (the text ``imperial apply``
    takes), cut at ``limit`` so that a long maneuver list does not flood the screen."""
    parts: list[RenderableType] = [decision_text(game)]
    if game.is_over:
        return Group(*parts)
    actions = [str(a) for a in game.legal_actions()]
    if actions:
        shown = actions[:limit]
        parts.append(Columns([Text(a) for a in shown], padding=(0, 3), expand=False))
        if len(actions) > limit:
            parts.append(
                Text(f"... and {len(actions) - limit} more (imperial moves FILE)", style="dim")
            )
    example = f"'{game.players[0]} donates 2 to {game.state.board.codes[0]}'"
    if game.rules.game == "imperial":
        example = "'Anna donates 2 to AH'"  # as this line has always read
    parts.append(Text(f"Any player may also donate at any time, e.g. {example}.", style="dim"))
    return Group(*parts)


def result_table(game: Game) -> Table | None:
    """Final (or provisional) victory points per player; None while nobody has scored."""
    result = game.result()
    if result is None:
        return None
    table = Table(title="Result", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column("Player")
    table.add_column("Points", justify="right")
    table.add_column("")
    for p in sorted(result.players, key=lambda p: -p.total):
        table.add_row(p.name, str(p.total), "winner" if p.name in result.winners else "")
    table.caption = result.decided_by
    return table


# --------------------------------------------------------------------------- whole views


def setup_overview(game: Game) -> RenderableType:
    """What ``imperial new`` prints: the rules, who governs what, the investor card and whose
    decision comes first."""
    setup = game.setup
    summary = game.summary()
    lines: list[RenderableType] = []
    if setup.rules.game == "imperial":
        header = Text(f"Imperial ({setup.rules.edition} edition, {setup.rules.variant} variant")
    else:
        header = Text(f"{setup.rules.title} ({setup.rules.variant} variant")
    if setup.seed is not None:
        header.append(f", seed {setup.seed}")
    header.append(f"): {', '.join(setup.players)}")
    lines.append(header)
    changed = setup.rules.differences()
    if changed:
        lines.append(
            Text("Rule options changed: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        )
    if setup.position is not None:
        lines.append(Text("Starts from a given position (docs/POSITIONS.md)."))
    elif setup.deal.starter is not None:
        lines.append(Text(f"Experienced set-up: {setup.deal.starter} chooses first."))
    else:
        for player in setup.players:
            line = Text(f"{player} drew ")
            line.append_text(nations_line(list(setup.deal.cards[player])))
            lines.append(line)
    governing = [(p["name"], p["governs"]) for p in summary["players"] if p["governs"]]
    for name, codes in governing:
        line = Text(f"{name} governs ")
        line.append_text(nations_line(codes))
        lines.append(line)
    holder = next((p["name"] for p in summary["players"] if p["investor_card"]), None)
    if holder:
        lines.append(Text(f"Investor card: {holder}"))
    lines.append(decision_text(game))
    return Group(*lines)


def render_game(game: Game, limit: int = MAX_MOVES_SHOWN) -> Group:
    """The whole position as ``imperial show`` prints it."""
    parts: list[RenderableType] = [
        nations_table(game),
        players_table(game),
        rondel_table(game),
        regions_table(game),
        Text(REGIONS_LEGEND, style="dim"),
        Text(""),
    ]
    result = result_table(game)
    if result is not None:
        parts.append(result)
    parts.append(decision_panel(game, limit))
    return Group(*parts)


def map_view(game: Game, ascii_only: bool = False) -> RenderableType:
    """What ``imperial show --map`` prints: whose decision it is, the board as the app draws
    it (74 columns) and what its symbols mean."""
    from imperial_tui.render.maplegend import legend_lines
    from imperial_tui.render.mapview import MapPainter

    board = _board(game)
    painter = MapPainter(board, ascii_only=ascii_only)
    parts: list[RenderableType] = [
        decision_text(game),
        painter.render(game.summary()["regions"]),
        *legend_lines(board, ascii_only),
    ]
    return Group(*parts)


def find_region(game: Game, name: str) -> str | None:
    """A region by its label (BER), id (berlin) or name (Berlin, or its start)."""
    board = _board(game)
    layout = board.layout
    wanted = name.strip()
    ids = [r.id for r in board.regions] + list(board.impassable)
    names = {
        rid: (
            layout.names.get(rid, rid) if layout else board[rid].name if rid in board.index else rid
        )
        for rid in ids
    }
    for rid in ids:
        label = layout.labels.get(rid, "") if layout else ""
        if wanted.upper() == label or wanted.lower() == rid or wanted.lower() == names[rid].lower():
            return rid
    starts = [rid for rid in ids if names[rid].lower().startswith(wanted.lower())]
    return starts[0] if len(starts) == 1 else None


def events_text(events: list[Event]) -> Text:
    """Events as indented log lines."""
    return Text("\n").join(Text(f"  {e.text}") for e in events)
