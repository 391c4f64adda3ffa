"""The footer of every screen: Textual's, rebuilt only when the keys it shows change.

Textual's ``Footer`` rebuilds itself (a new widget per key, each restyled) whenever the
screen's bindings may have changed: after every focus change and every binding refresh,
which in this app is after nearly every key. Mostly the keys on show are the same ones,
and the rebuild was a large share of a key's CPU time (in the app, in the tests and on the
server, which draws a screen per connection). This footer compares what it would show with
what it shows and rebuilds only on a difference; the first time, as soon as the screen's
keys are known (Textual's waits for the next refresh: one more layout before the first frame).

It also shows only the keys that fit beside the palette's key ("^p palette", docked at the
right edge): Textual's lays them all out in a row and the palette's key covers whatever runs
under it, so at 80 columns a key was cut mid-word ("^z und▏^p palette"), and in ASCII mode,
where keys are spelt in words ("enter", not "⏎") and the palette's key has no left border, the
cut key ran straight into it ("^^p palette"). A key that does not fit is left out whole; a
shorter one after it may still come.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from rich.cells import cell_len
from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# The cells of a key in the footer around its key and description, as Textual's Footer CSS
# lays them out (not compact; tests/test_app_footer.py checks these against the layout):
KEY_PADDING = 3  # " KEY " and one space after the description
# the palette's key is compact (no padding around its key, one space before its
# description) with one cell of padding on the right, and a left border but in ASCII mode
# (app.tcss)
PALETTE_PADDING = 2
PALETTE_BORDER = 1


def key_width(key: FooterKey, ascii_only: bool) -> int:
    """The columns ``key`` takes in the footer."""
    if key.has_class("-command-palette"):
        border = 0 if ascii_only else PALETTE_BORDER
        return cell_len(key.key_display) + cell_len(key.description) + PALETTE_PADDING + border
    if not key.description:
        return cell_len(key.key_display)
    return cell_len(key.key_display) + cell_len(key.description) + KEY_PADDING


def fitting(keys: list[Widget], width: int, ascii_only: bool) -> Iterator[Widget]:
    """The footer's widgets that fit in ``width`` columns: the palette's key always, the
    other keys in order as long as they fit in the room left beside it (one that does not
    is left out, a shorter one after it may fit)."""
    room = width - sum(
        key_width(key, ascii_only)
        for key in keys
        if isinstance(key, FooterKey) and key.has_class("-command-palette")
    )
    for key in keys:
        if isinstance(key, FooterKey) and not key.has_class("-command-palette"):
            need = key_width(key, ascii_only)
            if need > room:
                continue
            room -= need
        yield key


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


class KeysFooter(Footer):
    """A ``Footer`` that skips the rebuild when the keys on show would not change, and shows
    only the keys that fit beside the palette's key."""

    _shown: tuple[Hashable, ...] | None = None
    _fitted_to = 0  # the width the keys on show were chosen for

    def compose(self) -> Iterator[Widget]:
        width = self.size.width or self.screen.size.width or self.app.size.width
        self._fitted_to = width
        keys = list(super().compose())
        for key in keys:
            if isinstance(key, FooterKey) and not key.has_class("-command-palette"):
                # Textual's keys start compact and take the footer's style (data_bind) once
                # mounted: each a restyle of its own, a dozen before the first frame (#26).
                # The palette's key is not bound to the footer's style and stays compact.
                key.set_reactive(FooterKey.compact, self.compact)
                key.set_class(self.compact, "-compact", update=False)
        yield from fitting(keys, width, bool(getattr(self.app, "ascii_only", False)))

    def on_resize(self, event: events.Resize) -> None:
        if self._shown is not None and event.size.width != self._fitted_to:
            self._fitted_to = event.size.width
            self.call_next(self.recompose)

    def keys_changed(self) -> None:
        """The keys are spelt otherwise (ASCII mode switched): rebuild."""
        if self._shown is not None:
            self._shown = shown_keys(self.screen, self.show_command_palette)
            self.call_next(self.recompose)

    def bindings_changed(self, screen: Screen[object]) -> None:
        rebuilds = screen.app.app_focus and self.is_attached and screen is self.screen
        if rebuilds:
            keys = shown_keys(screen, self.show_command_palette)
            if self._bindings_ready and keys == self._shown:
                return
            first = self._shown is None
            self._shown = keys
            if first:  # the keys of a new screen: built at once, not after a refresh that
                # lays out and draws the screen without them, before the first frame (#26)
                self._bindings_ready = True
                self.call_next(self.recompose)
                return
        super().bindings_changed(screen)
