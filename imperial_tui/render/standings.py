"""Who is winning: the score if the game ended now (``Game.provisional_result()``), the power
track with each nation's factor, and the score round by round (``standings_by_round``), as
Rich tables for the standings screen (v) and the score screen. With hidden cash a player's
cash (and so their total) is shown only to themselves: the others' bond points, which anyone
can count from the board, are shown with "+?". No Textual import.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from rich import box
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from imperial_tui.render.show import TAX_LABELS, revenue_column
from imperial_tui.render.style import nation_style as default_style
from rules import Game, Result
from rules.history import standings_by_round
from rules.scoring import power_factor
from rules.taxation import tax_plan


def bond_points(result: Result, name: str) -> int:
    player = next(p for p in result.players if p.name == name)
    return sum(b.points for b in player.bonds)


def total_text(result: Result, name: str, hidden: Collection[str]) -> str:
    """A player's total, or their bond points and '+?' when their cash is hidden."""
    if name in hidden:
        return f"{bond_points(result, name)}+?"
    return str(result.scores[name])


def leader_text(result: Result, hidden: Collection[str], final: bool = False) -> str:
    """Who leads if the game ended now (by the engine's own tie-breaks), who won (``final``:
    the game is over), or, with hidden cash, that the totals cannot be compared."""
    if hidden:
        return "Cash is hidden: totals marked +? leave out that player's cash."
    when = "Final" if final else "If the game ended now"
    ranked = sorted(result.players, key=lambda p: -p.total)
    if len(result.winners) > 1:
        return f"{when}: shared victory of {' and '.join(result.winners)}."
    lead = result.winners[0]
    second = next((p for p in ranked if p.name != lead), None)
    won = "won" if final else "wins"
    if result.decided_by != "most victory points":
        return f"{when}: {lead} {won}, {result.decided_by}."
    margin = f" by {ranked[0].total - second.total}" if second is not None else ""
    return f"{when}: {lead} {won}{margin}."


def lines(ascii_only: bool) -> box.Box:
    """Table rules: light lines, or plain ASCII."""
    return box.ASCII2 if ascii_only else box.SIMPLE_HEAD


def standings_table(
    result: Result,
    hidden: Collection[str] = (),
    times: str = "×",
    nation_style: Callable[[str], str] | None = None,
) -> Table:
    """Each player's bonds (interest × factor = points), cash and total, best first."""
    style = nation_style or default_style
    table = Table(expand=True, show_edge=False, pad_edge=False, box=lines(times != "×"))
    table.add_column("player", no_wrap=True)
    table.add_column(f"bonds: interest {times} factor", ratio=1)
    table.add_column("cash", justify="right", no_wrap=True)
    table.add_column("total", justify="right", no_wrap=True)
    ranked = sorted(result.players, key=lambda p: (p.name in hidden, -p.total))
    for p in ranked:
        calc = Text()
        for i, b in enumerate(p.bonds):
            if i:
                calc.append(" + ")
            calc.append(f"{b.nation}{b.value}", style=style(b.nation))
            calc.append(f" {b.interest}{times}{b.factor}={b.points}")
        if not p.bonds:
            calc.append("-", style="dim")
        name = Text(p.name, style="bold" if p.name in result.winners and not hidden else "")
        cash = "?" if p.name in hidden else str(p.cash)
        table.add_row(name, calc, cash, Text(total_text(result, p.name, hidden), style="bold"))
    return table


def power_table(
    game: Game, times: str = "×", nation_style: Callable[[str], str] | None = None
) -> Table:
    """The power track: each nation's power points, factor, what the next factor needs, and
    its space on the tax chart (Imperial 2030, which keeps none: the revenue a Taxation would
    bring now)."""
    style = nation_style or default_style
    s = game.state
    table = Table(expand=False, show_edge=False, pad_edge=False, box=lines(times != "×"))
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("", "left"),
        ("power", "right"),
        ("factor", "right"),
        ("next", "left"),
    )
    for name, just in columns:
        table.add_column(name, justify=just, no_wrap=True)
    revenue = revenue_column(s.rules)
    table.add_column("revenue" if revenue else "tax chart", justify="right", no_wrap=True)
    order = sorted(range(len(s.board.codes)), key=lambda n: -s.power[n])
    for n in order:
        code = s.board.codes[n]
        pp = s.power[n]
        factor = power_factor(pp)
        nxt = f"+{5 - pp % 5} for {times}{factor + 1}" if factor < 5 else "the top"
        level = s.tax_level[n]
        tax = f"{tax_plan(s, n).revenue}M" if revenue else TAX_LABELS.get(level, str(level))
        table.add_row(
            Text(code, style=style(code)),
            str(pp),
            f"{times}{factor}",
            nxt,
            tax,
        )
    return table


def rounds_table(game: Game, hidden: Collection[str] = (), ascii_only: bool = False) -> Table:
    """The score round by round (rows) and player (columns), the leader of each round in
    bold; hidden players' bond points with '+?'."""
    rows = standings_by_round(game)
    table = Table(expand=False, show_edge=False, pad_edge=False, box=lines(ascii_only))
    table.add_column("round", justify="right", no_wrap=True)
    for name in game.players:
        table.add_column(name[:10], justify="right", no_wrap=True)
    for i, (number, result) in enumerate(rows):
        best = (
            max(result.scores[p] for p in game.players if p not in hidden)
            if len(hidden) < len(game.players)
            else None
        )
        cells = []
        for p in game.players:
            text = total_text(result, p, hidden)
            lead = best is not None and p not in hidden and result.scores[p] == best
            cells.append(Text(text, style="bold" if lead else ""))
        last = i == len(rows) - 1
        label = ("end" if game.is_over else "now") if last else str(number)
        table.add_row(label, *cells)
    return table
