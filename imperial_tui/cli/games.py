"""The commands that make and run games: ``new`` (set-up, a position, computer seats),
``options`` (the rule options a new game can change) and ``play`` (resume in the app, or
let the computer players move with ``--headless``)."""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from imperial_tui.cli.common import (
    EXIT_USAGE,
    AsciiOpt,
    FileArg,
    _console,
    _fail,
    _start_app,
    _want_ascii,
    shown,
)
from imperial_tui.cli.messages import CommandError
from imperial_tui.cli.quick import load_session, open_in_app, reseat
from rules import Game, RuleSet, SetupError
from rules.bots.levels import LEVELS
from rules.controllers import Controller
from rules.games import GAMES, game_info
from rules.options import OPTIONS, format_value, parse_option_value
from rules.ruleset import EDITIONS, VARIANTS
from rules.savefile import SaveError, save_game

LEVEL_NAMES = ", ".join(LEVELS)  # computer levels, from rules.bots


# --------------------------------------------------------------------------- new


def _parse_options(values: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in values:
        if "=" not in item:
            _fail(
                f"--option {shown(item)} must look like NAME=VALUE (see `imperial options`)",
                EXIT_USAGE,
            )
        name, text = (part.strip() for part in item.split("=", 1))
        try:
            options[name] = parse_option_value(name, text)
        except ValueError as exc:
            _fail(str(exc).replace("`imperial rules options`", "`imperial options`"), EXIT_USAGE)
    return options


def _auto_save_path() -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = Path(f"imperial-{stamp}.json")
    n = 2
    while path.exists():
        path = Path(f"imperial-{stamp}-{n}.json")
        n += 1
    return path


def new(
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player names in seating order (clockwise), comma-separated.",
            show_default=False,
        ),
    ] = None,
    game_name: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            help=f"The game: {' | '.join(GAMES)} (Imperial 2030 on the world map; "
            "default imperial).",
        ),
    ] = None,
    edition: Annotated[
        str | None,
        typer.Option(
            "--edition",
            "-e",
            help=f"Rule edition: {' | '.join(EDITIONS)} (default first; Imperial 2030: 2010).",
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant", help=f"Set-up variant: {' | '.join(VARIANTS)} (default standard)."
        ),
    ] = None,
    position: Annotated[
        Path | None,
        typer.Option(
            "--position",
            metavar="FILE",
            help="Start from a position instead of the set-up: the JSON of `imperial state "
            "--json` or the short form of docs/POSITIONS.md ('-': standard input). It fixes "
            "players, edition, variant and options.",
            show_default=False,
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="NAME=VALUE",
            help="Change one rule option (repeatable); `imperial options` lists them.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Shuffle the flag cards with this seed (reproducible).",
            show_default=False,
        ),
    ] = None,
    deal: Annotated[
        str | None,
        typer.Option(
            "--deal",
            metavar="NAME=NATION,...",
            help="Deal the flag cards as at the table, e.g. Anna=AH,Ben=IT "
            "(experienced variant: the name of the first chooser).",
            show_default=False,
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            "-s",
            metavar="FILE",
            help="Where to save the new game (default: imperial-DATE-TIME.json here).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", "-f", help="Overwrite FILE if it already exists.")
    ] = False,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            metavar="NAME=LEVEL",
            help="Make a seat a computer player (repeatable): NAME=LEVEL, LEVEL one of "
            f"{LEVEL_NAMES}. Saved in the file, so `imperial play` runs it.",
            show_default=False,
        ),
    ] = None,
    ascii_only: AsciiOpt = False,
) -> None:
    """Set up a new game and save it.

    Prints who governs which nation, who holds the investor card and whose decision comes
    first.

    Examples:

    * `imperial new --players Anna,Ben,Cleo,Dan --save game.json`

    * `imperial new -p Anna,Ben,Cleo --edition 2010 --seed 7 -s game.json`

    * `imperial new -p Anna,Ben,Cleo,Dan --game 2030 -s world.json` (Imperial 2030)

    * `imperial new -p Anna,Ben --deal Anna=AH,Ben=IT --option bank=limited -s duel.json`

    * `imperial new -p Anna,Ben,Cleo,Dan --variant experienced --deal Cleo -s exp.json`

    * `imperial new -p Anna,Ben,Cleo --bot Ben=strong --bot Cleo=greedy -s bots.json`

    * `imperial new --position cologne.toml -s q.json` (a position: docs/POSITIONS.md)
    """
    _want_ascii(ascii_only)
    if position is not None:
        given = [
            flag
            for flag, value in (
                ("--players", players),
                ("--game", game_name),
                ("--edition", edition),
                ("--variant", variant),
                ("--option", option),
                ("--seed", seed),
                ("--deal", deal),
            )
            if value is not None
        ]
        if given:
            _fail(
                f"--position fixes players, rules and set-up; leave out {', '.join(given)} "
                "(write them in the position)",
                EXIT_USAGE,
            )
        game = _game_from_position(position)
    else:
        if not players:
            _fail("give the players (--players Anna,Ben,...) or a --position", EXIT_USAGE)
        if seed is not None and deal is not None:
            _fail(
                "--seed shuffles the flag cards and --deal gives them by hand: use one", EXIT_USAGE
            )
        names = [n.strip() for n in players.split(",") if n.strip()]
        for flag, value, choices in (
            ("--edition", edition, EDITIONS),
            ("--variant", variant, VARIANTS),
        ):
            if value is not None and value not in choices:
                _fail(f"{flag} {shown(value)}: choose one of {', '.join(choices)}", EXIT_USAGE)
        try:
            rules = RuleSet.preset(edition, variant or "standard", game_name or "imperial")
            rules = rules.with_options(**_parse_options(option or []))
        except ValueError as exc:
            _fail(str(exc), EXIT_USAGE)
        try:
            game = Game.new(names, rules=rules, seed=seed, deal=deal)
        except SetupError as exc:
            _fail(str(exc), EXIT_USAGE)
    controllers = _bot_controllers(bot or [], game.players)
    path = save if save is not None else _auto_save_path()
    if os.path.exists(path) and not force:  # (False for a name too long: save_game says so)
        _fail(
            f"{path} already exists; use --force to overwrite it or choose another --save",
            EXIT_USAGE,
        )
    try:
        save_game(game, path, controllers)
    except SaveError as exc:
        _fail(str(exc))
    from imperial_tui.render.show import setup_overview

    console = _console()
    console.print(setup_overview(game))
    how = "Saved to" if save is not None else "No --save given: saved to"
    console.print(f"{how} {path}. Next: `imperial show {path}`.")
    if controllers:
        seats = ", ".join(f"{n} ({c.level})" for n, c in controllers.items())
        console.print(f"Computer players: {seats}; `imperial play {path}` runs them.")
    if save is None and sys.stdin.isatty() and sys.stdout.isatty():
        _start_app(path)


