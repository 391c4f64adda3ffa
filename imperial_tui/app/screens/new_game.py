"""The new-game screen: seats (name, human or computer with level), the game (Imperial or
Imperial 2030), edition, variant, every rule option of that game with its one-line summary,
seed and hidden cash. Keyboard only: tab between fields, enter on an option cycles its value,
ctrl+g starts."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from imperial_tui.app.screens.guard import GuardedScreen
from imperial_tui.app.widgets.base import Hanging
from imperial_tui.app.widgets.footer import KeysFooter
from rules import OPTIONS, RuleSet
from rules.bots.levels import LEVELS
from rules.controllers import HUMAN, Controller
from rules.games import GAME_INFO, GameInfo, game_info
from rules.options import format_value
from rules.ruleset import EDITIONS, VARIANTS


def game_text(info: GameInfo) -> str:
    """What the game is, in one line (its nations from the game's own data)."""
    where = "Europe, 1914" if info.board == "europe" else "the world with two canals"
    only = f" (the {info.editions[0]} rules only)" if len(info.editions) == 1 else ""
    return f"{where}: {' '.join(info.nations)}{only}"


# What the edition and the variant change, one line each (the rule options below show every
# single difference).
EDITION_TEXT = {
    "first": "10 flags a nation, set-up bonds 9M + 4M, no cash, no Swiss banks",
    "2010": "30M bond, 15 flags, set-up bonds 9M + 2M + 2M cash, Swiss banks",
}
VARIANT_TEXT = {
    "standard": "flag cards deal the starting bonds; the investor card goes round",
    "experienced": "no flag cards: players get cash and buy the starting bonds in turn",
    "no-investor-card": "no investor card: after each nation's turn, players invest in it",
}

# the computer levels come from rules.bots (one-line descriptions in LEVELS), random last
SEAT_KINDS = [
    (HUMAN, HUMAN),
    *((f"computer ({name})", Controller.bot(name)) for name in sorted(LEVELS, key="random".__eq__)),
    ("empty seat", "off"),
]
DEFAULT_SEATS = [
    ("Anna", HUMAN),
    ("Ben", Controller.bot("greedy")),
    ("Cleo", Controller.bot("greedy")),
    ("Dan", Controller.bot("greedy")),
    ("Emil", "off"),
    ("Fay", "off"),
]


def _level(word: str) -> str | None:
    """The computer level of a seat's word ('bot:greedy' -> 'greedy'), None for the rest."""
    try:
        return Controller(word).level
    except ValueError:
        return None


class OnOffCheckbox(Checkbox):
    """The hidden-cash switch, saying "on" or "off" in words and leaving the box empty when
    off: without colour (NO_COLOR) Textual's checkbox looks the same either way."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(self.words(False), id=id)
        self.BUTTON_INNER = " "

    @staticmethod
    def words(on: bool) -> str:
        if on:
            return "hidden cash: on (each player sees only their own cash)"
        return "hidden cash: off (everyone's cash is shown)"

    def watch_value(self) -> None:
        super().watch_value()
        self.BUTTON_INNER = "X" if self.value else " "
        self.label = self.words(self.value)


class FormField(Input):
    """A line of the form (a seat's name, the seed) that down and up leave for the line
    below and above: the next seat's name, then the seed. A line has no use for them, and
    the form around it scrolled instead: a newcomer pressed down twice, typed, and replaced
    seat 1's name. (A dropdown and the options list keep their own up and down; tab goes
    through every field.)"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "line(1)", "next line", show=False),
        Binding("up", "line(-1)", "line above", show=False),
    ]

    def action_line(self, step: int) -> None:
        lines = list(self.screen.query(FormField))
        at = lines.index(self) + step
        if 0 <= at < len(lines):
            lines[at].focus()
        elif step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()


