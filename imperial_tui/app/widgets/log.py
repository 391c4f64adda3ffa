"""Log panel: every action's events under the action's number (the number the recap, the
history, undo and `imperial log` use), grouped by nation turn, each computer decision followed
by its reason before the next turn's heading; appended incrementally (a new event sends one
line over SSH, not the whole log).

Lines are wrapped to the panel's real width: a log that is hidden (another tab on show) writes
nothing and catches up when it is shown again, so nothing is wrapped to a width it never had.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from imperial_tui.app.widgets.base import Hanging, nation_text
from imperial_tui.model.reasons import reason_for
from imperial_tui.render.style import glyphs, to_ascii
from rules.history import decider, is_turn_heading


class LogPanel(RichLog):
    """The game's log; ``show`` writes what is new since the last call."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, **kwargs)
        self._plies = -1  # actions written (-1: not even the set-up events yet)
        self._chats = 0  # chat lines written (a game on the SSH server has them)
        self._version: Any = None
        self._session: Any = None
        self._width = 0
        self._pending = False  # a change arrived while the panel could not be drawn

    @property
    def ascii_only(self) -> bool:
        return bool(getattr(self.app, "ascii_only", False))

    def _drawable_width(self) -> int:
        """The width lines are wrapped to; 0 while the panel is hidden (a hidden tab is laid
        out with no width) or not laid out yet."""
        if not self.is_mounted:
            return 0
        return max(0, self.scrollable_content_region.width)

    def on_resize(self) -> None:
        width = self._drawable_width()
        if width and (width != self._width or self._pending) and self._session is not None:
            self.show(self._session, force=True)

    def on_show(self) -> None:
        if self._pending and self._session is not None:
            self.call_after_refresh(self._catch_up)

    def _catch_up(self) -> None:
        if self._pending and self._session is not None:
            self.show(self._session, force=True)

    def show(self, session: Any, force: bool = False) -> bool:
        self._session = session
        key = (session.version, len(session.view.plies), id(session.view))
        if not force and key == self._version and not self._pending:
            return False
        width = self._drawable_width()
        if not width:
            self._pending = True  # written when the panel is shown at its real width
            return False
        self._pending = False
        self._version = key
        game = session.view
        plies = game.plies
        if force or width != self._width or self._plies < 0 or len(plies) < self._plies:
            self.clear()
            self._plies, self._chats = -1, 0
        self._width = width
        if self._plies < 0:
            for event in game.start_events:
                self._write_event(None, event, width)
            self._plies = 0
        reasons = getattr(session, "reasons", {})
        mark = glyphs(self.ascii_only).arrow
        # the server's chat: (actions before it, "anna: text"), in the order said
        chat: tuple[tuple[int, str], ...] = tuple(getattr(game, "chat", ()))
        for number in range(self._plies + 1, len(plies) + 1):
            while self._chats < len(chat) and chat[self._chats][0] < number:
                self._write_chat(chat[self._chats][1], width)
            ply = plies[number - 1]
            # the action's own events, then its reason, then the next turn's heading (an
            # action that ends a turn also opens the next one)
            split = next(
                (i for i, e in enumerate(ply.events) if i and is_turn_heading(e)),
                len(ply.events),
            )
            for i, event in enumerate(ply.events[:split]):
                self._write_event(None if i else number, event, width)
            why = reason_for(reasons, number, ply.action)
            if why:
                self._write_reason(decider(ply), why, mark, width)
            for event in ply.events[split:]:
                self._write_event(None, event, width)
        self._plies = len(plies)
        while self._chats < len(chat):
            self._write_chat(chat[self._chats][1], width)
        return True

    def _write_chat(self, said: str, width: int) -> None:
        self._chats += 1
        words = to_ascii(said) if self.ascii_only else said
        self.write(Hanging(Text("     "), Text(words, style="italic")), width=width)

    def _write_event(self, number: int | None, event: Any, width: int) -> None:
        self.write(self.hanging(self.line(number, event, self.ascii_only)), width=width)

    def _write_reason(self, player: str | None, why: str, mark: str, width: int) -> None:
        words = to_ascii(why) if self.ascii_only else why
        line = Text(f"     {mark} ", style="dim")
        line.append(f"{player} (computer): " if player else "", style="dim italic")
        line.append(words, style="italic")
        self.write(Hanging(Text("     "), line[5:]), width=width)

    @staticmethod
    def hanging(line: Text) -> Any:
        """An event line wraps under its text, not under its number column (a turn's
        heading is left as it is)."""
        if line.plain[:5].strip().isdigit() or (line.plain[:5] == "     "):
            return Hanging(line[:5], line[5:])
        return line

    @staticmethod
    def line(number: int | None, event: Any, ascii_only: bool = False) -> Text:
        """One event: under its action's number (first event of the action), else under a
        blank number column; a turn's heading in bold."""
        words = to_ascii(event.text) if ascii_only else event.text
        if event.text.startswith("—") or event.text.startswith("-"):
            return Text(words, style="bold")
        text = Text(f"{number:4} " if number is not None else "     ", style="dim")
        if event.nation:
            text.append_text(nation_text(event.nation, " "))
        text.append(words)
        return text
