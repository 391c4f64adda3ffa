"""The cyclic garbage collector waits while the program starts.

Starting the app builds a few hundred thousand objects that live as long as the program
(modules, classes, Textual's styles and widgets, the positions a game keeps for undo). Python's
cyclic garbage collector runs about 200 times meanwhile, full collections among them, and finds
next to nothing to free: some 30 ms of a first frame's 330 ms (issue 26). So the command line
pauses it as it starts (``pause``, ``imperial_tui.cli.main``) and it resumes (``resume``) once
the app's first frame is on the screen (``GameApp.on_mount``), when a command goes on through
Typer (the server, say, runs for days), or when the command ends. Reference counting frees
everything as usual meanwhile: only objects in reference cycles wait for the collector.
"""

from __future__ import annotations

import gc

_paused = False  # the collector is off because ``pause`` turned it off


def pause() -> None:
    """Turn the collector off for the start-up, if it is on (a program that turned it off
    itself keeps it off: ``resume`` turns on only what this turned off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Turn the collector on again if ``pause`` turned it off; nothing otherwise."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def paused() -> bool:
    """Whether the collector waits for the start-up to end."""
    return _paused
