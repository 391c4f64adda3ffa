"""The panel base: render from the session, repaint only when the rendered figures change."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Generic, TypeVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, OverflowMethod, RenderableType, RenderResult
from rich.text import Text
from textual.dom import DOMNode
from textual.screen import Screen
from textual.visual import VisualType
from textual.widget import Widget, _RenderCache
from textual.widgets import Static

from imperial_tui.render.style import Glyphs, glyphs, nation_style

if TYPE_CHECKING:
    from imperial_tui.model.session import SessionView


def nation_text(code: str, suffix: str = "") -> Text:
    """A nation always by its code, coloured when the terminal has colour."""
    return Text(code + suffix, style=nation_style(code))


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
        # the body hangs under the end of the head's last line, unless a word of it would not
        # fit there: then it hangs further left, so that no word is cut in two ("Western" /
        # "Mediterran" / "ean Sea" under a fleet's long name, a playtest)
        width = options.max_width
        start = (
            self.head.split("\n")[-1].cell_len if "\n" in self.head.plain else self.head.cell_len
        )
        longest = max((cell_len(word) for word in self.body.plain.split()), default=0)
        indent = start if longest <= width - start else max(2, min(start, width - longest))
        out = self.head.copy()
        body = self.body
        if indent < start:  # the first line keeps the whole words that fit after the head
            taken = 0
            for word in re.finditer(r"\S+", body.plain):
                if cell_len(body.plain[: word.end()]) > width - start:
                    break
                taken = word.end()
            out.append_text(body[:taken])
            body = body[taken:]
            body = body[len(body.plain) - len(body.plain.lstrip()) :]
            if not body.plain:
                yield out
                return
            out.append("\n" + " " * indent)
        for i, line in enumerate(body.wrap(console, max(8, width - indent))):
            if i:
                out.append("\n" + " " * indent)
            out.append_text(line)
        yield out


class Chunks:
    """A head, then pieces that are never split, laid out left to right and wrapped under the
    end of the head when the width runs out ("AH  avail 2 4 9 | Anna 12*, Cleo 6")."""

    def __init__(
        self, head: Text, pieces: list[Text], overflow: OverflowMethod = "ellipsis"
    ) -> None:
        self.head = head
        self.pieces = pieces
        self.overflow = overflow

    @property
    def plain(self) -> str:
        return self.head.plain + " ".join(p.plain for p in self.pieces)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = self.head.cell_len
        width = max(indent + 8, options.max_width)
        out = self.head.copy()
        used = indent
        for i, piece in enumerate(self.pieces):
            gap = 1 if i else 0
            if i and used + gap + piece.cell_len > width:
                out.append("\n" + " " * indent)
                used, gap = indent, 0
            if gap:
                out.append(" ")
            out.append_text(piece)
            used += gap + piece.cell_len
        out.no_wrap = True
        out.overflow = self.overflow  # only a piece wider than the panel
        yield out


def on_screen(widget: Widget) -> bool:
    """Whether the widget is displayed: neither it nor a container around it is hidden (a
    tab not chosen, the other layout's copy of a panel)."""
    node: DOMNode | None = widget
    while node is not None and not isinstance(node, Screen):
        if not node.display:
            return False
        node = node.parent
    return True


def same_content(a: object, b: object) -> bool:
    """Whether two Rich texts show the same (Text's own == ignores the base style)."""
    if isinstance(a, Text) and isinstance(b, Text):
        return (
            a.plain == b.plain
            and a.spans == b.spans
            and a.style == b.style
            and a.no_wrap == b.no_wrap
            and a.overflow == b.overflow
            and a.justify == b.justify
        )
    return isinstance(a, str) and isinstance(b, str) and a == b


def _one_line(content: object, width: int) -> bool:
    """Whether a text shows as exactly one line at this width."""
    plain = content.plain if isinstance(content, Text) else content
    return isinstance(plain, str) and plain != "" and "\n" not in plain and cell_len(plain) <= width


def set_content(static: Static, content: VisualType, layout: bool | None = True) -> bool:
    """Update a Static only when what it shows changes: an update re-renders it and, with
    ``layout``, lays the whole screen out again. ``layout=False`` is for a widget whose size
    does not depend on its content (a fixed height); ``None``: a new layout only when the
    height may change (one line before and after needs none)."""
    old = static.content  # what it shows, whoever set it
    if same_content(old, content):
        return False
    if layout is None:
        width = static.content_region.width
        layout = not (width > 0 and _one_line(old, width) and _one_line(content, width))
    static.update(content, layout=layout)
    return True


K = TypeVar("K")  # a panel's key: the figures it shows


class Panel(Static, Generic[K]):
    """A panel that asks ``key(session)`` first and repaints only when it differs. A hidden
    panel (another tab, the other layout) is left as it is: the game screen shows it again
    when it comes into view (``GameScreen.refresh_panels``), so a move costs nothing for the
    panels no one sees. ``FIXED_SIZE``: the panel's size does not depend on its content, so a
    repaint needs no new layout of the screen."""

    FIXED_SIZE = False
    # the lines depend on the key alone: apps in one process (the SSH server's connections)
    # may share them (widgets/shared.py)
    SHARED = False

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._last_key: K | object = object()
        # the session state it last showed: the session, its version and viewer
        self._shown_for: tuple[SessionView, object, str | None] | None = None

    def up_to_date(self, session: SessionView) -> bool:
        """Whether the panel showed this state of the session when it was last asked (and was
        on screen): switching tabs asks only the panels that may have fallen behind."""
        seen = self._shown_for
        return (
            seen is not None
            and seen[0] is session
            and seen[1:] == (session.version, session.viewer)
        )

    @property
    def g(self) -> Glyphs:
        return glyphs(getattr(self.app, "ascii_only", False))

    def key(self, session: SessionView) -> K:
        """The figures this panel shows; equal keys mean nothing to repaint. Every panel
        overrides it (Textual widgets cannot also be ABCs)."""
        raise TypeError(f"{type(self).__name__} must define key()")

    def render_key(self, key: K) -> RenderableType:
        """Build the renderable from the key alone (so nothing is computed twice)."""
        raise TypeError(f"{type(self).__name__} must define render_key()")

    def show(self, session: SessionView, force: bool = False) -> bool:
        if not force and not on_screen(self):
            self._shown_for = None  # may fall behind while hidden
            return False
        self._shown_for = (session, session.version, session.viewer)
        key = self.key(session)
        if not force and key == self._last_key:
            return False
        self._last_key = key
        self.update(self.render_key(key), layout=not self.FIXED_SIZE)
        return True

    def _render_content(self) -> None:
        """Textual's rendering of the content (private API, Textual is pinned), through the
        process's shared renders when the app has them: the same panel at the same size and
        style shows the same lines in every connection's app."""
        shared = getattr(self.app, "shared_renders", None) if self.SHARED else None
        if shared is None:
            super()._render_content()
            return
        try:
            console = self.app.console
            key = (
                type(self),
                self.id,
                self._last_key,
                self.size,
                self.visual_style,
                console.encoding,  # Rich draws boxes and ellipses by the terminal's encoding
                getattr(self.app, "no_color", False),  # nations in bold, not colour (style.py)
            )
            hash(key)
        except TypeError:  # a key that cannot be a dict key: no sharing
            super()._render_content()
            return
        lines = shared.get(key)
        if lines is None:
            super()._render_content()
            shared.put(key, self._render_cache.lines)
            return
        self._render_cache = _RenderCache(self.size, lines)
        self._dirty_regions.clear()
