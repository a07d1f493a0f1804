"""Alembic migrations: empty -> head -> empty on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect

from server.db import migrate
from server.db.models import Base

TABLES = {
    "players",
    "lobbies",
    "lobby_seats",
    "games",
    "game_seats",
    "hands",
    "game_events",
    "account_sessions",
    "remote_bots",
    "player_game_stats",
    "ratings",
}


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


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_0002_takes_import_digests_again_over_the_play(
    db: str, request: pytest.FixtureRequest
) -> None:
    """An import stored with the old digest, over events of the old format (a public
    tsumo_turn beside each draw), is recognised again after the upgrade."""
    from pathlib import Path

    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from server.db.imported import IMPORT_KIND, find_import, store_imported
    from server.db.models import GameEvent
    from server.records.importer import import_log

    url: str = request.getfixturevalue("sqlite_url" if db == "sqlite" else "pg_url")
    log = Path(__file__).parents[1] / "fixtures" / "mjai-reviewer" / "double_ron.json"
    game = import_log(log.read_bytes(), log.name)
    migrate.upgrade(url, "0001")
    engine = create_engine(migrate.normalize_db_url(url))
    try:
        with Session(engine) as s:
            gid = store_imported(s, game, None)
            # as version 0001 stored it: a tsumo_turn after every draw, the old digest
            rows = s.query(GameEvent).filter_by(game_id=gid, kind="event").all()
            shift = 0
            for row in sorted(rows, key=lambda r: r.version):
                row.version += shift
                if row.type == "draw":
                    shift += 1
                    public = {k: row.data[k] for k in ("seat", "rinshan", "wall_left")}
                    s.add(
                        GameEvent(
                            game_id=gid,
                            version=row.version + 1,
                            kind="event",
                            type="tsumo_turn",
                            data={"type": "tsumo_turn", **public},
                            seats=None,
                        )
                    )
            s.execute(
                update(GameEvent)
                .where(GameEvent.game_id == gid, GameEvent.kind == IMPORT_KIND)
                .values(data={"format": "tenhou6", "digest": "taken over every field"})
            )
            s.commit()
            assert find_import(s, game.digest) is None
        migrate.upgrade(url)
        with Session(engine) as s:
            assert find_import(s, game.digest) == gid
    finally:
        engine.dispose()


def _check_event_versions_unique(url: str) -> None:
    from sqlalchemy.exc import IntegrityError

    from server.db.models import Game, GameEvent
    from server.db.session import Database

    migrate.upgrade(url)
    db = Database(url)
    try:
        with db.session() as s:
            g = Game(rules={}, seed="00", first_dealer=0, dice=[1, 1])
            s.add(g)
            s.flush()
            gid = g.id
            s.add_all(
                [
                    GameEvent(game_id=gid, version=1, kind="event", type="a", data={}),
                    # an action carries the version it was applied at: shared, allowed
                    GameEvent(game_id=gid, version=1, kind="action", type="b", data={}),
                    GameEvent(game_id=gid, version=2, kind="event", type="c", data={}),
                ]
            )
        with pytest.raises(IntegrityError), db.session() as s:
            s.add(GameEvent(game_id=gid, version=2, kind="event", type="d", data={}))
    finally:
        db.dispose()
    # 0003 goes down to 0002 and up again.
    migrate.downgrade(url, "0002")
    assert migrate.current(url) == "0002"
    migrate.upgrade(url, "0003")
    assert migrate.current(url) == "0003"


def test_event_versions_are_unique_per_game_sqlite(sqlite_url: str) -> None:
    _check_event_versions_unique(sqlite_url)


@pytest.mark.postgres
def test_event_versions_are_unique_per_game_postgres(pg_url: str) -> None:
    _check_event_versions_unique(pg_url)
