"""The panel base: render from the session, repaint only when the rendered figures change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.widgets import Static

from imperial_tui.style import NATION_STYLE, Glyphs, glyphs

if TYPE_CHECKING:
    from imperial_tui.session import Session


def nation_text(code: str, suffix: str = "") -> Text:
    """A nation always by its code, coloured when the terminal has colour."""
    return Text(code + suffix, style=NATION_STYLE.get(code, ""))


class Hanging:
    """An option label whose second part wraps under itself (a hanging indent): a rondel
    preview or a bond's consequences stay readable in a 40-column panel."""

    def __init__(self, head: Text, body: Text) -> None:
        self.head = head
        self.body = body

    @property
    def plain(self) -> str:
        return self.head.plain + self.body.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = self.head.cell_len
        lines = self.body.wrap(console, max(8, options.max_width - indent))
        out = self.head.copy()
        for i, line in enumerate(lines):
            if i:
                out.append("\n" + " " * indent)
            out.append_text(line)
        yield out


class Panel(Static):
    """A panel that asks ``key(session)`` first and repaints only when it differs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._last_key: Any = object()

    @property
    def g(self) -> Glyphs:
        return glyphs(getattr(self.app, "ascii_only", False))

    def key(self, session: Session) -> Any:
        """The figures this panel shows; equal keys mean nothing to repaint. Every panel
        overrides it (Textual widgets cannot also be ABCs)."""
        raise TypeError(f"{type(self).__name__} must define key()")

    def render_key(self, key: Any) -> Any:
        """Build the renderable from the key alone (so nothing is computed twice)."""
        raise TypeError(f"{type(self).__name__} must define render_key()")

    def show(self, session: Session, force: bool = False) -> bool:
        key = self.key(session)
        if not force and key == self._last_key:
            return False
        self._last_key = key
        self.update(self.render_key(key))
        return True
