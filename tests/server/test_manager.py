"""The table registry: a finished table is dropped after its linger time, leaving nothing behind."""

from __future__ import annotations

import asyncio

from server.engine.riichi.rules import preset
from server.engine.riichi.variant import RIICHI
from server.tables.manager import TableManager
from server.tables.options import TableOptions
from server.tables.sink import NullSink
from server.tables.table import SeatSpec, TableConfig

STANDARD = preset("standard")


async def test_finished_table_and_its_timer_are_dropped_after_the_linger_time() -> None:
    config = TableConfig(round_end_pause=0.0, bot_delay=0.0)
    mgr = TableManager(config, NullSink(), linger_seconds=1.0)
    ended: list[int] = []
    mgr.on_game_end = ended.append
    bots = [SeatSpec(f"bot{s}", bot="efficient") for s in range(4)]
    tables = [
        mgr.start_table(
            g, RIICHI, preset("standard"), TableOptions(), f"reap-{g}".encode(), 0, bots
        )
        for g in (1, 2)
    ]
    async with asyncio.timeout(60):
        while not ended:
            await asyncio.sleep(0.01)
    # Over, but still there for late readers until the linger time has passed.
    first = mgr.get(ended[0])
    assert first is not None and first.finished
    assert ended[0] in mgr._reapers
    assert first.task is not None and not first.task.done()
    async with asyncio.timeout(60):
        while len(ended) < 2:
            await asyncio.sleep(0.01)
    assert sorted(ended) == [1, 2]
    async with asyncio.timeout(10):
        while mgr.stats()["tables"]:
            await asyncio.sleep(0.02)
        # The actors stop, and no timer handle of a reaped table is kept.
        await asyncio.gather(*(t.task for t in tables if t.task is not None))
    assert mgr.get(1) is None and mgr.get(2) is None
    assert mgr._reapers == {}
    await mgr.shutdown()
