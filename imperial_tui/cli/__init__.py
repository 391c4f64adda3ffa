"""The ``imperial`` command: headless sub-commands over save files, and the app.

Every command reads or writes a save file (``rules.savefile``), so a game can be played, checked
or scripted entirely from a shell: ``new`` sets one up, ``show``/``state``/``moves`` read it,
``apply`` plays actions in notation. Textual is imported only by the commands that open the
app, inside the function: the headless commands stay fast and work where Textual cannot run.

Errors a user can cause (a damaged save, an unknown rule option, an impossible set-up, an
illegal action, a mistyped command line) print one line to stderr and exit with 1 (the game or
file is at fault) or 2 (the command line is at fault); never a traceback, never Click's
framed usage box (``commands.OneLineErrors``).

Commands that change a save (``apply``, ``undo``) hold the file's lock from reading it to
writing it back (``rules.savefile.SaveLock``), so two of them at once never lose an update.

This package's top imports nothing: ``main`` answers the plain forms of ``state`` and
``moves`` without loading Typer, Click or Rich (``quick``), and imports the Typer app
(``commands``) for everything else. ``imperial_tui.cli.app`` is that Typer app.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (``imperial``): a quick answer where one applies, else the
    Typer app; Ctrl-C exits quietly. Either way, the bytecode of what was loaded is kept for
    the next start (``bytecode``). The garbage collector waits until the answer is given,
    the app's first frame is drawn or Typer takes over (``imperial_tui.startup``)."""
    from imperial_tui import startup

    startup.pause()
    from imperial_tui.cli import bytecode, quick

    bytecode.keep_after_exit()
    try:
        code = quick.answer(sys.argv[1:])
        if code is not None:
            sys.exit(code)
        from imperial_tui.cli.commands import app as typer_app

        startup.resume()  # (a command may run for long: the server, a game in the app)
        typer_app()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)
    finally:
        startup.resume()


def __getattr__(name: str) -> typer.Typer:
    """``imperial_tui.cli.app``: the Typer app, imported on first use (tests, scripts)."""
    if name == "app":
        from imperial_tui.cli.commands import app as typer_app

        return typer_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
