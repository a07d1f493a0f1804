"""Writes the table actors' records to the database in the background.

Tables only queue work here (``TableSink``); a single writer task flushes the
queue in batches from a worker thread, in order, so a slow database never
stalls a table and rows of one game keep their order. The record rows of every
table in a batch go to the database as ONE executemany (with hundreds of live
tables, one statement per table and step cost the server more than the game).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session

from server.db import games
from server.db.session import Database
from server.tables.sink import HandRow, RecordRow, SeatResult

log = logging.getLogger(__name__)

Op = Callable[[Session], None]


class Recorder:
    def __init__(self, db: Database, interval: float = 0.2) -> None:
        self.db = db
        self.interval = interval
        self.pending: list[Op] = []
        self.pending_rows: list[dict[str, Any]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.failures = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # When the oldest queued (not yet taken) and the batch being written were queued.
        self._queued_since: float | None = None
        self._writing_since: float | None = None
        # Told the seconds from a batch's first row being queued to its commit (metrics).
        self.on_written: Callable[[float], None] | None = None

    def write_lag(self) -> float:
        """Seconds the oldest row not yet in the database has waited (0 when all are in)."""
        since = [t for t in (self._writing_since, self._queued_since) if t is not None]
        return time.monotonic() - min(since) if since else 0.0

    # TableSink

    def record(self, game_id: int, rows: Sequence[RecordRow]) -> None:
        if not rows:
            return
        self.pending_rows.extend(games.record_values(game_id, rows))
        self._signal()

    def hand(self, game_id: int, hand: HandRow) -> None:
        self._push(lambda s: games.add_hand(s, game_id, hand))

    def finish(self, game_id: int, results: Sequence[SeatResult], status: str) -> None:
        results = list(results)
        self._push(lambda s: games.finish_game(s, game_id, results, status))

    # lifecycle

    def _push(self, op: Op) -> None:
        self.pending.append(op)
        self._signal()

    def _signal(self) -> None:
        """Work was queued: not idle any more, and the writer should wake."""
        if self._queued_since is None:
            self._queued_since = time.monotonic()
        self._idle.clear()
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="recorder")

    async def _run(self) -> None:
        while not self._closing or self.pending or self.pending_rows:
            if not self.pending and not self.pending_rows:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            rows, self.pending_rows = self.pending_rows, []
            batch, self.pending = self.pending, []
            self._writing_since, self._queued_since = self._queued_since, None
            try:
                await asyncio.to_thread(self._write, rows, batch)
                if self.on_written is not None and self._writing_since is not None:
                    self.on_written(time.monotonic() - self._writing_since)
            except Exception:
                self.failures += 1
                log.exception(
                    "recorder: a batch of %d rows and %d writes failed", len(rows), len(batch)
                )
            finally:
                self._writing_since = None
            # Collect more work for a moment: fewer, larger transactions.
            if not self._closing:
                await asyncio.sleep(self.interval)

    def _write(self, rows: list[dict[str, Any]], batch: list[Op]) -> None:
        def write_all(s: Session) -> None:
            # Rows first: a table queues a step's rows before the hand or finish they lead to.
            games.insert_record_values(s, rows)
            for op in batch:
                op(s)

        self.db.run(write_all)

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        while self.pending or self.pending_rows or not self._idle.is_set():
            await self._idle.wait()
            if self.pending or self.pending_rows:
                self._signal()

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task
