"""Alembic migrations: empty -> head -> empty on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect

from server.db import migrate
from server.db.models import Base

TABLES = {"players", "lobbies", "lobby_seats", "games", "game_seats", "hands", "game_events"}


def _tables(url: str) -> set[str]:
    engine = create_engine(migrate.normalize_db_url(url))
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _check_roundtrip(url: str) -> None:
    assert _tables(url) == set()
    migrate.upgrade(url)
    assert migrate.current(url) is not None
    assert _tables(url) == TABLES == set(Base.metadata.tables)
    migrate.downgrade(url)
    assert migrate.current(url) is None
    assert _tables(url) == set()
    # And back up again: the downgrade left nothing behind that blocks a fresh upgrade.
    migrate.upgrade(url)
    assert _tables(url) == TABLES


def test_migrations_up_and_down_sqlite(sqlite_url: str) -> None:
    _check_roundtrip(sqlite_url)


@pytest.mark.postgres
def test_migrations_up_and_down_postgres(pg_url: str) -> None:
    _check_roundtrip(pg_url)


def test_models_match_migrations(sqlite_url: str) -> None:
    """Every column of the models exists after migrating (no forgotten revision)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    migrate.upgrade(sqlite_url)
    engine = create_engine(sqlite_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []
