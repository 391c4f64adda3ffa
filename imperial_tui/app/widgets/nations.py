"""Treasuries panel: per nation its governor, treasury, power and factor, tax level (in
Imperial 2030, which keeps no tax chart, the revenue a Taxation would bring now), units on the
board, flags and factories. Always visible."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from imperial_tui.app.widgets.base import Panel, nation_text
from imperial_tui.render.show import revenue_column
from rules.scoring import power_factor
from rules.state import NO
from rules.taxation import tax_plan


class NationsPanel(Panel):
    """The six nations' key figures, the acting nation marked."""

    FIXED_SIZE = True  # nine lines (app.tcss): a new figure needs no new layout
    SHARED = True

    def key(self, session: Any) -> Any:
        s = session.view.state
        revenue = revenue_column(s.rules)
        rows = []
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

    def render_key(self, key: Any) -> Any:
        rows, times, pointer = key
        table = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False)
        for name, just in (
            ("", "left"),
            ("gov", "left"),
            ("tr", "right"),
            (f"pp{times}f", "right"),
            ("tax", "right"),
            ("A/F", "right"),
            ("flg", "right"),
            ("fac", "right"),
        ):
            table.add_column(name, justify=just, no_wrap=True)  # type: ignore[arg-type]
        for code, gov, tr, pp, f, tax, a, fl, flags, fac, acting in rows:
            mark = pointer if acting else " "
            table.add_row(
                Text(mark) + nation_text(code),
                Text(gov[:9], style="bold" if acting else ""),
                str(tr),
                f"{pp}{times}{f}",
                str(tax),
                f"{a}/{fl}",
                str(flags),
                str(fac),
            )
        return table
