"""The footer of every screen: Textual's, rebuilt only when the keys it shows change.

Textual's ``Footer`` rebuilds itself (a new widget per key, each restyled) whenever the
screen's bindings may have changed: after every focus change and every binding refresh,
which in this app is after nearly every key. Mostly the keys on show are the same ones,
and the rebuild was a large share of a key's CPU time (in the app, in the tests and on the
server, which draws a screen per connection). This footer compares what it would show with
what it shows and rebuilds only on a difference; the first time, as soon as the screen's
keys are known (Textual's waits for the next refresh: one more layout before the first frame).
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.screen import Screen
from textual.widgets import Footer


def shown_keys(screen: Screen[object], command_palette: bool) -> tuple[Hashable, ...]:
    """What a footer on ``screen`` shows: every shown binding with whether it is enabled
    and its tooltip, in the screen's order, and whether the palette's key is offered."""
    keys: list[Hashable] = [
        (binding, enabled, tooltip)
        for (_node, binding, enabled, tooltip) in screen.active_bindings.values()
        if binding.show
    ]
    keys.append(command_palette and screen.app.ENABLE_COMMAND_PALETTE)
    return tuple(keys)


class KeysFooter(Footer):
    """A ``Footer`` that skips the rebuild when the keys on show would not change."""

    _shown: tuple[Hashable, ...] | None = None

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
