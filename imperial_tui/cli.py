"""The ``imperial`` command: headless sub-commands over save files (and, later, the app).

Every command reads or writes a save file (``rules.savefile``), so a game can be played, checked
or scripted entirely from a shell: ``new`` sets one up, ``show``/``state``/``moves`` read it,
``apply`` plays actions in notation. Textual is never imported here at module level: the
headless commands stay fast and work where Textual cannot run. Only the commands that open the
app (``_start_app``, ``play``) import it, inside the function.

Errors a user can cause (a damaged save, an unknown rule option, an impossible set-up, an
illegal action, a mistyped command line) print one line to stderr and exit with 1 (the game or
file is at fault) or 2 (the command line is at fault); never a traceback, never Click's
framed usage box (``OneLineErrors``).

Commands that change a save (``apply``, ``undo``) hold the file's lock from reading it to
writing it back (``rules.savefile.SaveLock``), so two of them at once never lose an update.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from imperial_tui.rules_text import topics as rules_topics
from rules import Game, IllegalAction, RuleSet, SetupError
from rules.bots.levels import LEVELS
from rules.ruleset import EDITIONS, OPTIONS, VARIANTS, format_value, parse_option_value
from rules.savefile import (
    LoadedGame,
    SaveError,
    SaveLock,
    load_game,
    printable,
    program_version,
    save_game,
)

RULES_TOPICS = rules_topics()
EXIT_GAME = 1  # the save file or the game refused: bad save, illegal action
EXIT_USAGE = 2  # the command line itself is wrong: bad option, impossible set-up
LEVEL_NAMES = ", ".join(LEVELS)  # computer levels, from rules.bots


class OneLineErrors(TyperGroup):
    """The command group, with every error of the command line itself (an unknown command or
    option, a missing argument, a bad value) as one line on stderr and exit code 2, as for
    the commands' own errors; Click would print a framed usage box."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as exc:  # Click's errors: a usage error has exit code 2
            message = printable(exc.format_message())
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

FileArg = Annotated[
    Path,
    typer.Argument(
        metavar="FILE",
        help="A save file (written by `imperial new` or the app).",
        show_default=False,
    ),
]


AsciiOpt = Annotated[
    bool,
    typer.Option(
        "--ascii",
        help="Plain ASCII characters only in the app (also IMPERIAL_ASCII=1), for terminals "
        "without Unicode.",
    ),
]


def _want_ascii(flag: bool) -> None:
    """``--ascii`` sets IMPERIAL_ASCII=1, which the app reads (``imperial_tui.style``), so the
    flag and the environment variable mean exactly the same."""
    if flag:
        os.environ["IMPERIAL_ASCII"] = "1"


def _console() -> Console:
    """Standard output console; Rich itself honours NO_COLOR and non-terminal output."""
    return Console(highlight=False, soft_wrap=False)


def _fail(message: str, code: int = EXIT_GAME) -> NoReturn:
    """One line to stderr and the exit code: the user sees what went wrong, not where."""
    sys.stderr.write(f"imperial: {printable(message)}\n")
    raise typer.Exit(code)


def _load(path: Path) -> LoadedGame:
    try:
        return load_game(path)
    except SaveError as exc:
        _fail(str(exc))


AtOpt = Annotated[
    int | None,
    typer.Option(
        "--at",
        metavar="N",
        help="The position after the first N actions (0: the start; -N: N actions before "
        "the last).",
        show_default=False,
    ),
]


def _game_at(path: Path, at: int | None) -> Game:
    """The saved game, or the position after its first ``at`` actions (``game_at``: the
    position the engine recorded then, exactly as undo restores it)."""
    from rules.history import game_at

    game = _load(path).game
    if at is None:
        return game
    total = len(game.history)
    n = at if at >= 0 else total + at
    if not 0 <= n <= total:
        _fail(f"--at {at}: {path} has {total} action{'s' if total != 1 else ''}", EXIT_USAGE)
    return game_at(game, n)


def _start_app(path: Path | None) -> None:
    """Open the Textual app on a save file (None: the new-game screen), for bare ``imperial``
    and ``imperial new`` without ``--save`` at a terminal. Textual is imported only inside
    this function so that every other command stays free of it."""
    from imperial_tui.app import run

    try:
        run(str(path) if path is not None else None)
    except SaveError as exc:
        _fail(str(exc))


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


