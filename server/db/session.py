"""Database engines and sessions (SQLAlchemy 2, synchronous; called from threads)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from server.settings import normalize_db_url

T = TypeVar("T")


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and a busy timeout for concurrent writers."""
    url = normalize_db_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_pre_ping=True,
            json_serializer=json_dumps,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # We issue BEGIN ourselves (below), so the driver must not.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # FULL: a commit is on disk before the table tells anyone of the step
            # (NORMAL, in WAL mode, survives a killed process but not a power cut).
            # The recorder commits many tables' steps at once, so this costs little.
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin_immediate(conn: Any) -> None:
            # A deferred transaction that reads and then writes fails at once with
            # "database is locked" when another writer got in between (the busy
            # timeout does not apply to that upgrade); taking the write lock at
            # BEGIN makes concurrent writers wait their turn instead.
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(
        url, pool_pre_ping=True, pool_size=10, max_overflow=10, json_serializer=json_dumps
    )


def json_dumps(obj: Any) -> str:
    """What the JSON columns store. They hold every event of every game: orjson encodes
    them several times faster than the standard library (same JSON, without the
    optional spaces)."""
    return orjson.dumps(obj).decode()


class Database:
    """An engine plus a session factory."""

    def __init__(self, url: str) -> None:
        self.url = normalize_db_url(url)
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on error."""
        with self.sessions() as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise

    def run(self, fn: Callable[[Session], T]) -> T:
        """``fn`` in one transaction; retried when SQLite stays locked past its timeout."""
        for attempt in range(3):
            try:
                with self.session() as s:
                    return fn(s)
            except OperationalError as exc:
                # Seen under heavy concurrent load despite BEGIN IMMEDIATE and the busy
                # timeout; the transaction was rolled back, so running it again is safe.
                if "database is locked" not in str(exc) or attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def run_core(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` on a bare connection in one transaction (no ORM session: less Python
        for the recorder's hot path), retried like ``run``."""
        for attempt in range(3):
            try:
                with self.engine.begin() as conn:
                    return fn(conn)
            except OperationalError as exc:
                if "database is locked" not in str(exc) or attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def dispose(self) -> None:
        self.engine.dispose()
