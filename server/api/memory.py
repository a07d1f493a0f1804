"""Keeping the garbage collector's pauses short in a long-running server process.

Every live table keeps growing state (the action log, rivers, melds) that lives
for the whole game. CPython's collector scans every tracked object of a
generation it collects, so as those objects age into the older generations
each older pass takes longer: with hundreds of tables, pauses of tens to
hundreds of milliseconds, felt by every table at once.

``freeze_survivors`` collects the young generations ten times a second (short:
only what was allocated since its last run; a pass once a second took 40-50 ms
under load) and then ``gc.freeze()``s what survived, which
takes it out of every later pass; the frozen objects are still freed by
reference counting as usual. What freezing can keep alive is cyclic garbage
that formed after an object was frozen, so whenever no game is being played
the frozen objects are given back to the collector for one full pass.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def young_pass() -> None:
    """Collect generations 0 and 1, then freeze the survivors."""
    gc.collect(1)
    gc.freeze()


def full_pass() -> float:
    """Unfreeze and collect everything (a long pause: only when no game is live)."""
    t = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - t


async def freeze_survivors(
    interval: float, idle: Callable[[], bool], full_every: float = 300.0
) -> None:
    """Run ``young_pass`` every ``interval`` seconds, and ``full_pass`` at most every
    ``full_every`` seconds while ``idle()`` (no live game) holds."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(interval)
        young_pass()
        # Time first: ``idle()`` looks at every table, and this runs ten times a second.
        if time.monotonic() - last_full >= full_every and idle():
            took = full_pass()
            last_full = time.monotonic()
            log.info("idle full collection: %.0f ms", took * 1000)
