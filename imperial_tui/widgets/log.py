"""Log panel: every event numbered, grouped by nation turn, appended incrementally (a new event
sends one line over SSH, not the whole log)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from imperial_tui.style import to_ascii
from imperial_tui.widgets.base import Hanging, nation_text


class LogPanel(RichLog):
    """Lines are wrapped to the panel's width when written; a panel written while hidden (in
    another tab) or before a resize is rewritten at its real width, so no line is cut."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, **kwargs)
        self._written = 0
        self._version = -1
        self._session: Any = None
        self._width = 0

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._width and self._session is not None:
            self._width = width
            self.show(self._session, force=True)

    @property
    def ascii_only(self) -> bool:
        return bool(getattr(self.app, "ascii_only", False))

    def show(self, session: Any, force: bool = False) -> bool:
        self._session = session
        if not force and session.version == self._version:
            return False
        self._version = session.version
        events = session.game.events()
        if len(events) < self._written or force:
            self.clear()
            self._written = 0
        for i in range(self._written, len(events)):
            self.write(self.hanging(self.line(i + 1, events[i], self.ascii_only)))
        self._written = len(events)
        return True

    @staticmethod
    def hanging(line: Text) -> Any:
        """A numbered line wraps under its text, not under its number (a turn's heading,
        unnumbered, is left as it is)."""
        if line.plain[:5].strip().isdigit():
            return Hanging(line[:5], line[5:])
        return line

    @staticmethod
    def line(number: int, event: Any, ascii_only: bool = False) -> Text:
        words = to_ascii(event.text) if ascii_only else event.text
        if event.text.startswith("—") or event.text.startswith("-"):
            return Text(words, style="bold")
        text = Text(f"{number:4} ", style="dim")
        if event.nation:
            text.append_text(nation_text(event.nation, " "))
        text.append(words)
        return text
