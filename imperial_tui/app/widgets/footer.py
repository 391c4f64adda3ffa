"""The footer of every screen: the keys on offer in one line, drawn as Textual's ``Footer``.

Textual's ``Footer`` is a container of a widget per key, each styled, laid out and drawn on
its own, and rebuilt (every key anew) whenever the screen's bindings may have changed: after
nearly every key. Its eight keys were 3% of the app's first frame (issue 26: 63 M of 1,844 M
instructions, ``benchmarks/first_frame_cost.py``) and a large share of a key's CPU time in the
app, in the tests and on the server (a screen per connection). This footer is one widget that
draws the same line, in the same colours (its component classes take the rules of Textual's
``FooterKey``), and repaints only when the keys it shows change.

It shows only the keys that fit beside the palette's key ("^p palette", at the right edge):
Textual's laid them all out in a row and the palette's key covered whatever ran under it, so
at 80 columns a key was cut mid-word ("^z und▏^p palette"), and in ASCII mode, where keys are
spelt in words ("enter", not "⏎") and the palette's key has no left border, the cut key ran
into it ("^^p palette"). A key that does not fit is left out whole; a shorter one after it
may still come. A click on a key presses it (a disabled one rings the bell); the key under the
pointer is lit, and its tooltip shows, as on Textual's.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

# The cells of a key around its key and description, as Textual's FooterKey lays them out
# (not compact: one space either side of the key, one after the description)
KEY_PADDING = 3
# the palette's key is compact (one space before its description) with one cell of padding on
# the right, and a left border but in ASCII mode
PALETTE_PADDING = 2
PALETTE_BORDER = 1
BORDER = "▏"  # (Textual's "vkey" border, left side)


@dataclass(frozen=True, slots=True)
class FooterItem:
    """One key on offer: what a player presses, what it does, whether it can now."""

    key: str  # the key Textual simulates on a click
    display: str  # how the key is written ("⏎", "^p"; in ASCII mode "enter")
    description: str
    enabled: bool
    tooltip: str
    palette: bool = False  # the command palette's key, at the right edge

    def width(self, ascii_only: bool) -> int:
        """The columns the key takes in the footer."""
        if self.palette:
            border = 0 if ascii_only else PALETTE_BORDER
            return cell_len(self.display) + cell_len(self.description) + PALETTE_PADDING + border
        if not self.description:
            return cell_len(self.display)
        return cell_len(self.display) + cell_len(self.description) + KEY_PADDING


def fitting(items: list[FooterItem], width: int, ascii_only: bool) -> Iterator[FooterItem]:
    """The keys that fit in ``width`` columns: the palette's key always, the other keys in
    order as long as they fit in the room left beside it (one that does not is left out, a
    shorter one after it may fit)."""
    room = width - sum(item.width(ascii_only) for item in items if item.palette)
    for item in items:
        if not item.palette:
            need = item.width(ascii_only)
            if need > room:
                continue
            room -= need
        yield item


def shown_keys(screen: Screen[object], command_palette: bool) -> tuple[Hashable, ...]:
    """What a footer on ``screen`` shows: every shown binding with whether it is enabled
    and its tooltip, in the screen's order, and whether the palette's key is offered."""
    keys: list[Hashable] = [
        (binding, enabled, tooltip)
        for (_node, binding, enabled, tooltip) in screen.active_bindings.values()
        if binding.show
    ]
    keys.append(command_palette and screen.app.ENABLE_COMMAND_PALETTE)
    keys.append(getattr(screen.app, "ascii_only", False))  # (keys in words, or glyphs)
    return tuple(keys)


class KeysFooter(Widget, can_focus=False):
    """The keys on offer in one line; the palette's key at the right edge."""

    ALLOW_SELECT = False
    DEFAULT_CSS = """
    KeysFooter {
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        & > .keys-footer--item { background: $footer-item-background; }
        & > .keys-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .keys-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keys-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .keys-footer--border { color: $foreground 20%; }
    }
    """
    COMPONENT_CLASSES = {  # noqa: RUF012
        "keys-footer--item",
        "keys-footer--hover",
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--border",
    }

    def __init__(self, *, show_command_palette: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show_command_palette = show_command_palette
        self._shown: tuple[Hashable, ...] | None = None  # the keys on show (shown_keys)
        self.items: list[FooterItem] = []  # the keys on offer, in order
        self.spans: list[tuple[int, int, FooterItem]] = []  # the columns of those on show
        self._hovered: FooterItem | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self._read_keys()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's keys may have changed (focus moved, a binding refreshed): repaint if
        the keys on show would differ."""
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._read_keys()

    def keys_changed(self) -> None:
        """The keys are spelt otherwise (ASCII mode switched): read and repaint them."""
        self._read_keys()

    def _read_keys(self) -> None:
        screen = self.screen
        shown = shown_keys(screen, self.show_command_palette)
        if shown == self._shown:
            return
        self._shown = shown
        app = self.app
        # one key per action, the first bound to it, in the order of the actions' first keys
        # (as Textual's footer shows them)
        first: dict[str, FooterItem] = {}
        for _node, b, enabled, tooltip in screen.active_bindings.values():
            if b.show and b.action not in first:
                first[b.action] = FooterItem(
                    b.key, app.get_key_display(b), b.description, enabled, tooltip
                )
        items = list(first.values())
        palette = screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE and palette is not None:
            _node, b, enabled, _tooltip = palette  # (its tooltip: as Textual words it)
            items.append(
                FooterItem(
                    b.key,
                    app.get_key_display(b),
                    b.description,
                    enabled,
                    b.tooltip or b.description,
                    palette=True,
                )
            )
        self.items = items
        self.refresh()

    def render(self) -> Text:
        ascii_only = bool(getattr(self.app, "ascii_only", False))
        width = self.size.width
        shown = list(fitting(self.items, width, ascii_only))
        text = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, FooterItem]] = []
        palette = [item for item in shown if item.palette]
        for item in shown:
            if not item.palette:
                start = text.cell_len
                text.append_text(self._key_text(item, ascii_only))
                spans.append((start, text.cell_len, item))
        if palette:
            item = palette[0]
            start = width - item.width(ascii_only)
            if start > text.cell_len:
                text.append(" " * (start - text.cell_len))
            text.append_text(self._key_text(item, ascii_only))
            spans.append((start, text.cell_len, item))
        self.spans = spans
        return text

    def _key_text(self, item: FooterItem, ascii_only: bool) -> Text:
        """A key as Textual's ``FooterKey`` draws it (not compact; the palette's compact,
        after its border)."""
        kind = "keys-footer--hover" if item is self._hovered else "keys-footer--item"
        base = self.get_component_rich_style(kind)
        if not item.enabled:
            base += Style(dim=True)
        # (partial: over the key's own background, the pointer's when it is over the key)
        key = base + self.get_component_rich_style("keys-footer--key", partial=True)
        description = base + self.get_component_rich_style("keys-footer--description", partial=True)
        text = Text(end="")
        if item.palette:
            if not ascii_only:
                text.append(BORDER, base + self.get_component_rich_style("keys-footer--border"))
            text.append(item.display, key)
            text.append(f" {item.description}", description)
            text.append(" ", base)
        elif item.description:
            text.append(f" {item.display} ", key)
            text.append(f"{item.description} ", description)
        else:
            text.append(item.display, key)
        return text

    def _item_at(self, x: int) -> FooterItem | None:
        for start, end, item in self.spans:
            if start <= x < end:
                return item
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        item = self._item_at(event.x)
        if item is not self._hovered:
            self._hovered = item
            self.tooltip = item.tooltip if item is not None and item.tooltip else None
            self.refresh()

    def on_leave(self) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        item = self._item_at(event.x)
        if item is None:
            return
        if item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()
