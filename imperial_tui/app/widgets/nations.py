"""Treasuries panel: per nation its governor, treasury, power and factor, tax level (in
Imperial 2030, which keeps no tax chart, the revenue a Taxation would bring now), units on the
board, flags and factories. Always visible."""

from __future__ import annotations

from rich._ratio import ratio_distribute  # (Rich's sharing out of a table's room)
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from imperial_tui.app.widgets.base import Panel, nation_text
from imperial_tui.model.session import SessionView
from imperial_tui.render.show import revenue_column
from rules.scoring import power_factor
from rules.state import NO
from rules.taxation import tax_plan

# code, governor, treasury, power, factor, tax level (2030: the revenue), armies, fleets,
# flags, factories, acting
NationRow = tuple[str, str, int, int, int, int, int, int, int, int, bool]
NationsKey = tuple[tuple[NationRow, ...], str, str]  # the rows, the times and pointer glyphs


class NationsPanel(Panel[NationsKey]):
    """The six nations' key figures, the acting nation marked."""

    FIXED_SIZE = True  # nine lines (app.tcss): a new figure needs no new layout
    SHARED = True

    def key(self, session: SessionView) -> NationsKey:
        s = session.view.state
        revenue = revenue_column(s.rules)
        rows: list[NationRow] = []
        for n, code in enumerate(s.board.codes):
            gov = s.government[n]
            rows.append(
                (
                    code,
                    s.players[gov] if gov != NO else "-",
                    s.treasury[n],
                    s.power[n],
                    power_factor(s.power[n]),
                    tax_plan(s, n).revenue if revenue else s.tax_level[n],
                    sum(s.armies[n]),
                    sum(s.fleets[n]),
                    s.flag.count(n),
                    len(s.factories_of(n)),
                    n == s.turn and not s.finished,
                )
            )
        return tuple(rows), self.g.times, self.g.pointer

    def render_key(self, key: NationsKey) -> RenderableType:
        rows, times, pointer = key
        header = [Text(name) for name, _ in COLUMNS]
        header[3] = Text(f"pp{times}f")
        body = [
            [
                Text(pointer if acting else " ") + nation_text(code),
                Text(gov[:9], style="bold" if acting else ""),
                Text(str(tr)),
                Text(f"{pp}{times}{f}"),
                Text(str(tax)),
                Text(f"{a}/{fl}"),
                Text(str(flags)),
                Text(str(fac)),
            ]
            for code, gov, tr, pp, f, tax, a, fl, flags, fac, acting in rows
        ]
        return Grid(header, body, [just == "right" for _, just in COLUMNS])


# the columns: header and justification (the header of power and factor is spelt per glyphs)
COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("", "left"),
    ("gov", "left"),
    ("tr", "right"),
    ("pp×f", "right"),
    ("tax", "right"),
    ("A/F", "right"),
    ("flg", "right"),
    ("fac", "right"),
)


class Grid:
    """The table as Rich's ``Table(box=None, padding=(0, 1, 0, 0), expand=True,
    show_edge=False)`` draws it, cell for cell: each column as wide as its widest cell and one
    space, the room left shared out in proportion to those widths (Rich's own
    ``ratio_distribute``), the header in the console's "table.header" style. Rich's table
    measures and renders every cell through the console, a fifth of the first frame's drawing
    (issue 26); these few lines of text need none of it. Where the columns do not fit (never
    at the panel's width) Rich's table draws it."""

    def __init__(self, header: list[Text], rows: list[list[Text]], right: list[bool]) -> None:
        self.header = header
        self.rows = rows
        self.right = right

    def _widths(self) -> list[int]:
        return [
            max(cell.cell_len for cell in column) + 1
            for column in zip(self.header, *self.rows, strict=True)
        ]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(sum(self._widths()), options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths = self._widths()
        room = options.max_width - sum(widths)
        if room < 0:
            yield self._table()
            return
        if room:
            widths = [
                w + extra for w, extra in zip(widths, ratio_distribute(room, widths), strict=True)
            ]
        header_style = console.get_style("table.header")
        for index, row in enumerate([self.header, *self.rows]):
            style = header_style if index == 0 else None  # the cell's, its padding's too
            line = Text(end="")
            for cell, width, right in zip(row, widths, self.right, strict=True):
                text = Text(cell.plain, style=header_style) if index == 0 else cell.copy()
                pad = width - 1 - text.cell_len  # (justified in the text's own style)
                text.pad_left(pad) if right else text.pad_right(pad)
                line.append_text(text)
                line.append(" ", style)
            yield line
            yield Segment.line()

    def _table(self) -> Table:
        table = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False)
        for cell, right in zip(self.header, self.right, strict=True):
            table.add_column(cell, justify="right" if right else "left", no_wrap=True)
        for row in self.rows:
            table.add_row(*row)
        return table
