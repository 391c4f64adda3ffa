"""The new-game screen: seats (name, human or computer with level), edition, variant, every
rule option with its one-line summary, seed and hidden cash. Keyboard only: tab between
fields, enter on an option cycles its value, ctrl+g starts."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from rules import OPTIONS, RuleSet
from rules.ruleset import EDITIONS, VARIANTS, _fmt

SEAT_KINDS = [
    ("human", "human"),
    ("computer (greedy)", "bot:greedy"),
    ("computer (random)", "bot:random"),
    ("empty seat", "off"),
]
DEFAULT_SEATS = [
    ("Anna", "human"),
    ("Ben", "bot:greedy"),
    ("Cleo", "bot:greedy"),
    ("Dan", "bot:greedy"),
    ("Emil", "off"),
    ("Fay", "off"),
]


class NewGameScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "start", "start game", id="new.start"),
    ]

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(10**6)
        self.rules = RuleSet.preset()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="newgame"):
            yield Static("New game of Imperial", classes="title")
            yield Static("Seats (2-6 players, clockwise)", classes="section")
            for i, (name, kind) in enumerate(DEFAULT_SEATS):
                with Horizontal(classes="seat"):
                    yield Static(f"{i + 1}", classes="seatno")
                    yield Input(name, id=f"seat-name-{i}", max_length=20, classes="seatname")
                    yield Select(
                        SEAT_KINDS,
                        value=kind,
                        allow_blank=False,
                        id=f"seat-kind-{i}",
                        classes="seatkind",
                    )
            with Horizontal(classes="row"):
                yield Static("edition", classes="label")
                yield Select(
                    [(e, e) for e in EDITIONS], value="first", allow_blank=False, id="edition"
                )
            with Horizontal(classes="row"):
                yield Static("variant", classes="label")
                yield Select(
                    [(v, v) for v in VARIANTS], value="standard", allow_blank=False, id="variant"
                )
            with Horizontal(classes="row"):
                yield Static("seed", classes="label")
                yield Input(str(self.seed), id="seed", restrict=r"[0-9]*")
            yield Checkbox("hidden cash (each player sees only his own cash)", id="hidden")
            yield Static("Rule options (enter changes the highlighted one)", classes="section")
            yield OptionList(*self.option_items(), id="options")
            yield Button("Start game (ctrl+g)", id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#seat-name-0", Input).focus()

    def option_items(self) -> list[Option]:
        values = self.rules.options()
        base = RuleSet.preset(self.rules.edition, self.rules.variant).options()
        items = []
        for name, info in OPTIONS.items():
            value = values[name]
            label = Text(f"{name} = {_fmt(value)}", style="bold" if value != base[name] else "")
            label.append(f"\n  {info.summary}", style="dim")
            items.append(Option(label, id=name))
        return items

    def refresh_options(self) -> None:
        ol = self.query_one("#options", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options(self.option_items())
        ol.highlighted = keep

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("edition", "variant"):
            edition = self.query_one("#edition", Select).value
            variant = self.query_one("#variant", Select).value
            self.rules = RuleSet.preset(str(edition), str(variant))
            self.refresh_options()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        name = event.option.id
        if name not in OPTIONS:
            return
        choices = OPTIONS[name].choices
        current = getattr(self.rules, name)
        nxt = choices[(choices.index(current) + 1) % len(choices)]
        self.rules = self.rules.with_options(**{name: nxt})
        self.refresh_options()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def seats(self) -> list[tuple[str, str]]:
        out = []
        for i in range(len(DEFAULT_SEATS)):
            kind = str(self.query_one(f"#seat-kind-{i}", Select).value)
            name = self.query_one(f"#seat-name-{i}", Input).value.strip()
            if kind != "off":
                out.append((name, kind))
        return out

    def action_start(self) -> None:
        seats = self.seats()
        seed_text = self.query_one("#seed", Input).value
        settings: dict[str, Any] = {
            "players": [n for n, _ in seats],
            "controllers": dict(seats),
            "rules": self.rules,
            "seed": int(seed_text) if seed_text else None,
            "hidden_cash": self.query_one("#hidden", Checkbox).value,
        }
        self.app.start_new_game(**settings)  # type: ignore[attr-defined]
