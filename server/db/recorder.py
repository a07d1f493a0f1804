"""Writes the table actors' records to the database in the background.

Tables only queue work here (``TableSink``); a single writer task flushes the
queue in batches from a worker thread, in order, so a slow database never
stalls a table and rows of one game keep their order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

from server.db import games
from server.db.session import Database
from server.tables.sink import HandRow, RecordRow, SeatResult

log = logging.getLogger(__name__)

Op = Callable[[Session], None]


class Recorder:
    def __init__(self, db: Database, interval: float = 0.05) -> None:
        self.db = db
        self.interval = interval
        self.pending: list[Op] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.failures = 0
        self._idle = asyncio.Event()
        self._idle.set()

    # TableSink

    def record(self, game_id: int, rows: Sequence[RecordRow]) -> None:
        rows = list(rows)
        self._push(lambda s: games.append_record(s, game_id, rows))

    def hand(self, game_id: int, hand: HandRow) -> None:
        self._push(lambda s: games.add_hand(s, game_id, hand))

    def finish(self, game_id: int, results: Sequence[SeatResult], status: str) -> None:
        results = list(results)
        self._push(lambda s: games.finish_game(s, game_id, results, status))

    # lifecycle

    def _push(self, op: Op) -> None:
        self.pending.append(op)
        self._idle.clear()
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="recorder")

    async def _run(self) -> None:
        while not self._closing or self.pending:
            if not self.pending:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, self.pending = self.pending, []
            try:
                await asyncio.to_thread(self._write, batch)
            except Exception:
                self.failures += 1
                log.exception("recorder: a batch of %d writes failed", len(batch))
            # Collect more work for a moment: fewer, larger transactions.
            if not self._closing:
                await asyncio.sleep(self.interval)

    def _write(self, batch: list[Op]) -> None:
        def write_all(s: Session) -> None:
            for op in batch:
                op(s)

        self.db.run(write_all)

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        while self.pending or not self._idle.is_set():
            await self._idle.wait()
            if self.pending:
                self._idle.clear()
                self._wake.set()

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task
