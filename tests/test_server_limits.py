"""One rude client or address disturbs nobody: a megabyte pasted into one connection does not
freeze another player drawn by the same process, six hundred connections that never log in
do not keep a real player out, one user cannot hold every session, and a burst of logins is
spread over the worker processes. Real SSH clients on 127.0.0.1 (and 127.0.0.2: another
address on the same machine)."""

from __future__ import annotations

import asyncio
import logging
import random
import resource
import statistics
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from imperial_tui.server.limits import ByteBudget, Gate, Sessions, Startups
from rules import RuleSet
from tests.server_helpers import Terminal, connect, new_key, run, serving, until

PANEL_MARK = {b"1": b"space", b"2": b"cash  bonds"}  # what each panel key draws


def report(line: str) -> None:
    """A measured figure, shown with ``pytest -s`` (the apps redirect sys.stdout)."""
    sys.__stdout__.write(line + "\n")


async def key_to_update(term: Terminal, key: bytes) -> float:
    """Seconds from a panel key to the bytes that draw that panel."""
    start = len(term.raw)
    began = time.monotonic()
    term.process.stdin.write(key)
    while PANEL_MARK[key] not in term.raw[start:]:
        await asyncio.sleep(0.005)
        if time.monotonic() - began > 10:
            raise AssertionError("no update within 10 s")
    return time.monotonic() - began


@pytest.mark.parametrize("paste", ["random bytes", "text"])
def test_a_megabyte_pasted_into_one_connection_does_not_freeze_another(
    tmp_path: Path, paste: str
) -> None:
    rng = random.Random(27)
    if paste == "text":
        words = ["imperial", "rondel", "factory", "bond", "taxation", "maneuver"]
        flood = " ".join(rng.choice(words) for _ in range(130_000)).encode()[: 1 << 20]
    else:
        # (without ctrl+q: that is a key, and it would rightly end the connection first)
        flood = bytes(rng.randrange(256) for _ in range(1 << 20)).replace(b"\x11", b"")

    async def scenario() -> None:
        # one process: the rude client and the player share its one event loop
        async with serving(tmp_path, allow_any=True, input_patience=3.0) as server:
            server.hub.create_game(
                "vic", [("vic", "human"), ("Cleo", "bot:greedy")], RuleSet.preset(), 3, False
            )
            vic = await connect(server, "vic", None)
            await vic.wait_for("you are vic", 20)
            await vic.press("down", "enter")
            await vic.wait_for(r"Imperial .*round", 20)
            normal = [await key_to_update(vic, k) for k in (b"2", b"1", b"2", b"1")]
            rude = await connect(server, "rude", None)
            await rude.wait_for("you are rude", 20)
            rude.process.stdin.write(flood)
            during = []
            keys = iter([b"2", b"1"] * 100)
            end = time.monotonic() + 6
            while time.monotonic() < end:
                during.append(await key_to_update(vic, next(keys)))
                await asyncio.sleep(0.1)
            # the flood is slowed, then cut off with one line
            await asyncio.wait_for(rude.closed.wait(), 20)
            assert b"imperial: disconnected: more input than a person types" in rude.raw
            # the server keeps serving
            late = await connect(server, "late", None)
            await late.wait_for("you are late", 20)
            report(
                f"{paste}: key -> update normal median {1000 * statistics.median(normal):.0f}"
                f" ms; during the flood median {1000 * statistics.median(during):.0f} ms, "
                f"worst {1000 * max(during):.0f} ms ({len(during)} keys)"
            )
            assert max(during) < 1.0, during
            for t in (vic, rude, late):
                await t.close()

    run(scenario(), timeout=90)


