"""What happened while a player was away: "since your last turn" (the recap) and the
computer players' pause. Both are short lists over the game that close with Enter or Escape;
the recap opens again with w, the pause setting changes with p."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from imperial_tui.app.base import game_app
from imperial_tui.app.screens.guard import DismissFromTop, GuardedDialog
from imperial_tui.app.widgets.base import nation_text
from imperial_tui.model.follow import Pause
from imperial_tui.model.pacing import PAUSE_WORDS
from imperial_tui.model.recap import Recap
from imperial_tui.render.style import to_ascii


def recap_text(found: Recap, ascii_only: bool) -> Text:
    """The recap's lines, each with its nation's code in front."""
    out = Text()
    if found.empty:
        out.append("Nothing that concerns you has changed.", style="italic")
        return out
    for i, line in enumerate(found.lines):
        if i:
            out.append("\n")
        out.append("- ")
        if line.nation:
            out.append_text(nation_text(line.nation, " "))
        out.append(to_ascii(line.text) if ascii_only else line.text)
    return out


class RecapScreen(DismissFromTop, GuardedDialog, ModalScreen[None]):
    """Since your last turn: the changes that matter to the player, most important first."""

    # priority: the app runs these itself, in the order typed. Otherwise it hands a key to
    # the screen's queue and takes the next one before the screen has closed on the first:
    # Enter, Down typed quickly would scroll the closing recap and lose the Down.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,w,space", "close", "close", id="recap.close", priority=True),
        Binding("down", "scroll(1)", "scroll", id="recap.down", show=False, priority=True),
        Binding("up", "scroll(-1)", "scroll up", id="recap.up", show=False, priority=True),
        Binding(
            "pagedown", "scroll(5)", "page down", id="recap.pagedown", show=False, priority=True
        ),
        Binding("pageup", "scroll(-5)", "page up", id="recap.pageup", show=False, priority=True),
        # the board's undo, as from the board: the recap closes, then the undo question
        Binding("ctrl+z", "undo", "undo", id="recap.undo", show=False, priority=True),
    ]
    # keys the recap answers itself; any other key closes it and goes to the board, so the
    # recap never stands in the way (2 shows the bonds at once, v the standings ...)
    OWN_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"enter", "escape", "w", "space", "down", "up", "pagedown", "pageup"}
    )

    def __init__(self, found: Recap, ascii_only: bool = False) -> None:
        super().__init__()
        self.found = found
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        d = self.found
        who = ", ".join(d.actors) if d.actors else "nobody else"
        head = Text(f"{d.player}: since your last turn", style="bold")
        span = f"action {d.end}" if d.end == d.start + 1 else f"actions {d.start + 1}-{d.end}"
        head.append(f"  ({span}, by {who})", style="dim")
        with Vertical(classes="dialog wide-dialog", id="recap"):
            yield Static(head, classes="question")
            with VerticalScroll(id="recap-lines"):
                yield Static(recap_text(d, self.ascii_only))
            yield Static(
                "enter close   w shows this again   v standings   h history", classes="hint"
            )

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if (
            key in self.OWN_KEYS
            or key.startswith(("ctrl+", "shift+"))
            or re.fullmatch(r"f\d+", key)
        ):
            return  # its own keys, and the app's (ctrl+q, F1 ...)
        event.stop()
        event.prevent_default()
        if self.app.screen is self:
            self.dismiss(None)
            self.app.call_after_refresh(self.app.simulate_key, key)

    def action_scroll(self, lines: int) -> None:
        # a key queued while the screen closes finds its widgets gone: nothing to scroll
        for scroll in self.query("#recap-lines").results(VerticalScroll):
            scroll.scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_undo(self) -> None:
        app = game_app(self)
        self.dismiss(None)
        app.action_undo()


class PausedScreen(DismissFromTop, GuardedDialog, ModalScreen[str | None]):
    """The computer players wait: what they just did (with their reasons), until Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "go_on", "go on", id="paused.go", priority=True),
        Binding("p", "cycle", "pause setting", id="paused.cycle"),
        # the board's undo, as from the board: the pause closes, then the undo question
        Binding("ctrl+z", "undo", "undo", id="paused.undo", show=False, priority=True),
    ]

    def __init__(self, pause: Pause, mode: str, ascii_only: bool = False) -> None:
        super().__init__()
        self.pause = pause
        self.mode = mode
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        body = Text()
        for i, (nation, text) in enumerate(self.pause.lines):
            if i:
                body.append("\n")
            if nation:
                body.append_text(nation_text(nation, " "))
            body.append(to_ascii(text) if self.ascii_only else text)
        with Vertical(classes="dialog wide-dialog", id="paused"):
            yield Static(Text(self.pause.title, style="bold"), classes="question")
            with VerticalScroll(id="paused-lines"):
                yield Static(body)
            yield Static(self.hint(), id="paused-hint", classes="hint")

    def hint(self) -> str:
        return f"enter go on   p change ({PAUSE_WORDS.get(self.mode, self.mode)})"

    def action_cycle(self) -> None:
        self.mode = game_app(self).cycle_pause()
        self.query_one("#paused-hint", Static).update(self.hint())

    def action_go_on(self) -> None:
        self.dismiss(None)

    def action_undo(self) -> None:
        self.dismiss("undo")
