"""Commits the table actors' steps to the database, many tables' steps per transaction.

A table queues each step here (``TableSink.write``) and sends nothing about it
until the step is committed. One writer task takes every step queued so far and
commits them in ONE transaction from a worker thread (group commit): while a
transaction runs, the next group gathers, so under load a commit serves many
tables and the number of transactions stays far below the number of steps. The
record rows of a group go to the database in one multi-row INSERT (with hundreds of
live tables, one statement per table and step cost the server more than the game).

A transient failure (the database restarting, a lock held too long) is retried
with backoff for ``retry_seconds``; meanwhile the tables wait, and their players
see nothing they could lose. A group that fails for any other reason is split, so
that one bad step fails only its own table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import Session

from server.db import games
from server.db.session import Database
from server.tables.sink import SinkError, StepWrite

log = logging.getLogger(__name__)

_Pending = tuple[int, StepWrite, "asyncio.Future[None]"]


def _transient(exc: BaseException) -> bool:
    """A failure that running the same transaction again may not meet."""
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)


class Recorder:
    def __init__(self, db: Database, retry_seconds: float = 30.0) -> None:
        self.db = db
        self.retry_seconds = retry_seconds
        self.pending: list[_Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.failures = 0
        # Figures for the health check and the benchmarks.
        self.commits = 0
        self.steps = 0
        # When the oldest queued (not yet taken) and the group being written were queued.
        self._queued_since: float | None = None
        self._writing_since: float | None = None
        # Told the seconds from a group's first step being queued to its commit (metrics).
        self.on_written: Callable[[float], None] | None = None

    def write_lag(self) -> float:
        """Seconds the oldest step not yet in the database has waited (0 when all are in)."""
        since = [t for t in (self._writing_since, self._queued_since) if t is not None]
        return time.monotonic() - min(since) if since else 0.0

    # TableSink

    def write(self, game_id: int, step: StepWrite) -> Awaitable[None]:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._closing and self._task is None:
            fut.set_exception(SinkError("the recorder is closed"))
            return fut
        self.pending.append((game_id, step, fut))
        if self._queued_since is None:
            self._queued_since = time.monotonic()
        self._wake.set()
        return fut

    # lifecycle

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="recorder")

    async def _run(self) -> None:
        while not self._closing or self.pending:
            if not self.pending:
                self._wake.clear()
                await self._wake.wait()
                continue
            group, self.pending = self.pending, []
            self._writing_since, self._queued_since = self._queued_since, None
            try:
                await self._commit(group)
            finally:
                self._writing_since = None

    async def _commit(self, group: list[_Pending]) -> None:
        deadline = time.monotonic() + self.retry_seconds
        delay = 0.05
        while True:
            try:
                await asyncio.to_thread(self._write, group)
            except Exception as exc:
                if len(group) > 1 and not _transient(exc):
                    # One bad step must not fail the other tables of its group.
                    for one in group:
                        await self._commit([one])
                    return
                if not _transient(exc) or time.monotonic() + delay > deadline:
                    self.failures += 1
                    log.error(
                        "recorder: %d step(s) of game(s) %s not committed: %r",
                        len(group),
                        sorted({g for g, _, _ in group}),
                        exc,
                    )
                    for _, _, fut in group:
                        if not fut.done():
                            fut.set_exception(SinkError(repr(exc)))
                    return
                log.warning("recorder: commit failed (%r); retrying in %.2f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            self.commits += 1
            self.steps += len(group)
            if self.on_written is not None and self._writing_since is not None:
                self.on_written(time.monotonic() - self._writing_since)
            for _, _, fut in group:
                if not fut.done():
                    fut.set_result(None)
            return

    def _write(self, group: list[_Pending]) -> None:
        params = [p for game_id, step, _ in group for p in games.record_params(game_id, step.rows)]
        if not any(step.hands or step.finish for _, step, _ in group):
            # Most groups: record rows only, on a bare connection.
            self.db.run_core(lambda conn: games.insert_record_rows(conn, params))
            return

        def write_all(s: Session) -> None:
            games.insert_record_rows(s.connection(), params)
            for game_id, step, _ in group:
                for hand in step.hands:
                    games.add_hand(s, game_id, hand)
                if step.finish is not None:
                    results, status = step.finish
                    games.finish_game(s, game_id, results, status)

        self.db.run(write_all)

    async def close(self) -> None:
        """Commit what is queued, then stop; later writes fail."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task
            self._task = None
