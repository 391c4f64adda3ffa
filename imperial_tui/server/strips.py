"""Rendered lines drawn for many terminals in one process (the SSH server).

Textual keeps the terminal text of a rendered line (a ``Strip``) in the line itself, made for
the colours of the first terminal that draws it: right for an app alone in its process. The
server draws for many terminals in one process, each with the colours its client asked for
(TERM and COLORTERM, ``server.app.client_console``), and some lines are the same object in
every app: ``Strip.blank`` is cached for the whole process, and the nations table and the
rondel are rendered once per game state for every screen that shows them
(``app/widgets/shared.py``). Rich, too, keeps a style's codes in the style object
(``Style._ansi``), for whichever colour system asked first, and styles are shared by every app
(parsed once, cached). So a 16-colour terminal could be sent true-colour codes that a
true-colour terminal's app had rendered first (seen in
``tests/test_server_robust.py::test_colours_follow_the_clients_terminal_not_the_servers``
when other apps ran in the same test process).

``render_per_colour_system()`` makes the kept text remember the colour system it was made
for, and a line drawn for another colour system is rendered again (for that terminal only;
the text kept is then that of the last one), each style's codes from Textual's cache of codes
by style and colour system, never from the style's own. Textual is pinned exactly
(pyproject.toml), so the replaced method is the one read here; tests/test_server_strips.py
checks it.
"""

from __future__ import annotations

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual.strip import Strip


class Rendered(str):
    """A line's terminal text and the colour system it was made for."""

    __slots__ = ("color_system",)
    color_system: ColorSystem


def render(self: Strip, console: Console) -> str:
    """``Strip.render`` with the kept text checked against the terminal's colour system.
    (A line joined from others keeps their texts joined as a plain ``str``, which does not
    say its colour system: it is rendered again once.)"""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    kept = self._render_cache
    if type(kept) is Rendered and kept.color_system is color_system:
        return kept
    text = Rendered(
        "".join(
            [
                text if style is None else styled(style, text, color_system)
                for text, style, _ in self._segments
            ]
        )
    )
    text.color_system = color_system
    self._render_cache = text
    return text


def styled(style: Style, text: str, color_system: ColorSystem) -> str:
    """``Strip.render_style`` without the style's own kept codes (see the module's text):
    ``Strip.render_ansi`` is cached by style and colour system."""
    ansi = Strip.render_ansi(style, color_system)
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


def render_per_colour_system() -> None:
    """Replace ``Strip.render`` for this process (idempotent; the server calls it before its
    first app starts)."""
    Strip.render = render  # type: ignore[method-assign]