def _game_from_position(path: Path) -> Game:
    """A game from a position file (JSON or the short form), or one error line naming the
    file and the field."""
    from rules.position import PositionError
    from rules.position_text import game_from_position_file

    try:
        return game_from_position_file(path)
    except PositionError as exc:
        where = "standard input" if str(path) == "-" else str(path)
        message = str(exc)
        _fail(message if message.startswith(where) else f"{where}: {message}")


def _bot_controllers(items: list[str], names: list[str] | tuple[str, ...]) -> dict[str, Controller]:
    """``--bot Ben=greedy`` -> {"Ben": "bot:greedy"} (the save file's controller field)."""
    out: dict[str, Controller] = {}
    for item in items:
        name, _, level = (part.strip() for part in item.partition("="))
        if name not in names:
            _fail(
                f"--bot {shown(item)}: {shown(name, 20)} is not a player; players are "
                f"{', '.join(names)}",
                EXIT_USAGE,
            )
        if level not in LEVELS:
            _fail(f"--bot {shown(item)}: the level must be one of {LEVEL_NAMES}", EXIT_USAGE)
        out[name] = Controller.bot(level)
    return out


# --------------------------------------------------------------------------- options


def options(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the options as JSON for tools.")
    ] = False,
    game_name: Annotated[
        str | None,
        typer.Option("--game", "-g", help=f"Only the options of one game: {' | '.join(GAMES)}."),
    ] = None,
) -> None:
    """List every rule option: its choices, the default of each edition and game, the games
    it applies to and what it means.

    Change one for a new game with `imperial new ... --option NAME=VALUE`.

    Examples:

    * `imperial options`

    * `imperial options --game 2030` (the options of Imperial 2030)

    * `imperial new -p Anna,Ben,Cleo --option bank=limited --option swiss_banks=true -s g.json`
    """
    if game_name is not None and game_name not in GAMES:
        _fail(f"unknown game {game_name!r}; choose one of {', '.join(GAMES)}", EXIT_USAGE)
    presets = {e: RuleSet.preset(e).options() for e in EDITIONS}
    world = RuleSet.preset(game="2030").options()
    shown = {
        name: info for name, info in OPTIONS.items() if game_name is None or game_name in info.games
    }
    if as_json:
        rows = []
        for name, info in shown.items():
            row = {
                "name": name,
                "choices": list(info.choices),
                # Imperial's editions (empty for an option of Imperial 2030 only)
                "defaults": {e: presets[e][name] for e in EDITIONS if name in presets[e]},
                "games": list(info.games),
                "summary": info.summary,
                "source": info.source,
            }
            if name in world:
                row["default_2030"] = world[name]
            rows.append(row)
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.padding import Padding
    from rich.text import Text

    console = _console()
    title = "Rule options (change with --option NAME=VALUE)"
    if game_name is not None:
        title = f"Rule options of {game_info(game_name).title} (change with --option NAME=VALUE)"
    console.print(Text(title, style="bold"))
    for name, info in shown.items():
        console.print()
        line = Text(name, style="bold")
        line.append("  choices: " + " | ".join(format_value(c) for c in info.choices))
        defaults = [
            f"{e} {format_value(presets[e][name])}"
            for e in EDITIONS
            if name in presets[e] and game_name in (None, "imperial")
        ]
        if name in world and game_name in (None, "2030"):
            defaults.append(f"2030 {format_value(world[name])}")
        line.append("  defaults: " + ", ".join(defaults))
        if game_name is None and len(info.games) == 1:
            line.append(f"  ({game_info(info.games[0]).title} only)")
        console.print(line)
        console.print(Padding(Text(info.summary), (0, 0, 0, 4)))
        console.print(Padding(Text(f"source: {info.source}", style="dim"), (0, 0, 0, 4)))


