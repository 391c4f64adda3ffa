"""A Textual driver that draws one app on one SSH channel instead of the process's terminal.

It derives from Textual's base ``Driver``, not ``LinuxDriver``: the Linux driver installs
process-wide signal handlers, calls termios on the server's own stdin and runs threads, none
of which may happen once per connection in a server. Input comes from a ``Link`` (bytes,
a new window size, or the end), is parsed by Textual's ``XTermParser`` (private API: hence
Textual is pinned exactly in pyproject.toml) and posted to the app on the event loop.

Output is collected per frame and sent in one piece when Textual flushes.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, TextIO

from textual import events, messages
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from imperial_tui.server.limits import ByteBudget
from imperial_tui.server.screen_diff import ScreenDiff

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("imperial.server")

# What the terminal is asked for at the start, and given back at the end.
ENTER = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # hide the cursor
    "\x1b[?7l"  # no line wrap
    "\x1b[?2004h"  # bracketed paste: a pasted chat line arrives as one piece
)
MOUSE_ON = "\x1b[?1000h\x1b[?1006h"  # clicks and the wheel only: no motion, no hover traffic
MOUSE_OFF = "\x1b[?1000l\x1b[?1006l"
ASK_SYNC = "\x1b[?2026$p"  # does the terminal support synchronized output?
LEAVE = "\x1b[?2004l\x1b[?7h\x1b[?1049l\x1b[?25h"
RESTORE = MOUSE_OFF + LEAVE  # all of it, whatever was turned on

# Input events a connection may send: a burst of BURST, then RATE a second. A person never
# comes near it (a paste is one event); a client spewing bytes cannot keep the one event loop
# that serves everyone busy with thousands of key presses.
RATE, BURST = 20.0, 20.0  # (a fast typist: 10 keys a second; a held arrow key is slowed)
# Bytes are budgeted before that, before the parser (limits.ByteBudget). A read of at least
# PASTE_MIN characters that are nearly all printable and hold no escape sequence is text
# pasted without bracketed paste (a person's keys arrive one or two at a time): it is given
# to the app as one paste, not as PASTE_MIN key presses, so it is neither cut by the key
# rate above nor costly.
PASTE_MIN = 16
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


class Link(Protocol):
    """The connection under a driver."""

    size: tuple[int, int]

    ended: str | None  # why the server ended the connection (told after the screen is gone)

    def send(self, text: str) -> None:
        """Queue text for the terminal (never blocks)."""

    async def receive(self) -> bytes | tuple[int, int] | None:
        """The next input: bytes typed, a new window size (width, height), or None at the
        end of the connection."""
        ...


class SSHDriver(Driver):
    """Textual driver over a ``Link``: the app must have a ``link`` attribute."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.link: Link = app.link  # type: ignore[attr-defined]  # ServerApp's: the only app
        self._size = size or self.link.size
        self._out: list[str] = []
        # sends only what the terminal does not show already
        self.diff = ScreenDiff((size or self.link.size)[1])
        self._flush_pending = False
        self._input: asyncio.Task[None] | None = None
        self._tick: asyncio.TimerHandle | None = None
        self._parser = XTermParser()
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._active = False
        self._tokens = BURST
        self._refilled = self._loop.time()
        self.dropped = 0
        self.budget: ByteBudget = getattr(self.link, "budget", None) or ByteBudget()
        # the app hears of each input event and each frame sent (ServerApp: its keys hold
        # the process's redraws for other players' moves until answered, redraws.py)
        self._input_arrived: Callable[[], None] | None = getattr(app, "input_arrived", None)
        self._frame_sent: Callable[[], None] | None = getattr(app, "frame_sent", None)

    # -- output -------------------------------------------------------------------------------
    def write(self, data: str) -> None:
        self._out.append(data)
        if not self._flush_pending:
            # one send per frame even if Textual does not flush (e.g. a bell between frames)
            self._flush_pending = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        self._flush_pending = False
        if self._out:
            text = self.diff.filter("".join(self._out))
            self._out.clear()
            if text:
                self.link.send(text)
                if self._frame_sent is not None:
                    self._frame_sent()

    # -- application mode ---------------------------------------------------------------------
    def start_application_mode(self) -> None:
        self._active = True
        self.write(ENTER + (MOUSE_ON if self._mouse else "") + ASK_SYNC)
        self.flush()
        width, height = self._size or (80, 24)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))
        self._input = self._loop.create_task(self._read_input())

    def disable_input(self) -> None:
        if self._input is not None and self._input is not asyncio.current_task():
            self._input.cancel()
        self._input = None
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        if self._active:
            self._active = False
            self.write((MOUSE_OFF if self._mouse else "") + LEAVE)
            self.flush()

    def close(self) -> None:
        self.disable_input()

    # -- input --------------------------------------------------------------------------------
    def send_message(self, message: Message) -> None:
        # Textual's base sends from its input thread; here input arrives on the loop itself.
        self._app.post_message(message)

    async def _read_input(self) -> None:
        try:
            while True:
                data = await self.link.receive()
                if data is None:
                    break
                if isinstance(data, tuple):
                    self._resize(*data)
                    continue
                now = self._loop.time()
                wait = self.budget.take(len(data), now)
                if wait and self.budget.exhausted(now, wait):
                    kb = self.budget.rate / 1024
                    self.link.ended = (
                        f"disconnected: more input than a person types (over {kb:.0f} KB a "
                        f"second for {self.budget.patience:.0f} seconds)"
                    )
                    log.warning("a connection sent too much input; disconnected")
                    break
                if wait:
                    await asyncio.sleep(wait)
                self._feed(self._decode(data))
                await asyncio.sleep(0)  # other connections' turn before the next read
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("reading a terminal failed")
        self._app.post_message(messages.ExitApp())

    def _resize(self, width: int, height: int) -> None:
        width, height = max(1, width), max(1, height)
        self._size = (width, height)
        self.diff.forget()  # the terminal may have reflowed or cleared what it showed
        self.diff.height = height
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

    def _feed(self, text: str) -> None:
        """Parse typed text into key, mouse and paste events. A sequence the parser cannot
        make sense of is dropped (a fresh parser), never an error for the app."""
        if len(text) >= PASTE_MIN and "\x1b" not in text:
            printable = sum(ch.isprintable() or ch in "\r\n\t" for ch in text)
            if printable >= 0.9 * len(text):
                body = text.rstrip("\r\n")  # an Enter after it is still a key press
                pasted = body.replace("\r\n", "\n").replace("\r", "\n")
                text = PASTE_START + pasted + PASTE_END + text[len(body) :]
        try:
            for event in self._parser.feed(text):
                self._dispatch(event)
        except Exception:
            log.debug("unparseable terminal input dropped: %r", text[:40])
            self._parser = XTermParser()
        self._schedule_tick()

    def _dispatch(self, event: Message) -> None:
        if isinstance(event, messages.InBandWindowResize):
            return  # resizes come from SSH's window-change requests
        now = self._loop.time()
        self._tokens = min(BURST, self._tokens + (now - self._refilled) * RATE)
        self._refilled = now
        if self._tokens < 1:
            self.dropped += 1
            return
        self._tokens -= 1
        if self._input_arrived is not None:
            self._input_arrived()
        self.process_message(event)
        if isinstance(event, events.Paste):
            # an Input takes a paste without a repaint of its own until the next key
            self._loop.call_later(0.05, self._app.refresh)

    def _schedule_tick(self) -> None:
        """A lone Escape is only known to be the Escape key after a short wait: ask the parser
        again when its timeout is due (instead of polling every connection)."""
        due = getattr(self._parser, "_timeout_time", None)
        if due is None or self._tick is not None:
            return
        from textual._time import get_time

        self._tick = self._loop.call_later(max(0.0, due - get_time()) + 0.005, self._on_tick)

    def _on_tick(self) -> None:
        self._tick = None
        try:
            for event in self._parser.tick():
                self._dispatch(event)
        except Exception:
            self._parser = XTermParser()
        self._schedule_tick()

    # -- things a remote terminal cannot do -----------------------------------------------------
    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Nothing is opened on the server's desktop for a remote player."""

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Never write a file on the server for a remote player (Textual's screenshot)."""
        log.warning("a remote player asked to save a file on the server; refused")


def clear_parser_cache() -> None:
    """``XTermParser._parse_extended_key`` is an lru_cache on a method: its cache keeps every
    parser, and through it a whole app, alive. Cleared whenever a connection ends."""
    XTermParser._parse_extended_key.cache_clear()
