"""The recorder: many tables' steps per transaction, each step committed whole or not at all."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import func, select

from server.db.models import Game, GameEvent, Hand
from server.db.recorder import Recorder
from server.db.session import Database
from server.tables.sink import HandRow, RecordRow, SeatResult, SinkError, StepWrite


def _games(db: Database, n: int) -> list[int]:
    with db.session() as s:
        games = [Game(rules={}, seed="00", first_dealer=0, dice=[1, 1]) for _ in range(n)]
        s.add_all(games)
        s.flush()
        return [g.id for g in games]


def _step(version: int) -> StepWrite:
    return StepWrite(rows=[RecordRow(version, "event", "discard", {"tile": "1m"}, None)])


async def test_steps_of_many_tables_share_transactions(db_url: str) -> None:
    db = Database(db_url)
    rec = Recorder(db)
    rec.start()
    try:
        ids = _games(db, 20)

        # 20 tables, 10 steps each, every table waiting for its commit before its next.
        async def table(gid: int) -> None:
            for v in range(1, 11):
                await rec.write(gid, _step(v))

        await asyncio.gather(*(table(g) for g in ids))
        assert rec.steps == 200
        assert rec.commits < rec.steps / 2, (rec.commits, rec.steps)
        with db.session() as s:
            for gid in ids:
                versions = s.scalars(
                    select(GameEvent.version).where(GameEvent.game_id == gid).order_by(GameEvent.id)
                ).all()
                assert versions == list(range(1, 11))
    finally:
        await rec.close()
        db.dispose()


async def test_a_bad_step_fails_alone_and_whole(db_url: str) -> None:
    db = Database(db_url)
    rec = Recorder(db, retry_seconds=0.5)
    rec.start()
    try:
        good, bad = _games(db, 2)
        hand = HandRow(0, 0, 0, 0, "ryuukyoku", {}, [0, 0, 0, 0], [25000] * 4)
        # The same version twice in one game: refused by the database (0002).
        broken = StepWrite(
            rows=[
                RecordRow(1, "event", "discard", {}, None),
                RecordRow(1, "event", "discard", {}, None),
            ],
            hands=[hand],
        )
        ok = StepWrite(rows=[RecordRow(1, "event", "discard", {}, None)], hands=[hand])
        ok.finish = ([SeatResult(s, 25000, s + 1, 0.0) for s in range(4)], "finished")
        results = await asyncio.gather(
            rec.write(bad, broken), rec.write(good, ok), return_exceptions=True
        )
        assert isinstance(results[0], SinkError) and results[1] is None
        with db.session() as s:
            # Nothing of the bad step: not its rows, not its hand.
            for gid, rows, hands in ((bad, 0, 0), (good, 1, 1)):
                n = s.scalar(select(func.count()).where(GameEvent.game_id == gid))
                h = s.scalar(select(func.count()).select_from(Hand).where(Hand.game_id == gid))
                assert (n, h) == (rows, hands)
            finished = s.get(Game, good)
            assert finished is not None and finished.status == "finished"
    finally:
        await rec.close()
        db.dispose()


async def test_writes_after_close_fail(sqlite_url: str) -> None:
    from server.db import migrate

    migrate.upgrade(sqlite_url)
    db = Database(sqlite_url)
    rec = Recorder(db)
    rec.start()
    await rec.close()
    with pytest.raises(SinkError):
        await rec.write(1, _step(1))
    db.dispose()


async def test_a_second_writer_of_a_version_fails_loudly(db_url: str) -> None:
    """Two processes that both believe they own a game (migration 0003): the one that
    writes a version already written gets an error, and the record keeps the first."""
    db_a, db_b = Database(db_url), Database(db_url)
    a = Recorder(db_a, retry_seconds=0.2)
    b = Recorder(db_b, retry_seconds=0.2)
    a.start()
    b.start()
    try:
        (gid,) = _games(db_a, 1)
        await a.write(gid, _step(1))
        await a.write(gid, _step(2))
        await b.write(gid, StepWrite(rows=[RecordRow(3, "event", "tsumo", {}, None)]))
        step = StepWrite(rows=[RecordRow(2, "event", "dahai", {"tile": "9m"}, None)])
        with pytest.raises(SinkError):
            await b.write(gid, step)
        assert b.failures == 1
        with db_a.session() as s:
            rows = s.execute(
                select(GameEvent.version, GameEvent.type)
                .where(GameEvent.game_id == gid)
                .order_by(GameEvent.id)
            ).all()
        assert [tuple(r) for r in rows] == [(1, "discard"), (2, "discard"), (3, "tsumo")]
    finally:
        await a.close()
        await b.close()
        db_a.dispose()
        db_b.dispose()


async def test_a_transient_failure_is_retried_until_committed(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database going away for a moment: the step waits and is committed once it
    is back,"""
    from sqlalchemy.exc import OperationalError

    from server.db import migrate

    migrate.upgrade(sqlite_url)
    db = Database(sqlite_url)
    rec = Recorder(db, retry_seconds=5.0)
    real = rec._write
    failures = [2]

    def flaky(group: list) -> None:  # type: ignore[type-arg]
        if failures[0]:
            failures[0] -= 1
            raise OperationalError("INSERT", {}, Exception("the database is restarting"))
        real(group)

    monkeypatch.setattr(rec, "_write", flaky)
    rec.start()
    try:
        (gid,) = _games(db, 1)
        await rec.write(gid, _step(1))
        assert failures == [0] and rec.failures == 0 and rec.steps == 1
        with db.session() as s:
            assert s.scalar(select(func.count()).where(GameEvent.game_id == gid)) == 1
    finally:
        await rec.close()
        db.dispose()


async def test_a_lock_held_by_another_process_does_not_stall_the_loop(sqlite_url: str) -> None:
    """Another writer holding SQLite's lock: the step waits in the writer thread while
    the loop goes on, and is committed once the lock is let go."""
    import sqlite3

    from server.db import migrate

    migrate.upgrade(sqlite_url)
    db = Database(sqlite_url)
    rec = Recorder(db)
    rec.start()
    other = sqlite3.connect(sqlite_url.split(":///", 1)[1], isolation_level=None)
    try:
        (gid,) = _games(db, 1)
        other.execute("BEGIN IMMEDIATE")  # the write lock, as another process would hold it
        pending = asyncio.ensure_future(rec.write(gid, _step(1)))
        started = time.monotonic()
        for _ in range(20):
            await asyncio.sleep(0.01)
        # 20 turns of the loop well within the busy timeout (30 s) the thread waits for.
        assert time.monotonic() - started < 5.0
        assert not pending.done()
        other.execute("COMMIT")
        await asyncio.wait_for(pending, 30)
        with db.session() as s:
            assert s.scalar(select(func.count()).where(GameEvent.game_id == gid)) == 1
    finally:
        other.close()
        await rec.close()
        db.dispose()