# --------------------------------------------------------------------------- play


def play(
    file: FileArg,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", "-b", help=f"Make a seat a computer player: NAME=LEVEL ({LEVEL_NAMES})."
        ),
    ] = None,
    headless: Annotated[
        bool,
        typer.Option(
            "--headless",
            help="No app: computer players move until a human must "
            "decide or the game ends (saved after every move).",
        ),
    ] = False,
    ascii_only: AsciiOpt = False,
) -> None:
    """Resume a saved game in the app (or let computer players play it with --headless).

    Examples: `imperial play game.json`,
    `imperial play duel.json --bot Anna=greedy --bot Ben=strong --headless`
    """
    _want_ascii(ascii_only)
    try:
        session = load_session(file)
        session = reseat(session, _bot_controllers(bot or [], session.game.players))
        if not headless:
            open_in_app(session)
            return
    except CommandError as exc:
        _fail(str(exc), exc.code)
    try:
        while session.game.awaiting and not session.is_human(session.game.awaiting.player):
            bot_ = session.bot_for(session.game.awaiting.player)
            assert bot_ is not None
            session.game.apply(bot_.choose(session.game))
        session.save_if_changed()  # (nobody moved and no seat changed: nothing to write)
    except SaveError as exc:
        _fail(str(exc))
    finally:  # the search levels' playout processes end here, not at the exit hooks
        session.close_bots()
    result = session.game.result()
    console = _console()
    if result is not None:
        console.print(f"Game over after {len(session.game.history)} actions: {result.describe()}")
    elif (aw := session.game.awaiting) is not None:  # not over: someone decides
        console.print(f"{aw.player} must decide ({aw.kind}); saved to {file}")
