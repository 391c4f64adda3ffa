"""The lobby: the first screen after connecting. Your games (marked where the decision is
yours), open games with free seats, games to watch, finished games; create a game with the
app's new-game screen; leave. Keyboard only, 80x24."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.app.screens.new_game import SEAT_KINDS, NewGameScreen
from imperial_tui.app.widgets.footer import KeysFooter
from imperial_tui.server.hub import LobbyRow

if TYPE_CHECKING:
    from imperial_tui.server.app import ServerApp

SECTIONS = (
    ("yours", "Your games"),
    ("open", "Open games: free seats"),
    ("watch", "Games to watch"),
    ("finished", "Finished games"),
)


def server_app(node: DOMNode) -> ServerApp:
    """The server's app a screen is in, typed (Textual types ``node.app`` as any app)."""
    from imperial_tui.server.app import ServerApp

    app = node.app
    assert isinstance(app, ServerApp), f"{type(node).__name__} outside the server's app"
    return app


def section_of(row: LobbyRow) -> str:
    if row.status in ("finished", "damaged") and not row.yours:
        return "finished"
    if row.yours:
        return "yours"
    if row.status == "open" and (row.free or row.kept):  # (a seat this user may take)
        return "open"
    return "watch"


class LobbyScreen(Screen[None]):
    HOME = True  # the server app's home: games open over it, and close back to it
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "new game", id="lobby.new"),
        Binding("r", "refresh", "refresh", id="lobby.refresh", show=False),
        Binding("q", "app.request_quit", "leave", id="lobby.leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._rows: tuple[LobbyRow, ...] | None = None

    @property
    def server(self) -> ServerApp:
        return server_app(self)

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        yield OptionList(id="lobby-games")
        yield Static(id="lobby-detail")
        yield KeysFooter()

    def on_mount(self) -> None:
        title = Text(" Imperial ", style="bold reverse")
        title.append(f"  server lobby - you are {self.server.user}")
        self.query_one("#lobby-title", Static).update(title)
        self.query_one("#lobby-games", OptionList).focus()
        self.call_after_refresh(self.action_refresh)

    def on_screen_resume(self) -> None:
        self.show_games()

    def show_games(self) -> bool:
        """Rebuild the list when a line changed (keeps the highlighted game)."""
        rows = tuple(
            sorted(self.server.hub.listing(self.server.user), key=lambda r: (-r.your_turn, -r.id))
        )
        if rows == self._rows:
            return False
        self._rows = rows
        ol = self.query_one("#lobby-games", OptionList)
        keep = ol.highlighted_option.id if ol.highlighted_option is not None else None
        ol.clear_options()
        pointer = "*" if self.server.ascii_only else "▶"
        for key, title in SECTIONS:
            members = [r for r in rows if section_of(r) == key]
            if not members and key in ("finished", "watch"):
                continue
            ol.add_option(Option(Text(title, style="bold underline"), disabled=True))
            if not members:
                none = "none yet: n starts one" if key == "yours" else "none"
                ol.add_option(Option(Text(f"  {none}", style="dim"), disabled=True))
            for r in members:
                line = Text(no_wrap=True, overflow="ellipsis")
                line.append(f"{pointer if r.your_turn else ' '} ", style="bold")
                line.append(f"#{r.id:<3} ", style="dim")
                line.append(f"{r.title[:22]:22} ")
                style = "bold" if r.your_turn else ("italic" if r.status == "open" else "")
                line.append(("YOUR TURN - " if r.your_turn else "") + r.turn, style=style)
                ol.add_option(Option(line, id=f"g:{r.id}"))
        ids = [o.id for o in ol.options]
        if keep is not None and keep in ids:
            ol.highlighted = ids.index(keep)
        else:
            first = next((i for i, o in enumerate(ol.options) if not o.disabled), None)
            ol.highlighted = first
        self.show_detail()
        return True

    def row(self, game_id: int) -> LobbyRow | None:
        return next((r for r in self._rows or () if r.id == game_id), None)

    def highlighted_row(self) -> LobbyRow | None:
        option = self.query_one("#lobby-games", OptionList).highlighted_option
        if option is None or not option.id or not option.id.startswith("g:"):
            return None
        return self.row(int(option.id[2:]))

    def show_detail(self) -> None:
        r = self.highlighted_row()
        text = Text()
        if r is None:
            text.append("n: new game   q: leave", style="dim")
        else:
            text.append(f"#{r.id} {r.title}", style="bold")
            text.append(f" - {r.game}\n")
            width = max(20, self.query_one("#lobby-detail", Static).size.width - 2)
            text.append("\n".join(seat_lines(r.seats, width)) + "\n")
            what = {
                "yours": "enter: play" if r.status != "open" else "waiting for players",
                "open": "enter: take the seat kept for you"
                if r.kept
                else "enter: take a free seat",
                "watch": "enter: watch (read-only)",
                "finished": "enter: look at the final position",
            }[section_of(r)]
            text.append(what, style="italic")
        self.query_one("#lobby-detail", Static).update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id
        if oid and oid.startswith("g:"):
            self.server.enter_game(int(oid[2:]))

    def action_new(self) -> None:
        self.app.push_screen(ServerNewGameScreen(self.server.user))

    def action_refresh(self) -> None:
        self._rows = None
        self.show_games()


def seat_lines(seats: str, width: int) -> list[str]:
    """The seats ("seats: anna, Cleo (greedy), ...") in lines of at most ``width`` cells,
    broken only between seats, so that no name or level is ever cut ("Dan (greedy)" stays
    whole)."""
    lines: list[str] = []
    line = "seats:"
    for seat in seats.split(", "):
        piece = f" {seat},"
        if len(line) + len(piece) > width and line.strip() not in ("seats:", ""):
            lines.append(line)
            line = "      "
        line += piece
    lines.append(line.rstrip(","))
    return lines


def server_seat_kinds() -> list[tuple[str, str]]:
    """The app's seat kinds with "human" meaning a named player, plus a seat open to anyone."""
    out: list[tuple[str, str]] = []
    for label, value in SEAT_KINDS:
        if value == "human":
            out.append(("player of this name", "human"))
            out.append(("open: anyone may join", "open"))
        else:
            out.append((label, value))
    return out


class ServerNewGameScreen(NewGameScreen):
    """The app's new-game screen, with seats for the server: yours, open ones, computers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "back to the lobby", id="new.cancel"),
    ]

    seat_kinds: ClassVar[list[tuple[str, str]]] = server_seat_kinds()
    # the first seat is the creator's (``initial_seats``)
    default_seats: ClassVar[list[tuple[str, str]]] = [
        ("", "human"),
        ("", "open"),
        ("Cleo", "bot:greedy"),
        ("Dan", "off"),
        ("Emil", "off"),
        ("Fay", "off"),
    ]

    def __init__(self, user: str, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.user = user

    def initial_seats(self) -> list[tuple[str, str]]:
        """The defaults, the first seat the creator's."""
        return [(self.user, "human"), *self.default_seats[1:]]

    def on_mount(self) -> None:
        from textual.widgets import Checkbox

        # a server game is seen from each player's own seat: hidden cash unless turned off
        self.query_one("#hidden", Checkbox).value = True

    def action_start(self) -> None:
        from textual.widgets import Checkbox, Input

        seed_text = self.query_one("#seed", Input).value
        server_app(self).create_game(
            seats=self.seats(),
            rules=self.rules,
            seed=int(seed_text) if seed_text else None,
            hidden_cash=self.query_one("#hidden", Checkbox).value,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
