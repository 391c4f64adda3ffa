"""The SSH server: who may log in as whom, one app per connection, limits, clean shutdown.

Who is who (trust on first use, like many SSH apps): the first public key that logs in as a
name claims it; later logins as that name must use that key. There are no passwords. A client
that offers no key, or the wrong one, is told why in one line (through keyboard-interactive
authentication's instructions, which OpenSSH prints) and refused. ``allow_any`` turns
authentication off.

Pitfalls of many Textual apps in one process (docs/SERVER.md): the parser's lru_cache is
cleared after each connection, ``sys.stdout`` is given back when the last app ends (Textual
redirects it per app), and the server never prints, it logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh
from asyncssh.auth import KbdIntChallenge, KbdIntResponse

from imperial_tui.server.collector import Collector
from imperial_tui.server.driver import RESTORE, clear_parser_cache
from imperial_tui.server.hub import Hub
from imperial_tui.server.limits import ByteBudget, Gate, Peer, Startups, address_of
from imperial_tui.server.store import NameTaken, Store, StoreError, open_store
from imperial_tui.server.strips import render_per_colour_system
from rules.games import ALL_NATION_CODES
from rules.savefile import printable
from rules.setup import NAME_RE

if TYPE_CHECKING:
    from imperial_tui.server.app import ServerApp

log = logging.getLogger("imperial.server")

MAX_BUFFER = 2 * 1024 * 1024  # bytes queued for a client that does not read: it is dropped
ENV_KEPT = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR", "IMPERIAL_ASCII")


@dataclass
class ServeConfig:
    data: Path
    host: str = "127.0.0.1"
    port: int = 2222
    allow_any: bool = False
    notify: str | None = None
    max_connections: int = 64
    idle_timeout: float = 3600.0  # seconds without a key press
    pace: float = 0.6  # seconds between computer moves (each game can change it)
    login_timeout: float = 20.0  # seconds to log in (OpenSSH's LoginGraceTime)
    per_user: int = 4  # sessions of one user at once
    per_address: int = 16  # connections from one address at once (logged in or not)
    per_address_startups: int = 4  # connections from one address still logging in
    startups: Startups = field(default_factory=Startups)  # OpenSSH's MaxStartups
    # input bytes a connection may have parsed (limits.ByteBudget): a second, at once, and
    # how long it may stay over before it is disconnected
    input_rate: float = 2048.0
    input_burst: float = 4096.0
    input_patience: float = 10.0
    # the database: None for SQLite in ``data``, or postgresql://... (several hosts)
    store: str | None = None

    @property
    def store_spec(self) -> str | Path:
        return self.store or self.data / "imperial.db"

    # seconds between full garbage collections (0: Python's own schedule); see collector.py
    gc_every: float = 30.0
    # processes running the connections' screens (0: all in this one); see owner.py
    workers: int = 0


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name (None: it can). In ASCII only: OpenSSH shows any
    other character of the reason as an octal escape (``J\\303\\274rgen``), so a name with an
    accent is shown with ``?`` and the name without accents is suggested."""
    if not NAME_RE.match(name) or name.upper() in ALL_NATION_CODES:
        shown = "".join(ch if " " <= ch <= "~" else "?" for ch in name[:30])
        folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        hint = f" (try {folded})" if folded != name and NAME_RE.match(folded) else ""
        return (
            f"'{shown}' cannot be a player name: start with a letter, then letters A-Z, digits, "
            f"_ . ' - (at most 20 characters, not a nation code){hint}. Connect as ssh NAME@host"
        )
    return None


def key_text(key: asyncssh.SSHKey) -> str:
    """'ssh-ed25519 AAAA...' without the comment: what identifies a key."""
    parts = key.export_public_key("openssh").decode("ascii").split()
    return " ".join(parts[:2])


def host_key(data: Path) -> asyncssh.SSHKey:
    """The server's host key, made once and kept (clients remember it)."""
    path = data / "ssh_host_ed25519_key"
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    data.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key.export_private_key())
    (data / "ssh_host_ed25519_key.pub").write_bytes(key.export_public_key())
    log.info("created the host key %s", path)
    return key


def tell(process: asyncssh.SSHServerProcess[bytes], line: str, code: int = 1) -> None:
    """One line to a client that will not get a screen, then the session ends."""
    process.stdout.write(f"imperial: {line}\r\n".encode())
    process.exit(code)


