"""The commands that read one position of a saved game: ``state`` (a few lines, or the
state summary JSON), ``show`` (the tables, the map or one region) and ``moves`` (the legal
actions); each takes ``--at N`` for an earlier position."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from imperial_tui.cli.common import EXIT_USAGE, AtOpt, FileArg, _console, _fail, _game_at, shown
from imperial_tui.cli.quick import moves_output, state_output

# --------------------------------------------------------------------------- state


def state(
    file: FileArg,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the state summary JSON of docs/STATE.md."),
    ] = False,
    at: AtOpt = None,
) -> None:
    """Print the state of a saved game: a short overview, or the state summary as JSON.

    The JSON is the stable document for tools (tests, scripts, bots in other languages), and
    a position: `imperial new --position` starts a game from it (docs/POSITIONS.md).

    Examples:

    * `imperial state game.json`

    * `imperial state game.json --json | jq .awaiting`

    * `imperial state game.json --at 12 --json > pos.json` (after the first 12 actions)
    """
    sys.stdout.write(state_output(_game_at(file, at), as_json))


# --------------------------------------------------------------------------- show


def show(
    file: FileArg,
    limit: Annotated[
        int, typer.Option("--limit", min=0, help="Show at most this many legal options.")
    ] = 40,
    at: AtOpt = None,
    board_map: Annotated[
        bool,
        typer.Option(
            "--map", help="Print the board as a map (as the app draws it) instead of the tables."
        ),
    ] = False,
    region: Annotated[
        str | None,
        typer.Option(
            "--region",
            metavar="REGION",
            help="Print one region: its neighbours, who can reach it next turn, the rules "
            "there (a label such as BER, or a name).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Show a saved game: nations, players, rondel, the regions with units, flags or
    factories, and whose decision it is with the legal options.

    Reads well at 80 columns and with NO_COLOR=1 (nations are always shown by their codes).

    Examples:

    * `imperial show game.json`

    * `imperial show game.json --map` (the board; `--ascii` for plain characters)

    * `imperial show game.json --region venice` (can Italy reach Venice next turn?)

    * `NO_COLOR=1 imperial show game.json | less`

    * `imperial show game.json --at 0` (the start; `--at -1`: before the last action)
    """
    from imperial_tui.render.show import find_region, map_view, render_game
    from imperial_tui.render.style import ascii_wanted

    game = _game_at(file, at)
    console = _console()
    if region is not None:
        from imperial_tui.render.regioninfo import region_text

        rid = find_region(game, region)
        if rid is None:
            _fail(
                f"no region {shown(region)} on this map (a label such as BER, or a name)",
                EXIT_USAGE,
            )
        console.print(region_text(game, rid, ascii_only=ascii_wanted()))
        return
    if board_map:
        if game.state.board.layout is None:
            _fail(
                f"no picture for this board yet ({game.rules.title}); `imperial show FILE` "
                "lists the regions, `--region NAME` shows one"
            )
        console.print(map_view(game, ascii_only=ascii_wanted()))
        return
    console.print(render_game(game, limit=limit))


# --------------------------------------------------------------------------- moves


def moves(
    file: FileArg,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help='Print a JSON list of {"notation", "player", "kind", "nation"}.'
        ),
    ] = False,
    at: AtOpt = None,
) -> None:
    """List the legal actions of the player whose decision it is, in notation.

    Any of these lines can be given to `imperial apply`. Donations (`Anna donates 2 to AH`) are
    allowed at any time and never listed; what a donation of the deciding player would make
    legal (a factory or an import the treasury cannot pay) follows, with the donation.

    Examples:

    * `imperial moves game.json`

    * `imperial moves game.json --json`

    * `imperial moves game.json --at 20` (what was legal after the first 20 actions)
    """
    sys.stdout.write(moves_output(_game_at(file, at), as_json))
