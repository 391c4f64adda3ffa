"""The server's garbage collection: the oldest generation on a clock, not by allocations
(a full collection with many apps stops every connection for most of a second)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from imperial_tui.server.collector import NEVER, Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_the_oldest_generation_is_collected_on_a_clock_and_restored_after() -> None:
    before = gc.get_threshold()

    async def scenario() -> None:
        collector = Collector(every=0.05)
        collector.start()
        try:
            assert gc.get_threshold()[2] == NEVER  # no automatic full collection
            assert gc.get_threshold()[:2] == before[:2]  # the young ones as usual
            node = Node()
            gone = weakref.ref(node)
            gc.collect(0)  # it survives the young generations' collections...
            gc.collect(1)
            del node
            for _ in range(100):  # ...and the clock's full collection frees it
                if gone() is None:
                    break
                await asyncio.sleep(0.02)
            assert gone() is None
            assert collector.collections >= 1
            second = Collector(every=0.05)
            second.start()  # a second server in the same process leaves it alone
            assert not second.running
        finally:
            collector.stop()
        assert gc.get_threshold() == before

    asyncio.run(scenario())


def test_every_zero_leaves_pythons_collector_alone() -> None:
    before = gc.get_threshold()

    async def scenario() -> None:
        collector = Collector(every=0)
        collector.start()
        assert not collector.running and gc.get_threshold() == before
        collector.stop()

    asyncio.run(scenario())