class SSHLink:
    """The driver's link over an asyncssh process: bytes in, text out, window sizes."""

    def __init__(
        self, process: asyncssh.SSHServerProcess[bytes], budget: ByteBudget | None = None
    ) -> None:
        self.process = process
        self.budget = budget or ByteBudget()  # read by the driver
        width, height = process.get_terminal_size()[:2]
        self.size = (width or 80, height or 24)
        self.last_input = time.monotonic()
        self.sent = 0
        self.closed = False
        self.ended: str | None = None  # why the server ended it (too much input)

    def send(self, text: str) -> None:
        if self.closed:
            return
        data = text.encode("utf-8", errors="replace")
        try:
            if self.process.channel.get_write_buffer_size() > MAX_BUFFER:
                log.warning("%s does not read its screen; disconnected", self.user)
                self.closed = True
                self.process.close()
                return
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error, BrokenPipeError, RuntimeError):
            self.closed = True
            return
        self.sent += len(data)

    @property
    def user(self) -> str:
        return str(self.process.get_extra_info("username"))

    async def receive(self) -> bytes | tuple[int, int] | None:
        while True:
            try:
                data = await self.process.stdin.read(4096)
            except asyncssh.TerminalSizeChanged as exc:
                return (exc.width or 80, exc.height or 24)
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (OSError, asyncssh.Error, asyncio.IncompleteReadError):
                return None
            if not data:
                return None
            self.last_input = time.monotonic()
            return data


class GameSSHServer(asyncssh.SSHServer):
    """One per connection: authentication."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.username = ""
        self.offered_key = False
        self.new_key: str | None = None
        self.why = ""
        self.told = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.peer = peer_of(conn.get_extra_info("peername"))
        self.server.connections += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections -= 1
        self.server.closed(self.peer)

    def begin_auth(self, username: str) -> bool:
        self.username = username
        problem = name_problem(username)
        if problem:
            self.why = problem
            return True
        return not self.server.config.allow_any

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.offered_key = True
        if self.why:
            return False
        try:
            user = self.server.store.get_user(username)
        except StoreError as exc:
            self.why = str(exc)
            return False
        text = key_text(key)
        if user is None or user.key == text:
            # an unclaimed name is claimed in auth_completed, once the client proved the key
            self.new_key = text if user is None else None
            if self.conn is not None:
                self.conn.set_extra_info(imperial_key=text)
            return True
        self.why = (
            f"the name {user.name} belongs to another key. Use that key, another name, or ask "
            f"the host to free it (imperial serve users --reset {user.name})"
        )
        return False

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return not self.told  # offered once, only to say why the login fails

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> KbdIntChallenge:
        """Not a real challenge: the one line that says why the login failed (once: OpenSSH
        would ask three times)."""
        if self.told:
            return False
        self.told = True
        why = self.why or (
            "log in with an SSH key (ssh-keygen makes one): the first key used for a name "
            "claims it. There are no passwords here"
        )
        self.server.gate.refusals.note(
            f"a login as {printable(username, 40)!r} from {address_of(self.peer)}: {why}"
        )
        return ("", f"imperial: {why}\n", "", [])

    def validate_kbdint_response(self, username: str, responses: KbdIntResponse) -> bool:
        return False

    def auth_completed(self) -> None:
        self.server.logged_in(self.peer)
        if self.new_key is None:
            return
        try:
            self.server.store.claim_user(self.username, self.new_key)
            log.info("%s claimed by key %s", self.username, self.new_key[:40])
        except (NameTaken, StoreError):
            # another connection claimed it in the same instant: checked again at the session
            pass


def peer_of(address: object) -> Peer:
    """A TCP connection's peer as the limits count it: "address port"."""
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]} {address[1]}"
    return str(address)


def refuse(conn: socket.socket, why: str) -> None:
    """Drop a new connection with one line before the SSH greeting (which clients show or
    ignore: RFC 4253 allows lines before it)."""
    try:
        conn.setblocking(False)
        conn.send(f"imperial: {why}\r\n".encode())
    except OSError:
        pass
    finally:
        conn.close()


