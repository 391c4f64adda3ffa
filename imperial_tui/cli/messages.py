"""What every ``imperial`` command says when something fails: the exit codes, one safe line,
and a typed value quoted for a message. No Typer or Rich here: the quick answers
(``imperial_tui.cli.quick``) fail with the same words without loading them."""

from __future__ import annotations

from rules.savefile import printable

EXIT_GAME = 1  # the save file or the game refused: bad save, illegal action
EXIT_USAGE = 2  # the command line itself is wrong: bad option, impossible set-up

MAX_LINE = 400  # characters of one message line; what a user typed may be of any length


class CommandError(Exception):
    """A failure a user caused, with the exit code it ends the command with; the Typer
    commands turn it into ``typer.Exit`` (``common._fail``), the quick answers into
    ``sys.exit``."""

    def __init__(self, message: str, code: int = EXIT_GAME) -> None:
        super().__init__(message)
        self.code = code


def one_line(message: str, limit: int = MAX_LINE) -> str:
    """``message`` safe to print on one line of at most ``limit`` characters. A longer one
    (a huge value typed or read from a file, echoed in the reason) loses its middle, so that
    its start (what failed) and its end (why) stay."""
    text = printable(message)
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


def shown(value: str, limit: int = 40) -> str:
    """A value the user typed, quoted and cut for a message (``'Ann=gree...'``)."""
    return repr(printable(value, limit))
