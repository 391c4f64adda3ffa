"""``imperial serve``: host games for friends over SSH, and the host's tools (users, games,
export, import). asyncssh and Textual are imported only when the server starts, so the rest
of the command line stays fast."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

serve_app = typer.Typer(
    name="serve",
    help=(
        "Host games over SSH: friends join with `ssh -p 2222 NAME@host`, each from their own "
        "terminal (docs/SERVER.md)."
    ),
    invoke_without_command=True,
    add_completion=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def default_data_dir() -> Path:
    """The user's data directory: $XDG_DATA_HOME/imperial/server (~/.local/share/...)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "imperial" / "server"


DataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data",
        metavar="DIR",
        help="Where the database and the host key live (default: the user's data directory).",
        show_default=False,
    ),
]


def _fail(message: str, code: int = 1) -> NoReturn:
    sys.stderr.write(f"imperial: {' '.join(message.split())}\n")
    raise typer.Exit(code)


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@serve_app.callback()
def serve(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(help="Address to listen on: 0.0.0.0 for every network of this machine."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port for SSH.")] = 2222,
    data: DataOpt = None,
    allow_any: Annotated[
        bool,
        typer.Option(
            "--allow-any",
            help="No authentication: anyone may log in as any name (a LAN party, a test).",
        ),
    ] = False,
    notify: Annotated[
        str | None,
        typer.Option(
            metavar="COMMAND",
            help="Run COMMAND (by the shell) when it becomes the turn of a player who is not "
            "connected, once per turn; IMPERIAL_PLAYER, IMPERIAL_GAME, IMPERIAL_GAME_TITLE and "
            "IMPERIAL_DECISION are in its environment.",
            show_default=False,
        ),
    ] = None,
    max_connections: Annotated[
        int, typer.Option(help="Connections served at once; more are told to come back.")
    ] = 64,
    idle_timeout: Annotated[
        float, typer.Option(metavar="MINUTES", help="Disconnect after this long without a key.")
    ] = 60.0,
    pace: Annotated[float, typer.Option(help="Seconds between computer moves in new games.")] = 0.6,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes that draw the players' screens, beside the one that keeps the "
            "games (0: everything in one process). Default: one per CPU core, at most 4.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the SSH server until Ctrl+C.

    Examples:

    * `imperial serve` (on 127.0.0.1:2222; friends on this machine: `ssh -p 2222 anna@localhost`)

    * `imperial serve --host 0.0.0.0 --port 2222 --data ~/imperial-server`

    * `imperial serve --notify 'notify-send "$IMPERIAL_PLAYER: $IMPERIAL_DECISION"'`
    """
    if ctx.invoked_subcommand is not None:
        return
    if not 0 <= port <= 65535:
        _fail(f"--port must be between 0 and 65535, not {port}", 2)
    if max_connections < 1 or idle_timeout <= 0 or pace < 0:
        _fail("--max-connections, --idle-timeout and --pace must be positive", 2)
    if workers is not None and not 0 <= workers <= 64:
        _fail(f"--workers must be between 0 and 64, not {workers}", 2)
    from imperial_tui.server.ssh import ServeConfig

    config = ServeConfig(
        data=(data or default_data_dir()).expanduser(),
        host=host,
        port=port,
        allow_any=allow_any,
        notify=notify,
        max_connections=max_connections,
        idle_timeout=idle_timeout * 60,
        pace=pace,
        workers=default_workers() if workers is None else workers,
    )
    run_server(config)


def default_workers() -> int:
    """One screen process per core (the games' process is light); none on one core."""
    from rules.machine import usable_cores

    cores = usable_cores()
    return 0 if cores < 2 else min(cores, 4)


def run_server(config: object) -> None:
    """Start, print where, serve until Ctrl+C or SIGTERM, stop cleanly."""
    import asyncio
    import fcntl
    import signal

    from imperial_tui.server.owner import Owner, WorkerError
    from imperial_tui.server.ssh import ServeConfig, Server
    from imperial_tui.server.store import StoreError

    assert isinstance(config, ServeConfig)
    logging.basicConfig(stream=sys.__stderr__, level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        config.data.mkdir(parents=True, exist_ok=True)
        lock = open(config.data / "server.lock", "w")  # noqa: SIM115 - held while serving
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        _fail(f"another imperial serve is using {config.data}")
    except OSError as exc:
        _fail(f"{config.data}: {exc.strerror or exc}")

    async def main() -> None:
        try:
            server: Server | Owner = Owner(config) if config.workers else Server(config)
        except StoreError as exc:
            _fail(str(exc))
        try:
            port = await server.start()
        except WorkerError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc}")
        games = len(server.hub.tables)
        _say(f"imperial serve: listening on {config.host}:{port}")
        _say(f"  data: {config.data} ({games} game{'s' if games != 1 else ''})")
        where = "localhost" if config.host in ("127.0.0.1", "::1", "localhost") else config.host
        _say(f"  players join with: ssh -p {port} NAME@{where}")
        if config.workers:
            n = config.workers
            _say(f"  {n} process{'es' if n != 1 else ''} draw the players' screens (--workers)")
        if config.allow_any:
            _say("  WARNING: --allow-any: NO AUTHENTICATION. Anyone who reaches this port can")
            _say("  WARNING: log in as any name and play any seat. Use it on a trusted network.")
        _say("  Ctrl+C stops the server (games are saved after every move).")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        _say("imperial serve: stopping...")
        await server.stop()
        _say("imperial serve: stopped")

    try:
        asyncio.run(main())
    finally:
        lock.close()


@serve_app.command("users")
def users(
    data: DataOpt = None,
    reset: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="Free NAME: the next key that logs in as NAME claims it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """List the players who claimed a name, or free one (`--reset NAME`)."""
    store = _store(data)
    if reset is not None:
        if store.reset_user(reset):
            _say(f"{reset} is free again: the next key that logs in as {reset} claims it")
            return
        _fail(f"no user called {reset}")
    rows = store.list_users()
    if not rows:
        _say("no users yet")
    for u in rows:
        key = (u.key or "(no key: --allow-any)")[:40]
        _say(f"{u.name:20} {key:42} last seen {u.last_seen or '-'}")


@serve_app.command("games")
def games(data: DataOpt = None) -> None:
    """List the server's games: number, title, state and seats."""
    hub = _hub(data)
    if not hub.tables:
        _say("no games yet")
    for table in hub.tables.values():
        row = hub.row(table, "")
        _say(f"#{table.id:<4} {table.title[:24]:24} {row.status:9} {row.turn}")
        _say(f"      seats: {row.seats}")


@serve_app.command("export")
def export(
    game: Annotated[int, typer.Argument(help="The game's number (see `imperial serve games`).")],
    file: Annotated[Path, typer.Argument(help="The save file to write.")],
    data: DataOpt = None,
) -> None:
    """Write a server game as a normal save file (`imperial play FILE` opens it)."""
    from rules.savefile import SaveError

    hub = _hub(data)
    try:
        path = hub.export(game, file)
    except SaveError as exc:
        _fail(str(exc))
    _say(f"game {game} saved to {path}")


@serve_app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A save file to continue on the server.")],
    data: DataOpt = None,
) -> None:
    """Continue a save file on the server: its human seats belong to the users of those names
    (players log in with them), computer seats keep their level. A running server picks the
    game up within seconds."""
    from rules.savefile import SaveError

    hub = _hub(data, create=True)
    try:
        table = hub.import_save(file)
    except SaveError as exc:
        _fail(str(exc))
    _say(f"imported as game #{table.id} ({table.describe_seats()})")


def _store(data: Path | None, create: bool = False) -> object:
    from imperial_tui.server.store import SQLiteStore, StoreError

    path = (data or default_data_dir()).expanduser() / "imperial.db"
    if not path.exists() and not create:
        _fail(f"no server database in {path.parent} (start `imperial serve` first, or --data)")
    try:
        return SQLiteStore(path)
    except StoreError as exc:
        _fail(str(exc))


def _hub(data: Path | None, create: bool = False):  # type: ignore[no-untyped-def]
    from imperial_tui.server.hub import Hub

    hub = Hub(_store(data, create))  # type: ignore[arg-type]
    hub.load()
    return hub
