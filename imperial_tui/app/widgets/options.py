"""Option lists that never fail on a page move, however small their window.

Textual's ``OptionList`` (8.2.8) pages by looking up the highlighted option's line in a map it
builds when it renders; squeezed to zero height it has never rendered, and PageUp/PageDown
then end the app with a ``KeyError``. Every option list is affected: the decision list, the
help topics, the new-game options, and Textual's own command palette and dropdowns, which we
cannot subclass. So the page move of the class itself is wrapped, once, when the app module
is imported: without a rendered page it moves by one option instead.

Measured at a width no wider than its options' padding (a 1x1 window, found by the monkey
test), its height asks Rich to cut words into pieces of zero cells, a ``ValueError``; the
measure is wrapped too and measures at least one cell of text.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

_PATCHED = "_imperial_safe_page_move"


def make_page_moves_safe() -> None:
    """Wrap ``OptionList._move_page`` and its height measure (idempotent)."""
    if getattr(OptionList, _PATCHED, False):
        return
    original = OptionList._move_page

    def _move_page(self: OptionList, direction: Any) -> None:
        if (
            self.scrollable_content_region.height < 1
            or (self.highlighted or 0) not in self._index_to_line
            or not self._lines
        ):
            if direction < 0:
                self.action_cursor_up()
            else:
                self.action_cursor_down()
            return
        original(self, direction)

    measure = OptionList.get_content_height

    def get_content_height(self: OptionList, container: Any, viewport: Any, width: int) -> int:
        padding = self.get_component_styles("option-list--option").padding.width
        return measure(self, container, viewport, max(width, padding + 1))

    OptionList._move_page = _move_page  # type: ignore[method-assign]
    OptionList.get_content_height = get_content_height  # type: ignore[method-assign]
    setattr(OptionList, _PATCHED, True)