async def accept_forever(
    listener: socket.socket, gate: Gate, hand: Callable[[socket.socket, Peer], None]
) -> None:
    """Accept connections, drop those the gate refuses, hand the others on (to this
    process's SSH server, or to the least busy worker)."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            conn, address = await loop.sock_accept(listener)
        except OSError as exc:  # out of file descriptors, a reset before accept ...
            log.error("cannot accept a connection: %s", exc)
            await asyncio.sleep(0.1)
            continue
        peer = peer_of(address)
        why = gate.accept(peer)
        if why is not None:
            refuse(conn, why)
            continue
        try:
            hand(conn, peer)
        except Exception:
            log.exception("a connection could not be handed on")
            gate.closed(peer)
            conn.close()


def listen(config: ServeConfig) -> socket.socket:
    sock = socket.create_server((config.host, config.port), backlog=1024)
    sock.setblocking(False)
    return sock


def make_gate(config: ServeConfig) -> Gate:
    return Gate(config.per_address, config.per_address_startups, config.startups)


class Server:
    """``imperial serve``: start, serve connections, stop cleanly."""

    def __init__(
        self,
        config: ServeConfig,
        hub: Callable[[Store], Hub] | None = None,
        handed: bool = False,
    ) -> None:
        """``hub`` makes the hub from the store (a worker process's copies: mirror.py);
        ``handed``: connections are handed to ``serve_connection`` by another process
        (owner.py), which listens and counts them, instead of accepted here."""
        self.config = config
        self.store = open_store(config.store_spec)
        if hub is None:
            self.hub = Hub(self.store, notify=config.notify, default_pace=config.pace)
        else:
            self.hub = hub(self.store)
        self.hub.sessions.limit = config.max_connections
        self.hub.sessions.per_user = config.per_user
        self.handed = handed
        self.gate = make_gate(config)
        self.connections = 0
        self.sessions: set[ServerApp] = set()
        self.listener: socket.socket | None = None
        self.options: asyncssh.SSHServerConnectionOptions | None = None
        self.port = config.port
        self.bytes_sent = 0
        self._poll: asyncio.Task[None] | None = None
        self._accept: asyncio.Task[None] | None = None
        self._conns: set[asyncio.Task[None]] = set()
        self.collector = Collector(config.gc_every)
        # a connection logged in / ended (a worker tells the owner, which counts them)
        self.on_logged_in: Callable[[Peer], None] = self.gate.logged_in
        self.on_closed: Callable[[Peer], None] = self.gate.closed

    async def start(self) -> int:
        render_per_colour_system()  # one process draws for terminals of different colours
        self.hub.load()
        key = host_key(self.config.data)
        self.options = await asyncssh.SSHServerConnectionOptions.construct(
            server_factory=lambda: GameSSHServer(self),
            server_host_keys=[key],
            process_factory=self.handle,
            encoding=None,
            line_editor=False,
            keepalive_interval=30,
            keepalive_count_max=4,
            login_timeout=self.config.login_timeout,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
        )
        loop = asyncio.get_running_loop()
        if not self.handed:
            self.listener = listen(self.config)
            self.port = self.listener.getsockname()[1]
            self._accept = loop.create_task(
                accept_forever(self.listener, self.gate, self.serve_connection)
            )
            self._poll = loop.create_task(self.hub.pick_up_imports())
        self.hub.wake()
        self.collector.start()
        return self.port

    def serve_connection(self, conn: socket.socket, peer: Peer) -> None:
        """Run SSH on an accepted connection (already counted by the gate)."""
        task = asyncio.get_running_loop().create_task(self._connection(conn, peer))
        self._conns.add(task)
        task.add_done_callback(self._conns.discard)

    async def _connection(self, conn: socket.socket, peer: Peer) -> None:
        loop = asyncio.get_running_loop()
        options = self.options
        assert options is not None
        try:
            conn.setblocking(False)
            await loop.connect_accepted_socket(
                lambda: asyncssh.SSHServerConnection(loop, options), sock=conn
            )
        except Exception as exc:  # the client went away at once
            log.debug("a connection failed to start: %s", exc)
            conn.close()
            self.closed(peer)

    def logged_in(self, peer: Peer) -> None:
        with contextlib.suppress(Exception):
            self.on_logged_in(peer)

    def closed(self, peer: Peer) -> None:
        with contextlib.suppress(Exception):
            self.on_closed(peer)

    async def stop(self) -> None:
        """Tell every player, end their apps, close the port and the database."""
        for task in (self._poll, self._accept):
            if task is not None:
                task.cancel()
        if self.listener is not None:
            self.listener.close()
        for app in list(self.sessions):
            with contextlib.suppress(Exception):
                app.stopping = True
                app.exit()
        for _ in range(100):
            if not self.sessions:
                break
            await asyncio.sleep(0.05)
        for task in list(self._conns):
            task.cancel()
        await self.hub.stop()
        self.store.close()
        self.collector.stop()

    async def handle(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        """One connection's session: refuse what cannot be served, else run its app."""
        try:
            await self._session(process)
        except Exception:
            log.exception("a session failed")
        finally:
            with contextlib.suppress(Exception):
                process.exit(0)

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        user = str(process.get_extra_info("username"))

        def say(line: str, code: int = 1) -> None:
            tell(process, line, code)

        term = process.get_terminal_type()
        if term is None:
            say("this server shows a game screen: connect from a terminal (ssh -t)")
            return
        if term == "dumb":
            say("your terminal (TERM=dumb) cannot show the game; try TERM=xterm-256color")
            return
        why = self.hub.admit(user)
        if why is not None:
            say(why)
            return
        try:
            await self._play(process, user, term)
        finally:
            self.hub.release(user)

    async def _play(self, process: asyncssh.SSHServerProcess[bytes], user: str, term: str) -> None:
        if not self._identity_ok(process, user):
            why = f"the name {user} belongs to another key (the host: imperial serve users --reset)"
            tell(process, why)
            return
        from imperial_tui.server.app import ServerApp

        env = {k: str(v) for k, v in process.env.items() if k in ENV_KEPT}
        env["TERM"] = term
        lang = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or ""
        ascii_only = env.get("IMPERIAL_ASCII", "") not in ("", "0") or lang in ("C", "POSIX")
        c = self.config
        link = SSHLink(process, ByteBudget(c.input_rate, c.input_burst, c.input_patience))
        app = ServerApp(self.hub, user, link, env, ascii_only=ascii_only)
        app.stopping = False
        self.sessions.add(app)
        watchdog = asyncio.get_running_loop().create_task(self._watch_idle(app, link))
        log.info("%s connected (%sx%s, %s)", user, *link.size, term)
        try:
            await app.run_async(size=link.size)
        finally:
            watchdog.cancel()
            # the terminal as it was, whatever ended the app (Textual's own exit does this
            # too; a screen that failed may not have)
            link.send(RESTORE)
            self.sessions.discard(app)
            self.bytes_sent += link.sent
            self._after_session()
        if app.return_code:
            crash = app.crash
            log.error("%s's screen failed: %s", user, crash.line() if crash else "(see above)")
            link.send(
                "\r\nimperial: the game screen failed (the host's log has the details); "
                "your games are safe on the server\r\n"
            )
        elif app.stopping:
            link.send("imperial: the server is stopping; your games are saved\r\n")
        elif app.idle:
            link.send("imperial: disconnected after a long time without a key press\r\n")
        elif link.ended:
            link.send(f"\r\nimperial: {link.ended}\r\n")
        log.info("%s left", user)

    def _identity_ok(self, process: asyncssh.SSHServerProcess[bytes], user: str) -> bool:
        """The key check again, now that the session starts (two first logins racing for one
        name: only the key that claimed it gets in). With --allow-any the name is enough."""
        try:
            record = self.store.get_user(user)
            if self.config.allow_any:
                if record is None:
                    with contextlib.suppress(NameTaken):
                        self.store.claim_user(user, None)
                return True
            used = process.get_extra_info("imperial_key")
            return record is not None and record.key is not None and record.key == used
        except StoreError as exc:
            log.error("%s", exc)
            return False
        finally:
            with contextlib.suppress(StoreError):
                self.store.touch_user(user)

    async def _watch_idle(self, app: ServerApp, link: SSHLink) -> None:
        timeout = self.config.idle_timeout
        while True:
            await asyncio.sleep(min(30.0, max(0.2, timeout / 4)))
            if time.monotonic() - link.last_input > timeout:
                app.idle = True
                app.exit()
                return

    def _after_session(self) -> None:
        clear_parser_cache()
        if not self.sessions:
            # Textual redirects sys.stdout/err per app; overlapping apps end out of order
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
