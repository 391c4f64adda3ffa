"""The Typer app of ``imperial``: its one-line errors, its global options and its commands in
the order ``--help`` lists them.

The commands live in modules named after what they hold: ``games`` (new, options, play),
``positions`` (state, show, moves), ``actions`` (apply, undo, log, explain), ``rules_pages``
(rules) and, in its own package, ``imperial_tui.server.cli`` (serve); ``common`` holds what
they share. The entry point (``imperial_tui.cli.main``) imports this module only when the
quick answers (``quick``) do not apply.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer
from typer.core import TyperGroup

from imperial_tui.cli import actions, games, positions, rules_pages
from imperial_tui.cli.common import (
    EXIT_GAME,
    EXIT_USAGE,
    AsciiOpt,
    _start_app,
    _want_ascii,
    one_line,
    shown,
)
from imperial_tui.server.cli import serve_app  # its own package, imports lazily
from rules.program_version import program_version


class OneLineErrors(TyperGroup):
    """The command group, with every error of the command line itself (an unknown command or
    option, a missing argument, a bad value) as one line on stderr and exit code 2, as for
    the commands' own errors; Click would print a framed usage box."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: object,
    ) -> object:
        """What the command returned (``standalone_mode=False``), else never returns."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        words = [str(a) for a in (sys.argv[1:] if args is None else args)]
        empty = empty_value(words)
        if empty:
            command = next((w for w in words if w in self.commands), None)
            path = f"imperial {command}" if command else "imperial"
            sys.stderr.write(f"imperial: {one_line(empty)} (see `{path} --help`)\n")
            sys.exit(EXIT_USAGE)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as exc:  # Click's errors: a usage error has exit code 2
            message = one_line(exc.format_message())
            ctx = getattr(exc, "ctx", None)
            if exc.exit_code == EXIT_USAGE:
                path = ctx.command_path if ctx is not None else "imperial"
                message += f" (see `{path} --help`)"
            sys.stderr.write(f"imperial: {message}\n")
            sys.exit(exc.exit_code)
        except typer.Abort:
            sys.stderr.write("imperial: aborted\n")
            sys.exit(EXIT_GAME)
        sys.exit(code if isinstance(code, int) else 0)


def empty_value(words: list[str]) -> str:
    """What is empty on the command line, or "". No option or argument of ``imperial`` means
    anything when empty (`undo g.json ""` must not undo one action, `--edition ""` must not
    pick the default), so an empty word is refused before anything reads it."""
    for i, word in enumerate(words):
        if word.startswith("--") and word.endswith("=") and len(word) > 3:
            return f"{word[:-1]} is given an empty value; give one or leave the option out"
        if word != "":
            continue
        before = words[i - 1] if i else ""
        if before.startswith("-") and before != "--":
            return f"{before} is given an empty value; give one or leave the option out"
        where = f" after {shown(before)}" if before else ""
        return "an empty argument ('')" + where + "; every argument needs a value"
    return ""


app = typer.Typer(
    name="imperial",
    cls=OneLineErrors,
    help=(
        "Imperial (Mac Gerdts) in the terminal.\n\n"
        "Start a game with `imperial new --players Anna,Ben,Cleo,Dan --save game.json`, "
        "look at it with `imperial show game.json`, list the legal moves with "
        "`imperial moves game.json` and play one with "
        '`imperial apply game.json "AH rondel import"`.'
    ),
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(program_version())
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Print the version."
        ),
    ] = False,
    ascii_only: AsciiOpt = False,
) -> None:
    """Imperial (Mac Gerdts) in the terminal. Without a command: open the app."""
    _want_ascii(ascii_only)
    if ctx.invoked_subcommand is None:
        _start_app(None)


# --------------------------------------------------------------------------- commands

# In the order `imperial --help` lists them, `serve` last.
for _command in (
    games.new,
    positions.state,
    positions.show,
    positions.moves,
    actions.apply,
    actions.undo,
    actions.log,
    actions.explain,
    games.options,
    games.play,
    rules_pages.rules,
):
    app.command()(_command)

app.add_typer(serve_app, name="serve")