# --------------------------------------------------------------------------- new


def _parse_options(values: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in values:
        if "=" not in item:
            _fail(
                f"--option {item!r} must look like NAME=VALUE (see `imperial options`)", EXIT_USAGE
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


@app.command()
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
    edition: Annotated[
        str | None,
        typer.Option(
            "--edition", "-e", help=f"Rule edition: {' | '.join(EDITIONS)} (default first)."
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
                ("--edition", edition),
                ("--variant", variant),
                ("--option", option),
                ("--seed", seed),
                ("--deal", deal),
            )
            if value
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
        try:
            rules = RuleSet.preset(edition or "first", variant or "standard").with_options(
                **_parse_options(option or [])
            )
        except ValueError as exc:
            _fail(str(exc), EXIT_USAGE)
        try:
            game = Game.new(names, rules=rules, seed=seed, deal=deal)
        except SetupError as exc:
            _fail(str(exc), EXIT_USAGE)
    controllers = _bot_controllers(bot or [], game.players)
    path = save if save is not None else _auto_save_path()
    if path.exists() and not force:
        _fail(
            f"{path} already exists; use --force to overwrite it or choose another --save",
            EXIT_USAGE,
        )
    try:
        save_game(game, path, controllers)
    except SaveError as exc:
        _fail(str(exc))
    from imperial_tui.show import setup_overview

    console = _console()
    console.print(setup_overview(game))
    how = "Saved to" if save is not None else "No --save given: saved to"
    console.print(f"{how} {path}. Next: `imperial show {path}`.")
    if controllers:
        seats = ", ".join(f"{n} ({c.split(':', 1)[1]})" for n, c in controllers.items())
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


def _bot_controllers(items: list[str], names: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``--bot Ben=greedy`` -> {"Ben": "bot:greedy"} (the save file's controller field)."""
    out: dict[str, str] = {}
    for item in items:
        name, _, level = (part.strip() for part in item.partition("="))
        if name not in names:
            _fail(
                f"--bot {item!r}: {name!r} is not a player; players are {', '.join(names)}",
                EXIT_USAGE,
            )
        if level not in LEVELS:
            _fail(f"--bot {item!r}: the level must be one of {LEVEL_NAMES}", EXIT_USAGE)
        out[name] = f"bot:{level}"
    return out


# --------------------------------------------------------------------------- state


def _state_text(game: Game) -> str:
    """A few plain lines for a quick look (``show`` has the full tables)."""
    s = game.summary()
    lines = [f"Imperial, {s['edition']} edition, {s['variant']} variant"]
    if s["finished"]:
        result = game.result()
        lines.append(f"Game over: {result.describe() if result else ''}")
    else:
        turn, awaiting = s["turn"], s["awaiting"]
        where = f"round {turn['round']}, {turn['nation']}'s turn" if turn["nation"] else "set-up"
        if awaiting:
            who = f"{awaiting['player']} decides {awaiting['kind']}"
            if awaiting["nation"]:
                who += f" for {awaiting['nation']}"
            where += f"; {who}"
        lines.append(where[:1].upper() + where[1:])
    for code, n in s["nations"].items():
        lines.append(
            f"  {code} {n['governor'] or '-':<12} treasury {n['treasury']:>3}M  "
            f"power {n['power']:>2}  rondel {n['rondel'] or '-'}"
        )
    for p in s["players"]:
        bonds = ", ".join(f"{b['nation']} {b['value']}" for b in p["bonds"]) or "no bonds"
        extra = []
        if p["governs"]:
            extra.append("governs " + " ".join(p["governs"]))
        if p["investor_card"]:
            extra.append("investor card")
        if p["swiss_bank"]:
            extra.append("Swiss bank")
        tail = f" ({'; '.join(extra)})" if extra else ""
        lines.append(f"  {p['name']}: {p['cash']}M cash; {bonds}{tail}")
    return "\n".join(lines)


@app.command()
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
    game = _game_at(file, at)
    if as_json:
        sys.stdout.write(json.dumps(game.summary(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(_state_text(game) + "\n")


# --------------------------------------------------------------------------- show


@app.command()
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
    from imperial_tui.show import find_region, map_view, render_game
    from imperial_tui.style import ascii_wanted

    game = _game_at(file, at)
    console = _console()
    if region is not None:
        from imperial_tui.regioninfo import region_text

        rid = find_region(game, region)
        if rid is None:
            _fail(f"no region {region!r} on this map (a label such as BER, or a name)", EXIT_USAGE)
        console.print(region_text(game, rid, ascii_only=ascii_wanted()))
        return
    if board_map:
        console.print(map_view(game, ascii_only=ascii_wanted()))
        return
    console.print(render_game(game, limit=limit))


# --------------------------------------------------------------------------- moves


@app.command()
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
    allowed at any time and never listed.

    Examples:

    * `imperial moves game.json`

    * `imperial moves game.json --json`

    * `imperial moves game.json --at 20` (what was legal after the first 20 actions)
    """
    game = _game_at(file, at)
    awaiting = game.awaiting
    actions = game.legal_actions() if awaiting is not None else []
    if as_json:
        rows = [
            {
                "notation": str(a),
                "player": awaiting.player if awaiting else None,
                "kind": type(a).kind,
                "nation": awaiting.nation if awaiting else None,
            }
            for a in actions
        ]
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    if awaiting is None:
        result = game.result()
        sys.stdout.write(f"The game is over{': ' + result.describe() if result else ''}.\n")
        return
    head = f"{awaiting.player} decides ({awaiting.kind}"
    head += f", {awaiting.nation})" if awaiting.nation else ")"
    sys.stdout.write(head + ":\n" + "".join(f"  {a}\n" for a in actions))


# --------------------------------------------------------------------------- apply


@app.command()
def apply(
    file: FileArg,
    actions: Annotated[
        list[str],
        typer.Argument(
            metavar="ACTION...", help="Actions in notation, applied in order.", show_default=False
        ),
    ],
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            "-n",
            help="Show what would happen (events and the changed figures) without saving.",
        ),
    ] = False,
) -> None:
    """Apply actions to a saved game and save it once, then print what happened.

    All or nothing: if one action is illegal, it prints `illegal: <reason>` naming the action,
    exits with 1 and leaves the file untouched. The file stays locked from reading to saving,
    so two commands on one save take turns. With --dry-run nothing is saved: it shows the
    events and every figure that would change (what if?).

    Examples:

    * `imperial apply game.json "AH rondel import"`

    * `imperial apply game.json "AH import army vienna" "AH import fleet trieste" "AH import
      done"`

    * `imperial apply game.json "Anna donates 3 to IT"`

    * `imperial apply game.json --dry-run "IT rondel taxation"`
    """
    if dry_run:
        game = _load(file).game
        before = game.summary()
        done = _apply_all(game, actions, file, saved=False)
        from rules.changes import summary_changes

        _print_applied(game, done)
        changes = summary_changes(before, game.summary())
        out = ["changes:", *(f"  {c}" for c in changes)] if changes else ["no figure changes"]
        out.append(f"Not saved (--dry-run); {file} is unchanged.")
        _console().print("\n".join(out), markup=False)
        return
    try:
        with SaveLock(file) as lock:
            loaded = lock.loaded
            game = loaded.game
            done = _apply_all(game, actions, file, saved=True)
            lock.save(game, loaded.controllers, loaded.app, loaded.header.get("created"))
    except SaveError as exc:
        _fail(str(exc))
    _print_applied(game, done)


def _apply_all(
    game: Game, actions: list[str], file: Path, saved: bool
) -> list[tuple[str, list[Any]]]:
    done: list[tuple[str, list[Any]]] = []
    for number, text in enumerate(actions, start=1):
        try:
            events = game.apply(text)
        except IllegalAction as exc:
            which = f"action {number} of {len(actions)}, " if len(actions) > 1 else ""
            text = text if len(text) <= 60 else text[:57] + "..."
            what = "nothing was saved" if saved else "nothing would be saved"
            _fail_plain(
                f"illegal: {exc.reason} ({which}{text!r}; {what}; see `imperial moves {file}` "
                f"or `imperial explain {file} ACTION`)"
            )
        done.append((str(game.history[-1]), events))
    return done


def _print_applied(game: Game, done: list[tuple[str, list[Any]]]) -> None:
    out = []
    for notation, events in done:
        out.append(notation)
        out.extend(f"  {e.text}" for e in events)
    from imperial_tui.show import decision_text

    console = _console()
    console.print("\n".join(out), markup=False)
    console.print(decision_text(game))


# --------------------------------------------------------------------------- undo


@app.command()
def undo(
    file: FileArg,
    count: Annotated[
        int,
        typer.Argument(metavar="[N]", min=1, help="How many actions to take back (default 1)."),
    ] = 1,
) -> None:
    """Take back the last N actions of a saved game and save it (all at once, locked like
    apply). A game that started from a position stops there.

    Examples:

    * `imperial undo game.json`

    * `imperial undo game.json 3`
    """
    try:
        with SaveLock(file) as lock:
            loaded = lock.loaded
            game = loaded.game
            total = len(game.history)
            if count > total:
                start = "the position it starts from" if game.setup.position else "the set-up"
                _fail(
                    f"{file} has only {total} action{'s' if total != 1 else ''} since "
                    f"{start}; nothing was undone"
                )
            taken = [str(game.undo()) for _ in range(count)]
            lock.save(game, loaded.controllers, loaded.app, loaded.header.get("created"))
    except SaveError as exc:
        _fail(str(exc))
    from imperial_tui.show import decision_text

    console = _console()
    console.print("\n".join(f"undone: {t}" for t in taken), markup=False)
    console.print(decision_text(game))


# --------------------------------------------------------------------------- log


@app.command()
def log(
    file: FileArg,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"actions": N, "turns": [{"heading", "nation", "events", "actions": '
            '[{"number", "notation", "actor", "events"}]}]}.',
        ),
    ] = False,
) -> None:
    """Print the history of a saved game: the numbered actions with the events they caused,
    grouped by nation turn, as the app's log shows them. The numbers are the N of
    `show/state/moves --at N`.

    Examples:

    * `imperial log game.json`

    * `imperial log game.json --json | jq '.turns[-1]'`
    """
    from rules.history import log_json, turn_logs

    game = _load(file).game
    if as_json:
        sys.stdout.write(json.dumps(log_json(game), indent=2, ensure_ascii=False) + "\n")
        return
    lines: list[str] = []
    for turn in turn_logs(game):
        lines.append(turn.heading[:1].upper() + turn.heading[1:])
        lines.extend(f"       {e.text}" for e in turn.events)
        for a in turn.actions:
            lines.append(f"  {a.number:>4} {a.notation}")
            lines.extend(f"         {e.text}" for e in a.events)
    if not game.plies:
        lines.append("(no actions yet)")
    _console().print("\n".join(lines), markup=False)


# --------------------------------------------------------------------------- explain


@app.command()
def explain(
    file: FileArg,
    action: Annotated[
        str, typer.Argument(metavar="ACTION", help="An action in notation.", show_default=False)
    ],
    at: AtOpt = None,
) -> None:
    """Explain why an action is legal or illegal here, citing the rule (the rules page and
    section, and the RULES.md paragraph). Nothing is saved. Exits with 0 when the action is
    legal and 1 when it is not (the answer is on standard output either way).

    Examples:

    * `imperial explain game.json "GE move army hamburg -> danzig"`

    * `imperial explain game.json "AH build factory trieste" --at 30`
    """
    from rules.explain import explain as explain_action

    game = _game_at(file, at)
    answer = explain_action(game, action)
    lines = [answer.headline(), f"  action: {answer.action}"]
    if answer.engine_reason and answer.engine_reason != answer.why:
        lines.append(f"  the engine says: {answer.engine_reason}")
    lines.append(f"  rule: {answer.rule.short()} ({answer.rule.where()})")
    if answer.legal:
        lines.append("  what would happen (not saved):")
        lines.extend(f"    {e.text}" for e in answer.events)
    _console().print("\n".join(lines), markup=False)
    if not answer.legal:
        raise typer.Exit(EXIT_GAME)


def _fail_plain(message: str) -> NoReturn:
    """Like ``_fail`` but without the program prefix, for the documented ``illegal:`` line."""
    sys.stderr.write(" ".join(message.split()) + "\n")
    raise typer.Exit(EXIT_GAME)


# --------------------------------------------------------------------------- options


@app.command()
def options(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the options as JSON for tools.")
    ] = False,
) -> None:
    """List every rule option: its choices, the default of each edition and what it means.

    Change one for a new game with `imperial new ... --option NAME=VALUE`.

    Examples:

    * `imperial options`

    * `imperial new -p Anna,Ben,Cleo --option bank=limited --option swiss_banks=true -s g.json`
    """
    presets = {e: RuleSet.preset(e).options() for e in EDITIONS}
    if as_json:
        rows = [
            {
                "name": name,
                "choices": list(info.choices),
                "defaults": {e: presets[e][name] for e in EDITIONS},
                "summary": info.summary,
                "source": info.source,
            }
            for name, info in OPTIONS.items()
        ]
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.padding import Padding
    from rich.text import Text

    console = _console()
    console.print(Text("Rule options (change with --option NAME=VALUE)", style="bold"))
    for name, info in OPTIONS.items():
        console.print()
        line = Text(name, style="bold")
        line.append("  choices: " + " | ".join(format_value(c) for c in info.choices))
        line.append(
            "  defaults: " + ", ".join(f"{e} {format_value(presets[e][name])}" for e in EDITIONS)
        )
        console.print(line)
        console.print(Padding(Text(info.summary), (0, 0, 0, 4)))
        console.print(Padding(Text(f"source: {info.source}", style="dim"), (0, 0, 0, 4)))


# --------------------------------------------------------------------------- app, rules


@app.command()
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
    from imperial_tui.session import Session

    _want_ascii(ascii_only)
    try:
        session = Session.load(file)
    except SaveError as exc:
        _fail(str(exc))
    for warning in session.warnings:
        sys.stderr.write(f"imperial: {printable(warning)}\n")
    session.controllers.update(_bot_controllers(bot or [], session.game.players))
    session = Session(
        session.game,
        session.controllers,
        session.path,
        hidden_cash=session.hidden_cash,
        pace=session.pace,
        created=session.created,
        digest=session.digest,
    )
    if not headless:
        try:
            session.save()
        except SaveError as exc:
            _fail(str(exc))
        from imperial_tui.app import ImperialApp, run_app

        run_app(ImperialApp(session=session))
        return
    try:
        while session.game.awaiting and not session.is_human(session.game.awaiting.player):
            bot_ = session.bot_for(session.game.awaiting.player)
            assert bot_ is not None
            session.game.apply(bot_.choose(session.game))
        session.save()
    except SaveError as exc:
        _fail(str(exc))
    result = session.game.result()
    console = _console()
    if result is not None:
        console.print(f"Game over after {len(session.game.history)} actions: {result.describe()}")
    else:
        aw = session.game.awaiting
        console.print(f"{aw.player} must decide ({aw.kind}); saved to {file}")


@app.command()
def rules(
    topic: Annotated[
        str | None,
        typer.Argument(
            help=f"One of: {', '.join(RULES_TOPICS)}. Without one, every page.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print the rules pages (the same text as F1 in the app).

    Each page ends with the rule options that change it and what their defaults do.

    Examples: `imperial rules maneuver`, `imperial rules options`
    """
    from imperial_tui.rules_text import all_pages, page, topics

    console = _console()
    if topic is None:
        console.print(all_pages(), markup=False)
        console.print(f"\nTopics: {', '.join(topics())}", markup=False)
        return
    try:
        title, text = page(topic)
    except KeyError as exc:
        _fail(str(exc.args[0]), EXIT_USAGE)
    console.print(f"{title.upper()}\n{text}", markup=False)


# --------------------------------------------------------------------------- serve

from imperial_tui.server.cli import serve_app  # noqa: E402 - its own package, imports lazily

app.add_typer(serve_app, name="serve")


# --------------------------------------------------------------------------- entry point


def main() -> None:
    """Console-script entry point (``imperial``): run the Typer app; Ctrl-C exits quietly."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
