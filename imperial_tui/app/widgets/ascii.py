"""ASCII mode for Textual's own widgets: the glyphs they draw as content (scrollbar ends, the
dropdown arrows, the checkbox brackets, the palette's magnifier) replaced by plain characters.
Their borders are restyled in ``app.tcss`` (under ``.-ascii``, a class of the App); the tabs
at 80 columns and the footer are the app's own and draw either mode themselves
(``panel_tabs``, ``footer``); what cannot be changed is listed in docs/APP.md.

Textual draws a scrollbar's ends with block glyphs (one eighth of a cell each) chosen by its
renderer class; the patch below picks a renderer of plain spaces for the scrollbars of an app
in ASCII mode, per scrollbar, so two apps in one process (the SSH server) each keep their own.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.dom import DOMNode
from textual.scrollbar import ScrollBar, ScrollBarRender

_PATCHED = "_imperial_ascii_aware"
ASCII_ARROWS = {"down-arrow": "v", "up-arrow": "^"}
UNICODE_ARROWS = {"down-arrow": "▼", "up-arrow": "▲"}


class AsciiScrollBarRender(ScrollBarRender):
    """Whole cells only: the thumb is a reverse block of spaces, with no eighth-cell ends."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def make_scrollbars_ascii_aware() -> None:
    """Wrap ``ScrollBar.render`` once: each scrollbar draws with the renderer of its app's
    mode (idempotent)."""
    if getattr(ScrollBar, _PATCHED, False):
        return
    original = ScrollBar.render

    def render(self: ScrollBar) -> RenderableType:
        ascii_only = bool(getattr(self.app, "ascii_only", False))
        # per scrollbar, on purpose (Textual's is a class variable)
        self.renderer = AsciiScrollBarRender if ascii_only else ScrollBarRender  # type: ignore[misc]
        return original(self)

    ScrollBar.render = render  # type: ignore[method-assign]  # the patch itself
    setattr(ScrollBar, _PATCHED, True)


def asciify(root: DOMNode, ascii_only: bool) -> None:
    """Swap the glyphs Textual's widgets under ``root`` (a screen) draw as content."""
    from textual.command import SearchIcon
    from textual.widgets import Static
    from textual.widgets._select import SelectCurrent
    from textual.widgets._toggle_button import ToggleButton

    arrows = ASCII_ARROWS if ascii_only else UNICODE_ARROWS
    for current in root.query(SelectCurrent):
        for name, glyph in arrows.items():
            for arrow in current.query(f".{name}"):
                if isinstance(arrow, Static):
                    arrow.update(glyph)
    for toggle in root.query(ToggleButton):
        toggle.BUTTON_LEFT = "[" if ascii_only else "▐"
        toggle.BUTTON_RIGHT = "]" if ascii_only else "▌"
        toggle.refresh()
    for icon in root.query(SearchIcon):
        icon.icon = ">" if ascii_only else "🔎"