class NewGameScreen(GuardedScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "start", "start game", id="new.start"),
        Binding("ctrl+o", "app.load", "load / continue a game", id="new.load"),
    ]

    # The SSH server's lobby offers other seat kinds (a seat open for anyone) and defaults.
    seat_kinds: ClassVar[list[tuple[str, str]]] = SEAT_KINDS
    default_seats: ClassVar[list[tuple[str, str]]] = DEFAULT_SEATS

    def __init__(
        self,
        seed: int | None = None,
        seats: Sequence[tuple[str, str]] | None = None,
        rules: RuleSet | None = None,
        hidden_cash: bool = False,
    ) -> None:
        """``seats`` (names and controllers) and ``rules`` fill the screen in, e.g. from the
        game on show when ctrl+n asks for a new one; the other seats stay empty."""
        super().__init__()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(10**6)
        self.rules = rules or RuleSet.preset()
        self.hidden_cash = hidden_cash
        self.given_seats = seats

    def initial_seats(self) -> list[tuple[str, str]]:
        """The seats shown first: those given, then empty ones; else the defaults (read at
        compose time: the server's lobby sets its own after this screen's ``__init__``)."""
        kinds = {value for _, value in self.seat_kinds}
        defaults = self.default_seats
        if not self.given_seats:
            return list(defaults)
        given = [
            (name, kind if kind in kinds else Controller.bot("greedy"))
            for name, kind in self.given_seats[: len(defaults)]
        ]
        return given + [(name, "off") for name, _ in defaults[len(given) :]]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="newgame"):
            yield Static(f"New game of {self.rules.title}", id="newgame-title", classes="title")
            yield Static("Seats (2-6 players, clockwise)", classes="section")
            for i, (name, kind) in enumerate(self.initial_seats()):
                with Horizontal(classes="seat"):
                    yield Static(f"{i + 1}", classes="seatno")
                    yield FormField(name, id=f"seat-name-{i}", max_length=20, classes="seatname")
                    yield Select(
                        self.seat_kinds,
                        value=kind,
                        allow_blank=False,
                        id=f"seat-kind-{i}",
                        classes="seatkind",
                    )
            levels = [(level, level) for _, word in self.seat_kinds if (level := _level(word))]
            if levels:
                with Horizontal(classes="row"):
                    yield Static("computers", classes="label")
                    yield Select(
                        [("each as set above", "")] + [(f"all {w}", v) for w, v in levels],
                        value="",
                        allow_blank=False,
                        id="all-computers",
                    )
            with Horizontal(classes="row"):
                yield Static("game", classes="label")
                yield Select(
                    [(info.title, name) for name, info in GAME_INFO.items()],
                    value=self.rules.game,
                    allow_blank=False,
                    id="game",
                )
            info = game_info(self.rules.game)
            yield Static(game_text(info), id="game-text", classes="explain")
            with Horizontal(classes="row"):
                yield Static("edition", classes="label")
                yield Select(
                    [(e, e) for e in EDITIONS if e in info.editions],
                    value=self.rules.edition,
                    allow_blank=False,
                    id="edition",
                )
            yield Static(EDITION_TEXT[self.rules.edition], id="edition-text", classes="explain")
            with Horizontal(classes="row"):
                yield Static("variant", classes="label")
                yield Select(
                    [(v, v) for v in VARIANTS],
                    value=self.rules.variant,
                    allow_blank=False,
                    id="variant",
                )
            yield Static(VARIANT_TEXT[self.rules.variant], id="variant-text", classes="explain")
            with Horizontal(classes="row"):
                yield Static("seed", classes="label")
                yield FormField(str(self.seed), id="seed", restrict=r"[0-9]*")
            yield OnOffCheckbox(id="hidden")
            yield Static("Rule options (enter changes the highlighted one)", classes="section")
            yield OptionList(*self.option_items(), id="options")
            yield Button("Start game (ctrl+g)", id="start", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        from imperial_tui.app.widgets.ascii import asciify

        if self.hidden_cash:  # as in the game on show (a subclass may set its own default)
            self.query_one("#hidden", Checkbox).value = True
        self.query_one("#seat-name-0", Input).focus()
        asciify(self, bool(getattr(self.app, "ascii_only", False)))

    def option_items(self) -> list[Option]:
        values = self.rules.options()
        base = RuleSet.preset(self.rules.edition, self.rules.variant, self.rules.game).options()
        items = []
        for name, value in values.items():  # the options of this game
            info = OPTIONS[name]
            head = Text(
                f"{name} = {format_value(value)}", style="bold" if value != base[name] else ""
            )
            head.append("\n  ")
            # the summary wraps under itself, not back to column 0
            items.append(Option(Hanging(head, Text(info.summary, style="dim")), id=name))
        return items

    def refresh_options(self) -> None:
        ol = self.query_one("#options", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options(self.option_items())
        ol.highlighted = keep

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "all-computers" and event.value:
            word = Controller.bot(str(event.value))
            for seat in self.query(".seatkind").results(Select):
                if _level(str(seat.value)):
                    seat.value = word  # every computer seat at this level
            return
        if event.select.id == "game":
            game = str(event.value)
            if game == self.rules.game:
                return  # the value it was given: the rule options stay as they are
            info = game_info(game)
            self.rules = RuleSet.preset(None, self.rules.variant, game)
            self.query_one("#game-text", Static).update(game_text(info))
            self.query_one("#newgame-title", Static).update(f"New game of {info.title}")
            editions: Select[str] = self.query_one("#edition", Select)
            with editions.prevent(Select.Changed):  # the preset above chose the edition
                editions.set_options([(e, e) for e in EDITIONS if e in info.editions])
                editions.value = self.rules.edition
            self.query_one("#edition-text", Static).update(EDITION_TEXT[self.rules.edition])
            self.refresh_options()
        elif event.select.id in ("edition", "variant"):
            edition = self.query_one("#edition", Select).value
            variant = self.query_one("#variant", Select).value
            if (edition, variant) == (self.rules.edition, self.rules.variant):
                return  # the value it was given: the rule options stay as they are
            self.rules = RuleSet.preset(str(edition), str(variant), self.rules.game)
            self.query_one("#edition-text", Static).update(EDITION_TEXT[str(edition)])
            self.query_one("#variant-text", Static).update(VARIANT_TEXT[str(variant)])
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
        for i in range(len(self.default_seats)):
            kind = str(self.query_one(f"#seat-kind-{i}", Select).value)
            name = self.query_one(f"#seat-name-{i}", Input).value.strip()
            if kind != "off":
                out.append((name, kind))
        return out

    def action_start(self) -> None:
        seats = self.seats()
        seed_text = self.query_one("#seed", Input).value
        from imperial_tui.app.local import ImperialApp

        app = self.app
        assert isinstance(app, ImperialApp)  # (the server's screen starts its own way)
        app.start_new_game(
            players=[n for n, _ in seats],
            controllers=dict(seats),
            rules=self.rules,
            seed=int(seed_text) if seed_text else None,
            hidden_cash=self.query_one("#hidden", Checkbox).value,
        )
