"""The command palette (ctrl+p): new game, save, load, undo, rules topics (Textual's own
system commands add the theme switch and quit)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import on, work
from textual.command import CommandPalette, Hit, Hits, Provider
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Button, Input, OptionList

from imperial_tui.app.screens.guard import DismissFromTop
from imperial_tui.render.rules_text import page, topics

# (title, the app's action, help): the palette offers those the app's check_action allows
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("New game", "new_game", "set up a new game (asks first)"),
    ("Save", "save", "save the game to its file"),
    ("Save as...", "save_as", "save the game to another file"),
    ("Load...", "load", "resume a saved game"),
    ("Undo", "undo", "take back the last decision (asks first)"),
    ("Donate...", "donate", "give cash to a treasury, at any time (d)"),
    ("Toggle ASCII mode", "toggle_ascii", "plain characters only"),
)


class ImperialCommands(Provider):
    def commands(self) -> list[tuple[str, Callable[[], object], str]]:
        from imperial_tui.app.base import GameApp  # (which imports this module)

        app = self.app
        assert isinstance(app, GameApp), "the palette's commands are a GameApp's"
        out: list[tuple[str, Callable[[], object], str]] = [
            (title, getattr(app, f"action_{action}"), help_text)
            for title, action, help_text in COMMANDS
            if app.check_action(action, ()) and hasattr(app, f"action_{action}")
        ]
        for t in topics():
            out.append((f"Rules: {page(t)[0]}", partial(app.action_help, t), f"imperial rules {t}"))
        return out

    async def discover(self) -> Hits:
        for name, callback, help_text in self.commands():
            yield Hit(1.0, name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self.commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


# Textual's own search coroutine, beneath its worker decorator
_GATHER = CommandPalette._gather_commands.__wrapped__  # type: ignore[attr-defined]  # (@work's)


class Palette(DismissFromTop, CommandPalette):
    """Textual's command palette, closed only once however fast Enter is pressed: a second
    Enter would otherwise close the screen beneath and run the command twice."""

    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _only_while_on_top(self, event: Message) -> None:
        """A choice that arrives after the palette closed is dropped before Textual's own
        handlers see it (they would close the screen beneath and run the command again)."""
        if self.app.screen is not self:
            event.prevent_default()
            event.stop()

    def on_mount(self) -> None:
        from imperial_tui.app.widgets.ascii import asciify

        asciify(self, bool(getattr(self.app, "ascii_only", False)))

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        """Textual's search, which fails if the palette closes while it starts or runs (a
        fast typist again): then there is simply nothing left to show."""
        try:
            await _GATHER(self, search_value)
        except NoMatches:
            return