def test_six_hundred_silent_connections_do_not_keep_a_real_player_out(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2000:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    key = new_key()

    async def scenario() -> None:
        async with serving(tmp_path, workers=2, per_user=2) as server:
            silent = []
            for _ in range(600):  # from 127.0.0.1, sending nothing, never closing
                with_suppressed = await asyncio.open_connection("127.0.0.1", server.port)
                silent.append(with_suppressed[1])
            began = time.monotonic()
            anna = await connect(server, "anna", key, source="127.0.0.2")
            await anna.wait_for("you are anna", 20)
            took = time.monotonic() - began
            report(f"a real login beside 600 silent connections: {took:.2f} s")
            assert took < 10
            assert server.gate.dropped >= 600 - server.config.per_address_startups
            # one user cannot hold every session: the third of anna's is refused, saying why
            second = await connect(server, "anna", key, source="127.0.0.3")
            await second.wait_for("you are anna", 20)
            third = await connect(server, "anna", key, source="127.0.0.3")
            await third.closed.wait()
            assert b"imperial: anna has 2 sessions open already (at most 2)" in third.raw
            for w in silent:
                w.close()
            for t in (anna, second, third):
                await t.close()

    run(scenario(), timeout=90)


def test_a_burst_of_logins_is_spread_over_the_workers(tmp_path: Path) -> None:
    async def scenario() -> None:
        options = {"per_address": 200, "per_address_startups": 200, "startups": Startups(200)}
        async with serving(tmp_path, allow_any=True, workers=2, **options) as server:

            async def login(i: int) -> asyncssh.SSHClientConnection:
                return await asyncssh.connect(
                    "127.0.0.1", server.port, username=f"p{i}", known_hosts=None,
                    client_keys=None, agent_path=None, preferred_auth="none",
                )  # fmt: skip

            conns = await asyncio.gather(*(login(i) for i in range(60)))
            counts = sorted(len(w.conns) for w in server.workers)
            report(f"60 logins in a burst over two workers: {counts}")
            assert sum(counts) == 60 and max(counts) <= 40
            for c in conns:
                c.close()
            await until(lambda: all(not w.conns for w in server.workers), 20, "all closed")

    run(scenario(), timeout=60)


def test_the_gate_drops_like_openssh_maxstartups() -> None:
    """start:rate:full: nothing dropped below start, then a rising share, all at full; per
    address: at most so many logging in and so many in all; a closed one frees its place."""
    s = Startups.parse("10:30:60")
    assert (s.drop_chance(9), s.drop_chance(10), s.drop_chance(60)) == (0.0, 0.3, 1.0)
    assert s.drop_chance(35) == pytest.approx(0.65)
    assert Startups.parse("5") == Startups(5, 100, 5)
    with pytest.raises(ValueError, match="start:rate:full"):
        Startups.parse("1:2")
    gate = Gate(per_address=3, per_address_startups=2, startups=Startups(100, 30, 200))
    assert gate.accept("1.2.3.4 1") is None and gate.accept("1.2.3.4 2") is None
    assert gate.accept("1.2.3.4 3") == "too many logins in progress from 1.2.3.4"
    assert gate.accept("5.6.7.8 1") is None  # another address is not affected
    gate.logged_in("1.2.3.4 1")
    assert gate.accept("1.2.3.4 3") is None
    assert gate.accept("1.2.3.4 4") == "too many connections from 1.2.3.4"
    gate.closed("1.2.3.4 2")
    assert gate.accept("1.2.3.4 4") is None
    rng_gate = Gate(per_address=999, per_address_startups=999, startups=Startups(10, 30, 60))
    rng_gate.rng.seed(1)
    outcomes = [rng_gate.accept(f"9.9.9.9 {i}") for i in range(100)]
    assert all(o is None for o in outcomes[:10]) and len(rng_gate.pending) < 60
    sessions = Sessions(limit=3, per_user=2)
    assert sessions.admit("Anna", "w1") is None and sessions.admit("anna", "w2") is None
    assert "at most 2" in str(sessions.admit("ANNA", "w1"))
    assert sessions.admit("ben", "w1") is None
    assert sessions.admit("cleo", "w1") == "the server is full; try again later"
    sessions.drop("w1")
    assert sessions.count == 1 and sessions.admit("cleo") is None


def test_the_byte_budget_slows_then_ends_a_flood_but_never_a_person() -> None:
    budget = ByteBudget(rate=1000, burst=4000, patience=5)
    assert budget.take(4000, 0.0) == 0.0
    assert budget.take(1000, 0.0) == pytest.approx(1.0)  # slowed: a second's worth over
    assert not budget.exhausted(0.0, 1.0)
    t, ended = 1.0, False
    while t < 20 and not ended:  # keeps sending as fast as it is read
        wait = budget.take(1000, t)
        ended = budget.exhausted(t, wait)
        t += wait
    assert ended and 4 <= t <= 7
    person = ByteBudget(rate=1000, burst=4000, patience=5)
    for i in range(10_000):  # a key every 50 ms and a pasted chat line now and then
        assert person.take(300 if i % 200 == 0 else 3, i * 0.05) == 0.0


def test_refusals_are_logged_a_few_a_minute_and_the_rest_counted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The host's log names refused connections and logins, and stays readable under a
    flood: ten a minute, then a count of the others."""
    from imperial_tui.server.limits import RefusalLog

    now = [0.0]
    refusals = RefusalLog(per_minute=10, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="imperial.server"):
        for i in range(25):
            refusals.note(f"a connection from 10.0.0.{i}: too many connections")
        now[0] = 61.0
        refusals.note("a login as 'x' from 10.0.0.1: no key")
    said = [r.getMessage() for r in caplog.records]
    assert said[:10] == [
        f"refused: a connection from 10.0.0.{i}: too many connections" for i in range(10)
    ]
    assert said[10:] == [
        "refused 15 more connections or logins (not shown)",
        "refused: a login as 'x' from 10.0.0.1: no key",
    ]
