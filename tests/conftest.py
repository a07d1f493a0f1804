"""Shared fixtures: test databases (SQLite file, and PostgreSQL in its own schema)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _pg_base_url() -> str:
    from server.settings import normalize_db_url

    return normalize_db_url(os.environ.get("DATABASE_URL_TEST", PG_DEFAULT))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'jantaku-test.db'}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards.

    Skips when PostgreSQL is unreachable, except under CI=true, where it fails.
    """
    from sqlalchemy import create_engine, text

    base = _pg_base_url()
    engine = create_engine(base)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        engine.dispose()
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI=true but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {type(exc).__name__}")
    schema = f"t_{secrets.token_hex(6)}"
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each database the server supports, migrated to head."""
    from server.db import migrate

    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    url: str = request.getfixturevalue(name)
    migrate.upgrade(url)
    return url
