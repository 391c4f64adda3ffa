"""Who may connect, and how many: the server's limits, modelled on OpenSSH's.

A server on a public port meets clients that are not friends. One address opening hundreds
of connections that never log in must not keep real players out, and one user must not hold
every session. So, as OpenSSH does (sshd_config: MaxStartups, PerSourceMaxStartups,
LoginGraceTime), the process that accepts connections decides for each new TCP connection,
before any SSH work is spent on it:

- connections from one address (logged in or not) at most ``per_address``;
- connections from one address still logging in ("start-ups") at most
  ``per_address_startups``;
- start-ups in all: below ``start`` every one is let in; from ``start`` on, each new one is
  dropped at random with a probability that rises from ``rate`` % to 100 % at ``full``
  (OpenSSH's "random early drop", so that a flood from many addresses leaves real players a
  chance instead of a hard wall);
- a connection has ``login_grace`` seconds to log in (asyncssh's login timeout).

Once logged in, a session counts against ``max_connections`` and against its user's
``per_user``. A dropped connection gets one line before the SSH greeting (clients show it or
ignore it) and is closed.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

Peer = str  # "address port": one TCP connection

log = logging.getLogger("imperial.server")


@dataclass
class RefusalLog:
    """The host's log of refused connections and logins (too many from one address, a key
    that is not the name's, a name that cannot be one), readable under a flood: the first
    ``per_minute`` each minute are written as they come, the rest counted, and the count is
    written with the next refusal after the minute."""

    per_minute: int = 10
    clock: Callable[[], float] = time.monotonic
    _since: float | None = None
    _shown: int = 0
    _hidden: int = 0

    def note(self, what: str) -> None:
        now = self.clock()
        if self._since is None or now - self._since >= 60:
            if self._hidden:
                log.warning("refused %d more connections or logins (not shown)", self._hidden)
            self._since, self._shown, self._hidden = now, 0, 0
        if self._shown < self.per_minute:
            self._shown += 1
            log.warning("refused: %s", what)
        else:
            self._hidden += 1


@dataclass(frozen=True, slots=True)
class Startups:
    """OpenSSH's MaxStartups ``start:rate:full``."""

    start: int = 10
    rate: int = 30
    full: int = 60

    @classmethod
    def parse(cls, text: str) -> Startups:
        """``10:30:60`` (or a single number N: ``N:100:N``, as OpenSSH reads it); ValueError
        with one line for a person."""
        parts = text.split(":")
        try:
            if len(parts) == 1:
                n = int(parts[0])
                value = cls(n, 100, n)
            elif len(parts) == 3:
                value = cls(*(int(p) for p in parts))
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"{text!r} is not start:rate:full (for example 10:30:60)") from None
        if not (1 <= value.start <= value.full and 0 <= value.rate <= 100):
            raise ValueError(f"{text!r}: need 1 <= start <= full and 0 <= rate <= 100")
        return value

    def __str__(self) -> str:
        return f"{self.start}:{self.rate}:{self.full}"

    def drop_chance(self, pending: int) -> float:
        """The chance that a new start-up is dropped while ``pending`` are logging in."""
        if pending < self.start:
            return 0.0
        if pending >= self.full:
            return 1.0
        span = max(1, self.full - self.start)
        return (self.rate + (100 - self.rate) * (pending - self.start) / span) / 100


def address_of(peer: Peer) -> str:
    return peer.rsplit(" ", 1)[0]


@dataclass
class Gate:
    """Counts the connections of one listening socket (in the process that accepts them) and
    says which new ones to drop."""

    per_address: int = 16
    per_address_startups: int = 4
    startups: Startups = field(default_factory=Startups)
    rng: random.Random = field(default_factory=random.Random)
    refusals: RefusalLog = field(default_factory=RefusalLog)
    pending: set[Peer] = field(default_factory=set)  # still logging in
    open: Counter[str] = field(default_factory=Counter)  # connections per address
    dropped: int = 0

    def accept(self, peer: Peer) -> str | None:
        """Count a new connection, or say why it is dropped (then it is not counted)."""
        address = address_of(peer)
        why = None
        if self.open[address] >= self.per_address:
            why = f"too many connections from {address}"
        elif sum(address_of(p) == address for p in self.pending) >= self.per_address_startups:
            why = f"too many logins in progress from {address}"
        elif self.rng.random() < self.startups.drop_chance(len(self.pending)):
            why = "too many logins in progress; try again in a moment"
        if why is not None:
            self.dropped += 1
            self.refusals.note(f"a connection from {address}: {why}")
            return why
        self.pending.add(peer)
        self.open[address] += 1
        return None

    def logged_in(self, peer: Peer) -> None:
        self.pending.discard(peer)

    def closed(self, peer: Peer) -> None:
        if peer in self.pending:
            self.pending.discard(peer)
        address = address_of(peer)
        if self.open[address] > 0:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]


@dataclass
class Sessions:
    """Sessions (terminals with a game screen) in all and per user, counted where they are
    admitted: across every worker process. ``holder`` is who holds a session (a worker), so
    that a worker's sessions can all be given back when it dies."""

    limit: int = 64
    per_user: int = 4
    users: Counter[str] = field(default_factory=Counter)
    held: dict[object, Counter[str]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(self.users.values())

    def admit(self, user: str, holder: object = None) -> str | None:
        """Count a new session of ``user``, or say why it may not start."""
        user = user.lower()
        if self.count >= self.limit:
            return "the server is full; try again later"
        if self.users[user] >= self.per_user:
            return (
                f"{user} has {self.users[user]} sessions open already (at most {self.per_user}); "
                "close one first"
            )
        self.users[user] += 1
        self.held.setdefault(holder, Counter())[user] += 1
        return None

    def release(self, user: str, holder: object = None) -> None:
        user = user.lower()
        mine = self.held.get(holder)
        if mine is None or mine[user] <= 0:
            return
        mine[user] -= 1
        self.users[user] -= 1
        if self.users[user] <= 0:
            del self.users[user]

    def drop(self, holder: object) -> None:
        """Everything ``holder`` held ends (a worker process died)."""
        for user, n in self.held.pop(holder, Counter()).items():
            self.users[user] -= n
            if self.users[user] <= 0:
                del self.users[user]


@dataclass
class ByteBudget:
    """How many bytes of input one connection may have parsed: ``burst`` at once, then
    ``rate`` a second. Bytes are budgeted before they reach the terminal parser (which costs
    about 10 microseconds of the shared event loop per byte), so a client pasting a megabyte
    can neither freeze the other players drawn by the same process nor make the server parse
    it all. Over budget, a connection is slowed (its input waits, and SSH's flow control then
    makes its client wait); one that stays over budget for ``patience`` seconds is ended."""

    rate: float = 2048.0
    burst: float = 4096.0
    patience: float = 10.0
    tokens: float = -1.0  # (full at the first take)
    at: float = 0.0
    slowed_since: float | None = None

    def take(self, n: int, now: float) -> float:
        """Count ``n`` bytes arriving at ``now``: the seconds they must wait first."""
        if self.tokens < 0 and self.at == 0.0:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= self.burst / 2:
            self.slowed_since = None  # it paused long enough: no longer slowed
        self.tokens -= n
        if self.tokens >= 0:
            return 0.0
        if self.slowed_since is None:
            self.slowed_since = now
        return -self.tokens / self.rate

    def exhausted(self, now: float, wait: float) -> bool:
        """Slowed without a break for longer than ``patience`` once this wait is over."""
        return self.slowed_since is not None and now + wait - self.slowed_since > self.patience
