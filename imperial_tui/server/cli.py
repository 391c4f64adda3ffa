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
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        metavar="URL",
        help="The games' database: postgresql://USER@HOST/DB for several hosts on one "
        "database (needs `imperial[postgres]`); default: SQLite in --data.",
        show_default=False,
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite / do it anyway.")]


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
            "connected, once per turn; IMPERIAL_PLAYER, IMPERIAL_GAME, IMPERIAL_GAME_TITLE, "
            "IMPERIAL_DECISION, IMPERIAL_NATION and IMPERIAL_ROUND are in its environment.",
            show_default=False,
        ),
    ] = None,
    store: StoreOpt = None,
    max_connections: Annotated[
        int, typer.Option(help="Connections served at once; more are told to come back.")
    ] = 64,
    max_per_user: Annotated[int, typer.Option(help="Sessions one user may have open at once.")] = 4,
    max_per_address: Annotated[
        int, typer.Option(help="Connections from one address at once, logged in or not.")
    ] = 16,
    max_startups: Annotated[
        str,
        typer.Option(
            metavar="START:RATE:FULL",
            help="Connections still logging in (OpenSSH's MaxStartups): from START on, each "
            "new one is dropped with a chance rising from RATE % to 100 % at FULL.",
        ),
    ] = "10:30:60",
    max_startups_per_address: Annotated[
        int, typer.Option(help="Connections from one address still logging in.")
    ] = 4,
    login_grace: Annotated[
        float, typer.Option(metavar="SECONDS", help="Time to log in before the server hangs up.")
    ] = 20.0,
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
    if min(max_per_user, max_per_address, max_startups_per_address) < 1 or login_grace <= 0:
        _fail("--max-per-*, --max-startups-per-address and --login-grace must be positive", 2)
    from imperial_tui.server.limits import Startups
    from imperial_tui.server.ssh import ServeConfig

    try:
        startups = Startups.parse(max_startups)
    except ValueError as exc:
        _fail(f"--max-startups: {exc}", 2)
    if workers is None:
        workers = default_workers()
    if store is not None and workers == 0:
        workers = 1  # a game another host runs is answered on the games' process's own loop

    config = ServeConfig(
        data=(data or default_data_dir()).expanduser(),
        host=host,
        port=port,
        allow_any=allow_any,
        notify=notify,
        max_connections=max_connections,
        idle_timeout=idle_timeout * 60,
        pace=pace,
        workers=workers,
        store=store,
        per_user=max_per_user,
        per_address=max_per_address,
        per_address_startups=max_startups_per_address,
        startups=startups,
        login_timeout=login_grace,
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
        from imperial_tui.server.store import describe_store

        where_games = describe_store(config.store_spec)
        _say(f"  games: {where_games} ({games} game{'s' if games != 1 else ''})")
        _say(f"  host key: {config.data}")
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
    store: StoreOpt = None,
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
    db = _store(data, store)
    if reset is not None:
        if db.reset_user(reset):
            _say(f"{reset} is free again: the next key that logs in as {reset} claims it")
            return
        _fail(f"no user called {reset}")
    rows = db.list_users()
    if not rows:
        _say("no users yet")
    for u in rows:
        key = (u.key or "(no key: --allow-any)")[:40]
        _say(f"{u.name:20} {key:42} last seen {u.last_seen or '-'}")


@serve_app.command("games")
def games(data: DataOpt = None, store: StoreOpt = None) -> None:
    """List the server's games: number, title, state and seats."""
    hub = _hub(data, store)
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
    store: StoreOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write a server game as a normal save file (`imperial play FILE` opens it). An existing
    FILE is kept unless --force; the file is written whole or not at all."""
    from rules.savefile import SaveError

    if file.exists() and not force:
        _fail(f"{file} exists; use --force to overwrite it")
    hub = _hub(data, store)
    try:
        path = hub.export(game, file)
    except SaveError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{file}: {exc.strerror or exc}")
    _say(f"game {game} saved to {path}")


@serve_app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A save file to continue on the server.")],
    data: DataOpt = None,
    store: StoreOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Import it even if the server has this game already.")
    ] = False,
) -> None:
    """Continue a save file on the server: its human seats belong to the users of those names
    (players log in with them), computer seats keep their level. A running server picks the
    game up within seconds. A game the server has already (the same deal and moves) is not
    imported twice unless --force."""
    from rules.savefile import SaveError

    hub = _hub(data, store, create=True)
    try:
        if not force:
            same = hub.same_game(file)
            if same is not None:
                _fail(
                    f"{file} is game #{same} on this server already; use --force to import "
                    "it again as a new game"
                )
        table = hub.import_save(file)
    except SaveError as exc:
        _fail(str(exc))
    _say(f"imported as game #{table.id} ({table.describe_seats()})")


@serve_app.command("migrate")
def migrate(
    source: Annotated[
        Path,
        typer.Option("--from", metavar="DIR", help="The data directory of a SQLite server."),
    ],
    target: Annotated[
        str, typer.Option("--to", metavar="URL", help="The PostgreSQL database: postgresql://...")
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Also when the target has games already.")
    ] = False,
) -> None:
    """Move a SQLite server's users and games (numbers, seats, every log line) into a
    PostgreSQL database, in one transaction. Stop the server first."""
    from imperial_tui.server.migrate import MigrateError, migrate_store
    from imperial_tui.server.store import SQLiteStore, StoreError
    from imperial_tui.server.store_pg import PostgresStore, is_url

    if not is_url(target):
        _fail(f"--to must be a postgresql:// URL, not {target!r}", 2)
    path = source.expanduser() / "imperial.db"
    if not path.exists():
        _fail(f"no server database in {source}")
    try:
        src, dst = SQLiteStore(path), PostgresStore(target)
        users, games = migrate_store(src, dst, force=force)
    except (StoreError, MigrateError) as exc:
        _fail(str(exc))
    _say(
        f"moved {users} user{'s' if users != 1 else ''} and {games} game{'s' if games != 1 else ''}"
    )


def _store(data: Path | None, store: str | None = None, create: bool = False):  # type: ignore[no-untyped-def]
    from imperial_tui.server.store import StoreError, open_store

    if store is not None:
        spec: str | Path = store
    else:
        spec = (data or default_data_dir()).expanduser() / "imperial.db"
        if not spec.exists() and not create:
            _fail(f"no server database in {spec.parent} (start `imperial serve` first, or --data)")
    try:
        return open_store(spec)
    except StoreError as exc:
        _fail(str(exc))


def _hub(data: Path | None, store: str | None = None, create: bool = False):  # type: ignore[no-untyped-def]
    from imperial_tui.server.hub import Hub

    hub = Hub(_store(data, store, create))
    hub.load()
    return hub
