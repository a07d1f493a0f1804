"""Alembic upgrade/downgrade from code (``jantaku serve``, ``jantaku db``, tests)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from server.paths import project_root
from server.settings import normalize_db_url


def alembic_config(url: str) -> Config:
    root = project_root()
    cfg = Config(str(root / "alembic.ini"))
    cfg.set_main_option("script_location", str(root / "migrations"))
    # ConfigParser interpolation treats % specially (URL-encoded passwords).
    cfg.set_main_option("sqlalchemy.url", normalize_db_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import create_engine

    engine = create_engine(normalize_db_url(url))
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()
